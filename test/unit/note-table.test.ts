// NoteTable (src/changes/noteTable.ts): the change feed's per-note state in columns. Whatever the
// sequence of sets, deletes and clears, it reads back exactly as a Map of the same records would,
// hashes of every kind included, and a snapshot over it (SnapshotMap) still gives the moment it was taken.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NoteTable } from '../../src/changes/noteTable.js';
import { SnapshotMap } from '../../src/changes/snapshotMap.js';
import { noteState, type NoteState } from '../../src/changes/feed.js';
import { contentHash } from '../../src/core/hash.js';

// The hashes a state can hold: the feed's own, none, and any other string (tests' tokens, a hand-edited
// state file), including ones of the feed's width that are not ASCII.
const hash = fc.oneof(
  { weight: 4, arbitrary: fc.string().map((s) => contentHash(s)) },
  { weight: 2, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.string({ maxLength: 80 }) },
  { weight: 1, arbitrary: fc.string().map((s) => contentHash(s).slice(0, 70) + '→') },
);
const num = fc.oneof(fc.double({ noNaN: true }), fc.integer({ min: 0, max: 2 ** 53 - 1 }), fc.constant(1_765_000_000_123.5));
const state = fc.tuple(num, num, hash, num).map(([m, s, h, c]) => noteState(m, s, h, c));
type Op = { kind: 'set'; key: number; value: NoteState } | { kind: 'delete'; key: number } | { kind: 'clear' };
const op = fc.oneof(
  { weight: 8, arbitrary: fc.record({ kind: fc.constant('set' as const), key: fc.integer({ min: 0, max: 60 }), value: state }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('delete' as const), key: fc.integer({ min: 0, max: 60 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'clear' as const }) },
);
const key = (n: number) => `folder ${n % 7}/note ${n}.md`;
const plain = (v: NoteState | undefined) => (v ? { m: v.m, s: v.s, h: v.h, c: v.c } : v);
const byKey = (a: [string, unknown], b: [string, unknown]) => a[0].localeCompare(b[0]);
const rows = (it: Iterable<[string, NoteState]>) => [...it].map(([k, v]) => [k, plain(v)] as [string, unknown]).sort(byKey);

test('the table reads back what a Map of the same records holds, after any sets, deletes and clears', () => {
  fc.assert(fc.property(fc.array(op, { maxLength: 120 }), (ops) => {
    const table = new NoteTable();
    const model = new Map<string, NoteState>();
    for (const o of ops) {
      if (o.kind === 'set') { table.set(key(o.key), o.value); model.set(key(o.key), o.value); }
      else if (o.kind === 'delete') assert.equal(table.delete(key(o.key)), model.delete(key(o.key)));
      else { table.clear(); model.clear(); }
    }
    assert.equal(table.size, model.size);
    assert.deepEqual(rows(table), rows(model));
    for (let k = 0; k <= 60; k++) {
      assert.equal(table.has(key(k)), model.has(key(k)));
      assert.deepEqual(plain(table.get(key(k))), plain(model.get(key(k))));
      assert.equal(table.changedAt(key(k)), model.get(key(k))?.c);
    }
  }), { numRuns: 1000 });
});

test('over several column chunks, slots freed by deletes are reused without mixing up notes', () => {
  const table = new NoteTable();
  const n = 24_000; // 24,000 slots: two chunks of 16,384
  const want = (i: number) => noteState(1_765_000_000_000 + i, i * 3, i % 5 === 0 ? null : i % 7 === 0 ? `odd ${i}` : contentHash(`note ${i}`), 1_700_000_000_000 - i);
  for (let i = 0; i < n; i++) table.set(`n${i}.md`, want(i));
  for (let i = 0; i < n; i += 2) table.delete(`n${i}.md`);
  for (let i = n; i < n + n / 2; i++) table.put(`n${i}.md`, want(i).m, want(i).s, want(i).h, want(i).c);
  assert.equal(table.size, n);
  for (let i = 1; i < n + n / 2; i++) {
    if (i < n && i % 2 === 0) { assert.equal(table.get(`n${i}.md`), undefined); continue; }
    assert.deepEqual(plain(table.get(`n${i}.md`)), plain(want(i)), `n${i}.md`);
  }
});

test('a snapshot over the table yields the states of the moment it was taken, however they change meanwhile', () => {
  fc.assert(fc.property(fc.array(op, { maxLength: 60 }), fc.array(fc.array(op, { maxLength: 4 }), { maxLength: 80 }), (before, during) => {
    const m = SnapshotMap.adopt<NoteState>(new NoteTable());
    const apply = (o: Op) => { if (o.kind === 'set') m.set(key(o.key), o.value); else if (o.kind === 'delete') m.delete(key(o.key)); else m.clear(); };
    for (const o of before) apply(o);
    const want = rows(m);
    const snap = m.snapshot();
    const got: [string, NoteState][] = [];
    let i = 0;
    for (const e of snap.entries) { got.push(e); for (const o of during[i++] ?? []) apply(o); }
    snap.close();
    assert.deepEqual(rows(got), want);
  }), { numRuns: 500 });
});
