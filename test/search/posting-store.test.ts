// The posting store (src/search/postings.ts) against a plain model: random appends, clears, rewrites
// that drop removed notes (as the vacuum does, with fresh chunks and unused ones dropped), lists moved
// out of a loaded file's bytes, and free regions reused. Every list must read back exactly as the model
// says, and no region may be handed to two lists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PostingCursor, PostingStore } from '../../src/search/postings.js';
import { GROW_PIECE_BYTES } from '../../src/search/arrayGrowth.js';
import { putVarint, varintSize } from '../../src/core/varint.js';

/** Per-slot entries (4 bytes each) faulted in per step of a growth. */
const GROW_PIECE = GROW_PIECE_BYTES / 4;

function rng(seed: number) {
  return () => { seed = (seed * 1664525 + 1013904223) >>> 0; return seed / 2 ** 32; };
}

function read(store: PostingStore, slot: number): [number, number][] {
  const out: [number, number][] = [];
  const c = store.open(slot, new PostingCursor());
  while (c.next()) out.push([c.doc, c.tf]);
  return out;
}

function check(store: PostingStore, model: Map<number, [number, number][]>, what: string): void {
  for (let s = 0; s < store.slots; s++) {
    const want = model.get(s) ?? [];
    assert.deepEqual(read(store, s), want, `${what}: slot ${s}`);
    assert.equal(store.size(s), want.length);
  }
  // No two lists share bytes: every region is disjoint from every other in its chunk.
  const regions = new Map<number, [number, number][]>();
  for (let s = 0; s < store.slots; s++) {
    if (!store.has(s)) continue;
    const list = regions.get(store.chunk[s]) ?? [];
    list.push([store.off[s], store.off[s] + Math.max(store.cap[s], store.len[s])]);
    regions.set(store.chunk[s], list);
  }
  for (const list of regions.values()) {
    list.sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < list.length; i++) assert.ok(list[i][0] >= list[i - 1][1], `${what}: regions overlap`);
  }
}

test('posting store: random appends, clears, vacuum rewrites and loaded lists read back as the model', () => {
  const r = rng(11);
  const SLOTS = 300;
  const store = new PostingStore();
  store.reserve(SLOTS);
  const model = new Map<number, [number, number][]>();
  let nextDoc = 0;
  let live = new Uint8Array(1 << 16).fill(1);
  for (let round = 0; round < 40; round++) {
    // A batch of notes, each with terms in random slots (a few common slots, many rare), big gaps at times.
    for (let n = 0; n < 50; n++) {
      const doc = nextDoc;
      nextDoc += r() < 0.05 ? 200 + Math.floor(r() * 40_000) : 1;
      if (nextDoc >= live.length) { const l = new Uint8Array(live.length * 2).fill(1); l.set(live); live = l; }
      const slots = new Set<number>();
      for (let k = 0; k < 12; k++) slots.add(r() < 0.5 ? Math.floor(r() * 10) : Math.floor(r() * SLOTS));
      for (const s of slots) {
        const tf = r() < 0.9 ? 1 + Math.floor(r() * 5) : 100 + Math.floor(r() * 100_000);
        store.append(s, doc, tf);
        const m = model.get(s) ?? [];
        m.push([doc, tf]);
        model.set(s, m);
      }
    }
    if (round % 7 === 3) for (let k = 0; k < 5; k++) { const s = Math.floor(r() * SLOTS); store.clear(s); model.delete(s); }
    if (round % 5 === 4) {
      // Remove some notes, then rewrite every list as the vacuum does.
      for (let d = 0; d < nextDoc; d++) if (r() < 0.1) live[d] = 0;
      store.freshArena();
      const c = new PostingCursor();
      const rewritten = new Set<number>();
      for (let s = 0; s < SLOTS; s++) {
        store.rewriteLive(s, live, c);
        rewritten.add(s);
        const kept = (model.get(s) ?? []).filter(([d]) => live[d]);
        if (kept.length) model.set(s, kept); else model.delete(s);
        // Notes indexed during the vacuum's pauses: lists not rewritten yet and rewritten ones grow (and move).
        if (s % 37 === 0) {
          const doc = nextDoc++;
          if (nextDoc >= live.length) { const l = new Uint8Array(live.length * 2).fill(1); l.set(live); live = l; }
          for (let k = 0; k < 6; k++) {
            const slot = Math.floor(r() * SLOTS);
            const tf = 1 + Math.floor(r() * 9);
            if ((model.get(slot)?.at(-1)?.[0] ?? -1) >= doc) continue;
            store.append(slot, doc, tf);
            model.set(slot, [...(model.get(slot) ?? []), [doc, tf]]);
          }
        }
      }
      assert.equal(rewritten.size, SLOTS);
      store.dropUnused();
    }
    check(store, model, `round ${round}`);
  }
  assert.ok(store.chunks.some((c) => c.length === 0), 'some chunks were dropped by a rewrite');
});

test('posting store: lists adopted from file bytes read in place, then move out when they grow', () => {
  // A "file": two lists written as varints, one after the other.
  const lists: [number, number][][] = [[[0, 1], [3, 2], [130, 1]], [[5, 300], [70_000, 1]]];
  const bytes = new Uint8Array(64);
  const at: [number, number][] = [];
  let w = 0;
  for (const l of lists) {
    const from = w;
    let prev = 0;
    for (const [d, tf] of l) { w = putVarint(bytes, putVarint(bytes, w, d - prev), tf); prev = d; }
    at.push([from, w - from]);
  }
  const store = new PostingStore();
  store.reserve(4);
  const chunk = store.addChunk(bytes);
  store.adopt(0, chunk, at[0][0], at[0][1], 3, 130);
  store.adopt(2, chunk, at[1][0], at[1][1], 2, 70_000);
  assert.deepEqual(read(store, 0), lists[0]);
  assert.deepEqual(read(store, 2), lists[1]);
  const before = bytes.slice();
  store.append(0, 131, 4);
  store.append(2, 70_001, 1);
  assert.deepEqual(read(store, 0), [...lists[0], [131, 4]]);
  assert.deepEqual(read(store, 2), [...lists[1], [70_001, 1]]);
  assert.deepEqual(bytes, before, 'the file bytes are never written');
  assert.ok(store.waste > 0, 'the moved lists left their file bytes as waste');
});

test('posting store: a large room grows one per-slot array at a time, in calls a step apart, before it is needed; lists read back through it', () => {
  const store = new PostingStore();
  store.reserve(1 << 17);
  const arrays = () => [store.chunk, store.off, store.len, store.cap, store.count, store.last];
  const model = new Map<number, [number, number][]>();
  let before = arrays();
  let grownIn = 0;
  const callsThatGrew: number[] = [];
  // New terms arrive five slots at a time (one per field), as the index reserves them.
  for (let n = 5, call = 0; n <= (1 << 17) * 2; n += 5, call++) {
    const room = store.slots;
    store.reserve(n);
    const now = arrays();
    const grew = now.filter((a, i) => a !== before[i]).length;
    if (grew) { callsThatGrew.push(call); grownIn = Math.max(grownIn, grew); }
    assert.ok(n <= store.slots, 'room for every reserved slot');
    if (room >= 1 << 17 && grew) assert.ok(n < room, `grown before the room ran out (slot ${n} of ${room})`);
    before = now;
    // A posting in a few slots, among them ones in arrays grown a moment ago.
    if (call % 997 === 0) { const s = n - 1; store.append(s, 1, 2); model.set(s, [[1, 2]]); }
  }
  assert.equal(grownIn, 1, 'never two arrays grown in one call');
  assert.ok(callsThatGrew.length >= 12, `two growths of six arrays, one call each (${callsThatGrew.length})`);
  for (const [s, want] of model) assert.deepEqual(read(store, s), want, `slot ${s}`);
  for (let s = (1 << 17) * 2 - 50; s < (1 << 17) * 2; s++) if (!model.has(s)) assert.equal(store.size(s), 0);
  assert.ok(store.chunk.length >= store.slots && store.last.length >= store.slots);
});

test('posting store: a loaded index\'s exact room is made a piece per step, each array copied in a step of its own, keeping writes made meanwhile', () => {
  const store = new PostingStore();
  store.reserve(2000);
  store.append(7, 3, 1);
  const small = [...store.reserveSteps(50_000, true)];
  assert.equal(small.length, 12, 'one piece and one copy per array');
  assert.equal(store.slots, 50_000);
  for (const a of [store.chunk, store.off, store.len, store.cap, store.count, store.last]) assert.equal(a.length, 50_000);
  assert.equal(store.size(49_999), 0);
  assert.equal(store.has(49_999), false);
  assert.deepEqual(read(store, 7), [[3, 1]], 'kept through the growth');
  assert.deepEqual([...store.reserveSteps(40_000, true)], [], 'nothing to do when the room is there');
  // A room of several pieces: each step faults at most GROW_PIECE new entries in; a list added between
  // two steps is in the arrays swapped in after it.
  const big = 4 * GROW_PIECE + 10;
  const steps = store.reserveSteps(big, true);
  let n = 0;
  while (!steps.next().done) { if (n++ === 3) store.append(9, 4, 2); }
  assert.equal(n, 6 * 6, 'five pieces and a copy per array');
  assert.equal(store.slots, big);
  assert.deepEqual(read(store, 9), [[4, 2]]);
  assert.deepEqual(read(store, 7), [[3, 1]]);
  assert.equal(store.chunk[big - 1], -1, 'a slot past the old room has no list');
});

test('posting store: growing a large room ahead faults each new array in a piece per call, then swaps it in', () => {
  const store = new PostingStore();
  const room = 3 * GROW_PIECE;
  store.reserve(room, true);
  const seen: { array: number; faulted: number }[] = [];
  let swaps = 0;
  let before = [store.chunk, store.off, store.len, store.cap, store.count, store.last];
  for (let n = 5; store.slots === room; n += 5) {
    const g0 = store.growing;
    store.reserve(n);
    const now = [store.chunk, store.off, store.len, store.cap, store.count, store.last];
    const swapped = now.filter((a, i) => a !== before[i]).length;
    before = now;
    swaps += swapped;
    const g = store.growing;
    if (g) {
      const prev = g0 && g0.array === g.array ? g0.faulted : 0;
      assert.ok(g.faulted - prev <= GROW_PIECE, `at most one piece faulted in per call (${g.faulted - prev})`);
      if (g.faulted !== prev) { assert.equal(swapped, 0, 'no swap in a call that faults'); seen.push(g); }
    }
    assert.ok(swapped <= 1, 'one array swapped in per call at most');
    assert.ok(n < room, 'the room grew before it ran out');
  }
  assert.equal(swaps, 6);
  const to = Math.ceil(room * 1.5);
  assert.equal(store.slots, to);
  assert.equal(seen.length, 6 * Math.ceil(to / GROW_PIECE), 'every piece of every array, one call each');
  assert.equal(store.chunk[to - 1], -1, 'new slots have no list');
});

test('posting store: a spare chunk made ahead becomes the next arena; without one a chunk is made where it is needed', () => {
  for (const withSpare of [true, false]) {
    const store = new PostingStore();
    store.reserve(4096);
    if (withSpare) store.makeSpare();
    const spare = store.spare;
    const made: Uint8Array[] = [];
    let allocatedAtNeed = 0;
    // Enough postings for more than one 4 MB arena (a list outgrowing its region moves to a bigger one).
    for (let doc = 0; doc < 600_000; doc++) {
      const before = store.chunks.length;
      for (let s = 0; s < 8; s++) store.append(s * 512, doc, 1 + (doc % 3));
      if (store.chunks.length > before) { made.push(store.chunks[store.chunks.length - 1]); if (!withSpare || made.length > 1) allocatedAtNeed++; }
    }
    assert.ok(made.length >= 2, `${made.length} chunks`);
    if (withSpare) { assert.equal(made[0], spare, 'the first chunk is the spare'); assert.equal(store.spare, null, 'the spare was used'); }
    else assert.equal(allocatedAtNeed, made.length);
    const c = new PostingCursor();
    store.open(0, c);
    let n = 0;
    while (c.next()) { assert.equal(c.doc, n); n++; }
    assert.equal(n, 600_000);
  }
});
