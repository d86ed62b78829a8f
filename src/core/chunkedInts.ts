// A growable list of 32-bit integers kept in fixed chunks. Appending never copies what is there: a
// typed array grown by doubling is a fresh allocation whose first touch, at a few megabytes, was a
// visible block on its own (see search/arrayGrowth.ts); a chunk here is 128 KB.
const SHIFT = 15;
const SIZE = 1 << SHIFT;
const MASK = SIZE - 1;

export class ChunkedInts {
  private readonly chunks: Int32Array[] = [];
  length = 0;

  push(v: number): void {
    const c = this.length >>> SHIFT;
    if (c === this.chunks.length) this.chunks.push(new Int32Array(SIZE));
    this.chunks[c][this.length & MASK] = v;
    this.length++;
  }

  /** Entry i; 0 past the end. */
  get(i: number): number {
    return i < this.length ? this.chunks[i >>> SHIFT][i & MASK] : 0;
  }

  /** Adds one chunk when fewer than n entries have room; false when they all have. A list about to be
   *  filled out of order is readied this way a chunk per step, not all at once by its first far write. */
  reserveChunk(n: number): boolean {
    if (this.chunks.length * SIZE >= n) return false;
    this.chunks.push(new Int32Array(SIZE));
    return true;
  }

  /** Writes entry i, growing the list to i + 1 entries when it is shorter (new entries read 0). */
  set(i: number, v: number): void {
    while (i >>> SHIFT >= this.chunks.length) this.chunks.push(new Int32Array(SIZE));
    this.chunks[i >>> SHIFT][i & MASK] = v;
    if (i >= this.length) this.length = i + 1;
  }
}
