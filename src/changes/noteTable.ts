// The change feed's per-note state (path → mtime, size, hash, changed time) kept in columns: typed
// arrays and one byte buffer of hashes, with only the path → slot index as a map. Kept as a record per
// note, 100k notes were 100k objects, 200k boxed numbers and 100k 71-character hash strings (about
// 17 MB) made during the warm load, all alive through the young generation's collections, which
// lengthened each (Obsidian's UI thread waits for them). Reads make a short-lived NoteState.
import { ShardedMap } from '../core/shardedMap.js';
import { noteState, type NoteState } from './feed.js';

/** `sha256:` and 64 hex digits (core/hash.ts contentHash): every hash the feed makes. */
const HASH_WIDTH = 71;
/** hashLen values: no hash, one of HASH_WIDTH ASCII bytes, or another string (kept in `odd`). */
const NONE = 0;
const ODD = 255;
/** Slots per chunk of each column. The columns grew by doubling: at 100k notes the step from 65,536
 *  slots allocated, zeroed and copied about 13 MB in one task (37 ms in a profiled first build). A chunk is
 *  16,384 slots (128 KB a number column, 1.1 MB of hashes), added when the last is full; nothing is copied. */
const SHIFT = 14;
const CHUNK = 1 << SHIFT;
const MASK = CHUNK - 1;

export class NoteTable {
  private readonly slotOf = new ShardedMap<number>();
  private free: number[] = [];
  private top = 0;
  private readonly mtime: Float64Array[] = [];
  private readonly bytes: Float64Array[] = [];
  private readonly changed: Float64Array[] = [];
  private readonly hashLen: Uint8Array[] = [];
  private readonly hashes: Buffer[] = [];
  /** Hashes that are not HASH_WIDTH ASCII characters (tests' tokens, a hand-edited state file). */
  private readonly odd = new Map<number, string>();

  get size(): number {
    return this.slotOf.size;
  }

  has(path: string): boolean {
    return this.slotOf.has(path);
  }

  get(path: string): NoteState | undefined {
    const i = this.slotOf.get(path);
    return i === undefined ? undefined : this.at(i);
  }

  /** A note's changed time alone, read without making a record (get_recent asks it of every note). */
  changedAt(path: string): number | undefined {
    const i = this.slotOf.get(path);
    return i === undefined ? undefined : this.changed[i >>> SHIFT][i & MASK];
  }

  set(path: string, v: NoteState): this {
    this.put(path, v.m, v.s, v.h, v.c);
    return this;
  }

  /** set() without a NoteState to pass (the state file's decoder). */
  put(path: string, m: number, s: number, h: string | null, c: number): void {
    let i = this.slotOf.get(path);
    if (i === undefined) {
      i = this.free.pop() ?? this.grow();
      this.slotOf.set(path, i);
    }
    const k = i >>> SHIFT;
    const j = i & MASK;
    this.mtime[k][j] = m;
    this.bytes[k][j] = s;
    this.changed[k][j] = c;
    this.putHash(i, h);
  }

  delete(path: string): boolean {
    const i = this.slotOf.get(path);
    if (i === undefined) return false;
    this.slotOf.delete(path);
    this.odd.delete(i);
    this.free.push(i);
    return true;
  }

  clear(): void {
    this.slotOf.clear();
    this.odd.clear();
    this.free = [];
    this.top = 0;
  }

  keys(): IterableIterator<string> {
    return this.slotOf.keys();
  }

  *entries(): IterableIterator<[string, NoteState]> {
    for (const [path, i] of this.slotOf.entries()) yield [path, this.at(i)];
  }

  [Symbol.iterator](): IterableIterator<[string, NoteState]> {
    return this.entries();
  }

  /** Shard `i`'s paths (core/shardedMap.ts) as they are now. */
  shardKeys(i: number): string[] {
    return this.slotOf.shardKeys(i);
  }

  private at(i: number): NoteState {
    const k = i >>> SHIFT;
    const j = i & MASK;
    return noteState(this.mtime[k][j], this.bytes[k][j], this.hashAt(i), this.changed[k][j]);
  }

  private hashAt(i: number): string | null {
    const n = this.hashLen[i >>> SHIFT][i & MASK];
    if (n === NONE) return null;
    if (n === ODD) return this.odd.get(i) ?? null;
    const at = (i & MASK) * HASH_WIDTH;
    return this.hashes[i >>> SHIFT].toString('latin1', at, at + HASH_WIDTH);
  }

  private putHash(i: number, h: string | null): void {
    this.odd.delete(i);
    const lens = this.hashLen[i >>> SHIFT];
    if (h === null) { lens[i & MASK] = NONE; return; }
    const hashes = this.hashes[i >>> SHIFT];
    const at = (i & MASK) * HASH_WIDTH;
    let ascii = h.length === HASH_WIDTH;
    for (let j = 0; ascii && j < HASH_WIDTH; j++) {
      const code = h.charCodeAt(j);
      if (code > 127) ascii = false; else hashes[at + j] = code;
    }
    if (ascii) { lens[i & MASK] = HASH_WIDTH; return; }
    lens[i & MASK] = ODD;
    this.odd.set(i, h);
  }

  /** A new slot, a chunk added to each column when the last is full. */
  private grow(): number {
    if (this.top === this.mtime.length * CHUNK) {
      this.mtime.push(new Float64Array(CHUNK));
      this.bytes.push(new Float64Array(CHUNK));
      this.changed.push(new Float64Array(CHUNK));
      this.hashLen.push(new Uint8Array(CHUNK));
      this.hashes.push(Buffer.alloc(CHUNK * HASH_WIDTH));
    }
    return this.top++;
  }
}
