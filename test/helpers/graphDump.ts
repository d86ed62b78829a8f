// A LinkGraph as plain sorted data: every edge both ways and every unresolved link, to compare graphs.
import type { LinkGraph } from '../../src/graph/linkGraph.js';

const sorted = (m: ReadonlyMap<string, number>) => Object.fromEntries([...m].sort(([a], [b]) => (a < b ? -1 : 1)));
const byKey = (rows: [string, Record<string, number>][]) => Object.fromEntries(rows.sort(([a], [b]) => (a < b ? -1 : 1)));

export function adjacency(g: LinkGraph): { out: Record<string, Record<string, number>>; in: Record<string, Record<string, number>>; unresolved: Record<string, Record<string, number>> } {
  return {
    out: byKey(g.sources().map((s) => [s, sorted(g.outgoing(s))])),
    in: byKey(g.linkedTargets().map((t) => [t, sorted(g.incoming(t))])),
    unresolved: byKey(g.unresolvedSources().map((s) => [s, sorted(g.unresolvedOf(s))])),
  };
}
