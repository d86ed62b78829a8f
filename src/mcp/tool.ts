// A tool is one value: schema, annotations and handler together. The dispatcher (server.ts) is the
// only place that validates arguments, checks permissions, runs middleware and shapes results.
import type { z } from 'zod';
import type { VaultHost } from '../host/port.js';
import type { Settings } from '../core/settings.js';
import type { ScopedVault } from '../services/scopedVault.js';
import type { Services } from './services.js';
import type { Annotations, Caller, Family, ProgressSink, ToolResult } from './contract.js';

export { FAMILIES, READ_ONLY } from './contract.js';
export type { Annotations, Caller, ExtraContent, Family, ProgressSink, ToolResult } from './contract.js';

/** What every tool, feature and middleware gets: the host, settings and the typed service registry. */
export interface ServerDeps {
  host: VaultHost;
  settings: () => Settings;
  version: string;
  now: () => number;
  middleware: ToolMiddleware[];
  /** Services the host and the features provide (src/mcp/services.ts); optional ones may be absent. */
  services: Services;
}

export interface ToolContext {
  deps: ServerDeps;
  caller: Caller;
  /** The vault as this caller may see it (root-confined, NFC paths). */
  vault: ScopedVault;
  signal: AbortSignal;
  /** The tools this caller may use right now (for reports such as stats' capabilities). */
  tools: () => ToolDef[];
  /** Present when the client passed a progress token: long calls (runAsJob) report through it. */
  progress?: ProgressSink;
}

export interface ToolCall {
  tool: ToolDef;
  args: Record<string, unknown>;
  ctx: ToolContext;
}

/** One mechanism every call passes through (limits, audit): `before` may throw a Refusal. */
export interface ToolMiddleware {
  before?(call: ToolCall): Promise<void> | void;
  after?(call: ToolCall, outcome: { ok: boolean; code?: string; ms: number; bytes: number }): void;
}


export interface ToolDef<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  family: Family;
  description: string | ((deps: ServerDeps) => string);
  input: I;
  output: O;
  annotations: Annotations;
  /** When present and false (or a string reason), the tool is not listed at all. */
  available?: (deps: ServerDeps) => boolean;
  /** When `available` says no: what is missing and where to set it up (said to a caller who asks for the tool). */
  unavailableHint?: string;
  handler: (args: z.infer<I>, ctx: ToolContext) => Promise<ToolResult<z.infer<O>>>;
}

export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(def: ToolDef<I, O>): ToolDef<I, O> {
  return def;
}

/**
 * Write tools: anything not read-only needs the readwrite scope and is hidden in read-only mode. Admin
 * tools (reindex, build_embeddings) change the server's indexes, never the vault: not read-only by
 * their hints, yet not writes for this rule.
 */
export function isWriteTool(def: ToolDef): boolean {
  return !def.annotations.readOnlyHint && def.family !== 'admin';
}


