// A string-keyed map that hands out a consistent snapshot to read in slices while it keeps changing
// (the change feed's state is saved that way: copying 100k entries first held Obsidian's thread for
// tens of ms). While a snapshot is open, the first change to a key records the value it had (copy on
// write). The snapshot reads the map a shard at a time (core/shardedMap.ts), each shard's keys copied
// when its turn comes, so it needs no record of the keys it has read: it used to keep one, a second
// map of every path (100k at 100k notes) at every save.
import { ShardedMap } from '../core/shardedMap.js';

const ABSENT = Symbol('absent');

/** What the snapshot map keeps its entries in: a ShardedMap, or a store sharded the same way
 *  (changes/noteTable.ts). */
export interface ShardedStore<V> {
  readonly size: number;
  get(key: string): V | undefined;
  has(key: string): boolean;
  set(key: string, value: V): unknown;
  delete(key: string): boolean;
  clear(): void;
  keys(): IterableIterator<string>;
  entries(): IterableIterator<[string, V]>;
  shardKeys(i: number): string[];
}

/** A key changed while a snapshot is open: its value when the snapshot was taken, and whether the
 *  snapshot's shard-by-shard read has it covered (it was, or will be, read from a shard's copy). */
interface Kept<V> { was: V | typeof ABSENT; covered: boolean }

export class SnapshotMap<V> {
  private live: ShardedStore<V> = new ShardedMap<V>();
  private shadow: ShardedMap<Kept<V>> | null = null;
  /** The open snapshot's read has taken the copy of every shard up to this one. */
  private copiedUpTo = -1;

  constructor(entries?: Iterable<readonly [string, V]>) {
    if (entries) for (const [k, v] of entries) this.live.set(k, v);
  }

  /** A map over `live` itself, not a copy of it: the caller hands it over (the loaded state at start,
   *  100k entries at 100k notes, copied into a second map that then outlived several collections). */
  static adopt<V>(live: ShardedStore<V>): SnapshotMap<V> {
    const m = new SnapshotMap<V>();
    m.live = live;
    return m;
  }

  get size(): number {
    return this.live.size;
  }

  get(key: string): V | undefined {
    return this.live.get(key);
  }

  has(key: string): boolean {
    return this.live.has(key);
  }

  set(key: string, value: V): this {
    this.keep(key);
    this.live.set(key, value);
    return this;
  }

  delete(key: string): boolean {
    this.keep(key);
    return this.live.delete(key);
  }

  clear(): void {
    for (const k of this.live.keys()) this.keep(k);
    this.live.clear();
  }

  keys(): IterableIterator<string> {
    return this.live.keys();
  }

  entries(): IterableIterator<[string, V]> {
    return this.live.entries();
  }

  [Symbol.iterator](): IterableIterator<[string, V]> {
    return this.live.entries();
  }

  private keep(key: string): void {
    const shadow = this.shadow;
    if (!shadow || shadow.has(key)) return;
    // First change since the snapshot: the live value is still the snapshot's. A key whose shard was
    // copied already is in that copy exactly when it had a value.
    shadow.set(key, { was: this.live.has(key) ? this.live.get(key)! : ABSENT, covered: ShardedMap.shardOf(key) <= this.copiedUpTo });
  }

  /** The entries as they are now, however the map changes while they are read; one at a time. */
  snapshot(): { entries: Iterable<[string, V]>; close(): void } {
    if (this.shadow) throw new Error('a snapshot is already open');
    const shadow = new ShardedMap<Kept<V>>();
    this.shadow = shadow;
    this.copiedUpTo = -1;
    const entries = function* (this: SnapshotMap<V>): Generator<[string, V]> {
      for (let i = 0; i < ShardedMap.shardCount; i++) {
        // The shard's keys as they are now: entries changed since the snapshot give their value of then,
        // entries added since (ABSENT) are left out, and none can come twice (a re-added key moves in a
        // Map). A key with no record in the shadow is untouched since the snapshot, so its live value,
        // read when its turn comes, is the snapshot's (a store in columns makes each value as it is read).
        const keys = this.live.shardKeys(i);
        if (this.shadow === shadow) this.copiedUpTo = i;
        for (let j = 0; j < keys.length; j++) {
          const kept = shadow.get(keys[j]);
          if (!kept) { yield [keys[j], this.live.get(keys[j])!]; continue; }
          kept.covered = true;
          if (kept.was !== ABSENT) yield [keys[j], kept.was];
        }
      }
      // The rest: keys of the snapshot deleted before their shard was copied (taken in one go).
      const gone: [string, V][] = [];
      for (const [k, kept] of shadow) if (kept.was !== ABSENT && !kept.covered) gone.push([k, kept.was]);
      yield* gone;
    }.bind(this);
    return { entries: { [Symbol.iterator]: entries }, close: () => { if (this.shadow === shadow) { this.shadow = null; this.copiedUpTo = -1; } } };
  }
}
