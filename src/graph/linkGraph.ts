// The link graph, built from the host's `resolvedLinks` / `unresolvedLinks` (the shape of Obsidian's
// metadataCache). Self-links (`[[#Heading]]`, a note linking itself) are kept in
// the raw rows but never count as an edge: a note is not its own backlink, neighbour or cure for
// being an orphan. Row updates are incremental; a full rebuild is a pass over every row.

import type { LinkRowMap } from '../host/port.js';
import { ChunkedInts } from '../core/chunkedInts.js';
import { ShardedMap } from '../core/shardedMap.js';

export type LinkRows = Record<string, Record<string, number>>;

/** Plain-object rows seen as a LinkRowMap (hosts without linkRows). */
export function rowMapOf(rows: LinkRows): LinkRowMap {
  return {
    get: (k) => (Object.prototype.hasOwnProperty.call(rows, k) ? rows[k] : undefined),
    keys: () => Object.keys(rows),
  };
}

/**
 * The graph with notes as integer ids and edges in flat integer lists: at 100k notes and 570k links,
 * a pair of Maps per note (source → targets, target → sources) was 76 MB of small objects, every one
 * rebuilt after a vault-wide move and copied by the collections that followed; these lists with their
 * id map are 27 MB. Rows set while building are appended to the base lists; `finish` adds their reverse
 * (sources by target). A row replaced after that is kept apart (`replaced`, with its own reverse) and
 * hides its base row; once that part is large (`worn`) the service builds afresh.
 */
export class LinkGraph {
  private readonly ids = new ShardedMap<number>();
  private readonly names: string[] = [];
  /** Base rows: id s links to targets.get(k) (count counts.get(k)) for k in [rowFrom(s), rowFrom(s) + rowLen(s)). */
  private readonly rowFrom = new ChunkedInts();
  private readonly rowLen = new ChunkedInts();
  private readonly targets = new ChunkedInts();
  private readonly counts = new ChunkedInts();
  /** The base rows' reverse, once finished: sources of id t are inSrc.get(k) for k in [inFrom(t), inFrom(t + 1)). */
  private inFrom = new Int32Array(1);
  private readonly inSrc = new ChunkedInts();
  private readonly inCount = new ChunkedInts();
  /** Rows set after the base rows were finished (or a second time while building): id → [target, count, …]. */
  private readonly replaced = new Map<number, number[]>();
  /** Their reverse: target id → source id → count. */
  private readonly replacedIn = new Map<number, Map<number, number>>();
  /** Per source id, its unresolved links as [text, count, …] (absent when none). */
  private readonly dangling: ((string | number)[] | undefined)[] = [];
  private edges = 0;
  private building = true;
  private finishing: Generator<void, void, void> | null = null;

  static build(resolved: LinkRows, unresolved: LinkRows): LinkGraph {
    const g = new LinkGraph();
    for (const source in resolved) g.setRow(source, resolved[source], unresolved[source]);
    for (const source in unresolved) if (!(source in resolved)) g.setRow(source, undefined, unresolved[source]);
    g.finishNow();
    return g;
  }

  private idOf(path: string): number {
    let id = this.ids.get(path);
    if (id === undefined) { id = this.names.length; this.names.push(path); this.dangling.push(undefined); this.ids.set(path, id); }
    return id;
  }

  /** Replaces one source's outgoing row (undefined = the source has none / is gone). */
  setRow(source: string, targets: Record<string, number> | undefined, dangling: Record<string, number> | undefined): void {
    const s = this.idOf(source);
    if (this.building && !this.replaced.has(s) && this.rowLen.get(s) === 0) {
      // Appended straight to the base lists: no row object for the thousands of rows of a build.
      const from = this.targets.length;
      if (targets) for (const t in targets) { const n = targets[t]; if (t !== source && n > 0) { this.targets.push(this.idOf(t)); this.counts.push(n); } }
      this.rowFrom.set(s, from);
      this.rowLen.set(s, this.targets.length - from);
      this.edges += this.targets.length - from;
    } else {
      const row: number[] = [];
      if (targets) for (const t in targets) { const n = targets[t]; if (t !== source && n > 0) row.push(this.idOf(t), n); }
      this.unlinkReplaced(s);
      this.edges += row.length / 2 - this.rowLength(s);
      this.replaced.set(s, row);
      for (let i = 0; i < row.length; i += 2) {
        let back = this.replacedIn.get(row[i]);
        if (!back) { back = new Map(); this.replacedIn.set(row[i], back); }
        back.set(s, row[i + 1]);
      }
    }
    let u: (string | number)[] | undefined;
    if (dangling) for (const k in dangling) if (dangling[k] > 0) (u ??= []).push(k, dangling[k]);
    this.dangling[s] = u;
  }

  private rowLength(s: number): number {
    const r = this.replaced.get(s);
    return r ? r.length / 2 : this.rowLen.get(s);
  }

  private unlinkReplaced(s: number): void {
    const old = this.replaced.get(s);
    if (!old) return;
    for (let i = 0; i < old.length; i += 2) {
      const back = this.replacedIn.get(old[i]);
      if (!back) continue;
      back.delete(s);
      if (!back.size) this.replacedIn.delete(old[i]);
    }
  }

  /** The reverse of the base rows, a step at a time (the service runs it in slices); rows set from
   *  then on are kept apart. Queries finish it at once when it has not been. */
  finish(): Generator<void, void, void> {
    if (this.building) this.finishing = this.reverse();
    return this.finishing ?? nothing();
  }

  private *reverse(): Generator<void, void, void> {
    this.building = false;
    const n = this.names.length;
    const from = new Int32Array(n + 1);
    let work = 0;
    for (let s = 0; s < n; s++) {
      const a = this.rowFrom.get(s), b = a + this.rowLen.get(s);
      for (let k = a; k < b; k++) from[this.targets.get(k) + 1]++;
      if ((work += b - a + 1) > FINISH_STEP) { work = 0; yield; }
    }
    for (let t = 0; t < n; t++) from[t + 1] += from[t];
    // The reverse is written out of order: its chunks are made first, one per step (570k links: 4.6 MB).
    while (this.inSrc.reserveChunk(from[n])) yield;
    while (this.inCount.reserveChunk(from[n])) yield;
    const at = from.slice(0, n);
    for (let s = 0; s < n; s++) {
      const a = this.rowFrom.get(s), b = a + this.rowLen.get(s);
      for (let k = a; k < b; k++) { const i = at[this.targets.get(k)]++; this.inSrc.set(i, s); this.inCount.set(i, this.counts.get(k)); }
      if ((work += b - a + 1) > FINISH_STEP) { work = 0; yield; }
    }
    this.inFrom = from;
    this.finishing = null;
  }

  private finishNow(): void {
    if (!this.building && !this.finishing) return;
    const steps = this.finish();
    while (!steps.next().done) { /* at once */ }
  }

  /** Calls fn(target, count) for each link of `path` (self excluded) until it returns true; true if it did. */
  someOutgoing(path: string, fn: (target: string, count: number) => boolean | void): boolean {
    const s = this.ids.get(path);
    if (s === undefined) return false;
    const r = this.replaced.get(s);
    if (r) {
      for (let i = 0; i < r.length; i += 2) if (fn(this.names[r[i]], r[i + 1])) return true;
      return false;
    }
    const a = this.rowFrom.get(s), b = a + this.rowLen.get(s);
    for (let k = a; k < b; k++) if (fn(this.names[this.targets.get(k)], this.counts.get(k))) return true;
    return false;
  }

  /** Calls fn(source, count) for each note linking to `path` (self excluded) until it returns true; true if it did. */
  someIncoming(path: string, fn: (source: string, count: number) => boolean | void): boolean {
    const t = this.ids.get(path);
    return t !== undefined && this.someIncomingOf(t, fn);
  }

  private someIncomingOf(t: number, fn: (source: string, count: number) => boolean | void): boolean {
    this.finishNow();
    if (t + 1 < this.inFrom.length) {
      const masked = this.replaced.size > 0;
      for (let k = this.inFrom[t], e = this.inFrom[t + 1]; k < e; k++) {
        const s = this.inSrc.get(k);
        if (masked && this.replaced.has(s)) continue;
        if (fn(this.names[s], this.inCount.get(k))) return true;
      }
    }
    const extra = this.replacedIn.get(t);
    if (extra) for (const [s, c] of extra) if (fn(this.names[s], c)) return true;
    return false;
  }

  outgoing(path: string): ReadonlyMap<string, number> {
    const m = new Map<string, number>();
    this.someOutgoing(path, (t, c) => { m.set(t, c); });
    return m;
  }

  incoming(path: string): ReadonlyMap<string, number> {
    const m = new Map<string, number>();
    this.someIncoming(path, (s, c) => { m.set(s, c); });
    return m;
  }

  /** Undirected neighbours (notes linking to or linked from `path`). */
  neighbours(path: string): string[] {
    const s = new Set<string>();
    this.someOutgoing(path, (t) => { s.add(t); });
    this.someIncoming(path, (q) => { s.add(q); });
    return [...s];
  }

  /** Notes with at least one link (self excluded). */
  sources(): string[] {
    return this.names.filter((p, s) => this.rowLength(s) > 0);
  }

  /** Notes and files at least one note links to. */
  linkedTargets(): string[] {
    return this.names.filter((p, t) => this.someIncomingOf(t, () => true));
  }

  /** A note's unresolved links: link text → count. */
  unresolvedOf(path: string): ReadonlyMap<string, number> {
    const s = this.ids.get(path);
    const u = s === undefined ? undefined : this.dangling[s];
    const m = new Map<string, number>();
    if (u) for (let i = 0; i < u.length; i += 2) m.set(u[i] as string, u[i + 1] as number);
    return m;
  }

  hasUnresolved(path: string): boolean {
    const s = this.ids.get(path);
    return s !== undefined && this.dangling[s] !== undefined;
  }

  /** Notes with unresolved links. */
  unresolvedSources(): string[] {
    return this.names.filter((p, s) => this.dangling[s] !== undefined);
  }

  edgeCount(): number {
    return this.edges;
  }

  /** So many rows were set after the build that a fresh build would be smaller (a replaced row is a
   *  JS array plus a Map entry per link, and its base row stays in the lists). */
  worn(): boolean {
    return this.replaced.size > Math.max(4096, this.names.length >> 2);
  }
}

function* nothing(): Generator<void, void, void> { /* a finished graph has no steps left */ }

/** Base edges handled per step of `finish`. Small: its callers' slicers read the clock only every 32
 *  steps (as for rows), and 32 steps of 32,768 edges were one 33-60 ms block at 100k notes. */
const FINISH_STEP = 1_024;

export interface BfsNode { path: string; distance: number; via: string | null }

/**
 * Breadth-first search from `start` over edges `next(path)`, up to `maxDepth`, visiting only nodes
 * `accept` allows. Neighbours are visited in code-point order, so answers are deterministic.
 */
export function bfs(start: string, maxDepth: number, next: (p: string) => Iterable<string>, accept: (p: string) => boolean, stopAt?: string): Map<string, BfsNode> {
  const seen = new Map<string, BfsNode>([[start, { path: start, distance: 0, via: null }]]);
  let frontier = [start];
  for (let d = 1; d <= maxDepth && frontier.length; d++) {
    const nextFrontier: string[] = [];
    for (const p of frontier) {
      const ns = [...next(p)].sort();
      for (const n of ns) {
        if (seen.has(n) || !accept(n)) continue;
        seen.set(n, { path: n, distance: d, via: p });
        nextFrontier.push(n);
        if (n === stopAt) return seen;
      }
    }
    frontier = nextFrontier.sort();
  }
  return seen;
}
