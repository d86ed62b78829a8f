// Every posting list of the index in a few large byte arrays, no object per list: a list is one region
// of bytes holding (note short id delta, term frequency) pairs as varints, short ids ascending, so a
// posting takes 2–3 bytes instead of 8 and a loaded index is the file's own bytes (no decoding, no
// copy). Per slot (term id × NF + field) typed arrays say where its region is. A list that outgrows
// its region moves to one twice as big in the arena; regions come in powers of two and a freed one is
// reused by the next list of that size, so a build leaves little behind. Regions that cannot be reused
// (a loaded file's lists once moved) count as waste; the index's vacuum rewrites every list into
// fresh chunks (`rewriteLive`), dropping removed notes and the waste, in slices.
// New notes always take a higher short id than any before, so adding a note only ever appends.
import { putVarint, varintSize } from '../core/varint.js';
import { ArrayGrowth, ArraysGrowth, GROW_PIECE_BYTES, type GrownArray } from './arrayGrowth.js';

/** Arena chunk size in bytes (a list bigger than this gets a chunk of its own). */
const CHUNK = 1 << 22;
const NONE = -1;
/** Below this many slots the arrays grow together (a few hundred kB: no block worth spreading). */
const GROW_AHEAD_FROM = 1 << 16;

type SlotArray = Int32Array<ArrayBuffer> | Uint32Array<ArrayBuffer>;
/** A per-slot array `k` of `n` entries growing (arrayGrowth.ts): the chunk array (k 0) is signed, NONE where a slot has no list. */
const slotGrowth = (k: number, n: number) => new ArrayGrowth<SlotArray>(k === 0 ? new Int32Array(n) : new Uint32Array(n), k === 0 ? NONE : 0);

/** Reads one list: `next()` steps to the following posting (doc, tf); no allocation. */
export class PostingCursor {
  bytes: Uint8Array = new Uint8Array(0);
  at = 0;
  end = 0;
  doc = 0;
  tf = 0;

  next(): boolean {
    if (this.at >= this.end) return false;
    const b = this.bytes;
    let x = b[this.at++];
    let v = x & 127;
    for (let s = 7; x & 128; s += 7) { x = b[this.at++]; v += (x & 127) * 2 ** s; }
    this.doc += v;
    x = b[this.at++];
    v = x & 127;
    for (let s = 7; x & 128; s += 7) { x = b[this.at++]; v += (x & 127) * 2 ** s; }
    this.tf = v;
    return true;
  }
}


export class PostingStore {
  chunks: Uint8Array[] = [];
  /** Per slot: chunk index (NONE: no list), byte offset, bytes used, bytes reserved, postings, last short id. */
  chunk = new Int32Array(0);
  off = new Uint32Array(0);
  len = new Uint32Array(0);
  cap = new Uint32Array(0);
  count = new Uint32Array(0);
  last = new Uint32Array(0);
  /** Bytes held by regions no list uses any more and none can reuse (a loaded file's moved lists). */
  waste = 0;
  /** Bytes of all lists. */
  used = 0;
  private arena = NONE;
  /** The first chunk of the last vacuum's fresh arena: regions in older chunks are never reused. */
  private fresh = 0;
  private arenaUsed = 0;
  /** Freed regions by size class (8 << k bytes): chunk and offset stacks. */
  private freeAt: Int32Array[] = [];
  private freeN: number[] = [];

  get slots(): number {
    return this.room;
  }

  /** Room every per-slot array has (one may already be longer: they grow one at a time, see growAhead). */
  private room = 0;
  /** A growth in progress (growAhead): the room the arrays grow to, the slot count at which its next
   *  step runs, the slots between steps, and the arrays' growth. */
  private ahead: { to: number; at: number; step: number; arrays: ArraysGrowth } | null = null;

  /** Room for slots below `n` (exactly `n` when `exact`: a loaded index; else with room to grow). */
  reserve(n: number, exact = false): void {
    if (n <= this.room) { if (!exact) this.growAhead(n); return; }
    const steps = this.reserveSteps(n, exact);
    while (!steps.next().done) { /* to the end */ }
  }

  /** reserve(n, exact), yielding after each piece of a new array is faulted in and after each array is
   *  copied (a loaded index's room: six arrays of several MB each at 100k notes). */
  *reserveSteps(n: number, exact = false): Generator<void, void, void> {
    if (n <= this.room) return;
    let cap = exact ? n : Math.max(1024, Math.ceil(this.room * 1.5));
    while (cap < n) cap = Math.ceil(cap * 1.5);
    const arrays = this.slotArraysGrowth(cap);
    while (arrays.step()) yield;
    this.room = cap;
    this.ahead = null;
  }

  /**
   * Past 55% of a large room, grows the six arrays to 1.5 times it, one step per call a step of new
   * slots apart, so the room is there before it is needed: each new array faulted in a piece per step,
   * then copied and swapped in a step of its own (arrayGrowth.ts: grown at once, one array was a 51–61 ms
   * block in a warm load at 100k notes).
   */
  private growAhead(n: number): void {
    if (this.room < GROW_AHEAD_FROM) return;
    if (!this.ahead) {
      if (n < this.room * 0.55) return;
      const to = Math.ceil(this.room * 1.5);
      const steps = 6 * (Math.ceil((to * 4) / GROW_PIECE_BYTES) + 1);
      this.ahead = { to, at: n, step: Math.max(1, Math.floor((this.room - n) / (steps + 8))), arrays: this.slotArraysGrowth(to) };
    }
    const a = this.ahead;
    if (n < a.at) return;
    a.at = n + a.step;
    // The room is the new one a call after the last array was swapped in.
    if (!a.arrays.step()) { this.room = a.to; this.ahead = null; }
  }

  /** The six per-slot arrays growing to room for `cap` slots, a step at a time. */
  private slotArraysGrowth(cap: number): ArraysGrowth {
    const make = (k: number) => (this.slotArray(k).length >= cap ? null : slotGrowth(k, cap));
    return new ArraysGrowth(6, make, (k) => this.slotArray(k), (k, b) => this.setSlotArray(k, b));
  }

  /** The growth in progress (tests): which array (0-5), how many of its new entries are faulted in, of how many. */
  get growing(): { array: number; faulted: number; of: number } | null {
    const a = this.ahead;
    return a && { array: a.arrays.k, faulted: a.arrays.growth?.touched ?? 0, of: a.to };
  }

  /** Per-slot array k: chunk, off, len, cap, count, last. */
  private slotArray(k: number): SlotArray {
    return k === 0 ? this.chunk : k === 1 ? this.off : k === 2 ? this.len : k === 3 ? this.cap : k === 4 ? this.count : this.last;
  }

  private setSlotArray(k: number, b: GrownArray): void {
    if (k === 0) this.chunk = b as Int32Array<ArrayBuffer>;
    else if (k === 1) this.off = b as Uint32Array<ArrayBuffer>;
    else if (k === 2) this.len = b as Uint32Array<ArrayBuffer>;
    else if (k === 3) this.cap = b as Uint32Array<ArrayBuffer>;
    else if (k === 4) this.count = b as Uint32Array<ArrayBuffer>;
    else this.last = b as Uint32Array<ArrayBuffer>;
  }

  has(slot: number): boolean {
    return slot < this.room && this.chunk[slot] !== NONE && this.count[slot] > 0;
  }

  size(slot: number): number {
    return slot < this.room ? this.count[slot] : 0;
  }

  /** Bytes of a slot's list. */
  bytes(slot: number): number {
    return slot < this.room && this.chunk[slot] !== NONE ? this.len[slot] : 0;
  }

  /** Points `c` at the start of a slot's list (an empty list when there is none). */
  open(slot: number, c: PostingCursor = new PostingCursor()): PostingCursor {
    c.doc = 0;
    c.tf = 0;
    if (!this.has(slot)) { c.at = c.end = 0; return c; }
    c.bytes = this.chunks[this.chunk[slot]];
    c.at = this.off[slot];
    c.end = c.at + this.len[slot];
    return c;
  }

  /** A region of `n` bytes (a size class: reused when one is free): [chunk, offset]. */
  private alloc(n: number): [number, number] {
    const k = sizeClass(n);
    if (k >= 0 && this.freeN[k]) {
      const i = --this.freeN[k];
      return [this.freeAt[k][2 * i], this.freeAt[k][2 * i + 1]];
    }
    return this.bump(n);
  }

  /** Gives back a slot's region: to its size class, or as waste (a loaded file's or a rewritten list's exact region). */
  private release(slot: number): void {
    const cap = this.cap[slot];
    const k = sizeClass(cap);
    if (cap > CHUNK) { this.chunks[this.chunk[slot]] = EMPTY; return; }
    // A region in a chunk from before the vacuum's fresh arena is never reused: no list can move back
    // into those chunks, so dropUnused drops them all without looking at a slot.
    if (k < 0 || this.chunk[slot] < this.fresh) { this.waste += cap || this.len[slot]; return; }
    this.freeAt[k] ??= new Int32Array(64);
    this.freeN[k] ??= 0;
    if (2 * this.freeN[k] === this.freeAt[k].length) { const b = new Int32Array(this.freeAt[k].length * 2); b.set(this.freeAt[k]); this.freeAt[k] = b; }
    this.freeAt[k][2 * this.freeN[k]] = this.chunk[slot];
    this.freeAt[k][2 * this.freeN[k] + 1] = this.off[slot];
    this.freeN[k]++;
  }

  /** Adds a posting for a note whose short id is above every id in the list. */
  append(slot: number, doc: number, tf: number): void {
    // Most postings: a small gap and frequency into room the list already has (two bytes).
    const len0 = this.len[slot];
    const delta0 = doc - this.last[slot];
    if (this.count[slot] > 0 && delta0 < 128 && tf < 128 && len0 + 2 <= this.cap[slot]) {
      const b = this.chunks[this.chunk[slot]];
      const at = this.off[slot] + len0;
      b[at] = delta0;
      b[at + 1] = tf;
      this.len[slot] = len0 + 2;
      this.used += 2;
      this.count[slot]++;
      this.last[slot] = doc;
      return;
    }
    this.appendSlow(slot, doc, tf);
  }

  private appendSlow(slot: number, doc: number, tf: number): void {
    const had = this.chunk[slot] !== NONE && this.count[slot] > 0;
    const delta = had ? doc - this.last[slot] : doc;
    const need = varintSize(delta) + varintSize(tf);
    let len = had ? this.len[slot] : 0;
    if (!had || len + need > this.cap[slot]) {
      let size = 8;
      while (size < len + need) size *= 2;
      const [c, at] = this.alloc(size);
      if (had) {
        const from = this.off[slot];
        this.chunks[c].set(this.chunks[this.chunk[slot]].subarray(from, from + len), at);
        this.release(slot);
      }
      this.chunk[slot] = c;
      this.off[slot] = at;
      this.cap[slot] = size;
      if (!had) { this.count[slot] = 0; len = 0; }
    }
    const b = this.chunks[this.chunk[slot]];
    const end = putVarint(b, putVarint(b, this.off[slot] + len, delta), tf);
    this.used += end - this.off[slot] - len;
    this.len[slot] = end - this.off[slot];
    this.count[slot]++;
    this.last[slot] = doc;
  }

  /** Drops a slot's list. */
  clear(slot: number): void {
    if (this.chunk[slot] === NONE) return;
    this.used -= this.len[slot];
    this.release(slot);
    this.chunk[slot] = NONE;
    this.len[slot] = this.cap[slot] = this.count[slot] = this.last[slot] = 0;
  }

  /**
   * Points a slot at `n` postings in `bytes` of chunk `c` (a loaded file's lists: read-only, so the first
   * append moves the list). `last` is its highest short id.
   */
  adopt(slot: number, c: number, off: number, bytes: number, n: number, last: number): void {
    this.chunk[slot] = c;
    this.off[slot] = off;
    this.len[slot] = bytes;
    this.cap[slot] = 0;
    this.count[slot] = n;
    this.last[slot] = last;
    this.used += bytes;
  }

  /** Adds a read-only chunk (a loaded file's posting bytes); returns its index. */
  addChunk(bytes: Uint8Array): number {
    this.chunks.push(bytes);
    return this.chunks.length - 1;
  }

  /**
   * Rewrites a slot's list into the current arena keeping only live notes' postings (the old region
   * becomes waste); returns the postings kept.
   */
  rewriteLive(slot: number, live: Uint8Array, c: PostingCursor): number {
    if (this.chunk[slot] === NONE) return 0;
    this.open(slot, c);
    let bytes = 0;
    let n = 0;
    let prev = 0;
    while (c.next()) if (live[c.doc]) { bytes += varintSize(c.doc - prev) + varintSize(c.tf); prev = c.doc; n++; }
    const oldBytes = this.len[slot];
    if (!n) { this.clear(slot); return 0; }
    const [ci, at] = this.bump(bytes);
    const out = this.chunks[ci];
    let w = at;
    prev = 0;
    this.open(slot, c);
    while (c.next()) if (live[c.doc]) { w = putVarint(out, putVarint(out, w, c.doc - prev), c.tf); prev = c.doc; }
    this.release(slot);
    this.used += bytes - oldBytes;
    this.chunk[slot] = ci;
    this.off[slot] = at;
    this.len[slot] = bytes;
    this.cap[slot] = bytes;
    this.count[slot] = n;
    this.last[slot] = prev;
    return n;
  }

  /** Whether a list of `n` bytes fits at the arena's end without a new chunk (lists over a chunk get their own). */
  arenaFits(n: number): boolean {
    return n > CHUNK || (this.arena !== NONE && this.arenaUsed + n <= this.chunks[this.arena].length);
  }

  /** Starts the next arena chunk now: a new 4 MB ArrayBuffer sets off a scavenge (external memory
   *  pressure, 10-15 ms on a large heap), so the vacuum makes it in a task of its own. */
  openArena(): void {
    this.chunks.push(this.spare ?? new Uint8Array(CHUNK));
    this.spare = null;
    this.arena = this.chunks.length - 1;
    this.arenaUsed = 0;
  }

  /** The next arena chunk, made ahead (`makeSpare`) between two turns so that a list growing inside an
   *  indexing slice never allocates one (with its scavenge) there. */
  spare: Uint8Array | null = null;

  makeSpare(): void {
    this.spare ??= new Uint8Array(CHUNK);
  }

  /** A region at the arena's end (alloc's when no freed one fits; exact for a rewritten list, which will not grow often). */
  private bump(n: number): [number, number] {
    if (n > CHUNK) { this.chunks.push(new Uint8Array(n)); return [this.chunks.length - 1, 0]; }
    if (!this.arenaFits(n)) this.openArena();
    const at = this.arenaUsed;
    this.arenaUsed += n;
    return [this.arena, at];
  }

  /** Starts a fresh arena chunk and forgets free regions, so rewritten lists leave the old chunks behind whole. */
  freshArena(): void {
    this.arena = NONE;
    this.fresh = this.chunks.length;
    this.freeN = [];
    this.freeAt = [];
  }

  /**
   * Drops the chunks from before freshArena(), once every list was rewritten since: a rewritten list
   * and any list that moved meanwhile are in later chunks (release never hands out an older region).
   * Without a look at every slot (a pass over millions of slots at 100k notes was a 54-64 ms block).
   */
  dropUnused(): void {
    let held = 0;
    for (let i = 0; i < this.chunks.length; i++) {
      if (i < this.fresh) this.chunks[i] = EMPTY;
      else held += this.chunks[i].length;
    }
    // Free regions of the rewrite's own releases: forgotten (they count as waste until the next vacuum).
    this.freeN = [];
    this.freeAt = [];
    this.waste = Math.max(0, held - this.used - (this.arena === NONE ? 0 : this.chunks[this.arena].length - this.arenaUsed));
  }
}

const EMPTY = new Uint8Array(0);

/** k for a size of exactly 8 << k bytes (up to a chunk), else −1. */
function sizeClass(n: number): number {
  if (n < 8 || n > CHUNK || (n & (n - 1)) !== 0) return -1;
  return 31 - Math.clz32(n) - 3;
}
