// A string-keyed map that hands out a consistent snapshot to read in slices while it keeps changing
// (the change feed's state is saved that way: copying 100k entries first held Obsidian's thread for
// tens of ms). While a snapshot is open, the first change to a key records the value it had (copy on
// write). The map, the recorded values and the keys a snapshot has read are sharded maps
// (core/shardedMap.ts): a Map of 100k entries rehashed for 20-40 ms in one set() during a save.
import { ShardedMap } from '../core/shardedMap.js';

const ABSENT = Symbol('absent');

export class SnapshotMap<V> {
  private readonly live = new ShardedMap<V>();
  private shadow: ShardedMap<V | typeof ABSENT> | null = null;

  constructor(entries?: Iterable<readonly [string, V]>) {
    if (entries) for (const [k, v] of entries) this.live.set(k, v);
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
    if (shadow && !shadow.has(key)) shadow.set(key, this.live.has(key) ? this.live.get(key)! : ABSENT);
  }

  /** The entries as they are now, however the map changes while they are read; one at a time. */
  snapshot(): { entries: Iterable<[string, V]>; close(): void } {
    if (this.shadow) throw new Error('a snapshot is already open');
    const shadow = new ShardedMap<V | typeof ABSENT>();
    this.shadow = shadow;
    const live = this.live;
    const entries = function* (): Generator<[string, V]> {
      // Every key yielded so far: one read, then deleted and added again, must not come back.
      const seen = new ShardedMap<true>();
      // A key of the snapshot not visited here was deleted before its shard's turn (it is in `shadow`),
      // whether or not it was added again since: a key re-added to a shard already passed is not visited.
      for (const [k, v] of live) {
        if (seen.has(k)) continue;
        seen.set(k, true);
        if (!shadow.has(k)) { yield [k, v]; continue; }
        const was = shadow.get(k)!;
        if (was !== ABSENT) yield [k, was];
      }
      // So the rest are the snapshot's keys not yielded yet, with their values of then: taken in one go.
      const gone: [string, V][] = [];
      for (const [k, was] of shadow) if (was !== ABSENT && !seen.has(k)) gone.push([k, was]);
      yield* gone;
    };
    return { entries: { [Symbol.iterator]: entries }, close: () => { if (this.shadow === shadow) this.shadow = null; } };
  }
}
