// Replaces src/mcp/server.ts in the render bundle (the MCP SDK, every tool and service stay in Node): the
// settings tab measures each key's tools/list with permittedTools + toolListing, so these answer with
// the entries the real server listed for that key (UiSnapshot.tools).
import type { KeyRecord } from '../../../../src/core/keys.js';

type DepsWithTools = { __tools?: Record<string, unknown[]> };
// A key made in the page (no root, no family off) gets what the server lists for a fresh key of its scope.
export const permittedTools = (deps: DepsWithTools, caller: { keyName: string; scope: string }): unknown[] => deps.__tools?.[caller.keyName] ?? deps.__tools?.[`scope:${caller.scope}`] ?? [];
export const toolListing = (t: unknown): unknown => t;
/** Replaces callerFor from src/http/app.ts (express stays in Node). */
export const callerFor = (rec: KeyRecord): { keyName: string; scope: string } => ({ keyName: rec.name, scope: rec.scope });
