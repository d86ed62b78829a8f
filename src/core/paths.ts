// Path rules shared by every tool: vault-relative only; no '..', no absolute path, no NUL or control
// characters, no component starting with '.' (so .obsidian, .git and .trash stay out of reach).
// Output is NFC, '/'-separated, without leading or trailing slashes.
import { refuse } from './errors.js';

/** A C0 control character or DEL (code points 0–31, 127). */
function hasControl(s: string): boolean {
  for (let i = 0; i < s.length; i++) { const c = s.charCodeAt(i); if (c < 32 || c === 127) return true; }
  return false;
}
const DRIVE = /^[a-zA-Z]:/;

/** The longest file or folder name common file systems accept (ext4, APFS, NTFS: 255). */
export const NAME_MAX_BYTES = 255;
/** The longest vault path accepted: well under every OS limit once the vault's own folder is put in front. */
export const PATH_MAX_BYTES = 1024;

function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) { n += 4; i++; } else n += 3;
  }
  return n;
}

function components(raw: string, what: string): string[] {
  if (typeof raw !== 'string') refuse('invalid_path', `The ${what} must be a string.`);
  if (hasControl(raw)) refuse('invalid_path', `The ${what} contains a control character; remove it and retry.`);
  const s = raw.normalize('NFC').replace(/\\/g, '/');
  if (DRIVE.test(s) || s.startsWith('//')) {
    refuse('invalid_path', `"${raw}" is an absolute path; give a path relative to the vault root, e.g. "Projects/Plan.md".`);
  }
  const parts = s.split('/').filter((p) => p !== '' && p !== '.');
  for (const p of parts) {
    if (p === '..') refuse('invalid_path', `"${raw}" leaves the vault ('..' is not allowed); give a path relative to the vault root.`);
    if (p.startsWith('.')) refuse('invalid_path', `"${raw}" names a hidden file or folder ("${p}"); hidden paths such as .obsidian, .git and .trash are out of reach.`);
    if (p.trim() === '') refuse('invalid_path', `"${raw}" has an empty path component; remove the blank segment.`);
    if (utf8Length(p) > NAME_MAX_BYTES) refuse('invalid_path', `A name in the ${what} is ${utf8Length(p)} bytes long; file systems allow at most ${NAME_MAX_BYTES} bytes per file or folder name. Shorten "${p.slice(0, 40)}…".`);
  }
  const bytes = utf8Length(parts.join('/'));
  if (bytes > PATH_MAX_BYTES) refuse('invalid_path', `The ${what} is ${bytes} bytes long; at most ${PATH_MAX_BYTES} bytes are accepted. Use shorter folder and file names.`);
  if (parts.length && DRIVE.test(parts[0])) {
    refuse('invalid_path', `"${raw}" looks like a drive path ("${parts[0]}"); give a path relative to the vault root.`);
  }
  return parts;
}

/** A file path. A leading '/' is refused as absolute. */
export function normalizeFilePath(raw: string, what = 'path'): string {
  if (typeof raw === 'string' && raw.replace(/\\/g, '/').startsWith('/')) {
    refuse('invalid_path', `"${raw}" is an absolute path; give a path relative to the vault root, e.g. "Projects/Plan.md".`);
  }
  const parts = components(raw, what);
  if (parts.length === 0) refuse('invalid_path', `The ${what} is empty; give a vault-relative file path such as "Inbox/Idea.md".`);
  return parts.join('/');
}

/** A folder: '' is the root; "a", "a/", "/a/" and "a\\" all name the same folder. */
export function normalizeFolderPath(raw: string, what = 'folder'): string {
  return components(raw, what).join('/');
}

/** Folder filter semantics: undefined = anywhere; '' = root level only; else that folder and below. */
export function inFolder(path: string, folder: string | undefined): boolean {
  if (folder === undefined) return true;
  if (folder === '') return !path.includes('/');
  return path.startsWith(folder + '/');
}

/** Is `path` inside `root` (a folder, '' = the whole vault), or the root folder itself? */
export function withinRoot(path: string, root: string): boolean {
  return root === '' || path === root || path.startsWith(root + '/');
}

export function basename(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? path : path.slice(i + 1);
}

export function dirname(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

export function extname(path: string): string {
  const b = basename(path);
  const i = b.lastIndexOf('.');
  return i <= 0 ? '' : b.slice(i + 1).toLowerCase();
}

/** The note title Obsidian shows: the file name without `.md`. */
export function noteTitle(path: string): string {
  return basename(path).replace(/\.md$/i, '');
}

export function isNotePath(path: string): boolean {
  return /\.md$/i.test(path);
}

/** A note moved to another folder under the same file name: its title and text are unchanged, so an
 *  index keeps what it holds of it (search/eventQueue.ts, semantic/moves.ts). */
export function keepsNoteName(from: string, to: string): boolean {
  return isNotePath(from) && isNotePath(to) && noteTitle(from) === noteTitle(to);
}

/** Adds `.md` unless the path already names a markdown file. */
export function withMdExtension(path: string): string {
  return isNotePath(path) ? path : `${path}.md`;
}
