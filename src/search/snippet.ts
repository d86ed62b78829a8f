// Snippets: the window of a note's body holding the most distinct query terms, with those terms
// wrapped in **…**. A title or alias match shows the note's opening words instead.
import type { Analyzer } from './analyzer.js';
import { tokenize } from './text.js';
import { splitFrontmatter } from '../core/markdown/frontmatter.js';

export interface SnippetQuery {
  exact: Set<string>;
  prefixes: string[];
}

const WINDOW = 28; // tokens
const MAX_CHARS = 260;

function collapse(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

export function snippet(text: string, q: SnippetQuery, analyzer: Analyzer, opening: boolean): string {
  const body = splitFrontmatter(text).body;
  const toks = tokenize(body);
  const isHit = (folded: string) => {
    if (q.exact.has(analyzer.stem(folded)) || q.exact.has(folded)) return true;
    return q.prefixes.some((p) => folded.startsWith(p));
  };
  const hits = toks.map((t) => isHit(t.text));
  let startTok = 0;
  if (!opening) {
    let best = -1;
    for (let i = 0; i < toks.length; i++) {
      if (!hits[i]) continue;
      const seen = new Set<string>();
      for (let j = i; j < toks.length && j < i + WINDOW; j++) if (hits[j]) seen.add(analyzer.stem(toks[j].text));
      if (seen.size > best) { best = seen.size; startTok = Math.max(0, i - 4); }
    }
  }
  if (!toks.length) return collapse(body.slice(0, MAX_CHARS));
  let from = startTok === 0 ? 0 : toks[startTok].start;
  // Snap the start to a line start when one is close.
  const nl = body.lastIndexOf('\n', from);
  if (startTok !== 0 && nl >= 0 && from - nl < 40) from = nl + 1;
  let to = Math.min(body.length, from + MAX_CHARS);
  const ws = body.indexOf(' ', to);
  if (ws > 0 && ws - to < 20) to = ws;
  const marks: [number, number][] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (t.start >= to) break;
    if (t.start < from || !hits[i] || t.end > to) continue;
    const last = marks[marks.length - 1];
    if (last && t.start < last[1]) continue; // a part inside an already marked identifier
    marks.push([t.start, t.end]);
  }
  let out = '';
  let at = from;
  for (const [s, e] of marks) {
    out += body.slice(at, s) + '**' + body.slice(s, e) + '**';
    at = e;
  }
  out += body.slice(at, to);
  return (from > 0 ? '…' : '') + collapse(out) + (to < body.length ? '…' : '');
}
