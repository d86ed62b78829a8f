// Narrow dependencies handed to buildServer: the host, settings, and the services each tool family needs.
// Services other issues add (search, graph, jobs…) hang off here as optional fields.
import type { VaultHost } from '../host/port.js';
import type { Settings } from '../core/settings.js';
import type { ToolDef, ToolContext } from './tool.js';

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

export interface ServerDeps {
  host: VaultHost;
  settings: () => Settings;
  version: string;
  now: () => number;
  middleware: ToolMiddleware[];
  /** Extra services; each tool family checks for what it needs. */
  services: Record<string, unknown>;
}
