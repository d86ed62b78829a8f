// Outside saves are visible to the next call: before a tool runs, every path it was given (path,
// from_path, to_path, from_dir, to_dir, folder, paths) is checked against the disk by the host
// (VaultHost.sync), so a note another editor or a sync client saved a moment ago is found, and a
// re-saved one is not answered from a stale entry, even before the file watcher reports it. Indexes
// catch up through the host's events as usual. Cheap: one stat per path when nothing changed.
import type { Feature } from '../feature.js';
import type { VaultHost } from '../host/port.js';
import type { ScopedVault } from '../services/scopedVault.js';
import { isNotePath, normalizeFilePath, normalizeFolderPath } from '../core/paths.js';

const FILE_ARGS = ['path', 'from_path', 'to_path'];
const FOLDER_ARGS = ['folder', 'from_dir', 'to_dir'];
/** More paths than this in one call are left to the watcher (a batch tool, not a lookup). */
const MAX_PATHS = 32;

/** The vault paths a call names, as the tools will resolve them (a note path may omit `.md`). */
export function pathsOf(args: Record<string, unknown>): string[] {
  const out = new Set<string>();
  const file = (v: unknown) => {
    if (typeof v !== 'string') return;
    try {
      const p = normalizeFilePath(v);
      out.add(p);
      if (!isNotePath(p)) out.add(`${p}.md`);
    } catch { /* an invalid path is refused by the tool itself */ }
  };
  for (const k of FILE_ARGS) file(args[k]);
  if (Array.isArray(args.paths)) for (const v of args.paths.slice(0, MAX_PATHS)) file(v);
  for (const k of FOLDER_ARGS) {
    const v = args[k];
    if (typeof v !== 'string') continue;
    try { const f = normalizeFolderPath(v); if (f) out.add(f); } catch { /* refused by the tool */ }
  }
  return [...out].slice(0, MAX_PATHS);
}

/** Brings the named paths the caller may see in line with the disk. */
export async function syncArgs(host: VaultHost, vault: ScopedVault, args: Record<string, unknown>): Promise<void> {
  if (!host.sync) return;
  const paths = pathsOf(args).filter((p) => vault.visible(p));
  await Promise.all(paths.map((p) => host.sync!(p).catch(() => undefined)));
}

export const freshnessFeature: Feature = {
  name: 'freshness',
  async setup(deps) {
    if (!deps.host.sync) return;
    deps.middleware.push({ before: (call) => syncArgs(deps.host, call.ctx.vault, call.args) });
  },
};
