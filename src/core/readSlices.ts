// The pieces of a note a read returns: a page that ends on a line boundary (never inside a wikilink
// or a surrogate pair), a range of lines, and the lines that hold a match with a few lines of context.
// Line numbers are 1-based over the whole file (frontmatter included), as editors, get_links and
// list_tasks count them.
import { refuse } from './errors.js';

/** Offsets where each line starts (index 0 = line 1). */
export function lineStarts(text: string): number[] {
  const out = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) out.push(i + 1);
  return out;
}

/** 1-based line of an offset. */
export function lineAt(starts: number[], offset: number): number {
  let lo = 0, hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid; else hi = mid - 1;
  }
  return lo + 1;
}

/** Lines in the file: a final line break does not open another line. */
export function lineCount(text: string, starts = lineStarts(text)): number {
  return text.endsWith('\n') ? starts.length - 1 : starts.length;
}

/** End offset of line `n` (1-based), without its line break (and a CR before it). */
export function lineEnd(text: string, starts: number[], n: number): number {
  const e = n < starts.length ? starts[n] - 1 : text.length;
  return e > starts[n - 1] && text[e - 1] === '\r' ? e - 1 : e;
}

/**
 * Where a page of `text` starting at `start` with room for `cap` characters ends: the whole rest when
 * it fits; else after the last line break inside the room; for a single line longer than the room,
 * before a wikilink or embed that would be cut, and never between the halves of a surrogate pair.
 */
export function pageEnd(text: string, start: number, cap: number): number {
  let end = Math.min(text.length, start + cap);
  if (end >= text.length) return text.length;
  const nl = text.lastIndexOf('\n', end - 1);
  if (nl >= start) return nl + 1;
  const open = text.lastIndexOf('[[', end - 1);
  if (open > start && text.lastIndexOf(']]', end - 1) < open) end = open > 0 && text[open - 1] === '!' ? open - 1 : open;
  else if (open === end - 1) end -= 1; // a lone '[' at the cut may be half of '[['
  if (end > start && /[\uD800-\uDBFF]/.test(text[end - 1] ?? '')) end -= 1;
  return Math.max(end, Math.min(text.length, start + 1));
}

/** "410-445", "410", "410-" (to the end) or "-20" (from the start) → [first, last], 1-based, inclusive. */
export function parseLineRange(spec: string, total: number): [number, number] {
  const m = /^\s*(\d+)?\s*(?:([-–:])\s*(\d+)?)?\s*$/.exec(spec);
  if (!m || (m[1] === undefined && m[3] === undefined)) refuse('invalid_argument', `lines="${spec}" is not a line range; use "410-445", "410", "410-" (to the end) or "-20".`);
  const first = m[1] !== undefined ? Number(m[1]) : 1;
  const last = m[3] !== undefined ? Number(m[3]) : m[2] !== undefined ? total : first;
  if (first < 1 || last < first) refuse('invalid_argument', `lines="${spec}" is empty or backwards; lines count from 1 and the range must not run backwards.`);
  if (first > total) refuse('invalid_argument', `lines="${spec}" starts after the end: the note has ${total} lines.`, { total_lines: total });
  return [first, Math.min(last, total)];
}

export interface MatchBlock {
  /** 1-based lines of the block, context included. */
  first: number;
  last: number;
  /** Offset of the first matching line's start (for its section). */
  hitOffset: number;
  /** Lines of the block that hold a match. */
  hits: number[];
}

function fold(s: string): string {
  return s.normalize('NFC').toLowerCase();
}

/**
 * Lines (within [from, to] of the file) that contain `needle` ignoring case, grouped with `context`
 * lines around each into blocks; overlapping or touching blocks merge. A needle spanning lines is
 * matched exactly and counts for each line it covers.
 */
export function matchBlocks(text: string, starts: number[], needle: string, context: number, from: number, to: number): { blocks: MatchBlock[]; matches: number } {
  const total = lineCount(text, starts);
  const hit = new Set<number>();
  if (needle.includes('\n')) {
    const lo = starts[from - 1], hi = lineEnd(text, starts, to);
    for (let i = text.indexOf(needle, lo); i >= 0 && i + needle.length <= hi; i = text.indexOf(needle, i + 1)) {
      for (let l = lineAt(starts, i); l <= lineAt(starts, i + needle.length - 1); l++) hit.add(l);
    }
  } else {
    const want = fold(needle);
    for (let l = from; l <= to; l++) if (fold(text.slice(starts[l - 1], lineEnd(text, starts, l))).includes(want)) hit.add(l);
  }
  const lines = [...hit].sort((a, b) => a - b);
  const blocks: MatchBlock[] = [];
  for (const l of lines) {
    const first = Math.max(from, l - context), last = Math.min(to, total, l + context);
    const prev = blocks[blocks.length - 1];
    if (prev && first <= prev.last + 1) { prev.last = Math.max(prev.last, last); prev.hits.push(l); } else blocks.push({ first, last, hitOffset: starts[l - 1], hits: [l] });
  }
  return { blocks, matches: lines.length };
}

/** The text of lines first..last (1-based, inclusive), without the last line's break. */
export function linesText(text: string, starts: number[], first: number, last: number): string {
  return text.slice(starts[first - 1], lineEnd(text, starts, last));
}
