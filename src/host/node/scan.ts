// Walks the vault folder, skipping every dot-entry (.obsidian, .git, .trash…) and symlinked folders.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';

export interface ScannedFile { rel: string; disk: string; size: number; mtime: number; ctime: number }

export async function scanVault(base: string): Promise<{ files: ScannedFile[]; folders: string[] }> {
  const files: ScannedFile[] = [];
  const folders: string[] = [];
  const walk = async (diskRel: string): Promise<void> => {
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
      if (e.isDirectory()) {
        folders.push(rel);
        await walk(childDisk);
      } else if (e.isFile() || e.isSymbolicLink()) {
        try {
          const st = await fs.stat(join(base, childDisk));
          if (!st.isFile()) return;
          files.push({ rel, disk: childDisk, size: st.size, mtime: st.mtimeMs, ctime: st.birthtimeMs || st.ctimeMs });
        } catch { /* vanished or dangling symlink */ }
      }
    }));
  };
  await walk('');
  return { files, folders };
}
