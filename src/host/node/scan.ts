// Walks the vault folder, skipping every dot-entry (.obsidian, .git, .trash…) and applying the
// symlink rule (host/containment.ts): a file symlink counts when it really leads to a file inside the
// vault (outside dot-folders) or inside an allow-listed outside folder; a folder symlink is followed
// only into an allow-listed outside folder (each real folder once, so loops end); everything else
// is left out as if it did not exist. Plain entries cost one readdir per folder, no extra syscalls.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { Containment } from '../containment.js';

export interface ScannedFile {
  rel: string;
  disk: string;
  size: number;
  mtime: number;
  ctime: number;
  ino: number;
  /** See Located.real: undefined = its own real location, a vault path = a file symlink's target, null = outside (allowed). */
  real: string | null | undefined;
}

export interface ScanStart {
  /** Disk spelling of the folder to walk, vault-relative ('' = the vault root); paths come out NFC. */
  disk: string;
  /** True when that folder really lies in an allow-listed outside folder. */
  outside: boolean;
  /** Real folders already followed (outside trees), so a loop is walked once. */
  visited?: Set<string>;
}

export async function scanVault(base: string, contain: Containment, start: ScanStart = { disk: '', outside: false }): Promise<{ files: ScannedFile[]; folders: string[] }> {
  const files: ScannedFile[] = [];
  const folders: string[] = [];
  const visited = start.visited ?? new Set<string>();
  const walk = async (diskRel: string, outside: boolean): Promise<void> => {
    let entries;
    try {
      entries = await fs.readdir(join(base, diskRel), { withFileTypes: true });
    } catch {
      return;
    }
    await Promise.all(entries.map(async (e) => {
      if (e.name.startsWith('.')) return;
      const childDisk = diskRel ? `${diskRel}/${e.name}` : e.name;
      const rel = childDisk.normalize('NFC');
      const abs = join(base, childDisk);
      if (e.isDirectory()) {
        folders.push(rel);
        await walk(childDisk, outside);
      } else if (e.isFile()) {
        try {
          const st = await fs.stat(abs);
          files.push({ rel, disk: childDisk, size: st.size, mtime: st.mtimeMs, ctime: st.birthtimeMs || st.ctimeMs, ino: st.ino, real: outside ? null : undefined });
        } catch { /* vanished */ }
      } else if (e.isSymbolicLink()) {
        const hit = await contain.place(abs);
        if (!hit) return; // dangling, outside, into a dot-folder or the data folder: as if absent
        const st = await fs.stat(hit.real).catch(() => null);
        if (!st) return;
        const p = hit.placement;
        if (st.isFile()) {
          files.push({ rel, disk: childDisk, size: st.size, mtime: st.mtimeMs, ctime: st.birthtimeMs || st.ctimeMs, ino: st.ino, real: 'inVault' in p ? p.inVault : null });
        } else if (st.isDirectory() && 'outside' in p && !visited.has(hit.real)) {
          visited.add(hit.real);
          folders.push(rel);
          await walk(childDisk, true);
        }
      }
    }));
  };
  await walk(start.disk, start.outside);
  return { files, folders };
}
