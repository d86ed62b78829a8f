// LinkGraph (adjacency, incremental rows, self-links), bfs, and the pure change-feed helpers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LinkGraph, bfs } from '../../src/graph/linkGraph.js';
import { adjacency } from '../helpers/graphDump.js';
import { ChunkedInts } from '../../src/core/chunkedInts.js';
import { ShardedMap } from '../../src/core/shardedMap.js';
import { diffState, pairMoves, parseCursor, parseFeedParts, feedText, retain, type ChangeEvent } from '../../src/changes/feed.js';
import { scopeEvent } from '../../src/changes/feed.js';

test('LinkGraph: in/out maps, self-links ignored, unresolved kept', () => {
  const g = LinkGraph.build({ a: { b: 2, a: 1 }, b: { c: 1 }, c: {} }, { a: { Missing: 1 } });
  assert.deepEqual([...g.outgoing('a')], [['b', 2]]);
  assert.deepEqual([...g.incoming('b')], [['a', 2]]);
  assert.deepEqual([...g.incoming('a')], []);
  assert.deepEqual(g.neighbours('b').sort(), ['a', 'c']);
  assert.equal(g.unresolvedOf('a').get('Missing'), 1);
  assert.equal(g.edgeCount(), 2);
});

test('LinkGraph: setRow replaces a row and its reverse edges', () => {
  const g = LinkGraph.build({ a: { b: 1, c: 1 } }, {});
  g.setRow('a', { c: 3 }, { X: 1 });
  assert.deepEqual([...g.incoming('b')], []);
  assert.equal(g.linkedTargets().includes('b'), false);
  assert.deepEqual([...g.incoming('c')], [['a', 3]]);
  g.setRow('a', undefined, undefined);
  assert.deepEqual(adjacency(g), { out: {}, in: {}, unresolved: {} });
  assert.equal(g.edgeCount(), 0);
});

test('property: incremental setRow equals a full build', () => {
  const names = ['a', 'b', 'c', 'd', 'e'];
  const row = fc.dictionary(fc.constantFrom(...names), fc.integer({ min: 1, max: 3 }));
  fc.assert(fc.property(fc.dictionary(fc.constantFrom(...names), row), fc.array(fc.tuple(fc.constantFrom(...names), row)), (init, updates) => {
    const g = LinkGraph.build(init, {});
    const state: Record<string, Record<string, number>> = { ...init };
    for (const [s, r] of updates) { g.setRow(s, r, undefined); state[s] = r; }
    const fresh = LinkGraph.build(state, {});
    assert.deepEqual(adjacency(g), adjacency(fresh));
    assert.equal(g.edgeCount(), fresh.edgeCount());
  }));
});

type Row = Record<string, number> | undefined;
/** What a graph of these rows must hold, from plain maps: self-links and counts below 1 dropped. */
function expected(rows: Map<string, { r: Row; u: Row }>) {
  const out: Record<string, Record<string, number>> = {};
  const inn: Record<string, Record<string, number>> = {};
  const unresolved: Record<string, Record<string, number>> = {};
  for (const [s, { r, u }] of [...rows].sort(([a], [b]) => (a < b ? -1 : 1))) {
    for (const [t, n] of Object.entries(r ?? {}).sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (t === s || !(n > 0)) continue;
      (out[s] ??= {})[t] = n;
      (inn[t] ??= {})[s] = n;
    }
    for (const [k, n] of Object.entries(u ?? {}).sort(([a], [b]) => (a < b ? -1 : 1))) if (n > 0) (unresolved[s] ??= {})[k] = n;
  }
  const sortKeys = (o: Record<string, Record<string, number>>) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)))]));
  const edges = Object.values(out).reduce((n, m) => n + Object.keys(m).length, 0);
  return { adjacency: { out: sortKeys(out), in: sortKeys(inn), unresolved: sortKeys(unresolved) }, edges };
}

test('property: rows set while building, again, after queries and deleted equal plain maps of the last rows', () => {
  const names = ['a', 'b', 'c', 'd', 'e'];
  const row = fc.option(fc.dictionary(fc.constantFrom(...names), fc.integer({ min: 0, max: 3 })), { nil: undefined });
  const dangling = fc.option(fc.dictionary(fc.constantFrom('X', 'Y'), fc.integer({ min: 0, max: 2 })), { nil: undefined });
  const op = fc.oneof(
    fc.record({ kind: fc.constant('set' as const), s: fc.constantFrom(...names), r: row, u: dangling }),
    fc.record({ kind: fc.constant('query' as const), p: fc.constantFrom(...names) }),
  );
  fc.assert(fc.property(fc.array(op, { maxLength: 30 }), (ops) => {
    const g = new LinkGraph();
    const rows = new Map<string, { r: Row; u: Row }>();
    for (const o of ops) {
      if (o.kind === 'set') { g.setRow(o.s, o.r, o.u); rows.set(o.s, { r: o.r, u: o.u }); continue; }
      const want = expected(rows).adjacency;
      assert.deepEqual(Object.fromEntries(g.incoming(o.p)), want.in[o.p] ?? {});
      assert.deepEqual(Object.fromEntries(g.outgoing(o.p)), want.out[o.p] ?? {});
    }
    const want = expected(rows);
    assert.deepEqual(adjacency(g), want.adjacency);
    assert.equal(g.edgeCount(), want.edges);
  }));
});

test('a graph over many chunks, its reverse built in steps, equals plain maps; later rows are kept apart', () => {
  let seed = 11;
  const rnd = (n: number) => (seed = (seed * 48271) % 2147483647) % n;
  const n = 20_000;
  const rows = new Map<string, { r: Row; u: Row }>();
  const g = new LinkGraph();
  for (let i = 0; i < n; i++) {
    const r: Record<string, number> = {};
    for (let k = 0; k < 4; k++) r[`N${rnd(n)}.md`] = 1 + rnd(3);
    const u = i % 7 ? undefined : { [`Missing ${i}`]: 1 };
    g.setRow(`N${i}.md`, r, u);
    rows.set(`N${i}.md`, { r, u });
  }
  let steps = 0;
  for (const st = g.finish(); !st.next().done;) steps++;
  // Two passes over every base edge (and one unit per source), at most 1,024 units a step: the slicers
  // that run it read the clock every 32 steps, so a step must stay small (it was 32,768 units: 12 steps here).
  const work = 2 * (g.edgeCount() + n);
  assert.ok(steps >= (0.9 * work) / 1_024, `the reverse took ${steps} steps for ${work} units`);
  for (let i = 0; i < 500; i++) {
    const s = `N${rnd(n)}.md`;
    const r = i % 5 ? { [`N${rnd(n)}.md`]: 2, [`New ${i}.md`]: 1 } : undefined;
    g.setRow(s, r, undefined);
    rows.set(s, { r, u: undefined });
  }
  const want = expected(rows);
  assert.deepEqual(adjacency(g), want.adjacency);
  assert.equal(g.edgeCount(), want.edges);
});

test('a graph with more rows replaced than a quarter of its notes (and over 4,096) asks for a rebuild', () => {
  const rows: Record<string, Record<string, number>> = {};
  for (let i = 0; i < 20_000; i++) rows[`N${i}.md`] = { [`N${(i + 1) % 20_000}.md`]: 1 };
  const g = LinkGraph.build(rows, {});
  for (let i = 0; i < 5_000; i++) g.setRow(`N${i}.md`, { 'N0.md': 1 }, undefined);
  assert.equal(g.worn(), false, '5,000 of 20,000');
  g.setRow('N5000.md', { 'N0.md': 1 }, undefined);
  assert.equal(g.worn(), true, '5,001 of 20,000');
  assert.equal(g.incoming('N0.md').size, 5_001);
});

test('bfs: distances, deterministic via, stopAt, accept', () => {
  const edges: Record<string, string[]> = { s: ['b', 'a'], a: ['c'], b: ['c'], c: ['d'], d: [] };
  const r = bfs('s', 5, (p) => edges[p] ?? [], () => true);
  assert.deepEqual([...r.values()].map((n) => [n.path, n.distance, n.via]), [['s', 0, null], ['a', 1, 's'], ['b', 1, 's'], ['c', 2, 'a'], ['d', 3, 'c']]);
  assert.equal(bfs('s', 1, (p) => edges[p] ?? [], () => true).has('c'), false);
  assert.equal(bfs('s', 5, (p) => edges[p] ?? [], (p) => p !== 'a').get('c')!.via, 'b');
  assert.equal(bfs('s', 5, (p) => edges[p] ?? [], () => true, 'b').has('c'), false, 'stops when the target is found');
});

test('feed cursors', () => {
  assert.deepEqual(parseCursor('ev:12'), { kind: 'seq', n: 12 });
  assert.deepEqual(parseCursor(' ev:0 '), { kind: 'seq', n: 0 });
  assert.equal(parseCursor('ev:x'), null);
  assert.equal(parseCursor('ev:-1'), null);
  assert.deepEqual(parseCursor('2026-01-01'), { kind: 'time' });
});

test('feed lines round-trip; corrupt lines are counted and skipped', async () => {
  const evs: ChangeEvent[] = [{ n: 1, t: 10, kind: 'reset', by: 'server' }, { n: 2, t: 20, kind: 'created', path: 'a.md', by: 'human' }];
  const text = feedText(evs) + '{not json\n' + JSON.stringify({ x: 1 }) + '\n';
  const back = await parseFeedParts([text], async () => undefined);
  assert.deepEqual(back.events, evs);
  assert.equal(back.bad, 2);
});

test('retention by age then count', () => {
  const evs: ChangeEvent[] = Array.from({ length: 10 }, (_, i) => ({ n: i + 1, t: i * 100, kind: 'modified', path: 'a.md', by: 'human' }));
  assert.deepEqual(retain(evs, 1000, 450, 100).kept.map((e) => e.n), [7, 8, 9, 10]);
  assert.deepEqual(retain(evs, 1000, 10_000, 3).kept.map((e) => e.n), [8, 9, 10]);
  assert.equal(retain(evs, 1000, 10_000, 3).dropped.length, 7);
});

test('diffState and pairMoves', () => {
  const prev = { 'a.md': { m: 1, s: 1, h: 'h1', c: 1 }, 'b.md': { m: 1, s: 1, h: 'h2', c: 1 }, 'c.md': { m: 1, s: 1, h: 'h3', c: 1 } };
  const d = diffState(prev, [{ path: 'a.md', mtime: 1, size: 1 }, { path: 'b.md', mtime: 2, size: 1 }, { path: 'x/c.md', mtime: 1, size: 1 }]);
  assert.deepEqual(d, [{ kind: 'changed?', path: 'b.md' }, { kind: 'deleted', path: 'c.md' }, { kind: 'created', path: 'x/c.md' }]);
  // The loaded state is a ShardedMap (and a Map in older callers): the same diff; a record's inherited names are no notes.
  const now = [{ path: 'a.md', mtime: 1, size: 1 }, { path: 'b.md', mtime: 2, size: 1 }, { path: 'x/c.md', mtime: 1, size: 1 }, { path: 'constructor', mtime: 1, size: 1 }];
  const sharded = new ShardedMap<(typeof prev)['a.md']>();
  for (const [k, v] of Object.entries(prev)) sharded.set(k, v);
  const want = [...d, { kind: 'created', path: 'constructor' }].sort((a, b) => (a.path < b.path ? -1 : 1));
  assert.deepEqual(diffState(sharded, now), want);
  assert.deepEqual(diffState(new Map(Object.entries(prev)), now), want);
  assert.deepEqual(diffState(prev, now), want);
  const m = pairMoves([{ path: 'c.md', h: 'h3' }, { path: 'z.md', h: 'hz' }], [{ path: 'x/c.md', h: 'h3' }, { path: 'new.md', h: 'h3' }]);
  assert.deepEqual(m, { moves: [{ from: 'c.md', to: 'x/c.md' }], deleted: ['z.md'], created: ['new.md'] });
});

test('scopeEvent: moves across a key root become creations or deletions', () => {
  const vis = (p: string) => p.startsWith('in/');
  const mv = (from: string, path: string): ChangeEvent => ({ n: 1, t: 1, kind: 'moved', from, path, by: 'k' });
  assert.equal(scopeEvent(mv('in/a.md', 'in/b.md'), vis)!.kind, 'moved');
  assert.deepEqual(scopeEvent(mv('out/a.md', 'in/b.md'), vis), { n: 1, t: 1, kind: 'created', path: 'in/b.md', by: 'k', reason: 'moved in from outside the folders this key can see' });
  assert.equal(scopeEvent(mv('in/a.md', 'out/b.md'), vis)!.kind, 'deleted');
  assert.equal(scopeEvent(mv('in/a.md', 'out/b.md'), vis)!.path, 'in/a.md');
  assert.equal(scopeEvent(mv('out/a.md', 'out/b.md'), vis), null);
  assert.equal(scopeEvent({ n: 1, t: 1, kind: 'gap', by: 'server' }, vis)!.kind, 'gap');
  assert.equal(scopeEvent({ n: 1, t: 1, kind: 'created', path: 'out/x.md', by: 'human' }, vis), null);
});

test('a list filled out of order is readied a chunk per call', () => {
  const list = new ChunkedInts();
  let calls = 0;
  while (list.reserveChunk(100_000)) calls++;
  assert.equal(calls, 4, '100,000 entries take four chunks of 32,768');
  assert.equal(list.length, 0);
  list.set(99_999, 7);
  assert.equal(list.get(99_999), 7);
  assert.equal(list.get(5), 0);
  assert.equal(list.length, 100_000);
  assert.equal(list.reserveChunk(100_000), false);
});
