// A tool is one value: schema, annotations and handler together. The dispatcher (server.ts) is the
// only place that validates arguments, checks permissions, runs middleware and shapes results.
import type { z } from 'zod';
import type { ServerDeps } from './deps.js';
import type { ScopedVault } from '../services/scopedVault.js';

/** Tool families a key can have switched off (issue 7); 'write' is also hidden from read-scope keys. */
export type Family = 'read' | 'search' | 'write' | 'graph' | 'files' | 'admin' | 'llm' | 'transfer' | 'git';
/** Every tool family, in the order the settings tab and the CLI show them. */
export const FAMILIES: readonly Family[] = ['read', 'search', 'write', 'graph', 'files', 'admin', 'llm', 'transfer', 'git'];

export interface Caller {
  keyId: string;
  keyName: string;
  scope: 'read' | 'readwrite';
  /** Folder the key is confined to; '' = the whole vault. */
  root: string;
  disabledFamilies: Family[];
}

export interface ToolContext {
  deps: ServerDeps;
  caller: Caller;
  /** The vault as this caller may see it (root-confined, NFC paths). */
  vault: ScopedVault;
  signal: AbortSignal;
}

export interface Annotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export type ExtraContent =
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'text'; text: string };

export interface ToolResult<O> {
  structured: O;
  /** Readable copy for clients that ignore structuredContent; defaults to the JSON. */
  text?: string;
  extra?: ExtraContent[];
  meta?: Record<string, unknown>;
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
  handler: (args: z.infer<I>, ctx: ToolContext) => Promise<ToolResult<z.infer<O>>>;
}

export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(def: ToolDef<I, O>): ToolDef<I, O> {
  return def;
}

/** Write tools: anything not read-only needs the readwrite scope and is hidden in read-only mode. */
export function isWriteTool(def: ToolDef): boolean {
  return !def.annotations.readOnlyHint;
}

export const READ_ONLY: Annotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
