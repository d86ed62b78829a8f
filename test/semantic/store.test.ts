import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { VectorStore, TopK, fingerprintKey } from '../../src/semantic/store.js';
import { rrf } from '../../src/core/fusion.js';

const FP = { model: 'm#1', dims: 8, chunking: 'heading-v1:max256:ov32' };

function unit(seed: number, d = 8): Float32Array {
  const v = new Float32Array(d);
  let s = seed * 9301 + 49297;
  for (let i = 0; i < d; i++) { s = (s * 9301 + 49297) % 233280; v[i] = s / 233280 - 0.5; }
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

function note(path: string, n: number, seed: number) {
  const chunks = Array.from({ length: n }, (_, i) => ({ ordinal: `#${i + 1}`, heading: `H${i}`, start: i * 10, end: i * 10 + 9 }));
  const vec = new Float32Array(n * 8);
  for (let i = 0; i < n; i++) vec.set(unit(seed + i), i * 8);
  return { e: { path, hash: `sha256:${seed}`, mtime: seed, size: n, chunks }, vec };
}

test('serialize/deserialize round trip keeps manifest, vectors and rankings', () => {
  const s = new VectorStore(FP, 1);
  for (let i = 0; i < 20; i++) { const { e, vec } = note(`n${i}.md`, 1 + (i % 3), i * 7); s.upsert(e, vec); }
  s.remove('n3.md');
  s.markFailed('bad.md', 'sha256:x', 'boom', 5, 6);
  const { e, vec } = note('n5.md', 2, 999); s.upsert(e, vec); // replace: leaves dead rows
  const bytes = s.serialize();
  const back = VectorStore.deserialize(bytes);
  assert.equal(fingerprintKey(back.fingerprint), fingerprintKey(FP));
  assert.equal(back.notes.size, 19);
  assert.deepEqual(back.failed.get('bad.md'), { hash: 'sha256:x', error: 'boom', mtime: 5, size: 6 });
  assert.deepEqual(back.notes.get('n5.md')!.chunks, e.chunks);
  const q = unit(4242);
  assert.deepEqual(back.searchNotes(q, 5), s.searchNotes(q, 5));
  assert.deepEqual([...back.noteVectors('n5.md')!], [...vec]);
  // and it keeps working after load (growth copies out of the file buffer)
  const more = note('new.md', 3, 5); back.upsert(more.e, more.vec);
  assert.equal(back.notes.size, 20);
  assert.deepEqual(VectorStore.deserialize(back.serialize()).searchNotes(q, 20), back.searchNotes(q, 20));
});

test('a truncated or foreign file is refused, never half-read', () => {
  const s = new VectorStore(FP);
  const { e, vec } = note('a.md', 2, 1); s.upsert(e, vec);
  const bytes = s.serialize();
  assert.throws(() => VectorStore.deserialize(bytes.subarray(0, bytes.length - 4)), /truncated/);
  assert.throws(() => VectorStore.deserialize(new TextEncoder().encode('hello world, not an index file')), /not a vector index/);
  // unaligned input buffer still loads
  const shifted = new Uint8Array(bytes.length + 1); shifted.set(bytes, 1);
  assert.equal(VectorStore.deserialize(shifted.subarray(1)).notes.size, 1);
});

test('searchNotes ranks notes by their best chunk and applies the filter before the cut', () => {
  const s = new VectorStore(FP);
  for (let i = 0; i < 50; i++) { const { e, vec } = note(`f${i % 2}/n${i}.md`, 2, i * 13); s.upsert(e, vec); }
  const q = unit(77);
  const all = s.searchNotes(q, 50);
  const brute = [...s.notes.keys()].map((p) => {
    const v = s.noteVectors(p)!;
    let best = -Infinity, bi = 0;
    for (let c = 0; c < v.length / 8; c++) { let d = 0; for (let i = 0; i < 8; i++) d += v[c * 8 + i] * q[i]; if (d > best) { best = d; bi = c; } }
    return { path: p, score: best, chunk: bi };
  }).sort((a, b) => b.score - a.score);
  assert.deepEqual(all.map((h) => h.path), brute.map((h) => h.path));
  assert.equal(all[0].chunk, brute[0].chunk);
  const only1 = s.searchNotes(q, 10, (p) => p.startsWith('f1/'));
  assert.equal(only1.length, 10);
  assert.ok(only1.every((h) => h.path.startsWith('f1/')));
});

test('property: TopK returns the k largest, best first', () => {
  fc.assert(fc.property(fc.array(fc.double({ noNaN: true, min: -1, max: 1 })), fc.integer({ min: 0, max: 20 }), (xs, k) => {
    const t = new TopK<number>(k);
    xs.forEach((x, i) => t.push(x, i));
    const got = t.sorted().map((h) => h.score);
    const want = [...xs].sort((a, b) => b - a).slice(0, k);
    assert.deepEqual(got, want);
  }));
});

test('rrf: k=60 fusion with each arm\'s rank; a document in one arm only keeps a null rank', () => {
  const f = rrf([['a', 'b', 'c'], ['c', 'a', 'd']], 60, 50);
  assert.deepEqual(f.map((r) => r.id), ['a', 'c', 'b', 'd']);
  const a = f.find((r) => r.id === 'a')!;
  assert.ok(Math.abs(a.score - (1 / 61 + 1 / 62)) < 1e-12);
  assert.deepEqual(a.ranks, [1, 2]);
  assert.deepEqual(f.find((r) => r.id === 'd')!.ranks, [null, 3]);
  // depth cut: only the top `depth` of each arm count
  const deep = rrf([Array.from({ length: 80 }, (_, i) => `k${i}`), []], 60, 50);
  assert.equal(deep.length, 50);
  // a single arm keeps its order
  assert.deepEqual(rrf([['x', 'y', 'z'], []]).map((r) => r.id), ['x', 'y', 'z']);
});

test('the SIMD scan and the JS fallback agree, for dims that are not a multiple of 8 too', () => {
  for (const dims of [8, 100, 384]) {
    const fp = { model: 'x', dims, chunking: 'c' };
    const a = new VectorStore(fp, 4);
    const b = new VectorStore(fp, 4, { simd: false });
    assert.ok(a.simd, 'WebAssembly SIMD is available on Node');
    assert.equal(b.simd, false);
    let seed = dims;
    const rnd = () => { seed = (seed * 1664525 + 1013904223) >>> 0; return seed / 2 ** 32 - 0.5; };
    for (let n = 0; n < 300; n++) {
      const c = 1 + (n % 4);
      const v = Float32Array.from({ length: c * dims }, rnd);
      const e = { path: `p${n}.md`, hash: 'h', mtime: 0, size: 0, chunks: Array.from({ length: c }, () => ({ ordinal: null, heading: '', start: 0, end: 0 })) };
      a.upsert(e, v); b.upsert(e, v);
      if (n % 7 === 0) { a.remove(`p${n - 3}.md`); b.remove(`p${n - 3}.md`); }
    }
    a.compact();
    const q = Float32Array.from({ length: dims }, rnd);
    const ha = a.searchNotes(q, 20), hb = b.searchNotes(q, 20);
    assert.deepEqual(ha.map((h) => h.path), hb.map((h) => h.path));
    for (let i = 0; i < ha.length; i++) assert.ok(Math.abs(ha[i].score - hb[i].score) < 1e-4);
    const back = VectorStore.deserialize(a.serialize());
    assert.deepEqual(back.searchNotes(q, 20).map((h) => h.path), ha.map((h) => h.path));
  }
});
