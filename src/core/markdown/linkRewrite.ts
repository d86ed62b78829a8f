// Rewriting links after a move, as pure text edits. Only the link target changes: `#heading`,
// `#^block`, `|alias`, the display text of a markdown link, its title and the `!` of an embed stay as
// written. Which spelling to write is chosen by the caller's resolver (the host's link resolution
// after the move), preferring the form the author used: a bare name stays a bare name when it is
// unambiguous, a path stays a path, a relative markdown link stays relative.
import { parseMarkdown } from './parse.js';
import { linkpathOf } from './links.js';

export type Resolver = (linkpath: string, sourcePath: string) => string | null;

export interface TextEdit { start: number; end: number; replacement: string }

function dirOf(p: string): string {
  const i = p.lastIndexOf('/');
  return i < 0 ? '' : p.slice(0, i);
}

function baseOf(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}

const stripMd = (p: string) => (/\.md$/i.test(p) ? p.slice(0, -3) : p);

/** `from` folder → `to` path as a relative path ("../b/Note.md", "Note.md"). */
export function relativePath(fromDir: string, to: string): string {
  const a = fromDir ? fromDir.split('/') : [];
  const b = to.split('/');
  let i = 0;
  while (i < a.length && i < b.length - 1 && a[i] === b[i]) i++;
  return [...Array<string>(a.length - i).fill('..'), ...b.slice(i)].join('/');
}

/** The linkpath to write for `target`, in the style of `oldLinkpath`, that resolves from `sourcePath`. */
export function chooseLinkpath(kind: 'wiki' | 'md', oldLinkpath: string, target: string, sourcePath: string, resolve: Resolver): string {
  const keepMd = /\.md$/i.test(oldLinkpath);
  const shown = (p: string) => (keepMd ? p : stripMd(p));
  const cands: string[] = [];
  if (kind === 'md') {
    const rel = relativePath(dirOf(sourcePath), target);
    const wasVaultAbsolute = oldLinkpath.includes('/') && !oldLinkpath.startsWith('.') && !oldLinkpath.startsWith('/');
    if (oldLinkpath.startsWith('/')) cands.push('/' + shown(target));
    if (wasVaultAbsolute) cands.push(shown(target));
    cands.push(shown(oldLinkpath.startsWith('./') && !rel.startsWith('.') ? `./${rel}` : rel), shown(target));
  } else {
    if (!oldLinkpath.includes('/')) cands.push(shown(baseOf(target)));
    cands.push(shown(target));
  }
  for (const c of cands) if (resolve(c, sourcePath) === target) return c;
  return cands[cands.length - 1];
}

function encodeMdUrl(p: string): string {
  return p.replace(/%/g, '%25').replace(/ /g, '%20').replace(/\(/g, '%28').replace(/\)/g, '%29').replace(/</g, '%3C').replace(/>/g, '%3E');
}

/** The reference text with only its target replaced. */
export function replaceLinkTarget(original: string, newLinkpath: string): string {
  const embed = original.startsWith('!') ? '!' : '';
  const o = original.slice(embed.length);
  if (o.startsWith('[[')) {
    const inner = o.slice(2, -2);
    const m = /^(\s*)([^#|\\]*?)(\s*)((?:#|\\?\||$)[\s\S]*)$/.exec(inner);
    if (!m) return original;
    return `${embed}[[${m[1]}${newLinkpath}${m[3]}${m[4]}]]`;
  }
  // [text](url "title") with the url possibly in <…>
  const close = findTextClose(o);
  if (close < 0) return original;
  const head = o.slice(0, close + 2); // "[text]("
  const rest = o.slice(close + 2);
  const am = /^(\s*)<([^<>\n]*)>([\s\S]*)$/.exec(rest);
  if (am) {
    const hash = am[2].indexOf('#');
    const sub = hash < 0 ? '' : am[2].slice(hash);
    return `${embed}${head}${am[1]}<${newLinkpath}${sub}>${am[3]}`;
  }
  const um = /^(\s*)(\S+?)((?:\s+(?:"[^"]*"|'[^']*'))?\s*\))$/.exec(rest);
  if (!um) return original;
  const hash = um[2].indexOf('#');
  const sub = hash < 0 ? '' : um[2].slice(hash);
  return `${embed}${head}${um[1]}${encodeMdUrl(newLinkpath)}${sub}${um[3]}`;
}

/** Index of the `]` that closes a markdown link's text (followed by `(`). */
function findTextClose(o: string): number {
  let depth = 0;
  for (let i = 0; i < o.length; i++) {
    const c = o[i];
    if (c === '\\') { i++; continue; }
    if (c === '[') depth++;
    else if (c === ']') { depth--; if (depth === 0) return o[i + 1] === '(' ? i : -1; }
  }
  return -1;
}

export function applyEdits(text: string, edits: TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => b.start - a.start);
  let out = text;
  let floor = Infinity;
  for (const e of sorted) {
    if (e.end > floor) continue; // overlapping edit: keep the later one only
    out = out.slice(0, e.start) + e.replacement + out.slice(e.end);
    floor = e.start;
  }
  return out;
}

export interface RewriteResult { text: string; rewritten: number }

/**
 * Rewrites every reference of `text` (a note now at `sourcePath`) whose linkpath is a key of
 * `expected` and that no longer resolves to the expected target. Frontmatter `[[links]]` included.
 */
export function rewriteLinks(text: string, sourcePath: string, expected: Map<string, string>, resolve: Resolver): RewriteResult {
  const meta = parseMarkdown(text);
  const edits: TextEdit[] = [];
  const fix = (original: string, link: string): string | null => {
    const lp = linkpathOf(link);
    const want = expected.get(lp);
    if (want === undefined || resolve(lp, sourcePath) === want) return null;
    const kind = original.replace(/^!/, '').startsWith('[[') ? 'wiki' : 'md';
    const next = replaceLinkTarget(original, chooseLinkpath(kind, lp, want, sourcePath, resolve));
    return next === original ? null : next;
  };
  for (const ref of [...(meta.links ?? []), ...(meta.embeds ?? [])]) {
    const next = fix(ref.original, ref.link);
    if (next !== null) edits.push({ start: ref.position.start.offset, end: ref.position.end.offset, replacement: next });
  }
  if (meta.frontmatterPosition) {
    const end = meta.frontmatterPosition.end.offset;
    const wiki = /\[\[([^[\]\n]+)\]\]/g;
    const block = text.slice(0, end);
    for (let m = wiki.exec(block); m; m = wiki.exec(block)) {
      const bar = m[1].indexOf('|');
      const next = fix(m[0], (bar < 0 ? m[1] : m[1].slice(0, bar)).trim());
      if (next !== null) edits.push({ start: m.index, end: m.index + m[0].length, replacement: next });
    }
  }
  return { text: edits.length ? applyEdits(text, edits) : text, rewritten: edits.length };
}
