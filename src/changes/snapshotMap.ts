// A Map that hands out a consistent snapshot to read in slices while it keeps changing (the change
// feed's state is saved that way: copying 100k entries first held Obsidian's thread for tens of ms).
// While a snapshot is open, the first change to a key records the value it had (copy on write).
const ABSENT = Symbol('absent');

export class SnapshotMap<K, V> extends Map<K, V> {
  private shadow: Map<K, V | typeof ABSENT> | null = null;

  override set(key: K, value: V): this {
    this.keep(key);
    return super.set(key, value);
  }

  override delete(key: K): boolean {
    this.keep(key);
    return super.delete(key);
  }

  override clear(): void {
    for (const k of super.keys()) this.keep(k);
    super.clear();
  }

  private keep(key: K): void {
    // `shadow` is set only by snapshot(); the base constructor's set() calls run before it exists.
    if (this.shadow && !this.shadow.has(key)) this.shadow.set(key, super.has(key) ? super.get(key)! : ABSENT);
  }

  /** The entries as they are now, however the map changes while they are read; one at a time. */
  snapshot(): { entries: Iterable<[K, V]>; close(): void } {
    if (this.shadow) throw new Error('a snapshot is already open');
    const shadow = new Map<K, V | typeof ABSENT>();
    this.shadow = shadow;
    const live = (): IterableIterator<[K, V]> => super.entries();
    const present = (k: K): boolean => super.has(k);
    const entries = function* (): Generator<[K, V]> {
      // Every key yielded so far: one read, then changed or deleted, must not come back from the shadow.
      const seen = new Set<K>();
      // Map iteration visits every key present at its end, added or re-added ones included.
      for (const [k, v] of live()) {
        if (seen.has(k)) continue;
        seen.add(k);
        if (!shadow.has(k)) { yield [k, v]; continue; }
        const was = shadow.get(k)!;
        if (was !== ABSENT) yield [k, was];
      }
      // So the rest are keys deleted since the snapshot and not added again: taken in one go.
      const gone: [K, V][] = [];
      for (const [k, was] of shadow) if (was !== ABSENT && !seen.has(k) && !present(k)) gone.push([k, was]);
      yield* gone;
    };
    return { entries: { [Symbol.iterator]: entries }, close: () => { if (this.shadow === shadow) this.shadow = null; } };
  }
}
