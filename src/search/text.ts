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
function getSegmenter(): Intl.Segmenter | null {
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
  for (const t of tokenize(text)) {
    if (!keepStopWords && analyzer.isStopWord(t.text)) continue;
    out.push(analyzer.stem(t.text));
  }
  return out;
}
