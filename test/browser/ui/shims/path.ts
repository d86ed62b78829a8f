// node:path for the render page: POSIX join/dirname/basename (the UI only builds folder names).
export const sep = '/';
export function normalize(p: string): string {
  const abs = p.startsWith('/');
  const out: string[] = [];
  for (const s of p.split('/')) { if (!s || s === '.') continue; if (s === '..') out.pop(); else out.push(s); }
  return (abs ? '/' : '') + out.join('/');
}
export const join = (...parts: string[]): string => normalize(parts.filter(Boolean).join('/'));
export const resolve = (...parts: string[]): string => normalize(parts.reduce((a, p) => (p.startsWith('/') ? p : `${a}/${p}`), '/'));
export const dirname = (p: string): string => { const n = normalize(p); const i = n.lastIndexOf('/'); return i <= 0 ? (n.startsWith('/') ? '/' : '.') : n.slice(0, i); };
export const basename = (p: string): string => normalize(p).split('/').pop() ?? '';
export const extname = (p: string): string => { const b = basename(p); const i = b.lastIndexOf('.'); return i > 0 ? b.slice(i) : ''; };
export const isAbsolute = (p: string): boolean => p.startsWith('/');
export const relative = (from: string, to: string): string => { const f = normalize(from).split('/'), t = normalize(to).split('/'); let i = 0; while (i < f.length && f[i] === t[i]) i++; return [...f.slice(i).map(() => '..'), ...t.slice(i)].join('/'); };
export const posix = { sep, normalize, join, resolve, dirname, basename, extname, isAbsolute, relative };
export default posix;
