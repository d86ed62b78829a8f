// Bytes that arrive from outside a tool call (an upload link, an import from a URL) land in the vault
// through the same safe write path as write_file: root confinement, no-clobber unless overwrite, the
// expected_hash rules, the size cap (maxWriteBytes), the host writer (atomic
// temp + fsync + no-clobber publish headless; the app's API in Obsidian, so it is indexed) and
// change-feed attribution to the key.
import type { ServerDeps } from '../mcp/tool.js';
import type { Settings } from '../core/settings.js';
import type { ScopedVault } from '../services/scopedVault.js';
import { refuse } from '../core/errors.js';
import { contentHash } from '../core/hash.js';
import { normalizeFilePath } from '../core/paths.js';
import { checkFresh, checkHashArg, checkSize, guarded, requireHash, attributed } from '../services/writeSupport.js';

/** The largest file that may land: maxWriteBytes (the former maxFileWriteBytes is folded into it by withDefaults). */
export function landingCap(s: Settings): number {
  return s.maxWriteBytes;
}

export interface Destination {
  path: string;
  overwrite: boolean;
  expectedHash?: string;
}

/** Validates a destination for `vault`'s caller before anything is fetched or minted. */
export function checkDestination(deps: ServerDeps, vault: ScopedVault, raw: string, overwrite: boolean, expectedHash?: string): Destination {
  checkHashArg(expectedHash);
  const path = normalizeFilePath(raw);
  if (!vault.visible(path)) refuse('permission_denied', `"${path}" is outside the folder this key may write ("${vault.root}/").`);
  const host = deps.host;
  if (host.isFolder(path)) refuse('invalid_argument', `"${path}" is a folder; give a file path inside it, e.g. "${path}/file.pdf".`);
  const exists = !!host.stat(path);
  if (exists && !overwrite) refuse('already_exists', `"${path}" already exists; nothing was changed. Pick another path, or pass overwrite=true to replace it.`, { path });
  if (exists) requireHash(deps.settings(), expectedHash, 'replacing a file', 'read_file(hash_only=true)');
  if (!exists && expectedHash !== undefined) refuse('no_incumbent', `expected_hash was given but "${path}" does not exist, so there is nothing it could match. Omit it to create the file.`, { path });
  return { path, overwrite, ...(expectedHash ? { expectedHash } : {}) };
}

/** Writes `bytes` at a checked destination on behalf of `keyName`. Throws Refusals. */
export async function land(deps: ServerDeps, keyName: string, dest: Destination, bytes: Uint8Array): Promise<{ created: boolean; size: number; content_hash: string }> {
  const s = deps.settings();
  const cap = landingCap(s);
  if (bytes.length > cap) refuse('payload_too_large', `The file is ${bytes.length} bytes, over the ${cap}-byte write limit (setting maxWriteBytes); nothing was written.`, { size: bytes.length, limit: cap, setting: 'maxWriteBytes' });
  checkSize(bytes.length, s, dest.path);
  const { path, overwrite, expectedHash } = dest;
  const exists = !!deps.host.stat(path);
  const r = await attributed(deps.services, keyName, [{ path, kind: exists ? 'modified' : 'created' }], () => guarded(path, () => deps.host.writer.writeBinary(path, bytes, {
    overwrite,
    check: (cur) => {
      if (cur === null && expectedHash !== undefined) refuse('no_incumbent', `"${path}" disappeared; nothing was written.`, { path });
      if (cur !== null) checkFresh(cur, expectedHash, path, 'read_file(hash_only=true)');
    },
  })));
  return { created: r.created, size: bytes.length, content_hash: contentHash(bytes) };
}
