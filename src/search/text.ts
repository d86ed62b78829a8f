// Text processing shared by indexing and querying, so both sides always agree: folding (case,
// Latin/Greek/Cyrillic diacritics, Arabic and Hebrew vowel marks, compatibility forms), word
// splitting (identifiers whole and by their parts; Intl.Segmenter for scripts written without
// spaces: CJK, Thai, Lao, Khmer, Myanmar), stop words and stemming per script.
// Pure: no fs, no host. Every token keeps its offsets in the original string (snippets use them).
import type { Analyzer } from './types.js';

export interface Token {
  /** Folded (not yet stemmed) form. */
  text: string;
  start: number;
  end: number;
  /** A part of a larger identifier ("bge" of "bge-m3"); parts are extra index terms. */
  part?: boolean;
}

const FOLD_MAP: Record<string, string> = {
  'ß': 'ss', 'ẞ': 'ss', 'æ': 'ae', 'Æ': 'ae', 'œ': 'oe', 'Œ': 'oe', 'ø': 'o', 'Ø': 'o', 'ł': 'l', 'Ł': 'l',
  'đ': 'd', 'Đ': 'd', 'ð': 'd', 'þ': 'th', 'ı': 'i', 'ſ': 's',
  // Arabic letter variants written interchangeably.
  'أ': 'ا', 'إ': 'ا', 'آ': 'ا', 'ٱ': 'ا', 'ى': 'ي', 'ة': 'ه', 'ؤ': 'و', 'ئ': 'ي',
  '’': "'", 'ʼ': "'",
};
const FOLD_CHARS = new RegExp(`[${Object.keys(FOLD_MAP).join('')}]`, 'g');
// Combining marks removed after NFKD: Latin/Greek/Cyrillic diacritics, Hebrew points and cantillation,
// Arabic harakat and tatweel. Marks that carry meaning (Devanagari, Thai vowels…) are kept.
const STRIP_MARKS = /[\u0300-\u036f\u0591-\u05c7\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06ed\u0640]/g;
const ASCII_SIMPLE = /^[^\u0080-\uffff]*$/;

/** Case- and diacritic-folded form of a string (lengths may change: use per token). */
export function fold(s: string): string {
  if (ASCII_SIMPLE.test(s)) return s.toLowerCase();
  const hit = foldCache.get(s);
  if (hit !== undefined) return hit;
  const out = s.normalize('NFKD').replace(STRIP_MARKS, '').replace(FOLD_CHARS, (c) => FOLD_MAP[c]).normalize('NFC').toLowerCase();
  if (foldCache.size >= 100_000) foldCache.clear();
  foldCache.set(s, out);
  return out;
}
const foldCache = new Map<string, string>();

// A word run: letters, digits and marks, joined by - . _ ' / + (identifiers like bge-m3, v1.2, C++, a_b).
const WORD = /[\p{L}\p{N}\p{M}]+(?:['’\-._][\p{L}\p{N}\p{M}]+)*(?:\+\+|#(?![\p{L}\p{N}]))?/gu;
// Scripts written without spaces between words.
const NO_SPACE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Tibetan}]/u;
const SPLIT_PARTS = /['’\-._]/;

let segmenter: Intl.Segmenter | null | undefined;
/** Creating the segmenter loads ICU's word-break data (about 15 ms): callers that slice their work create
 *  it in a task of its own first (`segmenterMade` / `getSegmenter`) rather than inside a slice. */
export const segmenterMade = (): boolean => segmenter !== undefined;
export function getSegmenter(): Intl.Segmenter | null {
  if (segmenter === undefined) {
    try { segmenter = new Intl.Segmenter(undefined, { granularity: 'word' }); } catch { segmenter = null; }
  }
  return segmenter;
}

function pushWord(out: Token[], raw: string, start: number): void {
  const whole = fold(raw);
  if (!whole) return;
  if (!SPLIT_PARTS.test(raw)) { out.push({ text: whole, start, end: start + raw.length }); return; }
  // Possessive 's / ’s is dropped rather than kept as a part ("Obsidian's" → "obsidian").
  const poss = /^(.+)['’]s$/iu.exec(raw);
  if (poss && !SPLIT_PARTS.test(poss[1])) { out.push({ text: fold(poss[1]), start, end: start + poss[1].length }); return; }
  out.push({ text: whole, start, end: start + raw.length });
  let at = 0;
  for (const piece of raw.split(/(['’\-._])/)) {
    if (piece && !SPLIT_PARTS.test(piece)) {
      const f = fold(piece);
      if (f) out.push({ text: f, start: start + at, end: start + at + piece.length, part: true });
    }
    at += piece.length;
  }
}

/** Splits text into folded tokens with their offsets in `text`. Identifiers yield the whole and its parts. */
export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  WORD.lastIndex = 0;
  for (let m = WORD.exec(text); m; m = WORD.exec(text)) {
    const raw = m[0];
    if (NO_SPACE.test(raw) && getSegmenter()) {
      for (const seg of getSegmenter()!.segment(raw)) {
        if (!seg.isWordLike) continue;
        if (NO_SPACE.test(seg.segment)) {
          const f = fold(seg.segment);
          if (f) out.push({ text: f, start: m.index + seg.index, end: m.index + seg.index + seg.segment.length });
        } else {
          // A Latin/digit run inside a CJK run ("Obsidianで"): treat as a normal word.
          const sub: Token[] = [];
          const inner = new RegExp(WORD.source, 'gu');
          for (let w = inner.exec(seg.segment); w; w = inner.exec(seg.segment)) pushWord(sub, w[0], m.index + seg.index + w.index);
          out.push(...sub);
        }
      }
      WORD.lastIndex = m.index + raw.length;
    } else {
      pushWord(out, raw, m.index);
    }
  }
  return out;
}

/** Index terms of a text: folded tokens, stop words dropped (when the analyzer says so), stemmed. */
export function terms(text: string, analyzer: Analyzer, keepStopWords = false): string[] {
  const out: string[] = [];
  forEachTerm(text, analyzer, keepStopWords, (t) => { out.push(t); });
  return out;
}

const isAlnum = (c: number) => (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90);
const isJoiner = (c: number) => c === 39 || c === 45 || c === 46 || c === 95; // ' - . _
const isSpace = (c: number) => c === 32 || (c >= 9 && c <= 13);

/** Where a piece of `text` starting at `at` ends: `piece` characters on, moved on to the next ASCII white
 *  space, which no token spans (WORD), so tokenizing piece by piece gives the whole text's tokens. */
export function pieceEnd(text: string, at: number, piece: number): number {
  let end = Math.min(text.length, at + piece);
  while (end < text.length && !isSpace(text.charCodeAt(end))) end++;
  return end;
}

/**
 * Calls `fn` with each index term of `text`, in order: the same terms as tokenize() → stop words →
 * stem, without building token objects. Whitespace-separated chunks of plain ASCII are scanned by
 * character code, mirroring WORD exactly; a chunk holding any other character goes through tokenize()
 * (no word spans whitespace, so tokenizing chunk by chunk gives the same tokens as the whole text;
 * test/search/terms-fast.test.ts checks it).
 */
export function forEachTerm(text: string, analyzer: Analyzer, keepStopWords: boolean, fn: (term: string) => void): void {
  const L = text.length;
  let i = 0;
  while (i < L) {
    while (i < L && isSpace(text.charCodeAt(i))) i++;
    if (i >= L) break;
    let e = i;
    let ascii = true;
    while (e < L) {
      const c = text.charCodeAt(e);
      if (isSpace(c)) break;
      if (c >= 128) ascii = false;
      e++;
    }
    if (!ascii) {
      for (const t of tokenize(text.slice(i, e))) if (keepStopWords || !analyzer.isStopWord(t.text)) fn(analyzer.stem(t.text));
      i = e;
      continue;
    }
    let p = i;
    while (p < e) {
      if (!isAlnum(text.charCodeAt(p))) { p++; continue; }
      p = tokenizeTerms(text, p, e, analyzer, keepStopWords, fn);
    }
    i = e;
  }
}

/**
 * The terms of the one word starting at `start` (an ASCII letter or digit) in a plain-ASCII chunk that
 * ends at `end`: WORD's match (letters/digits joined by ' - . _, then ++ or a # not followed by a
 * letter), whole and by its parts; returns where the word ends.
 */
export function tokenizeTerms(text: string, start: number, end: number, analyzer: Analyzer, keepStopWords: boolean, fn: (term: string) => void): number {
  let p = start;
  let joined = false;
  while (p < end && isAlnum(text.charCodeAt(p))) p++;
  while (p + 1 < end && isJoiner(text.charCodeAt(p)) && isAlnum(text.charCodeAt(p + 1))) {
    joined = true;
    p++;
    while (p < end && isAlnum(text.charCodeAt(p))) p++;
  }
  if (p + 1 < end && text.charCodeAt(p) === 43 && text.charCodeAt(p + 1) === 43) p += 2; // ++
  else if (p < end && text.charCodeAt(p) === 35 && !(p + 1 < end && isAlnum(text.charCodeAt(p + 1)))) p += 1; // #
  const raw = text.slice(start, p);
  if (!joined) {
    const w = raw.toLowerCase();
    if (keepStopWords || !analyzer.isStopWord(w)) fn(analyzer.stem(w));
    return p;
  }
  const parts: Token[] = [];
  pushWord(parts, raw, start);
  for (const t of parts) if (keepStopWords || !analyzer.isStopWord(t.text)) fn(analyzer.stem(t.text));
  return p;
}
