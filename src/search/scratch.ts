// Per-note accumulators of one query, kept between queries (a 100k-note vault would otherwise allocate
// megabytes of typed arrays per query, and the garbage collector's pauses showed up as p99 latency).
// Only the entries of the notes a query touched are cleared afterwards. A query that starts while
// another is still running (phrase reads await) gets arrays of its own.

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

function make(cap: number, W: number): Scratch {
  return {
    size: cap, W,
    scores: new Float64Array(cap), fieldMask: new Uint8Array(cap), leafMask: new Uint32Array(cap * W), matchedAll: new Uint8Array(cap),
    seen: new Uint8Array(cap), termAcc: new Float64Array(cap), termDocs: new Int32Array(cap),
    touched: new Int32Array(cap), n: 0, cands: new Int32Array(cap), busy: false,
  };
}

/** Arrays for a query over `owner` with short ids below `size` and `W` words of leaf bits per note. */
export function acquire(owner: object, size: number, W: number): Scratch {
  let s = scratchOf.get(owner);
  if (!s || s.busy || s.size < size) {
    // With room to grow: every re-indexed note takes a new short id, so an exact fit was remade (and
    // collected) at the first query after each change, a 150 ms block at 100k notes.
    const cap = Math.max(size + (size >> 3), s && !s.busy ? s.size : 0, 16);
    s = make(cap, W);
    const cur = scratchOf.get(owner);
    if (!cur || !cur.busy) scratchOf.set(owner, s);
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
