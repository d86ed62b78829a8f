// The link graph as adjacency maps, built from the host's `resolvedLinks` / `unresolvedLinks` (the
// shape of Obsidian's metadataCache). Self-links (`[[#Heading]]`, a note linking itself) are kept in
// the raw rows but never count as an edge: a note is not its own backlink, neighbour or cure for
// being an orphan. Row updates are incremental; a full rebuild is a pass over every row.

import type { LinkRowMap } from '../host/port.js';

export type LinkRows = Record<string, Record<string, number>>;

/** Plain-object rows seen as a LinkRowMap (hosts without linkRows). */
export function rowMapOf(rows: LinkRows): LinkRowMap {
  return {
    get: (k) => (Object.prototype.hasOwnProperty.call(rows, k) ? rows[k] : undefined),
    keys: () => Object.keys(rows),
    get size() { return Object.keys(rows).length; },
  };
}

export class LinkGraph {
  /** source → target → link count (self-links excluded). */
  readonly out = new Map<string, Map<string, number>>();
  /** target → source → link count (self-links excluded). */
  readonly in = new Map<string, Map<string, number>>();
  /** source → unresolved link text → count. */
  readonly unresolved = new Map<string, Map<string, number>>();

  static build(resolved: LinkRows, unresolved: LinkRows): LinkGraph {
    const g = new LinkGraph();
    for (const source in resolved) g.setRow(source, resolved[source], unresolved[source]);
    for (const source in unresolved) if (!(source in resolved)) g.setRow(source, undefined, unresolved[source]);
    return g;
  }

  /** Replaces one source's outgoing row (undefined = the source has none / is gone). */
  setRow(source: string, targets: Record<string, number> | undefined, dangling: Record<string, number> | undefined): void {
    const old = this.out.get(source);
    if (old) {
      for (const t of old.keys()) {
        const back = this.in.get(t);
        if (!back) continue;
        back.delete(source);
        if (!back.size) this.in.delete(t);
      }
      this.out.delete(source);
    }
    if (targets) {
      let row: Map<string, number> | null = null;
      for (const t in targets) {
        const n = targets[t];
        if (t === source || !(n > 0)) continue;
        row ??= new Map();
        row.set(t, n);
        let back = this.in.get(t);
        if (!back) { back = new Map(); this.in.set(t, back); }
        back.set(source, n);
      }
      if (row) this.out.set(source, row);
    }
    this.unresolved.delete(source);
    if (dangling) {
      const u = new Map<string, number>();
      for (const k in dangling) if (dangling[k] > 0) u.set(k, dangling[k]);
      if (u.size) this.unresolved.set(source, u);
    }
  }

  outgoing(path: string): ReadonlyMap<string, number> {
    return this.out.get(path) ?? EMPTY;
  }

  incoming(path: string): ReadonlyMap<string, number> {
    return this.in.get(path) ?? EMPTY;
  }

  /** Undirected neighbours (notes linking to or linked from `path`). */
  neighbours(path: string): string[] {
    const s = new Set<string>(this.outgoing(path).keys());
    for (const k of this.incoming(path).keys()) s.add(k);
    return [...s];
  }

  edgeCount(): number {
    let n = 0;
    for (const row of this.out.values()) n += row.size;
    return n;
  }
}

const EMPTY: ReadonlyMap<string, number> = new Map();

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
