// The keyword index in memory: one document per note with the fields title / aliases / headings / tags /
// body, an inverted index from each term to its packed postings per field, and the per-note figures
// ranking needs (field lengths, display title, aliases). Terms have integer ids (lexicon.ts); their
// names live in a Map for exact lookups and in MiniSearch's SearchableMap (its public radix tree,
// `minisearch/SearchableMap`) for prefix search. Nothing here touches MiniSearch's private state
// (README, "Keyword search internals").
//
// Short ids number notes in the order they were added; a changed note is removed and added again
// under a new id (removal only marks it dead; `vacuum` drops dead postings later, in slices).
import SearchableMap from 'minisearch/SearchableMap';
import type { Analyzer } from './types.js';
import { Lexicon } from './lexicon.js';
import { PostingCursor, PostingStore } from './postings.js';
import { ArrayGrowth, ArraysGrowth, type GrownArray } from './arrayGrowth.js';
import { ShardedMap } from '../core/shardedMap.js';
import { nextTurn } from '../core/turns.js';

/** Per-note typed arrays: live, lengths, mtimes, sizes, marks, hashes (growNoteArray). */
const NOTE_ARRAYS = 6;

export const FIELDS = ['title', 'aliases', 'headings', 'tags', 'body'] as const;
export type Field = (typeof FIELDS)[number];
export const NF = FIELDS.length;
/** Entries per note of each per-note array (live, lengths, mtimes, sizes, marks, hashes). */
const NOTE_WIDTH = [1, NF, 1, 1, 1, 32];
/** A new per-note array `k` of `n` entries. */
const newNoteArray = (k: number, n: number): GrownArray => (k === 0 || k === 5 ? new Uint8Array(n) : k === 1 ? new Uint32Array(n) : new Float64Array(n));
export const TITLE = 0;
export const ALIASES = 1;
const NO_LENGTHS = new Array<number>(5).fill(0);
/** Notes longer than this (characters over all fields) are analysed in pieces of about this size (addSteps). */
const PIECE = 32_768;
/** List bytes left behind by growing lists that alone never call for a rewrite. */
const WASTE_MIN = 8 << 20;
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

export class InvertedIndex {
  readonly lexicon = new Lexicon();
  /**
   * Term → id for prefix search (radix tree; exact lookups use lexicon.ids). Filled after the fact, in
   * slices (`catchUpDict`), once the service has seen a prefix query; terms not in it yet are found
   * by a scan (`withPrefix`).
   */
  readonly dict = new SearchableMap<number>();
  /** Term ids below this are in `dict`. */
  private dictUpTo = 0;
  /** Postings by slot = term id × NF + field index (postings.ts). */
  readonly store = new PostingStore();
  /** Path by short id (undefined once removed). */
  paths: (string | undefined)[] = [];
  readonly ids = new ShardedMap<number>();
  /** Field lengths (distinct terms per field), NF per short id. */
  lengths = new Uint32Array(64 * NF);
  /** 1 for a live short id. */
  live = new Uint8Array(64);
  /**
   * What the note's file was when it was indexed, by short id (the service compares them with the disk):
   * mtime and size, and the SHA-256 of its text (32 bytes each). `marks` change at every add or record,
   * so a caller can tell whether a note was updated while it waited (markOf).
   */
  mtimes = new Float64Array(64);
  sizes = new Float64Array(64);
  hashes = new Uint8Array(64 * 32);
  private marks = new Float64Array(64);
  private markSeq = 0;
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
  // Per-note counting scratch, by term id (grown with the lexicon).
  private counts = new Int32Array(1024);
  private seen: number[] = [];

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

  /** The id of an indexed term, or undefined. */
  termId(t: string): number | undefined {
    return this.lexicon.ids.get(t);
  }

  /** Every indexed term starting with `prefix` (the prefix itself included when indexed), with its id. */
  withPrefix(prefix: string): [string, number][] {
    const out = [...this.dict.atPrefix(prefix)];
    const { terms, ids } = this.lexicon;
    for (let t = this.dictUpTo; t < terms.length; t++) if (terms[t].startsWith(prefix) && ids.get(terms[t]) === t) out.push([terms[t], t]);
    return out;
  }

  /** Puts the terms added since the last call into the prefix tree, yielding to `pause` between slices. */
  async catchUpDict(pause: () => Promise<void> | null, abandoned: () => boolean = () => false): Promise<void> {
    const { terms, ids } = this.lexicon;
    while (this.dictUpTo < terms.length) {
      const t = this.dictUpTo++;
      if (ids.get(terms[t]) === t) this.dict.set(terms[t], t);
      // The clock every 4 terms: a radix-tree insert can be slow (it walks a node's children), 32 overshot the slice.
      if ((t & 3) === 3) { const w = pause(); if (w) await w; if (abandoned()) return; }
    }
  }

  /** Room for term ids below the lexicon's size. */
  private reserveTerms(): void {
    const n = this.lexicon.size;
    if (this.counts.length < n) {
      let cap = this.counts.length;
      while (cap < n) cap *= 2;
      const c = new Int32Array(cap);
      c.set(this.counts);
      this.counts = c;
    }
    this.store.reserve(n * NF);
  }

  /** Room for short id `id` in the per-note arrays (exactly up to it when `exact`: a loaded index). */
  reserve(id: number, exact = false): void {
    const room = this.noteRoom();
    if (id < room) return;
    let cap = exact ? id + 1 : room;
    while (cap <= id) cap *= 2;
    for (let k = 0; k < NOTE_ARRAYS; k++) this.growNoteArray(k, cap);
    this.noteGrowth = null;
  }

  /** Notes every per-note array has room for (they grow one at a time, see growAhead). */
  private noteRoom(): number {
    let room = Infinity;
    for (let k = 0; k < NOTE_ARRAYS; k++) room = Math.min(room, this.noteArray(k).length / NOTE_WIDTH[k]);
    return room;
  }

  /** A new per-note array `k` with room for `cap` notes, or null when array k has that room. */
  private newNoteArrayFor(k: number, cap: number): GrownArray | null {
    const n = cap * NOTE_WIDTH[k];
    return this.noteArray(k).length >= n ? null : newNoteArray(k, n);
  }

  /** Grows per-note array `k` to room for `cap` notes at once (a no-op when it has it). */
  private growNoteArray(k: number, cap: number): void {
    const b = this.newNoteArrayFor(k, cap);
    if (!b) return;
    b.set(this.noteArray(k));
    this.setNoteArray(k, b);
  }

  /**
   * Doubles the per-note arrays ahead of need once 55% of a large room is used, one step per 256 new
   * notes: each new array faulted in a piece per step, then copied and swapped in a step of its own
   * (arrayGrowth.ts). At 130k-260k ids they are 20 MB; grown together they were a 50 ms block in a
   * vault-wide move at 100k notes, and one array at once is still a first touch of up to 8 MB.
   */
  private growAhead(id: number): void {
    const room = this.noteRoom();
    if (room < 16_384 || id < room * 0.55) return;
    const g = (this.noteGrowth ??= { arrays: this.noteArraysGrowth(room * 2), nextAt: id });
    if (id < g.nextAt) return;
    g.nextAt = id + 256;
    if (!g.arrays.step() || g.arrays.k === NOTE_ARRAYS) this.noteGrowth = null;
  }

  /** The per-note arrays growing to room for `cap` notes, a step at a time. */
  private noteArraysGrowth(cap: number): ArraysGrowth {
    const make = (k: number) => { const b = this.newNoteArrayFor(k, cap); return b && new ArrayGrowth(b); };
    return new ArraysGrowth(NOTE_ARRAYS, make, (k) => this.noteArray(k), (k, b) => this.setNoteArray(k, b));
  }

  /** The per-note arrays' growth in progress (growAhead), and the id at which its next step runs. */
  private noteGrowth: { arrays: ArraysGrowth; nextAt: number } | null = null;

  /** The per-note growth in progress (tests): which array (0-5), bytes of its new copy faulted in, of how many. */
  get growingNotes(): { array: number; faulted: number; of: number } | null {
    const g = this.noteGrowth;
    if (!g) return null;
    const f = g.arrays.growth;
    return { array: g.arrays.k, faulted: f ? f.touched * f.fresh.BYTES_PER_ELEMENT : 0, of: f ? f.fresh.byteLength : 0 };
  }

  /** Per-note array k: live, lengths, mtimes, sizes, marks, hashes. */
  private noteArray(k: number): GrownArray {
    return k === 0 ? this.live : k === 1 ? this.lengths : k === 2 ? this.mtimes : k === 3 ? this.sizes : k === 4 ? this.marks : this.hashes;
  }

  private setNoteArray(k: number, a: GrownArray): void {
    if (k === 0) this.live = a as Uint8Array<ArrayBuffer>;
    else if (k === 1) this.lengths = a as Uint32Array<ArrayBuffer>;
    else if (k === 2) this.mtimes = a as Float64Array<ArrayBuffer>;
    else if (k === 3) this.sizes = a as Float64Array<ArrayBuffer>;
    else if (k === 4) this.marks = a as Float64Array<ArrayBuffer>;
    else this.hashes = a as Uint8Array<ArrayBuffer>;
  }

  /** Records the file a note was indexed from: mtime, size and `sha256:<hex>` hash of its text. */
  record(path: string, mtime: number, size: number, hash: string): void {
    const id = this.ids.get(path);
    if (id === undefined) throw new Error(`keyword index: ${path} is not indexed`);
    this.mtimes[id] = mtime;
    this.sizes[id] = size;
    const ok = hash.length === 71 && hash.startsWith('sha256:');
    for (let i = 0; i < 32; i++) this.hashes[id * 32 + i] = ok ? hexByte(hash, 7 + 2 * i) : 0;
    this.marks[id] = ++this.markSeq;
    this.version++;
  }

  /** Whether the note was indexed from text with this hash. */
  hashIs(path: string, hash: string): boolean {
    const id = this.ids.get(path);
    if (id === undefined || !hash.startsWith('sha256:') || hash.length !== 71) return false;
    for (let i = 0; i < 32; i++) if (this.hashes[id * 32 + i] !== hexByte(hash, 7 + 2 * i)) return false;
    return true;
  }

  /** A number that changes whenever the note is added, removed or recorded (−1: not indexed). */
  markOf(path: string): number {
    const id = this.ids.get(path);
    return id === undefined ? -1 : this.marks[id];
  }

  /** Registers a note under a new short id with its field lengths (lengths[at … at + NF)), before its postings are written. */
  private admit(path: string, lengths: ArrayLike<number>, at: number, titles: string, aliases: string): number {
    if (this.ids.has(path)) throw new Error(`keyword index: ${path} is already indexed`);
    const id = this.nextId++;
    this.reserve(id);
    this.growAhead(id);
    this.ids.set(path, id);
    this.paths[id] = path;
    this.titles[id] = titles;
    this.aliases[id] = aliases;
    this.live[id] = 1;
    this.marks[id] = ++this.markSeq;
    for (let f = 0; f < NF; f++) {
      const l = lengths[at + f];
      this.lengths[id * NF + f] = l;
      if (l) { this.sums[f] += l; this.have[f]++; }
    }
    this.version++;
    return id;
  }

  /** While a field is counted: whether each term counts once (the title), and the terms seen so far. */
  private once = false;
  private readonly countTerm = (t: number): void => {
    if (t >= this.counts.length) this.reserveTerms();
    const c = this.counts[t];
    if (c === 0) this.seen.push(t);
    if (!this.once || c === 0) this.counts[t] = c + 1;
  };

  /** Indexes a note (its path must not be indexed yet). */
  add(doc: IndexedDoc, analyzer: Analyzer): void {
    const id = this.admit(doc.id, NO_LENGTHS, 0, doc.titles, doc.aliases);
    for (let f = 0; f < NF; f++) {
      const text = doc[FIELDS[f]];
      if (!text) continue;
      this.startField(f);
      this.lexicon.forEachTermId(text, analyzer, KEEP_STOP[f], this.countTerm);
      this.writeField(id, f);
    }
  }

  /**
   * add() in steps, for a caller that yields between them (service.ts): a long note (the Hub vault has
   * 300 KB ones; notes up to 5 MB are indexed) is analysed in pieces cut at white space (the lexicon
   * reads text chunk by chunk between white space, so the terms are the same) into lists of term ids.
   * The note is registered (replacing its old version when `replace`) and its postings written in the
   * last step, in one go: no query or save ever sees it half indexed.
   */
  *addSteps(doc: IndexedDoc, analyzer: Analyzer, replace = false): Generator<void, void> {
    let size = 0;
    for (const f of FIELDS) size += doc[f].length;
    if (size <= PIECE) {
      if (replace) this.remove(doc.id);
      this.add(doc, analyzer);
      return;
    }
    const fieldTerms: Int32Array[] = [];
    for (let f = 0; f < NF; f++) {
      let buf = new Int32Array(256);
      let n = 0;
      const push = (t: number) => {
        if (n === buf.length) { const next = new Int32Array(n * 2); next.set(buf); buf = next; }
        buf[n++] = t;
      };
      for (const piece of textPieces(doc[FIELDS[f]])) {
        this.lexicon.forEachTermId(piece, analyzer, KEEP_STOP[f], push);
        yield;
      }
      fieldTerms.push(buf.subarray(0, n));
    }
    if (replace) this.remove(doc.id);
    const id = this.admit(doc.id, NO_LENGTHS, 0, doc.titles, doc.aliases);
    this.reserveTerms();
    for (let f = 0; f < NF; f++) {
      const ts = fieldTerms[f];
      if (!ts.length) continue;
      this.startField(f);
      for (let j = 0; j < ts.length; j++) this.countTerm(ts[j]);
      this.writeField(id, f);
    }
  }

  private startField(f: number): void {
    // A title written several ways (file name, H1, frontmatter) is still one title: each term once.
    this.once = f === TITLE;
    this.seen.length = 0;
  }

  /** Writes the counted terms of field `f` as postings of note `id` and resets the counts. */
  private writeField(id: number, f: number): void {
    this.reserveTerms();
    const seen = this.seen;
    for (let j = 0; j < seen.length; j++) {
      const t = seen[j];
      this.store.append(t * NF + f, id, this.counts[t]);
      this.counts[t] = 0;
    }
    this.setLength(id, f, seen.length);
  }

  private setLength(id: number, f: number, l: number): void {
    const old = this.lengths[id * NF + f];
    if (old) { this.sums[f] -= old; this.have[f]--; }
    this.lengths[id * NF + f] = l;
    if (l) { this.sums[f] += l; this.have[f]++; }
  }

  /** Gives an indexed note a new path (eventQueue.ts: a move that keeps its title); its postings stay.
   *  False when `from` is not indexed or `to` is. */
  move(from: string, to: string): boolean {
    const id = this.ids.get(from);
    if (id === undefined || this.ids.has(to)) return false;
    this.ids.delete(from);
    this.ids.set(to, id);
    this.paths[id] = to;
    this.marks[id] = ++this.markSeq;
    this.version++;
    return true;
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

  /** Whether enough notes were removed, or enough list bytes left behind by growing lists, that a rewrite is worth a pass. */
  needsVacuum(): boolean {
    return (this.dirt >= 20 && this.dirt >= 0.1 * this.ids.size) || this.store.waste > Math.max(WASTE_MIN, this.store.used);
  }

  /**
   * Rewrites every list into fresh chunks without the postings of removed notes (and without the room
   * lists left behind when they grew), drops the names of terms left without any, yielding to `pause`
   * between slices. Queries may run in between: every list is consistent at each pause. `turn` is a
   * turn of the event loop taken whatever the clock says (the caller's gate waits in it too).
   */
  async vacuum(pause: () => Promise<void> | null, turn: () => Promise<void> = nextTurn): Promise<void> {
    const dirt = this.dirt;
    const empty: string[] = [];
    const terms = this.lexicon.terms;
    const cursor = new PostingCursor();
    this.store.freshArena();
    let work = 0;
    for (let t = 0; t < terms.length; t++) {
      if (this.lexicon.ids.get(terms[t]) !== t) { for (let f = 0; f < NF; f++) this.store.clear(t * NF + f); continue; } // a forgotten id
      let any = false;
      for (let f = 0; f < NF; f++) {
        const slot = t * NF + f;
        // A list keeps at most its bytes; when they may not fit, the next chunk is made between two
        // turns (with the scavenge its allocation sets off: one 4 MB chunk in the middle of a slice
        // made it a 50-60 ms block after a vault-wide move at 100k notes).
        if (this.store.has(slot) && !this.store.arenaFits(this.store.bytes(slot))) { await turn(); this.store.openArena(); await turn(); }
        work += this.store.size(slot);
        if (this.store.rewriteLive(slot, this.live, cursor)) any = true;
        // The clock is read after about 16k postings (a common word has one per note, in each field).
        if ((work += 8) > 16_384) { work = 0; const w = pause(); if (w) await w; }
      }
      if (!any) empty.push(terms[t]);
    }
    for (let i = 0; i < empty.length; i++) {
      // Forgetting takes a prefix-tree delete per term: after a vault-wide move, thousands of them.
      if ((i & 255) === 255) { const w = pause(); if (w) await w; }
      const term = empty[i];
      const t = this.lexicon.ids.get(term);
      // A note added during a pause may have given the term postings again.
      if (t === undefined || [0, 1, 2, 3, 4].some((f) => this.store.has(t * NF + f))) continue;
      this.lexicon.forget(term);
      this.dict.delete(term);
    }
    if (empty.length) this.lexicon.resetWords(); // its words may name forgotten ids
    { const w = pause(); if (w) await w; }
    this.store.dropUnused();
    this.dirt = Math.max(0, this.dirt - dirt);
    this.version++;
  }

  /** Restores a note from a saved index: its field lengths are lengths[at … at + NF) (postings follow through `restoreTerm`). */
  restoreDoc(path: string, lengths: ArrayLike<number>, at: number, titles: string, aliases: string): number {
    return this.admit(path, lengths, at, titles, aliases);
  }

  /** Restores the terms (distinct, in id order; their postings go into `store` by slot), in steps. */
  *restoreTerms(terms: readonly string[]): Generator<void, void> {
    if (this.lexicon.size) throw new Error('restoreTerms: fresh index only');
    for (let i = 0; i < terms.length; i++) {
      this.lexicon.idOf(terms[i]);
      if ((i & 127) === 127) yield; // 1,024 inserts between yields ran long while V8 was marking
    }
    if (this.lexicon.size !== terms.length) throw new Error('restoreTerms: a term is listed twice');
    // Room for an eighth more terms: the first new word after a warm start must not copy every slot
    // array at once (at 100k notes that grow, and the collection it set off, was a 150-300 ms block).
    yield* this.store.reserveSteps((terms.length + (terms.length >> 3) + 256) * NF, true);
    this.reserveTerms();
  }
}

const isSpace = (c: number) => c === 32 || (c >= 9 && c <= 13);
const hexDigit = (c: number) => (c <= 57 ? c - 48 : (c | 32) - 87) & 15;
/** The byte written as two hex digits at s[at] (lower or upper case). */
const hexByte = (s: string, at: number) => (hexDigit(s.charCodeAt(at)) << 4) | hexDigit(s.charCodeAt(at + 1));

/**
 * A text in pieces of about PIECE characters, each cut before an ASCII white-space character (where the
 * lexicon's chunks end); a text without one for long (a page of Chinese) is cut at any white space.
 */
export function* textPieces(text: string): Generator<string> {
  let at = 0;
  const any = /\s/g;
  while (text.length - at > PIECE) {
    let end = at + PIECE;
    const limit = Math.min(text.length, end + 4 * PIECE);
    while (end < limit && !isSpace(text.charCodeAt(end))) end++;
    if (end === limit && limit < text.length) {
      any.lastIndex = at + PIECE;
      const m = any.exec(text);
      end = m ? m.index : text.length;
    }
    yield text.slice(at, end);
    at = end;
  }
  if (at < text.length || !text.length) yield text.slice(at);
}
