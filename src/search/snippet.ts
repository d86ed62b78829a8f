// Snippets: the window of a note's body holding the most distinct query terms, with those terms
// wrapped in **…**. A title or alias match shows the note's opening words instead. %% comments %%
// and lines holding only images or badges are blanked first: they are noise in a result row.
import type { Analyzer } from './analyzer.js';
import { pieceEnd, tokenize, type Token } from './text.js';
import type { Pause } from './persist.js';
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

const COMMENT = /%%[\s\S]*?%%/g;
// One image: ![alt](url), a linked badge [![alt](img)](url), an embed ![[file]], or an <img> tag.
const IMAGE = String.raw`(?:\[!\[[^\]\n]*\]\([^)\n]*\)\]\([^)\n]*\)|!\[[^\]\n]*\]\([^)\n]*\)|!\[\[[^\]\n]+\]\]|<img\b[^>\n]*>)`;
const IMAGE_LINE = new RegExp(String.raw`^[ \t>*-]*(?:${IMAGE}[ \t]*)+\r?$`, 'gm');

/** The body with comments and image/badge-only lines replaced by spaces (offsets and line breaks kept). */
export function maskNoise(body: string): string {
  const blank = (m: string) => m.replace(/[^\n]/g, ' ');
  return body.replace(COMMENT, blank).replace(IMAGE_LINE, blank);
}

export function snippet(text: string, q: SnippetQuery, analyzer: Analyzer, opening: boolean): string {
  return snippetAt(text, q, analyzer, opening).text;
}

/** Characters tokenized between two offers to pause (text.ts's pieceEnd: the pieces' tokens are the whole body's). */
export const SNIPPET_PIECE = 16_384;
/** Tokens looked at for the best window between two offers to pause. */
const SCAN_STEP = 2_048;

type Snip = { text: string; offset: number };

/** The snippet and `offset`: where in `text` (the raw note) its first highlighted hit is (the body start when none). */
export function snippetAt(text: string, q: SnippetQuery, analyzer: Analyzer, opening: boolean): Snip {
  const steps = snippetSteps(text, q, analyzer, opening);
  for (let s = steps.next(); ; s = steps.next()) if (s.done) return s.value;
}

/** snippetAt with `pause()` offered after each piece of the body and each stretch of the window search:
 *  a 309 KB note of the Hub vault took 45-111 ms in one go inside a search call. */
export async function snippetInSlices(text: string, q: SnippetQuery, analyzer: Analyzer, opening: boolean, pause: Pause): Promise<Snip> {
  const steps = snippetSteps(text, q, analyzer, opening);
  for (let s = steps.next(); ; s = steps.next()) {
    if (s.done) return s.value;
    const wait = pause();
    if (wait) await wait;
  }
}

/** The snippet, yielding between pieces (`piece` characters; tests pass small ones). */
export function* snippetSteps(text: string, q: SnippetQuery, analyzer: Analyzer, opening: boolean, piece = SNIPPET_PIECE): Generator<void, Snip, void> {
  const split = splitFrontmatter(text);
  const body = maskNoise(split.body);
  const isHit = (folded: string) => {
    if (q.exact.has(analyzer.stem(folded)) || q.exact.has(folded)) return true;
    return q.prefixes.some((p) => folded.startsWith(p));
  };
  const toks: Token[] = [];
  const hits: boolean[] = [];
  for (let at = 0; at < body.length;) {
    const end = pieceEnd(body, at, piece);
    for (const t of tokenize(body.slice(at, end))) {
      t.start += at;
      t.end += at;
      toks.push(t);
      hits.push(isHit(t.text));
    }
    at = end;
    if (at < body.length) yield;
  }
  let startTok = 0;
  let hitTok = -1;
  if (!opening) {
    let best = -1;
    for (let i = 0; i < toks.length; i++) {
      if (i > 0 && i % SCAN_STEP === 0) yield;
      if (!hits[i]) continue;
      const seen = new Set<string>();
      for (let j = i; j < toks.length && j < i + WINDOW; j++) if (hits[j]) seen.add(analyzer.stem(toks[j].text));
      if (seen.size > best) { best = seen.size; startTok = Math.max(0, i - 4); hitTok = i; }
    }
  }
  if (!toks.length) return { text: collapse(body.slice(0, MAX_CHARS)), offset: split.bodyStart };
  // From the opening: the first visible character (masked badges and comments are blank).
  let from = startTok === 0 ? Math.max(0, body.search(/\S/)) : toks[startTok].start;
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
  // Text before the window that masking blanked out is no cut: no leading ellipsis for it.
  const cut = body.slice(0, from).trim() !== '';
  return { text: (cut ? '…' : '') + collapse(out) + (body.slice(to).trim() !== '' ? '…' : ''), offset: split.bodyStart + (hitTok >= 0 ? toks[hitTok].start : 0) };
}
