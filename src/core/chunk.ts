// Heading-aware chunking for embeddings (pure). Every heading's own text (up to the next heading) is
// chunked under that heading's ordinal, so a result opens with read_note(section="#N"); text longer
// than the token budget is split into windows that prefer paragraph, line and sentence breaks and
// repeat `overlapTokens` of the previous window. Each chunk is embedded under "Title > Heading > Sub".
import type { OutlineEntry } from './markdown/sections.js';

export interface ChunkOptions {
  /** Largest chunk, in (estimated) tokens, prefix included. */
  maxTokens: number;
  /** Tokens repeated at the start of the next window when a section is split. */
  overlapTokens: number;
  /** Token counter; defaults to `estimateTokens` (word pieces of a BERT-like tokenizer, roughly). */
  countTokens?: (text: string) => number;
}

export interface Chunk {
  /** Ordinal of the section the chunk lies in ("#3"), null before the first heading. */
  ordinal: string | null;
  /** Heading text of that section ('' before the first heading). */
  heading: string;
  /** UTF-16 offsets of the chunk's body in the raw note text. */
  start: number;
  end: number;
  /** What is embedded: prefix line, blank line, body. */
  text: string;
}

/** Chunking parameters that change vectors; part of the index fingerprint. */
export function chunkingKey(o: ChunkOptions): string {
  return `heading-v1:max${o.maxTokens}:ov${o.overlapTokens}`;
}

const TOKEN_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]|[\p{L}\p{M}\p{N}_]+|[^\s\p{L}\p{M}\p{N}_]/gu;

/** Weight of one regex token: long words split into several word pieces. */
function weight(tok: string): number {
  return tok.length > 6 ? 1 + Math.floor((tok.length - 1) / 6) : 1;
}

export function estimateTokens(text: string): number {
  let n = 0;
  for (const m of text.matchAll(TOKEN_RE)) n += weight(m[0]);
  return n;
}

export function chunkPrefix(title: string, headingPath: string[]): string {
  return [title, ...headingPath].map((s) => s.replace(/\s+/g, ' ').trim()).filter(Boolean).join(' > ');
}

interface Span { start: number; end: number; w: number }

function spans(text: string, from: number, to: number): Span[] {
  const out: Span[] = [];
  const slice = text.slice(from, to);
  for (const m of slice.matchAll(TOKEN_RE)) out.push({ start: from + m.index, end: from + m.index + m[0].length, w: weight(m[0]) });
  return out;
}

/** Best place to end a window ending at or before token `hi` (exclusive), not before `lo`. */
function breakAt(text: string, toks: Span[], lo: number, hi: number): number {
  const minK = lo + Math.max(1, Math.floor((hi - lo) * 0.6));
  let sentence = -1;
  let line = -1;
  for (let k = hi - 1; k >= minK; k--) {
    const gap = text.slice(toks[k - 1].end, toks[k].start);
    if (/\n[ \t]*\n/.test(gap)) return k;
    if (line < 0 && gap.includes('\n')) line = k;
    if (sentence < 0 && /[.!?。！？]$/.test(text.slice(toks[k - 1].start, toks[k - 1].end))) sentence = k;
  }
  return line > 0 ? line : sentence > 0 ? sentence : hi;
}

/** Windows over [from, to) of at most `budget` tokens with `overlap` tokens carried over. */
function windows(text: string, from: number, to: number, budget: number, overlap: number): { start: number; end: number }[] {
  const toks = spans(text, from, to);
  if (!toks.length) return [];
  const out: { start: number; end: number }[] = [];
  let i = 0;
  while (i < toks.length) {
    let w = 0;
    let j = i;
    while (j < toks.length && (w + toks[j].w <= budget || j === i)) { w += toks[j].w; j++; }
    const cut = j >= toks.length ? toks.length : breakAt(text, toks, i, j);
    out.push({ start: toks[i].start, end: toks[cut - 1].end });
    if (cut >= toks.length) break;
    let back = cut;
    let ow = 0;
    while (back > i + 1 && ow + toks[back - 1].w <= overlap) { ow += toks[back - 1].w; back--; }
    i = back;
  }
  return out;
}

/**
 * Chunks one note. `text` is the raw file text, `bodyStart` the offset after the frontmatter block,
 * `outline` its sections (buildOutline). Empty notes give one title-only chunk so they stay findable.
 */
export function chunkNote(title: string, text: string, bodyStart: number, outline: OutlineEntry[], opts: ChunkOptions): Chunk[] {
  const count = opts.countTokens ?? estimateTokens;
  const out: Chunk[] = [];
  const push = (entry: OutlineEntry | null, start: number, end: number) => {
    const body = text.slice(start, end).trim();
    if (!body) return;
    const prefix = chunkPrefix(title, entry?.path ?? []);
    out.push({ ordinal: entry?.ordinal ?? null, heading: entry?.text ?? '', start, end, text: `${prefix}\n\n${body}` });
  };
  /** Chunks [from, to) as windows under `entry`'s prefix. */
  const split = (entry: OutlineEntry | null, from: number, to: number) => {
    if (!text.slice(from, to).trim()) return;
    const prefixTokens = count(chunkPrefix(title, entry?.path ?? [])) + 2;
    const budget = Math.max(16, opts.maxTokens - prefixTokens);
    if (count(text.slice(from, to)) <= budget) { push(entry, from, to); return; }
    for (const w of windows(text, from, to, budget, Math.min(opts.overlapTokens, Math.floor(budget / 2)))) push(entry, w.start, w.end);
  };
  // Each heading's own text (up to its first sub-heading, or the next heading) is chunked under its
  // ordinal; the text before the first heading belongs to the note itself (ordinal null).
  split(null, bodyStart, outline.length ? Math.max(bodyStart, outline[0].start) : text.length);
  outline.forEach((e, i) => split(e, e.bodyStart, i + 1 < outline.length ? Math.min(e.end, outline[i + 1].start) : e.end));
  if (!out.length) out.push({ ordinal: null, heading: '', start: bodyStart, end: bodyStart, text: chunkPrefix(title, []) });
  return out;
}
