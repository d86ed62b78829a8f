// Term ids for indexing: every index term gets a small integer id, and plain ASCII words (most words of
// most notes) are looked up straight from the note's text in a hash table of the words seen so far,
// so indexing allocates no string per word and counts terms in typed arrays instead of maps. A word
// seen before costs one hash over its characters and one probe; a new word is analysed once (stop
// word? stem?) and remembered. Identifiers joined by ' - . _ are looked up whole and by parts the same
// way; C++, C# and chunks holding other scripts take the string path of text.ts. Both paths give exactly the terms of `terms()` (test/search/terms-fast.test.ts).
import type { Analyzer } from './types.js';
import { forEachTerm, tokenizeTerms } from './text.js';
import { ShardedMap } from '../core/shardedMap.js';

const isAlnum = (c: number) => (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90);
const isJoiner = (c: number) => c === 39 || c === 45 || c === 46 || c === 95; // ' - . _
const isSpace = (c: number) => c === 32 || (c >= 9 && c <= 13);
const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 16777619;

export class Lexicon {
  /** Term → id, and id → term. */
  readonly ids = new ShardedMap<number>();
  readonly terms: string[] = [];
  // Plain ASCII words (lower-cased) → word index, open addressing: slot holds word index + 1.
  private analyzer: Analyzer | null = null;
  private cap = 1 << 12;
  private slots = new Int32Array(this.cap);
  private hashes = new Int32Array(this.cap);
  private words: string[] = [];
  /** Per word: its term id (the stem), and whether it is a stop word. */
  private wordTerm = new Int32Array(this.cap);
  private wordStop = new Uint8Array(this.cap);

  get size(): number {
    return this.terms.length;
  }

  /** The id of a term, adding it when new. */
  idOf(term: string): number {
    let id = this.ids.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.terms.push(term);
      this.ids.set(term, id);
    }
    return id;
  }

  /** Forgets the word table (not the term ids): after the analyzer changes, or terms were dropped. */
  resetWords(): void {
    this.cap = 1 << 12;
    this.slots = new Int32Array(this.cap);
    this.hashes = new Int32Array(this.cap);
    this.words = [];
    this.wordTerm = new Int32Array(this.cap);
    this.wordStop = new Uint8Array(this.cap);
  }

  /** Drops a term id's name (its postings are gone); a later use of the term gets a new id. */
  forget(term: string): void {
    this.ids.delete(term);
  }

  /** Word index of text[s, e) (plain ASCII), lower-cased, added when new. */
  private word(text: string, s: number, e: number, analyzer: Analyzer): number {
    let h = FNV_OFFSET;
    for (let i = s; i < e; i++) {
      let c = text.charCodeAt(i);
      if (c <= 90 && c >= 65) c += 32;
      h = Math.imul(h ^ c, FNV_PRIME);
    }
    return this.wordHashed(text, s, e, h, analyzer);
  }

  /** word() with the lower-cased FNV-1a hash of text[s, e) already computed. */
  private wordHashed(text: string, s: number, e: number, h: number, analyzer: Analyzer): number {
    const mask = this.cap - 1;
    const len = e - s;
    let i = h & mask;
    for (;;) {
      const v = this.slots[i];
      if (v === 0) break;
      if (this.hashes[i] === h) {
        const w = this.words[v - 1];
        if (w.length === len) {
          let k = 0;
          for (; k < len; k++) {
            let c = text.charCodeAt(s + k);
            if (c <= 90 && c >= 65) c += 32;
            if (w.charCodeAt(k) !== c) break;
          }
          if (k === len) return v - 1;
        }
      }
      i = (i + 1) & mask;
    }
    const w = text.slice(s, e).toLowerCase();
    const index = this.words.length;
    this.words.push(w);
    this.slots[i] = index + 1;
    this.hashes[i] = h;
    this.wordTerm[index] = this.idOf(analyzer.stem(w));
    this.wordStop[index] = analyzer.isStopWord(w) ? 1 : 0;
    if (this.words.length * 2 > this.cap) this.grow();
    return index;
  }

  private grow(): void {
    const old = { cap: this.cap, slots: this.slots, hashes: this.hashes };
    this.cap *= 2;
    const mask = this.cap - 1;
    this.slots = new Int32Array(this.cap);
    this.hashes = new Int32Array(this.cap);
    for (let j = 0; j < old.cap; j++) {
      if (!old.slots[j]) continue;
      let k = old.hashes[j] & mask;
      while (this.slots[k]) k = (k + 1) & mask;
      this.slots[k] = old.slots[j];
      this.hashes[k] = old.hashes[j];
    }
    const term = new Int32Array(this.cap);
    term.set(this.wordTerm);
    this.wordTerm = term;
    const stop = new Uint8Array(this.cap);
    stop.set(this.wordStop);
    this.wordStop = stop;
  }

  /** Term ids of the current whitespace-separated chunk, emitted once the chunk proves plain ASCII. */
  private pending = new Int32Array(64);
  private npending = 0;

  private push(id: number): void {
    if (this.npending === this.pending.length) {
      const next = new Int32Array(this.pending.length * 2);
      next.set(this.pending);
      this.pending = next;
    }
    this.pending[this.npending++] = id;
  }

  private pushWord(word: number, keepStopWords: boolean): void {
    if (keepStopWords || !this.wordStop[word]) this.push(this.wordTerm[word]);
  }

  /**
   * Calls `fn` with the term id of each index term of `text`, in order (the terms of `terms(text, analyzer,
   * keepStopWords)`). One pass: plain words are hashed while they are scanned; a chunk (between
   * whitespace) that turns out to hold another script is redone by the general tokenizer.
   */
  forEachTermId(text: string, analyzer: Analyzer, keepStopWords: boolean, fn: (id: number) => void): void {
    if (analyzer !== this.analyzer) { this.resetWords(); this.analyzer = analyzer; }
    const toPending = (t: string) => this.push(this.idOf(t));
    const L = text.length;
    let chunk = 0;
    this.npending = 0;
    let p = 0;
    for (;;) {
      const c = p < L ? text.charCodeAt(p) : 32;
      if (isSpace(c) || c >= 128) {
        if (c >= 128) {
          // Another script in this chunk: the general tokenizer for the whole chunk (same terms, see forEachTerm).
          let e = p;
          while (e < L && !isSpace(text.charCodeAt(e))) e++;
          this.npending = 0;
          forEachTerm(text.slice(chunk, e), analyzer, keepStopWords, toPending);
          p = e;
        }
        for (let j = 0; j < this.npending; j++) fn(this.pending[j]);
        this.npending = 0;
        if (p >= L) return;
        p++;
        chunk = p;
        continue;
      }
      if (!isAlnum(c)) { p++; continue; }
      // WORD's match, as in text.ts: letters/digits, possibly joined by ' - . _ (an identifier, a date,
      // a URL piece: indexed whole and by its parts; "x's" is just "x"), or ending in ++ / #.
      const start = p;
      let h = FNV_OFFSET;
      for (; p < L; p++) {
        let d = text.charCodeAt(p);
        if (!isAlnum(d)) break;
        if (d <= 90 && d >= 65) d += 32;
        h = Math.imul(h ^ d, FNV_PRIME);
      }
      const next = p < L ? text.charCodeAt(p) : 32;
      const joined = p + 1 < L && isJoiner(next) && isAlnum(text.charCodeAt(p + 1));
      if (!joined && next !== 43 && next !== 35) { this.pushWord(this.wordHashed(text, start, p, h, analyzer), keepStopWords); continue; }
      let e = p;
      while (e < L && !isSpace(text.charCodeAt(e)) && text.charCodeAt(e) < 128) e++;
      if (e < L && text.charCodeAt(e) >= 128) { p = e; continue; } // the chunk is redone above
      if (!joined) { p = tokenizeTerms(text, start, e, analyzer, keepStopWords, toPending); continue; } // C++, C#
      let joiners = 0;
      let lastJoin = -1;
      while (p + 1 < e && isJoiner(text.charCodeAt(p)) && isAlnum(text.charCodeAt(p + 1))) {
        joiners++;
        lastJoin = p;
        p++;
        while (p < e && isAlnum(text.charCodeAt(p))) p++;
      }
      const after = p < e ? text.charCodeAt(p) : 32;
      if ((after === 43 && p + 1 < e && text.charCodeAt(p + 1) === 43) || after === 35) {
        p = tokenizeTerms(text, start, e, analyzer, keepStopWords, toPending);
        continue;
      }
      if (joiners === 1 && text.charCodeAt(lastJoin) === 39 && p - lastJoin === 2 && (text.charCodeAt(lastJoin + 1) | 32) === 115) {
        this.pushWord(this.word(text, start, lastJoin, analyzer), keepStopWords);
        continue;
      }
      this.pushWord(this.word(text, start, p, analyzer), keepStopWords);
      let from = start;
      for (let k = start; k <= p; k++) {
        if (k < p && !isJoiner(text.charCodeAt(k))) continue;
        this.pushWord(this.word(text, from, k, analyzer), keepStopWords);
        from = k + 1;
      }
    }
  }
}
