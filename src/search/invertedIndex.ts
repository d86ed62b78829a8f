// The keyword index in memory: one document per note with the fields title / aliases / headings / tags /
// body, an inverted index from each term to its packed postings per field, and the per-note figures
// ranking needs (field lengths, display title, aliases). Terms live in MiniSearch's SearchableMap (its
// public radix tree, `minisearch/SearchableMap`) for prefix search, plus a plain Map for exact lookups.
// Nothing here touches MiniSearch's private state (README, "Keyword search internals").
//
// Short ids number notes in the order they were added; a changed note is removed and added again
// under a new id (removal only marks it dead; `vacuum` drops dead postings later, in slices).
import SearchableMap from 'minisearch/SearchableMap';
import type { Analyzer } from './types.js';
import { forEachTerm } from './text.js';
import { Postings } from './postings.js';

export const FIELDS = ['title', 'aliases', 'headings', 'tags', 'body'] as const;
export type Field = (typeof FIELDS)[number];
export const NF = FIELDS.length;
export const TITLE = 0;
export const ALIASES = 1;
/** Fields whose stop words are indexed (a title like "The The" stays findable). */
const KEEP_STOP = [true, true, true, false, false];

/** A note as the index sees it (src/search/document.ts builds it). */
export interface IndexedDoc {
  id: string;
  /** Every title form and the file name's id prefix, one per line (each distinct term counts once). */
  title: string;
  /** The display title, then the other title forms, one per line (for title matching and results). */
  titles: string;
  aliases: string;
  headings: string;
  tags: string;
  body: string;
}

/** A term's postings by field index (undefined where the field never has the term). */
export type TermEntry = (Postings | undefined)[];

export class InvertedIndex {
  /** Terms for prefix search (radix tree). */
  readonly dict = new SearchableMap<TermEntry>();
  /** The same entries for exact lookups (a hash lookup instead of a tree walk). */
  readonly exact = new Map<string, TermEntry>();
  /** Path by short id (undefined once removed). */
  paths: (string | undefined)[] = [];
  readonly ids = new Map<string, number>();
  /** Field lengths (distinct terms per field), NF per short id. */
  lengths = new Uint32Array(64 * NF);
  /** 1 for a live short id. */
  live = new Uint8Array(64);
  /** `titles` and `aliases` of each note by short id. */
  titles: string[] = [];
  aliases: string[] = [];
  nextId = 0;
  /** Removed notes whose postings are still in the lists. */
  dirt = 0;
  /** Changes so far (caches derived from the index compare it). */
  version = 0;
  /** Per field: total length over live notes, and live notes where the field is not empty (integers: exact in any order). */
  private sums = new Array<number>(NF).fill(0);
  private have = new Array<number>(NF).fill(0);

  get documentCount(): number {
    return this.ids.size;
  }

  has(path: string): boolean {
    return this.ids.has(path);
  }

  /** The title shown for a note (the first of its title forms), or null when it is not indexed. */
  displayTitle(path: string): string | null {
    const id = this.ids.get(path);
    if (id === undefined) return null;
    const t = this.titles[id];
    const nl = t.indexOf('\n');
    return nl < 0 ? t : t.slice(0, nl);
  }

  /** Mean length of a field over the notes that have it (sparse fields are not diluted by notes without them). */
  averageLength(field: number): number {
    return this.have[field] ? this.sums[field] / this.have[field] : 1;
  }

  term(t: string): TermEntry | undefined {
    return this.exact.get(t);
  }

  /** Every indexed term starting with `prefix` (the prefix itself included when indexed). */
  withPrefix(prefix: string): Iterable<[string, TermEntry]> {
    return this.dict.atPrefix(prefix);
  }

  private entry(t: string): TermEntry {
    let e = this.exact.get(t);
    if (!e) {
      e = new Array<Postings | undefined>(NF);
      this.exact.set(t, e);
      this.dict.set(t, e);
    }
    return e;
  }

  /** Room for short id `id` in the per-note arrays. */
  private reserve(id: number): void {
    if (id < this.live.length) return;
    let cap = this.live.length;
    while (cap <= id) cap *= 2;
    const live = new Uint8Array(cap);
    live.set(this.live);
    this.live = live;
    const lengths = new Uint32Array(cap * NF);
    lengths.set(this.lengths);
    this.lengths = lengths;
  }

  /** Registers a note under a new short id with its field lengths, before its postings are written. */
  private admit(path: string, lengths: ArrayLike<number>, at: number, titles: string, aliases: string): number {
    if (this.ids.has(path)) throw new Error(`keyword index: ${path} is already indexed`);
    const id = this.nextId++;
    this.reserve(id);
    this.ids.set(path, id);
    this.paths[id] = path;
    this.titles[id] = titles;
    this.aliases[id] = aliases;
    this.live[id] = 1;
    for (let f = 0; f < NF; f++) {
      const l = lengths[at + f];
      this.lengths[id * NF + f] = l;
      if (l) { this.sums[f] += l; this.have[f]++; }
    }
    this.version++;
    return id;
  }

  /** Indexes a note (its path must not be indexed yet). */
  add(doc: IndexedDoc, analyzer: Analyzer): void {
    const counts: Map<string, number>[] = [];
    const lengths = new Array<number>(NF);
    for (let f = 0; f < NF; f++) {
      const c = new Map<string, number>();
      const text = doc[FIELDS[f]];
      if (text) {
        // A title written several ways (file name, H1, frontmatter) is still one title: each term once.
        if (f === TITLE) forEachTerm(text, analyzer, true, (t) => { c.set(t, 1); });
        else forEachTerm(text, analyzer, KEEP_STOP[f], (t) => { c.set(t, (c.get(t) ?? 0) + 1); });
      }
      counts.push(c);
      lengths[f] = c.size;
    }
    const id = this.admit(doc.id, lengths, 0, doc.titles, doc.aliases);
    for (let f = 0; f < NF; f++) {
      for (const [t, n] of counts[f]) {
        const e = this.entry(t);
        (e[f] ??= new Postings()).append(id, n);
      }
    }
  }

  /** Marks a note removed (its postings stay until `vacuum`); false when it was not indexed. */
  remove(path: string): boolean {
    const id = this.ids.get(path);
    if (id === undefined) return false;
    this.ids.delete(path);
    this.paths[id] = undefined;
    this.titles[id] = '';
    this.aliases[id] = '';
    this.live[id] = 0;
    for (let f = 0; f < NF; f++) {
      const l = this.lengths[id * NF + f];
      if (l) { this.sums[f] -= l; this.have[f]--; }
      this.lengths[id * NF + f] = 0;
    }
    this.dirt++;
    this.version++;
    return true;
  }

  /** Whether enough notes were removed that dropping their postings is worth a pass. */
  needsVacuum(): boolean {
    return this.dirt >= 20 && this.dirt >= 0.1 * this.ids.size;
  }

  /**
   * Drops the postings of removed notes and the terms left without any, yielding to `pause` between
   * slices (the caller decides how long a slice may run). Queries may run in between: every list is
   * consistent at each pause.
   */
  async vacuum(pause: () => Promise<void> | null): Promise<void> {
    const dirt = this.dirt;
    const empty: string[] = [];
    let n = 0;
    for (const [t, e] of this.exact) {
      let any = false;
      for (let f = 0; f < NF; f++) {
        const p = e[f];
        if (!p) continue;
        if (p.keepLive(this.live)) any = true; else e[f] = undefined;
      }
      if (!any) empty.push(t);
      if ((++n & 255) === 0) { const w = pause(); if (w) await w; }
    }
    for (const t of empty) {
      const e = this.exact.get(t);
      // A note added during a pause may have given the term postings again.
      if (e && e.every((p) => !p || !p.size)) { this.exact.delete(t); this.dict.delete(t); }
    }
    this.dirt = Math.max(0, this.dirt - dirt);
    this.version++;
  }

  /** Restores a note from a saved index: its field lengths are lengths[at … at + NF) (postings follow through `restoreTerm`). */
  restoreDoc(path: string, lengths: ArrayLike<number>, at: number, titles: string, aliases: string): number {
    return this.admit(path, lengths, at, titles, aliases);
  }

  restoreTerm(t: string, e: TermEntry): void {
    this.exact.set(t, e);
    this.dict.set(t, e);
  }
}
