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

export class NoteTable {
  private readonly slotOf = new ShardedMap<number>();
  private free: number[] = [];
  private top = 0;
  private mtime = new Float64Array(0);
  private bytes = new Float64Array(0);
  private changed = new Float64Array(0);
  private hashLen = new Uint8Array(0);
  private hashes = Buffer.alloc(0);
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
    return i === undefined ? undefined : this.changed[i];
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
    this.mtime[i] = m;
    this.bytes[i] = s;
    this.changed[i] = c;
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
    return noteState(this.mtime[i], this.bytes[i], this.hashAt(i), this.changed[i]);
  }

  private hashAt(i: number): string | null {
    const n = this.hashLen[i];
    if (n === NONE) return null;
    if (n === ODD) return this.odd.get(i) ?? null;
    return this.hashes.toString('latin1', i * HASH_WIDTH, i * HASH_WIDTH + HASH_WIDTH);
  }

  private putHash(i: number, h: string | null): void {
    this.odd.delete(i);
    if (h === null) { this.hashLen[i] = NONE; return; }
    const at = i * HASH_WIDTH;
    let ascii = h.length === HASH_WIDTH;
    for (let j = 0; ascii && j < HASH_WIDTH; j++) {
      const code = h.charCodeAt(j);
      if (code > 127) ascii = false; else this.hashes[at + j] = code;
    }
    if (ascii) { this.hashLen[i] = HASH_WIDTH; return; }
    this.hashLen[i] = ODD;
    this.odd.set(i, h);
  }

  /** A new slot, the columns doubled when full (their old arrays die at once: no copy is kept). */
  private grow(): number {
    if (this.top === this.mtime.length) {
      const cap = Math.max(1024, this.top * 2);
      const wider = <T extends Float64Array | Uint8Array>(a: T, make: (n: number) => T, per = 1): T => { const b = make(cap * per); b.set(a); return b; };
      this.mtime = wider(this.mtime, (n) => new Float64Array(n));
      this.bytes = wider(this.bytes, (n) => new Float64Array(n));
      this.changed = wider(this.changed, (n) => new Float64Array(n));
      this.hashLen = wider(this.hashLen, (n) => new Uint8Array(n));
      this.hashes = wider(this.hashes, (n) => Buffer.alloc(n), HASH_WIDTH);
    }
    return this.top++;
  }
}
