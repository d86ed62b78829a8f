// TAbstractFile/TFile/TFolder as the app models them: `path` is vault-relative, the root folder's is
// '/', `stat` is refreshed after every write through the vault.
import type { Vault } from './vault.js';

export interface FileStats { ctime: number; mtime: number; size: number }

export abstract class TAbstractFile {
  vault!: Vault;
  path = '';
  name = '';
  parent: TFolder | null = null;
}

export class TFile extends TAbstractFile {
  stat: FileStats = { ctime: 0, mtime: 0, size: 0 };
  basename = '';
  extension = '';
}

export class TFolder extends TAbstractFile {
  children: TAbstractFile[] = [];
  isRoot(): boolean { return this.path === '/'; }
}

/** Sets path, name and (for files) basename/extension from a vault path. */
export function setPath(f: TAbstractFile, path: string): void {
  f.path = path;
  f.name = path === '/' ? '' : path.slice(path.lastIndexOf('/') + 1);
  if (f instanceof TFile) {
    const dot = f.name.lastIndexOf('.');
    f.basename = dot > 0 ? f.name.slice(0, dot) : f.name;
    f.extension = dot > 0 ? f.name.slice(dot + 1).toLowerCase() : '';
  }
}

export function parentPath(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '/' : path.slice(0, i);
}
