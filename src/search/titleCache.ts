// The title bonus's per-note cache: each title form's distinct terms (scoring.ts titleTerms), kept as term
// ids in one Int32Array instead of arrays of strings per note. A query whose words are in every title
// fills it for every note at once; at 100k notes the arrays were about 14 MB, made in one query and kept
// (each a young object that every collection during the query had to copy). An id names the index's own
// string for the term (the lexicon never reuses an id), or one of the few title terms the index does
// not hold (a title of stop words only), kept here.
import type { Analyzer } from './types.js';
import type { InvertedIndex } from './invertedIndex.js';
import { forEachTerm } from './text.js';
import { titleMatchIn, type TitleLeaf } from './scoring.js';

export class TitleTermCache {
  /** Per short id: where its entry starts in `arena`, 0 = not cached yet. */
  private at = new Int32Array(1024);
  /** Entries: form count, then per form its term count and term ids (< 0: an id into `extra`). */
  private arena = new Int32Array(1 << 16);
  private used = 1;
  private readonly extra: string[] = [];
  private readonly extraIds = new Map<string, number>();
  /** The form being matched starts here: termAt reads its i-th term (one closure, not one per form). */
  private base = 0;
  private readonly termAt = (i: number): string => this.term(this.arena[this.base + i]);

  constructor(private readonly ix: InvertedIndex, readonly analyzer: Analyzer) {}

  /** Int32 words in use (the caller remakes the cache when replaced notes' entries pile up). */
  get size(): number {
    return this.used;
  }

  /** The best title match over the note's title forms (scoring.ts titleMatchIn, on the cached ids). */
  bestMatch(doc: number, leaves: readonly TitleLeaf[]): number {
    let p = this.entry(doc);
    const forms = this.arena[p++];
    let best = 0;
    for (let f = 0; f < forms; f++) {
      const n = this.arena[p++];
      this.base = p;
      best = Math.max(best, titleMatchIn(n, this.termAt, leaves));
      p += n;
    }
    return best;
  }

  private term(id: number): string {
    return id >= 0 ? this.ix.lexicon.terms[id] : this.extra[-id - 1];
  }

  private entry(doc: number): number {
    if (doc < this.at.length && this.at[doc]) return this.at[doc];
    if (doc >= this.at.length) { const a = new Int32Array(Math.max(doc + 1, this.at.length * 2)); a.set(this.at); this.at = a; }
    const forms = this.ix.titles[doc].split('\n');
    const start = this.used;
    this.push(forms.length);
    for (const form of forms) {
      const lenAt = this.used;
      this.push(0);
      // Stop words do not count ("art of war" is the whole of "The Art of War"), unless that is all there is.
      // Counted before the store: adding may replace the arena, and `this.arena[…] =` takes it first.
      const n = this.addTerms(form, false) || this.addTerms(form, true);
      this.arena[lenAt] = n;
    }
    this.at[doc] = start;
    return start;
  }

  /** Appends the form's distinct term ids; returns how many. */
  private addTerms(form: string, keepStop: boolean): number {
    const from = this.used;
    forEachTerm(form, this.analyzer, keepStop, (t) => {
      const id = this.idOf(t);
      for (let i = from; i < this.used; i++) if (this.arena[i] === id) return;
      this.push(id);
    });
    return this.used - from;
  }

  private idOf(t: string): number {
    const id = this.ix.termId(t);
    if (id !== undefined) return id;
    let x = this.extraIds.get(t);
    if (x === undefined) { x = -(this.extra.length + 1); this.extra.push(t); this.extraIds.set(t, x); }
    return x;
  }

  private push(v: number): void {
    if (this.used === this.arena.length) { const a = new Int32Array(this.arena.length * 2); a.set(this.arena); this.arena = a; }
    this.arena[this.used++] = v;
  }
}
