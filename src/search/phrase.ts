// Phrase checks on a note's text: the alt's terms as a contiguous run of the text's index terms (stop
// words dropped, stemmed, as the index saw them). A long note is checked a piece at a time, pausing
// between pieces: a 280 KB note of the Hub vault took 25-40 ms in one go.
import type { Analyzer } from './types.js';
import type { Alt } from './query.js';
import type { Pause } from './persist.js';
import { pieceEnd, tokenize } from './text.js';

/** Characters per piece (the cut is moved on to the next ASCII white space). */
export const PHRASE_PIECE = 16_384;

/** Whether every group has an alt whose phrase the text holds (a query's phrase clauses for one note). */
export async function phrasesHold(text: string, groups: readonly (readonly Alt[])[], analyzer: Analyzer, pause?: Pause): Promise<boolean> {
  for (const alts of groups) {
    let held = false;
    for (const a of alts) if (await hasPhrase(text, a, analyzer, pause)) { held = true; break; }
    if (!held) return false;
  }
  return true;
}

/**
 * Does the text contain the alt's terms as a contiguous run? Read a piece at a time. Pieces end at
 * white space, which no token spans (text.ts's WORD), so the pieces' tokens are the whole text's; the
 * last terms of a piece are carried into the next, so a run across the cut is found.
 */
export async function hasPhrase(text: string, alt: Alt, analyzer: Analyzer, pause?: Pause, piece = PHRASE_PIECE): Promise<boolean> {
  const want = alt.terms;
  let carry: string[] = [];
  for (let at = 0; at < text.length;) {
    const end = pieceEnd(text, at, piece);
    const seq = termsOf(text.slice(at, end), analyzer, carry);
    if (runIn(seq, want)) return true;
    carry = want.length > 1 ? seq.slice(Math.max(0, seq.length - (want.length - 1))) : [];
    at = end;
    if (at < text.length) { const wait = pause?.(); if (wait) await wait; }
  }
  return false;
}

function termsOf(text: string, analyzer: Analyzer, seq: string[]): string[] {
  const out = seq.slice();
  for (const t of tokenize(text)) if (!t.part && !analyzer.isStopWord(t.text)) out.push(analyzer.stem(t.text));
  return out;
}

function runIn(seq: readonly string[], want: readonly string[]): boolean {
  outer: for (let i = 0; i + want.length <= seq.length; i++) {
    for (let j = 0; j < want.length; j++) if (seq[i + j] !== want[j]) continue outer;
    return true;
  }
  return false;
}
