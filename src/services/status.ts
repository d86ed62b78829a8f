// Index state as counts only (never paths), shared by /health, stats() and get_index_status().
import type { ServerDeps } from '../mcp/deps.js';

export interface IndexStatus {
  name: string; // "metadata", "keyword", "semantic"…
  state: 'ready' | 'building' | 'loading' | 'unavailable' | 'disabled';
  indexed: number;
  pending: number;
  skipped?: number;
  detail?: string;
}

export interface IndexStatusProvider {
  status(): IndexStatus;
}

export function indexStatuses(deps: ServerDeps): IndexStatus[] {
  const host = deps.host;
  const notes = host.files().filter((f) => f.path.toLowerCase().endsWith('.md')).length;
  const pending = host.pendingCount();
  const meta: IndexStatus = { name: 'metadata', state: pending > 0 ? 'building' : 'ready', indexed: Math.max(0, notes - pending), pending };
  const providers = (deps.services.indexes as IndexStatusProvider[] | undefined) ?? [];
  return [meta, ...providers.map((p) => p.status())];
}
