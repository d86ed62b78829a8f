// Every index's state for /health, stats(): the metadata index first, then the
// providers features registered (deps.services.indexes), as counts only (never paths).
import type { ServerDeps } from '../mcp/tool.js';
import type { ScopedVault } from './scopedVault.js';
import type { IndexStatus } from './status.js';

/** A vault-wide status told to a root-confined key: state and reason, counts over its own notes only. */
function scopedStatus(st: IndexStatus, notes: number): IndexStatus {
  const ready = st.state === 'ready';
  const detail = st.detail && !/[/\\]|\.md\b/i.test(st.detail) ? st.detail : undefined;
  return { name: st.name, state: st.state, indexed: ready ? notes : 0, pending: ready ? 0 : notes, ...(detail ? { detail } : {}) };
}

/** With a root-confined `vault`, counts cover only what that caller can see (nothing about the rest). */
export function indexStatuses(deps: ServerDeps, vault?: ScopedVault): IndexStatus[] {
  if (vault && vault.root !== '') {
    const notes = vault.notes().length;
    const all = indexStatuses(deps);
    const providers = deps.services.indexes ?? [];
    return all.map((st, i) => {
      const p = i === 0 ? undefined : providers[i - 1];
      return p?.statusWithin ? p.statusWithin((x) => vault.visible(x)) : scopedStatus(st, notes);
    });
  }
  const host = deps.host;
  const notes = host.noteCount?.() ?? host.files().filter((f) => f.path.toLowerCase().endsWith('.md')).length;
  const pending = host.pendingCount();
  const meta: IndexStatus = { name: 'metadata', state: pending > 0 ? 'building' : 'ready', indexed: Math.max(0, notes - pending), pending };
  const providers = deps.services.indexes ?? [];
  return [meta, ...providers.map((p) => p.status())];
}
