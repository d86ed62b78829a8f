// Link resolution like Obsidian's `getFirstLinkpathDest`, over an index of vault paths.
// `#subpath` is stripped first; links are NFC-normalised, `\\` read as `/`, a leading `/` dropped.
// Order: `./x` and `../x` resolve against the linking note's folder only. Otherwise a direct path:
// for a bare name the note's own folder then the vault root, for a path with `/` the vault root then
// the note's folder; each as written then with `.md` (as written first when the link has an
// extension), exact case preferred, else ignoring case. Then by file name anywhere, ignoring case,
// with or without `.md`; a partial path such as `folder/Note` matches any path ending in
// `/folder/Note.md` (Obsidian's file lookup is by lower-cased name, so case never blocks a match).
// Ties between several files with the same name: the one in the linking note's own folder, then the
// one sharing the longest folder prefix with it, then the shortest path, then code-point order. This
// keeps `[[Note]]` inside `en/` resolving to `en/…/Note.md` in a vault with one folder per language.

export interface LinkTarget { path: string; subpath: string }

/** Splits `Note#Heading` / `Note#^block` into the file part and the `#…` subpath. */
export function splitLink(link: string): LinkTarget {
  const i = link.indexOf('#');
  return i < 0 ? { path: link, subpath: '' } : { path: link.slice(0, i), subpath: link.slice(i) };
}

export function linkpathOf(link: string): string {
  return splitLink(link).path.trim();
}

function base(path: string): string {
  const i = path.lastIndexOf('/');
  return path.slice(i + 1);
}

function stripMd(name: string): string {
  return name.toLowerCase().endsWith('.md') ? name.slice(0, -3) : name;
}

function folderOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

/** The two lookups resolution makes (LinkIndex implements them). */
export interface LinkLookup {
  exactPath(path: string): string | null;
  candidates(name: string): readonly string[];
}

/** The name key a path is filed under in a LinkIndex: its lower-cased file name without `.md`. */
export function nameKeyOf(path: string): string {
  return stripMd(base(path.toLowerCase()));
}

/** The name key (nameKeyOf) of the file a link's path names: a link resolves only to a file filed
 *  under it (by name or by exact path, both end in that name). */
export function linkNameKey(linkpath: string): string {
  return nameKeyOf(linkpathOf(linkpath).replace(/\\/g, '/').normalize('NFC'));
}

export class LinkIndex implements LinkLookup {
  private readonly paths = new Set<string>();
  private readonly lower = new Map<string, string[]>(); // lower-cased path → paths (several only when they differ by case)
  private readonly byName = new Map<string, string[]>(); // lower-cased name without .md → paths

  constructor(paths: Iterable<string>) {
    for (const p of paths) this.add(p);
  }

  get size(): number {
    return this.paths.size;
  }

  add(path: string): void {
    if (this.paths.has(path)) return;
    this.paths.add(path);
    const lower = path.toLowerCase();
    const same = this.lower.get(lower);
    if (same) same.push(path); else this.lower.set(lower, [path]);
    const key = stripMd(base(lower));
    const list = this.byName.get(key);
    if (list) list.push(path); else this.byName.set(key, [path]);
  }

  remove(path: string): void {
    if (!this.paths.delete(path)) return;
    const lower = path.toLowerCase();
    drop(this.lower, lower, path);
    drop(this.byName, stripMd(base(lower)), path);
  }

  has(path: string): boolean {
    return this.paths.has(path);
  }

  /** The vault path equal to `path`, else one equal to it ignoring case (code-point-first when several). */
  exactPath(path: string): string | null {
    if (this.paths.has(path)) return path;
    const same = this.lower.get(path.toLowerCase());
    if (!same) return null;
    return same.length === 1 ? same[0] : [...same].sort()[0];
  }

  /** Every path whose file name (without `.md`) equals `name` ignoring case. */
  candidates(name: string): readonly string[] {
    return this.byName.get(stripMd(name.toLowerCase())) ?? [];
  }
}

function drop(map: Map<string, string[]>, key: string, path: string): void {
  const list = map.get(key);
  if (!list) return;
  const i = list.indexOf(path);
  if (i >= 0) list.splice(i, 1);
  if (!list.length) map.delete(key);
}

function normalizeRelative(folder: string, rel: string): string | null {
  const parts = folder ? folder.split('/') : [];
  for (const seg of rel.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') { if (!parts.length) return null; parts.pop(); } else parts.push(seg);
  }
  return parts.join('/');
}

function commonPrefix(a: string, b: string): number {
  const x = a.split('/');
  const y = b.split('/');
  let n = 0;
  while (n < x.length && n < y.length && x[n] === y[n]) n++;
  return n;
}

function pickClosest(cands: readonly string[], sourcePath: string): string {
  if (cands.length === 1) return cands[0];
  const src = folderOf(sourcePath);
  return [...cands].sort((a, b) => {
    const fa = folderOf(a) === src ? 1 : 0;
    const fb = folderOf(b) === src ? 1 : 0;
    if (fa !== fb) return fb - fa;
    const ca = commonPrefix(folderOf(a), src);
    const cb = commonPrefix(folderOf(b), src);
    if (ca !== cb) return cb - ca;
    if (a.length !== b.length) return a.length - b.length;
    return a < b ? -1 : a > b ? 1 : 0;
  })[0];
}

/**
 * Every name key (nameKeyOf) of a file that could decide how `linkpath` resolves from `sourcePath`:
 * resolution only ever looks at index entries filed under these keys, so adding, removing or renaming
 * a file under another key cannot change where this link goes. Found by resolving against an empty
 * index that records each lookup: with no hit every branch is tried, a superset of any real run.
 */
export function linkNameKeys(linkpath: string, sourcePath: string): string[] {
  const keys = new Set<string>();
  resolveLinkpath(linkpath, sourcePath, {
    exactPath: (p) => { keys.add(nameKeyOf(p)); return null; },
    candidates: (name) => { keys.add(stripMd(name.toLowerCase())); return []; },
  });
  return [...keys];
}

export function resolveLinkpath(linkpath: string, sourcePath: string, index: LinkLookup): string | null {
  let lp = linkpathOf(linkpath).replace(/\\/g, '/').normalize('NFC');
  if (lp === '') return null;
  if (lp.startsWith('/')) lp = lp.slice(1);
  const hasExt = /\.[^/.]+$/.test(base(lp));
  const withMd = hasExt ? [lp, `${lp}.md`] : [`${lp}.md`, lp];
  // Relative forms resolve against the linking note's folder only.
  if (lp.startsWith('./') || lp.startsWith('../')) {
    const rel = normalizeRelative(folderOf(sourcePath), lp);
    if (rel === null) return null;
    for (const c of hasExt ? [rel, `${rel}.md`] : [`${rel}.md`, rel]) { const hit = index.exactPath(c); if (hit) return hit; }
    return null;
  }
  // A bare name tries the linking note's folder before the vault root; a path-like link (with '/')
  // is read from the vault root first (Obsidian's "absolute" and "shortest" link formats write it so).
  const folder = folderOf(sourcePath);
  const inFolder = (): string | null => {
    if (!folder) return null;
    const rel = normalizeRelative(folder, lp);
    if (rel !== null) for (const c of hasExt ? [rel, `${rel}.md`] : [`${rel}.md`, rel]) { const hit = index.exactPath(c); if (hit) return hit; }
    return null;
  };
  const atRoot = (): string | null => {
    for (const c of withMd) { const hit = index.exactPath(c); if (hit) return hit; }
    return null;
  };
  const direct = lp.includes('/') ? atRoot() ?? inFolder() : inFolder() ?? atRoot();
  if (direct) return direct;
  // By name: every file called like the link's last component, whose path ends with the whole link
  // (so `folder/Note` needs a `…/folder/Note.md`), ignoring case and an optional `.md`.
  const lower = lp.toLowerCase();
  const tails = lower.endsWith('.md') ? [lower] : [lower, `${lower}.md`];
  const cands = index.candidates(base(lp)).filter((p) => {
    const pl = p.toLowerCase();
    return tails.some((t) => pl === t || pl.endsWith('/' + t));
  });
  return cands.length ? pickClosest(cands, sourcePath) : null;
}
