// The vector index saved and loaded in slices that yield (the plugin does both on Obsidian's UI thread):
// the bytes are exactly serialize()'s, loading gives deserialize()'s store, odd paths and headings
// (quotes, brackets, backslashes, commas, unicode) survive the row-by-row manifest parse, and a save
// that yields while notes are upserted and removed still writes one consistent snapshot.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { VectorStore } from '../../src/semantic/store.js';

const FP = { model: 'm#1', dims: 12, chunking: 'heading-v1:max256:ov32' };
const D = 12;

function vecs(n: number, seed: number): Float32Array {
  const v = new Float32Array(n * D);
  for (let i = 0; i < v.length; i++) v[i] = Math.sin(seed * 31 + i);
  return v;
}

function fill(s: VectorStore, names: string[], headings: string[]): void {
  names.forEach((path, i) => {
    const n = 1 + (i % 3);
    s.upsert({ path, hash: `sha256:${i}`, mtime: i, size: i * 2, chunks: Array.from({ length: n }, (_, k) => ({ ordinal: k ? `#${k}` : null, heading: headings[(i + k) % headings.length], start: k, end: k + 1 })) }, vecs(n, i));
  });
}

test('sliced save = serialize() bytes; sliced load = deserialize() store (fast-check over odd names)', async () => {
  const odd = fc.string({ unit: fc.constantFrom('a', 'Z', '"', '\\', '[', ']', '{', '}', ',', ':', ' ', 'ü', '日', '\n', '\t', '🙂', '/', '.') , minLength: 1, maxLength: 12 });
  await fc.assert(fc.asyncProperty(fc.uniqueArray(odd.map((x) => `${x}.md`), { minLength: 0, maxLength: 30 }), fc.array(odd, { minLength: 1, maxLength: 5 }), async (names, headings) => {
    const s = new VectorStore(FP, 1, { simd: false });
    fill(s, names, headings);
    if (names.length > 2) { s.remove(names[1]); s.markFailed(names[1], 'sha256:f', 'a "bad" [note], really\\', 3, 4); }
    const sync = s.serialize();
    const sliced = await s.serializeSliced();
    assert.deepEqual(sliced, sync);
    const a = VectorStore.deserialize(sync);
    const b = await VectorStore.deserializeSliced(sync);
    assert.deepEqual([...b.notes], [...a.notes]);
    assert.deepEqual([...b.failed], [...a.failed]);
    for (const p of a.notes.keys()) assert.deepEqual([...b.noteVectors(p)!], [...a.noteVectors(p)!]);
  }), { numRuns: 60 });
});

test('a sliced save that yields while notes change writes one consistent snapshot; damage is refused', async () => {
  const s = new VectorStore(FP, 1);
  fill(s, Array.from({ length: 30_000 }, (_, i) => `F${i % 10}/N${i}.md`), ['H']);
  const before = new Map([...s.notes].map(([p]) => [p, [...s.noteVectors(p)!]]));
  const saving = s.serializeSliced();
  // Meanwhile: replacements (rows appended), removals (rows dead) and enough of them to ask for compaction.
  let changed = 0;
  const churn = (async () => {
    for (let i = 0; i < 6000; i++) {
      s.upsert({ path: `F1/N${i * 3}.md`, hash: 'sha256:new', mtime: 1, size: 1, chunks: [{ ordinal: null, heading: 'new', start: 0, end: 1 }] }, vecs(1, 777));
      s.remove(`F2/N${i * 5}.md`);
      changed++;
      if (i % 200 === 0) await new Promise((r) => setTimeout(r, 0));
    }
  })();
  const bytes = await saving;
  await churn;
  assert.ok(changed > 0);
  const back = await VectorStore.deserializeSliced(bytes);
  // Whatever the save saw of a note, its vectors are that note's, as before or after a change, never another's rows.
  let same = 0;
  for (const [p, e] of back.notes) {
    const v = [...back.noteVectors(p)!];
    if (e.hash === 'sha256:new') assert.deepEqual(v, [...vecs(1, 777)]);
    else { assert.deepEqual(v, before.get(p)); same++; }
  }
  assert.ok(same > 20_000);
  const cut = bytes.slice(0, bytes.length - 8);
  await assert.rejects(VectorStore.deserializeSliced(cut), /truncated or damaged/);
  const bad = bytes.slice();
  bad[40] = 0x7b; // a '{' inside the manifest's first note row
  await assert.rejects(VectorStore.deserializeSliced(bad));
});
