// `_conventions.md` files: the vault owner's house rules for a folder and everything below it. The
// ones that apply to a path are those of the root and of every ancestor folder, root first.
import type { ScopedVault } from './scopedVault.js';
import { decodeText } from './writeSupport.js';
import { contentHash } from '../core/hash.js';

export const CONVENTIONS_FILE = '_conventions.md';
const ECHO_CAP = 2000;

export interface Convention { path: string; folder: string; content: string; truncated: boolean; content_hash: string }

/** Folders from the root down to `folder` ('' = root). */
export function folderChain(folder: string): string[] {
  const parts = folder ? folder.split('/') : [];
  return ['', ...parts.map((_, i) => parts.slice(0, i + 1).join('/'))];
}

export async function conventionsFor(vault: ScopedVault, folder: string, cap = ECHO_CAP): Promise<Convention[]> {
  const out: Convention[] = [];
  for (const f of folderChain(folder)) {
    const path = f ? `${f}/${CONVENTIONS_FILE}` : CONVENTIONS_FILE;
    const st = vault.stat(path);
    if (!st) continue;
    const bytes = await vault.host.readBytes(st.path);
    const text = decodeText(bytes);
    out.push({ path: st.path, folder: f, content: text.length > cap ? text.slice(0, cap) : text, truncated: text.length > cap, content_hash: contentHash(bytes) });
  }
  return out;
}

/** The readable echo appended to a write tool's text. */
export function conventionsText(list: Convention[]): string {
  if (!list.length) return '';
  return '\n\nConventions that apply here (check your change against them):\n' + list.map((c) => `--- ${c.path}\n${c.content.trimEnd()}${c.truncated ? '\n[…truncated; read it with get_conventions]' : ''}`).join('\n');
}
