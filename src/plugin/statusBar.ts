// The status-bar text, from the server state and index statuses. Pure, so it is unit-tested.
import type { IndexStatus } from '../services/status.js';

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

export function statusText(state: ServerState, statuses: IndexStatus[] = []): string {
  switch (state.kind) {
    case 'off': return 'MCP: off';
    case 'starting': return 'MCP: starting…';
    case 'port-busy': return `MCP: port ${state.port} busy`;
    case 'locked': return 'MCP: served by CLI';
    case 'error': return 'MCP: error';
    case 'on': {
      const n = pendingWork(statuses);
      return `MCP: on :${state.port}${n > 0 ? ` · indexing ${n}` : ''}`;
    }
  }
}

/** Tooltip with the detail the short text leaves out. */
export function statusTooltip(state: ServerState): string {
  switch (state.kind) {
    case 'off': return 'Vault MCP Server is stopped. Run "Vault MCP Server: Start server" or turn it on in the settings.';
    case 'starting': return 'Vault MCP Server is starting.';
    case 'on': return `Vault MCP Server listening on port ${state.port}.`;
    case 'port-busy': return `Port ${state.port} is in use by another program. Change the port in the Vault MCP Server settings.`;
    case 'locked': case 'error': return state.message;
  }
}
