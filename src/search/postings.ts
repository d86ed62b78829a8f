// One term's notes in one field: (short id, term frequency) pairs, short ids ascending, packed in a
// Uint32Array. A loaded index keeps every list as a window on the file's one array (no per-posting
// objects); a list that grows gets a buffer of its own (copied once, then doubled as needed). New
// notes always take a higher short id than any before, so adding a note only ever appends.

const EMPTY = new Uint32Array(0);

export class Postings {
  /** Pairs live in data[start, start + len). */
  data: Uint32Array;
  start: number;
  /** Used length in words (2 per posting). */
  len: number;
  /** Whether `data` is this list's own buffer (else a shared array it must not write past its window). */
  private own: boolean;

  constructor(data: Uint32Array = EMPTY, start = 0, len = 0) {
    this.data = data;
    this.start = start;
    this.len = len;
    this.own = false;
  }

  get size(): number {
    return this.len >> 1;
  }

  /** Adds a posting for a note whose short id is above every id in the list. */
  append(doc: number, tf: number): void {
    const end = this.start + this.len;
    if (!this.own || end + 2 > this.data.length) {
      const next = new Uint32Array(Math.max(4, this.len * 2));
      next.set(this.data.subarray(this.start, end));
      this.data = next;
      this.start = 0;
      this.own = true;
    }
    const at = this.start + this.len;
    this.data[at] = doc;
    this.data[at + 1] = tf;
    this.len += 2;
  }

  /** Term frequency of `doc` (0 when absent), by binary search. */
  tf(doc: number): number {
    const d = this.data;
    let lo = 0;
    let hi = (this.len >> 1) - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const v = d[this.start + mid * 2];
      if (v === doc) return d[this.start + mid * 2 + 1];
      if (v < doc) lo = mid + 1; else hi = mid - 1;
    }
    return 0;
  }

  /** Drops the postings of notes that are not live (in place: the window only shrinks); returns the new size. */
  keepLive(live: Uint8Array): number {
    const d = this.data;
    let w = this.start;
    const end = this.start + this.len;
    for (let r = this.start; r < end; r += 2) {
      if (!live[d[r]]) continue;
      if (w !== r) { d[w] = d[r]; d[w + 1] = d[r + 1]; }
      w += 2;
    }
    this.len = w - this.start;
    return this.len >> 1;
  }
}
