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

export function appResolve(linkpath: string, source: string, files: string[]): string | null {
  const all = new Set(files);
  const folder = source.includes('/') ? source.slice(0, source.lastIndexOf('/')) : '';
  if (linkpath.startsWith('./') || linkpath.startsWith('../')) {
    const p = join(folder, linkpath);
    return p === null ? null : withMd(p).find((c) => all.has(c)) ?? null;
  }
  const wanted = withMd(linkpath.replace(/^\/+/, ''));
  for (const c of wanted) if (all.has(c)) return c;
  const lower = wanted.map((c) => c.toLowerCase());
  const pick = (match: (f: string) => boolean) => {
    const hits = files.filter(match);
    if (!hits.length) return null;
    const here = hits.find((f) => f.slice(0, Math.max(0, f.lastIndexOf('/'))) === folder);
    return here ?? hits.sort((a, b) => a.length - b.length || (a < b ? -1 : 1))[0];
  };
  const ends = (f: string, c: string) => f === c || f.endsWith(`/${c}`);
  return pick((f) => wanted.some((c) => ends(f, c)))
    ?? pick((f) => lower.some((c) => ends(f.toLowerCase(), c)));
}
