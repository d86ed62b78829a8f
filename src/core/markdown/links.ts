// Link resolution like Obsidian's `getFirstLinkpathDest`, over an index of vault paths.
// Order: exact vault path (as written, then with `.md`), then relative to the linking note's folder
// (`./`, `../` allowed), then by file name anywhere, case-insensitively; a partial path such as
// `folder/Note` matches any path ending in `/folder/Note.md`.
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

export class LinkIndex {
  private readonly exact = new Map<string, string>(); // lower-cased path → path
  private readonly byName = new Map<string, string[]>(); // lower-cased name without .md → paths

  constructor(paths: Iterable<string>) {
    for (const p of paths) this.add(p);
  }

  add(path: string): void {
    const lower = path.toLowerCase();
    if (this.exact.get(lower) === path) return;
    this.exact.set(lower, path);
    const key = stripMd(base(lower));
    const list = this.byName.get(key);
    if (list) { if (!list.includes(path)) list.push(path); } else this.byName.set(key, [path]);
  }

  remove(path: string): void {
    const lower = path.toLowerCase();
    if (this.exact.get(lower) === path) this.exact.delete(lower);
    const key = stripMd(base(lower));
    const list = this.byName.get(key);
    if (!list) return;
    const i = list.indexOf(path);
    if (i >= 0) list.splice(i, 1);
    if (!list.length) this.byName.delete(key);
  }

  has(path: string): boolean {
    return this.exact.get(path.toLowerCase()) === path;
  }

  /** Exact (case-insensitive) lookup of a vault path. */
  exactPath(path: string): string | null {
    return this.exact.get(path.toLowerCase()) ?? null;
  }

  candidates(name: string): readonly string[] {
    return this.byName.get(stripMd(name.toLowerCase())) ?? [];
  }
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

export function resolveLinkpath(linkpath: string, sourcePath: string, index: LinkIndex): string | null {
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
  for (const c of withMd) { const hit = index.exactPath(c); if (hit) return hit; }
  const folder = folderOf(sourcePath);
  if (folder) {
    const rel = normalizeRelative(folder, lp);
    if (rel !== null) for (const c of hasExt ? [rel, `${rel}.md`] : [`${rel}.md`, rel]) { const hit = index.exactPath(c); if (hit) return hit; }
  }
  const name = base(lp);
  const lowerTail = lp.toLowerCase();
  const want = stripMd(lp.toLowerCase());
  const cands = index.candidates(name).filter((p) => {
    const lower = p.toLowerCase();
    if (hasExt && !lower.endsWith(lp.toLowerCase())) return false; // an extension in the link must match
    const bare = stripMd(lower);
    return !lp.includes('/') || bare === want || bare.endsWith('/' + want);
  });
  return cands.length ? pickClosest(cands, sourcePath) : null;
}
