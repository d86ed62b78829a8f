// The symlink rule both hosts enforce: a vault path counts only when its REAL location (every
// component resolved) is inside the vault and outside every dot-folder, or inside a folder the user
// allow-listed on purpose (setting `symlinkAllowedFolders`, CLI --symlink-allow), again outside its
// dot-folders. The plugin's data folder is never a real location a path may have. Anything else is
// treated like a path that does not exist. Root confinement of a key is applied on top of this by
// ScopedVault, with the real in-vault location a host reports (VaultHost.realPathOf).
import { promises as fs, lstatSync, realpathSync, type Stats } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';

export type Placement =
  /** Really inside the vault, at this vault-relative path ('/'-separated, NFC; '' = the root). */
  | { inVault: string }
  /** Really inside an allow-listed outside folder (absolute real path). */
  | { outside: string };

export interface ContainmentOptions {
  /** Absolute folders outside the vault a symlink may lead into (opt-in; default none). */
  allowedOutside?: () => readonly string[];
  /** Folders that are never a valid real location (the plugin's data folder when it lies outside). */
  forbidden?: () => readonly string[];
}

/** `child` relative to `parent` when inside it ('' = the same folder), else null. */
function under(child: string, parent: string): string | null {
  // Every note read asks this twice, with realpath's answers: plain prefix tests then. path.relative
  // resolves both paths again, about 1 KB of garbage a call (230 MB over a 100k-note first build).
  if (sep === '/' && plainAbsolute(child) && plainAbsolute(parent)) {
    if (child === parent) return '';
    const end = parent === '/' ? 0 : parent.length;
    return child.length > end && child.charCodeAt(end) === 47 && child.startsWith(parent) ? child.slice(end + 1) : null;
  }
  const r = relative(parent, child);
  if (r === '') return '';
  if (r === '..' || r.startsWith(`..${sep}`) || isAbsolute(r)) return null;
  return r;
}

/** An absolute POSIX path path.resolve leaves as it is: no empty, '.' or '..' part, no trailing slash. */
function plainAbsolute(p: string): boolean {
  if (p.charCodeAt(0) !== 47) return false;
  if (p.length === 1) return true;
  return p.charCodeAt(p.length - 1) !== 47 && !p.includes('//') && !p.includes('/./') && !p.includes('/../') && !p.endsWith('/.') && !p.endsWith('/..');
}

const SEP_DOT = `${sep}.`;
/** A part of `rel` starts with a dot (a scan, not a split: it runs on every read). */
const dotted = (rel: string) => rel.startsWith('.') || rel.includes(SEP_DOT);

function realOrNull(p: string): string | null {
  try { return realpathSync(p); } catch { return null; }
}

/** Where a vault path really is, for a host admitting it into its view. */
export interface Located {
  folder: boolean;
  st: Stats;
  /** undefined: the path is its own real location; a string: the vault path it really is (a file
   *  symlink inside the vault); null: inside an allow-listed outside folder. */
  real: string | null | undefined;
}

export class Containment {
  private realBase: string | null = null;
  private allowKey = '';
  private allowReal: string[] = [];
  private forbidKey = '';
  private forbidReal: string[] = [];

  constructor(readonly basePath: string, private readonly opts: ContainmentOptions = {}) {}

  /** The vault folder's own real path (resolved once). */
  base(): string {
    this.realBase ??= realOrNull(this.basePath) ?? this.basePath;
    return this.realBase;
  }

  /** True when the user allow-listed at least one outside folder that exists. */
  hasAllowed(): boolean {
    return this.allowed().length > 0;
  }

  private allowed(): string[] {
    const list = this.opts.allowedOutside?.() ?? [];
    const key = list.join('\n');
    if (key !== this.allowKey) {
      this.allowKey = key;
      // Only absolute folders that exist count; each is resolved so a symlinked allow-list entry works.
      this.allowReal = list.filter((p) => typeof p === 'string' && isAbsolute(p)).map(realOrNull).filter((p): p is string => p !== null);
    }
    return this.allowReal;
  }

  private forbiddenReal(): string[] {
    const list = this.opts.forbidden?.() ?? [];
    const key = list.join('\n');
    if (key !== this.forbidKey) {
      this.forbidKey = key;
      this.forbidReal = list.map((p) => realOrNull(p) ?? p);
    }
    return this.forbidReal;
  }

  /** Classifies an already resolved absolute path; null = refused (treated as missing). */
  classify(real: string): Placement | null {
    for (const f of this.forbiddenReal()) if (under(real, f) !== null) return null;
    const inV = under(real, this.base());
    if (inV !== null) {
      if (inV !== '' && dotted(inV)) return null;
      return { inVault: (sep === '/' ? inV : inV.split(sep).join('/')).normalize('NFC') };
    }
    for (const a of this.allowed()) {
      const r = under(real, a);
      if (r !== null && !(r !== '' && dotted(r))) return { outside: real };
    }
    return null;
  }

  /** Resolves every component of `abs` and classifies the result; null when missing or refused. */
  async place(abs: string): Promise<{ real: string; placement: Placement } | null> {
    const real = await fs.realpath(abs).catch(() => null);
    if (real === null) return null;
    const placement = this.classify(real);
    return placement ? { real, placement } : null;
  }

  /** place() synchronously (one realpath system call): for small reads where a thread-pool round trip costs more than the read. */
  placeSync(abs: string): { real: string; placement: Placement } | null {
    let real: string;
    try { real = realpathSync.native(abs); } catch { return null; }
    const placement = this.classify(real);
    return placement ? { real, placement } : null;
  }

  /**
   * locate() for the common case, synchronously: a plain file or folder (not a symlink) whose folder
   * is the real folder of the same vault path. 'link' when the entry is a symlink (only the async
   * locate judges those); null when missing or refused. Lets a host show a note the app just created
   * at once instead of hiding it until an async judgment is in.
   */
  locatePlainSync(rel: string, disk: string): Located | null | 'link' {
    const abs = join(this.basePath, disk);
    let lst: Stats;
    try { lst = lstatSync(abs); } catch { return null; }
    if (lst.isSymbolicLink()) return 'link';
    if (!lst.isDirectory() && !lst.isFile()) return null;
    const parentReal = realOrNull(dirname(abs));
    const parent = parentReal === null ? null : this.classify(parentReal);
    const parentRel = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
    if (!parent || !('inVault' in parent) || parent.inVault !== parentRel.normalize('NFC')) return 'link';
    return { folder: lst.isDirectory(), st: lst, real: undefined };
  }

  /**
   * Where vault path `rel` (disk spelling `disk`) really is, or null when the rule refuses it: its
   * folder must be a folder the host follows (the real folder itself, or inside an allow-listed
   * outside folder); the last component may be a symlink to a file inside the vault, or to a file or
   * folder inside an allow-listed outside folder. A folder symlink that leads elsewhere in the vault
   * is not followed (its files are listed under their own paths).
   */
  async locate(rel: string, disk: string): Promise<Located | null> {
    const abs = join(this.basePath, disk);
    const lst = await fs.lstat(abs).catch(() => null);
    if (!lst) return null;
    const parentRel = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
    const parent = await this.place(dirname(abs));
    if (!parent) return null;
    const parentOwn = 'inVault' in parent.placement && parent.placement.inVault === parentRel.normalize('NFC');
    if (!parentOwn && !('outside' in parent.placement)) return null;
    if (!lst.isSymbolicLink()) {
      if (!lst.isDirectory() && !lst.isFile()) return null;
      return { folder: lst.isDirectory(), st: lst, real: parentOwn ? undefined : null };
    }
    const target = await this.place(abs);
    if (!target) return null;
    const st = await fs.stat(target.real).catch(() => null);
    if (!st) return null;
    const p = target.placement;
    if (st.isDirectory()) return 'outside' in p ? { folder: true, st, real: null } : null;
    if (!st.isFile()) return null;
    return { folder: false, st, real: 'inVault' in p ? p.inVault : null };
  }
}

/** Does a placement agree with what a host recorded for a path (see Located.real)? */
export function samePlacement(p: Placement, rel: string, real: string | null | undefined): boolean {
  if (real === null) return 'outside' in p;
  return 'inVault' in p && p.inVault === (real ?? rel).normalize('NFC');
}

/** An ENOENT error for a path the rule refuses at read time (answered like a missing file). */
export function missing(path: string): Error {
  return Object.assign(new Error(`ENOENT: no file "${path}" in the vault`), { code: 'ENOENT' });
}

/**
 * The first component of vault path `rel` (disk spelling) that is a symbolic link, as a vault path,
 * or null: writes refuse any path with one, whatever it points to. Components that do not exist
 * end the walk (nothing below them can be a link yet).
 */
export async function symlinkOnPath(basePath: string, rel: string): Promise<string | null> {
  const parts = rel.split('/').filter(Boolean);
  let abs = basePath;
  for (let i = 0; i < parts.length; i++) {
    abs = join(abs, parts[i]);
    const st = await fs.lstat(abs).catch(() => null);
    if (!st) return null;
    if (st.isSymbolicLink()) return parts.slice(0, i + 1).join('/').normalize('NFC');
  }
  return null;
}

/** Is the file at vault path `rel` a regular file with more than one name (a hard link)? */
export async function hardLinked(basePath: string, rel: string): Promise<boolean> {
  const st = await fs.lstat(join(basePath, rel)).catch(() => null);
  return !!st && st.isFile() && st.nlink > 1;
}
