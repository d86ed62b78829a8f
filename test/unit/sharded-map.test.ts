// ShardedMap (src/core/shardedMap.ts): the keyword index's term and path maps, split so that no single
// set() rehashes 130k entries in one go. It must answer exactly as a Map does, whatever the keys.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ShardedMap, ShardedSet } from '../../src/core/shardedMap.js';

type Op = { kind: 'set'; key: string; value: number } | { kind: 'delete'; key: string } | { kind: 'clear' };
const key = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('', 'a', 'Note 1.md', 'ü', '😀', 'é'));
const op = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('set' as const), key, value: fc.integer() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('delete' as const), key }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('clear' as const) }) },
);

test('answers as a Map does: get, has, set, delete, clear, size, and the same entries', () => {
  fc.assert(fc.property(fc.array(op, { maxLength: 200 }), fc.array(key, { maxLength: 20 }), (ops, probes) => {
    const want = new Map<string, number>();
    const got = new ShardedMap<number>();
    for (const o of ops) {
      if (o.kind === 'set') { want.set(o.key, o.value); got.set(o.key, o.value); }
      else if (o.kind === 'delete') assert.equal(got.delete(o.key), want.delete(o.key));
      else { want.clear(); got.clear(); }
      assert.equal(got.size, want.size);
    }
    for (const k of probes) { assert.equal(got.get(k), want.get(k)); assert.equal(got.has(k), want.has(k)); }
    const byKey = (a: [string, number], b: [string, number]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
    assert.deepEqual([...got].sort(byKey), [...want].sort(byKey));
    assert.deepEqual([...got.keys()].sort(), [...want.keys()].sort());
  }), { numRuns: 300 });
});

test('many keys spread over the shards (no shard holds most of them)', () => {
  const m = new ShardedMap<number>();
  for (let i = 0; i < 100_000; i++) m.set(i % 2 ? `Notes/F${i % 100}/Note ${i}.md` : String(i), i);
  assert.equal(m.size, 100_000);
  const shards = (m as unknown as { shards: Map<string, number>[] }).shards.map((s) => s.size);
  assert.ok(Math.max(...shards) < 100_000 / 8, `largest shard ${Math.max(...shards)} of ${shards.length}`);
});

test('ShardedSet: behaves as a Set of strings; first(n) gives the first n members in iteration order', () => {
  const s = new ShardedSet();
  const model = new Set<string>();
  for (let i = 0; i < 5000; i++) {
    const k = `Notes/F${i % 37}/note ${(i * 7919) % 3001}.md`;
    if (i % 5 === 4) { assert.equal(s.delete(k), model.delete(k)); } else { s.add(k); model.add(k); }
  }
  assert.equal(s.size, model.size);
  assert.deepEqual([...s].sort(), [...model].sort());
  for (const k of model) assert.ok(s.has(k));
  assert.deepEqual(s.first(10), [...s].slice(0, 10));
  assert.deepEqual(s.first(0), []);
  assert.deepEqual(s.first(s.size + 5), [...s]);
  s.clear();
  assert.equal(s.size, 0);
  assert.deepEqual([...s], []);
});
