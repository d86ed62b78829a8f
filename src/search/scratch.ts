// Per-note accumulators of one query, kept between queries (a 100k-note vault would otherwise allocate
// megabytes of typed arrays per query, and the garbage collector's pauses showed up as p99 latency).
// Only the entries of the notes a query touched are cleared afterwards. A query that starts while
// another is still running (phrase reads await) gets arrays of its own.
import { nextTurn } from '../core/turns.js';

export interface Scratch {
  size: number;
  /** Words of leafMask per note (stride). */
  W: number;
  scores: Float64Array;
  fieldMask: Uint8Array;
  leafMask: Uint32Array;
  matchedAll: Uint8Array;
  /** 1 once a note is in `touched`. */
  seen: Uint8Array;
  /** One term's pseudo-frequency per note while its postings are read (always zero in between). */
  termAcc: Float64Array;
  /** Notes with the current term (first entries). */
  termDocs: Int32Array;
  /** Notes touched by the query (first n entries). */
  touched: Int32Array;
  n: number;
  /** Candidates after filters (first entries). */
  cands: Int32Array;
  busy: boolean;
}

const scratchOf = new WeakMap<object, Scratch>();

/** The arrays, for a large index each made in a task of its own: a new typed array sets off a scavenge
 *  on a large heap (external memory pressure), and the nine of a 100k-note query made together (4.5 MB)
 *  were a 100-290 ms block at the first query after a build. */
async function make(cap: number, W: number): Promise<Scratch> {
  const big = cap >= 16_384;
  const next = async <T>(alloc: () => T): Promise<T> => { if (big) await nextTurn(); return alloc(); };
  return {
    size: cap, W,
    scores: await next(() => new Float64Array(cap)), fieldMask: await next(() => new Uint8Array(cap)), leafMask: await next(() => new Uint32Array(cap * W)),
    matchedAll: await next(() => new Uint8Array(cap)), seen: await next(() => new Uint8Array(cap)), termAcc: await next(() => new Float64Array(cap)),
    termDocs: await next(() => new Int32Array(cap)), touched: await next(() => new Int32Array(cap)), n: 0, cands: await next(() => new Int32Array(cap)), busy: false,
  };
}

/** Arrays for a query over `owner` with short ids below `size` and `W` words of leaf bits per note. */
export async function acquire(owner: object, size: number, W: number): Promise<Scratch> {
  let s = scratchOf.get(owner);
  if (!s || s.busy || s.size < size) {
    // With room to grow: every re-indexed note takes a new short id, so an exact fit was remade (and
    // collected) at the first query after each change, a 150 ms block at 100k notes.
    const cap = Math.max(size + (size >> 3), s && !s.busy ? s.size : 0, 16);
    // Made for this query alone (it may take turns): kept for later ones if none is in use then.
    s = await make(cap, W);
    const cur = scratchOf.get(owner);
    if (!cur || (!cur.busy && cur.size <= s.size)) scratchOf.set(owner, s);
  }
  // leafMask's stride is the query's word count (all zero between queries, so any stride reads clean).
  if (s.leafMask.length < s.size * W) s.leafMask = new Uint32Array(s.size * W);
  s.W = W;
  s.busy = true;
  s.n = 0;
  return s;
}

export function release(owner: object, s: Scratch): void {
  const { touched, scores, fieldMask, leafMask, matchedAll, seen, W } = s;
  for (let i = 0; i < s.n; i++) {
    const doc = touched[i];
    scores[doc] = 0;
    fieldMask[doc] = 0;
    matchedAll[doc] = 0;
    seen[doc] = 0;
    for (let w = 0; w < W; w++) leafMask[doc * W + w] = 0;
  }
  s.n = 0;
  s.busy = false;
  void owner;
}
