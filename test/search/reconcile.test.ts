// The warm start's comparison of a loaded keyword index with the vault (src/search/reconcile.ts): what
// it queues, that it yields on a big vault, and that a note the host has again by the end is not taken
// for gone (the list it compares was taken before its pauses).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InvertedIndex } from '../../src/search/invertedIndex.js';
import { queueAll, queueDifferences, type Op } from '../../src/search/reconcile.js';
import type { VaultHost } from '../../src/host/port.js';
import type { FileStat } from '../../src/host/fileStat.js';

const NO_LENGTHS = [0, 0, 0, 0, 0];

function indexOf(notes: { path: string; mtime: number; size: number }[]): InvertedIndex {
  const ix = new InvertedIndex();
  for (const n of notes) { ix.restoreDoc(n.path, NO_LENGTHS, 0, n.path, ''); ix.record(n.path, n.mtime, n.size, ''); }
  return ix;
}

function hostOf(list: FileStat[], extra: FileStat[] = []): VaultHost {
  const all = new Map([...list, ...extra].map((f) => [f.path, f]));
  return { files: () => list, stat: (p: string) => all.get(p) ?? null } as unknown as VaultHost;
}

const stat = (path: string, mtime = 1, size = 10): FileStat => ({ path, mtime, size, ctime: 0 });

test('queues changed, new and vanished notes; unchanged notes, attachments and unchanged too-large notes stay out', async () => {
  const ix = indexOf([{ path: 'same.md', mtime: 1, size: 10 }, { path: 'edited.md', mtime: 1, size: 10 }, { path: 'gone.md', mtime: 1, size: 10 }, { path: 'late.md', mtime: 1, size: 10 }]);
  const skipped = new Map([['big.md', 'too_large:999'], ['bigger.md', 'too_large:5'], ['vanished-big.md', 'too_large:7']]);
  // late.md is missing from the list taken at the start but the host has it by the time vanished notes are checked.
  const host = hostOf([stat('same.md'), stat('edited.md', 2), stat('new.md'), stat('big.md', 1, 999), stat('bigger.md', 1, 6), stat('pic.png')], [stat('late.md')]);
  const queue = new Map<string, Op>();
  const n = await queueDifferences(ix, skipped, host, queue, () => null);
  assert.deepEqual([...queue].sort(), [['bigger.md', 'upsert'], ['edited.md', 'upsert'], ['gone.md', 'delete'], ['new.md', 'upsert']]);
  assert.equal(n, 4);
  assert.deepEqual([...skipped.keys()].sort(), ['big.md', 'bigger.md'], 'a skipped note that is gone is forgotten');
});

test('a big vault is compared in slices: the pause is offered and awaited', async () => {
  const notes = Array.from({ length: 5000 }, (_, i) => ({ path: `n${i}.md`, mtime: 1, size: 10 }));
  const ix = indexOf(notes);
  const list = notes.map((n) => stat(n.path)).filter((_, i) => i !== 7); // one vanished: the second pass runs too
  let offered = 0;
  let awaited = 0;
  const pause = () => { offered++; return offered % 2 ? Promise.resolve().then(() => { awaited++; }) : null; };
  const queue = new Map<string, Op>();
  await queueDifferences(ix, new Map(), hostOf(list), queue, pause);
  assert.deepEqual([...queue], [['n7.md', 'delete']]);
  assert.ok(offered >= 9 && awaited >= 4, `pauses offered ${offered}, awaited ${awaited}`);
});

test('a build queues every note in slices; an op queued meanwhile is kept; a build overtaken by another stops', async () => {
  const list = [...Array.from({ length: 5000 }, (_, i) => stat(`n${i}.md`)), stat('pic.png')];
  const queue = new Map<string, Op>();
  let pauses = 0;
  // At the first pause an event queues a delete for a note the list still has (deleted meanwhile).
  const done = await queueAll(hostOf(list), queue, () => { if (pauses++ === 0) queue.set('n4000.md', 'delete'); return Promise.resolve(); }, () => true);
  assert.equal(done, true);
  assert.ok(pauses >= 4, `paused ${pauses} times`);
  assert.equal(queue.size, 5000, 'every note, no attachment');
  assert.equal(queue.get('n4000.md'), 'delete', 'the event meanwhile keeps its op');
  assert.equal(queue.get('n1.md'), 'upsert');
  const stale = new Map<string, Op>();
  assert.equal(await queueAll(hostOf(list), stale, () => Promise.resolve(), () => false), false);
  assert.ok(stale.size < 5000, 'stopped at its first pause');
});
