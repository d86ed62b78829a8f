// The status-bar text, from the server state and index statuses. Pure, so it is unit-tested.
import type { IndexStatus } from '../services/status.js';
import type { SaveProblem } from '../host/storageHealth.js';
import { saveProblemLines } from '../services/saveReport.js';

export type ServerState =
  | { kind: 'off' }
  | { kind: 'starting' }
  | { kind: 'on'; port: number }
  | { kind: 'port-busy'; port: number }
  | { kind: 'locked'; message: string }
  | { kind: 'error'; message: string };

/** Notes still waiting for an index that is building or loading (summed over indexes). */
export function pendingWork(statuses: IndexStatus[]): number {
  return statuses.filter((s) => s.state === 'building' || s.state === 'loading').reduce((n, s) => n + s.pending, 0);
}

export function statusText(state: ServerState, statuses: IndexStatus[] = [], saves: SaveProblem[] = []): string {
  // A background save the disk refused (full, unwritable): the server stays up, says so, and retries.
  if (state.kind === 'on' && saves.length) return `MCP: on :${state.port} · saves failing`;
  switch (state.kind) {
    case 'off': return 'MCP: off';
    case 'starting': return 'MCP: starting…';
    case 'port-busy': return `MCP: port ${state.port} busy`;
    case 'locked': return 'MCP: served by CLI';
    case 'error': return 'MCP: error';
    case 'on': {
      const n = pendingWork(statuses);
      if (n <= 0) return `MCP: on :${state.port}`;
      // Progress of the indexes still working: notes indexed of indexed + pending.
      const busy = statuses.filter((s) => s.state === 'building' || s.state === 'loading');
      const done = busy.reduce((k, s) => k + s.indexed, 0);
      // "indexing 2400/6571": notes done of all; "indexing 12 notes" before the first is done.
      return `MCP: on :${state.port} · indexing ${done > 0 ? `${done}/${done + n}` : `${n} note${n === 1 ? '' : 's'}`}`;
    }
  }
}

/** One line per index, as stats reports it: "keyword: building, 300 indexed, 12 pending". */
export function indexLines(statuses: IndexStatus[]): string[] {
  return statuses.map((s) => `${s.name}: ${s.state}, ${s.indexed} indexed, ${s.pending} pending${s.skipped ? `, ${s.skipped} skipped` : ''}${s.detail ? ` (${s.detail})` : ''}`);
}

/** Tooltip with the detail the short text leaves out (per-index progress when statuses are given). */
export function statusTooltip(state: ServerState, statuses: IndexStatus[] = [], saves: SaveProblem[] = []): string {
  switch (state.kind) {
    case 'off': return 'Vault MCP Server is stopped. Run "Vault MCP Server: Start server" or turn it on in the settings.';
    case 'starting': return 'Vault MCP Server is starting.';
    case 'on': return [`Vault MCP Server listening on port ${state.port}.`, ...saveProblemLines(saves), ...indexLines(statuses)].join('\n');
    case 'port-busy': return `Port ${state.port} is in use by another program. Change the port in the Vault MCP Server settings.`;
    case 'locked': case 'error': return state.message;
  }
}
