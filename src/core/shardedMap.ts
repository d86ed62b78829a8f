// A string-keyed Map split into shards. A JS Map grows by rehashing every entry in one go: at 130k
// entries (the keyword index's terms, or its paths, at 100k notes) one set() held the thread 35-70 ms,
// at 260k over 100 ms. With 32 shards each rehash moves a thirty-second of the entries. The shard is
// picked from the key's length and a few of its characters (not a hash of the whole key); iteration goes shard
// by shard, each in insertion order.
const SHARDS = 32;

function shardOf(k: string): number {
  // Five characters spread over the key (paths share their start and end; numbers their length).
  const n = k.length;
  let h = Math.imul(n ^ 0x811c9dc5, 16777619);
  h = Math.imul(h ^ (k.charCodeAt(0) | 0), 16777619);
  h = Math.imul(h ^ (k.charCodeAt(n >> 1) | 0), 16777619);
  h = Math.imul(h ^ (k.charCodeAt((n * 3) >> 2) | 0), 16777619);
  h = Math.imul(h ^ (k.charCodeAt(n - 2) | 0), 16777619);
  h = Math.imul(h ^ (k.charCodeAt(n - 5) | 0), 16777619);
  return (h ^ (h >>> 15)) & (SHARDS - 1);
}

export class ShardedMap<V> {
  private readonly shards = Array.from({ length: SHARDS }, () => new Map<string, V>());
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(k: string): V | undefined {
    return this.shards[shardOf(k)].get(k);
  }

  has(k: string): boolean {
    return this.shards[shardOf(k)].has(k);
  }

  set(k: string, v: V): this {
    const m = this.shards[shardOf(k)];
    const n = m.size;
    m.set(k, v);
    this.count += m.size - n;
    return this;
  }

  delete(k: string): boolean {
    const gone = this.shards[shardOf(k)].delete(k);
    if (gone) this.count--;
    return gone;
  }

  clear(): void {
    for (const m of this.shards) m.clear();
    this.count = 0;
  }

  *keys(): IterableIterator<string> {
    for (const m of this.shards) yield* m.keys();
  }

  *values(): IterableIterator<V> {
    for (const m of this.shards) yield* m.values();
  }

  /** The values as an array, without a generator step per value (the host's files(): 100k stats). */
  valuesArray(): V[] {
    const out = new Array<V>(this.count);
    let i = 0;
    for (const m of this.shards) for (const v of m.values()) out[i++] = v;
    return out;
  }

  *entries(): IterableIterator<[string, V]> {
    for (const m of this.shards) yield* m.entries();
  }

  /** How many shards there are, and which one holds `k` (readers that go shard by shard). */
  static readonly shardCount = SHARDS;
  static shardOf(k: string): number {
    return shardOf(k);
  }

  /** Shard `i`'s keys as they are now, copied into an array. */
  shardKeys(i: number): string[] {
    const m = this.shards[i];
    const keys = new Array<string>(m.size);
    let j = 0;
    for (const k of m.keys()) keys[j++] = k;
    return keys;
  }

  [Symbol.iterator](): IterableIterator<[string, V]> {
    return this.entries();
  }
}

/** A string set on the same shards (a Set of 100k paths rehashed in one add(), as a Map does). */
export class ShardedSet implements Iterable<string> {
  private readonly map = new ShardedMap<true>();

  get size(): number {
    return this.map.size;
  }

  has(k: string): boolean {
    return this.map.has(k);
  }

  add(k: string): this {
    this.map.set(k, true);
    return this;
  }

  delete(k: string): boolean {
    return this.map.delete(k);
  }

  clear(): void {
    this.map.clear();
  }

  /** Up to `n` members, in iteration order, without copying the rest. */
  first(n: number): string[] {
    const out: string[] = [];
    if (n <= 0) return out;
    for (const k of this.map.keys()) { out.push(k); if (out.length >= n) break; }
    return out;
  }

  [Symbol.iterator](): IterableIterator<string> {
    return this.map.keys();
  }
}
