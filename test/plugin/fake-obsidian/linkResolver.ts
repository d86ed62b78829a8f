// The fake app's own link resolution, written apart from the plugin's (src/core/markdown/links.ts), so
// a test through the fake compares the plugin with a second opinion instead of with itself. It follows
// getFirstLinkpathDest as documented and as the app behaves for plain cases: './' and '../' from the
// linking note's folder; a path with '/' from the vault root, then as the end of a longer path; a bare
// name by file name anywhere, exact case first, preferring the linking note's folder, then the shortest
// path. Tricky cases are pinned by a LinkTable of how the app resolves them.

/** source path → link path → the path the app opens (null: unresolved). */
export type LinkTable = Record<string, Record<string, string | null>>;

const withMd = (p: string) => (/\.[^/.]+$/.test(p) ? [p, `${p}.md`] : [`${p}.md`, p]);

function join(folder: string, rel: string): string | null {
  const out = folder ? folder.split('/') : [];
  for (const part of rel.split('/')) {
    if (part === '.' || part === '') continue;
    if (part === '..') { if (!out.length) return null; out.pop(); } else out.push(part);
  }
  return out.join('/');
}

/** The vault's paths indexed by lower-cased file name, so one lookup does not walk every file (the app
 *  keeps such an index too; walking made the fake itself take minutes on the 6.5k-note Hub vault). */
export class FileIndex {
  readonly all: Set<string>;
  readonly position = new Map<string, number>();
  private readonly byName = new Map<string, string[]>();
  constructor(readonly files: string[]) {
    this.all = new Set(files);
    files.forEach((f, i) => this.position.set(f, i));
    for (const f of files) {
      const k = nameOf(f).toLowerCase();
      const l = this.byName.get(k);
      if (l) l.push(f); else this.byName.set(k, [f]);
    }
  }
  /** Files whose name (last component) equals `name` ignoring case, in `files` order. */
  named(name: string): string[] { return this.byName.get(name.toLowerCase()) ?? []; }
}

const nameOf = (p: string) => p.slice(p.lastIndexOf('/') + 1);

export function appResolve(linkpath: string, source: string, files: string[] | FileIndex): string | null {
  const index = files instanceof FileIndex ? files : null;
  const all = index ? index.all : new Set(files as string[]);
  const folder = source.includes('/') ? source.slice(0, source.lastIndexOf('/')) : '';
  if (linkpath.startsWith('./') || linkpath.startsWith('../')) {
    const p = join(folder, linkpath);
    return p === null ? null : withMd(p).find((c) => all.has(c)) ?? null;
  }
  const wanted = withMd(linkpath.replace(/^\/+/, ''));
  for (const c of wanted) if (all.has(c)) return c;
  const lower = wanted.map((c) => c.toLowerCase());
  // Any file a `wanted` path can end with has that path's file name: only those are looked at.
  const pool = index ? [...new Set(wanted.flatMap((c) => index.named(nameOf(c))))].sort((a, b) => index.position.get(a)! - index.position.get(b)!) : (files as string[]);
  const pick = (match: (f: string) => boolean) => {
    const hits = pool.filter(match);
    if (!hits.length) return null;
    const here = hits.find((f) => f.slice(0, Math.max(0, f.lastIndexOf('/'))) === folder);
    return here ?? hits.sort((a, b) => a.length - b.length || (a < b ? -1 : 1))[0];
  };
  const ends = (f: string, c: string) => f === c || f.endsWith(`/${c}`);
  return pick((f) => wanted.some((c) => ends(f, c)))
    ?? pick((f) => lower.some((c) => ends(f.toLowerCase(), c)));
}
