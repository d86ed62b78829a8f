// readAhead (core/readAhead.ts): index drains read a batch of notes a few ahead of handling them, so a
// host that answers reads at once never has a whole batch's processing land in one task.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readAhead, readAllAhead } from '../../src/core/readAhead.js';

test('readAhead: results in order, and never more than `ahead` reads started past the item being handled', async () => {
  const items = Array.from({ length: 20 }, (_, i) => i);
  let started = 0;
  const seen: number[] = [];
  for await (const [item, got] of readAhead(items, async (i) => { started++; return i * 10; }, 3)) {
    assert.equal(got, item * 10);
    assert.ok(started <= item + 3, `item ${item}: ${started} reads started`);
    seen.push(item);
  }
  assert.deepEqual(seen, items);
});

test('readAllAhead: every result, in order, with a pause after each (a slow early read does not reorder)', async () => {
  let pauses = 0;
  const out = await readAllAhead([3, 1, 2], (ms) => new Promise<number>((r) => setTimeout(() => r(ms), ms * 5)), () => { pauses++; return pauses % 2 ? new Promise<void>((r) => setImmediate(r)) : null; });
  assert.deepEqual(out, [3, 1, 2]);
  assert.equal(pauses, 3);
});
