// The vault as one caller may see it. Every tool reads through this, so a root-confined key cannot
// learn about anything outside its root: such paths answer exactly like paths that do not exist.
import type { FileStat, VaultHost } from '../host/port.js';
import type { NoteMetadata } from '../core/markdown/metadata.js';
import { refuse } from '../core/errors.js';
import { noteByName } from '../core/names.js';
import { noteAliases } from '../core/markdown/frontmatter.js';
import { basename, isNotePath, normalizeFilePath, normalizeFolderPath, withinRoot, inFolder } from '../core/paths.js';

/**
 * Is `path` visible to a key confined to `root` ('' = whole vault)? Its vault path must be inside the
 * root, and so must its real location when a symlink inside the vault leads elsewhere in the vault
 * (a link in Team/ to Private/Secret.md is not Team's). Allow-listed outside folders the user linked
 * into the root count as inside it.
 */
export function visibleIn(host: VaultHost, root: string, path: string): boolean {
  if (root === '') return true;
  if (!withinRoot(path, root)) return false;
  const real = host.realPathOf?.(path);
  return typeof real !== 'string' || withinRoot(real, root);
}

/** A note in `folder` (anywhere without one): what ScopedVault.notes() keeps of files(). */
export const isNoteIn = (path: string, folder?: string): boolean => isNotePath(path) && inFolder(path, folder);

export class ScopedVault {
  constructor(readonly host: VaultHost, readonly root: string) {}

  visible(path: string): boolean {
    return visibleIn(this.host, this.root, path);
  }

  files(): FileStat[] {
    const all = this.host.files();
    return this.root === '' ? all : all.filter((f) => this.visible(f.path));
  }

  notes(folder?: string): FileStat[] {
    return this.files().filter((f) => isNoteIn(f.path, folder));
  }

  folders(): string[] {
    const all = this.host.folders();
    return this.root === '' ? all : all.filter((f) => this.visible(f) && f !== this.root);
  }

  stat(path: string): FileStat | null {
    return this.visible(path) ? this.host.stat(path) : null;
  }

  isFolder(path: string): boolean {
    return path === this.root || (this.visible(path) && this.host.isFolder(path));
  }

  metadata(path: string): NoteMetadata | null {
    return this.visible(path) ? this.host.metadata(path) : null;
  }

  /** Resolves a note path argument (adding `.md` when missing; else a name or alias, core/names.ts) to an existing visible note. */
  requireNote(raw: string, what = 'path'): FileStat {
    const p = normalizeFilePath(raw, what);
    const candidates = isNotePath(p) ? [p] : [`${p}.md`, p];
    for (const c of candidates) {
      const st = this.stat(c);
      if (st) {
        if (!isNotePath(st.path)) refuse('invalid_argument', `"${st.path}" is not a markdown note; read it with read_file.`);
        return st;
      }
    }
    if (this.isFolder(p)) refuse('invalid_argument', `"${p}" is a folder, not a note; list it with list_notes(folder="${p}").`);
    const named = noteByName(p, this.notes(), (n) => noteAliases(this.host.metadata(n)?.frontmatter));
    if (named) return named;
    refuse('not_found', `No note at "${p}".${this.suggest(p)} Check the spelling with list_notes or keyword_search.`);
  }

  /** Resolves any file path argument to an existing visible file. */
  requireFile(raw: string, what = 'path'): FileStat {
    const p = normalizeFilePath(raw, what);
    const st = this.stat(p);
    if (st) return st;
    if (this.isFolder(p)) refuse('invalid_argument', `"${p}" is a folder, not a file; list it with list_files(folder="${p}").`);
    refuse('not_found', `No file at "${p}".${this.suggest(p)} List files with list_files.`);
  }

  /** A folder filter argument: undefined stays undefined; a missing or invisible folder is not_found. */
  folderArg(raw: string | undefined, what = 'folder'): string | undefined {
    if (raw === undefined) return this.root === '' ? undefined : this.root;
    const f = normalizeFolderPath(raw, what);
    if (f === '') return this.root === '' ? '' : this.root;
    if (!this.isFolder(f)) refuse('not_found', `No folder "${f}".${this.suggestFolder(f)} See list_folders.`);
    return f;
  }

  /** "Did you mean" from visible notes with the same or a similar file name. */
  private suggest(p: string): string {
    const want = basename(p).toLowerCase().replace(/\.md$/, '');
    const hits = this.files().filter((f) => basename(f.path).toLowerCase().replace(/\.md$/, '') === want).slice(0, 5);
    return hits.length ? ` Did you mean ${hits.map((h) => `"${h.path}"`).join(', ')}?` : '';
  }

  private suggestFolder(f: string): string {
    const want = basename(f).toLowerCase();
    const hits = this.folders().filter((d) => basename(d).toLowerCase() === want).slice(0, 5);
    return hits.length ? ` Did you mean ${hits.map((h) => `"${h}"`).join(', ')}?` : '';
  }
}
