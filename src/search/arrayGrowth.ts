// A large typed array grown over several steps. What a growth costs is the first touch of the new
// array's memory, not the copy: on the two-core machine the benches run on, filling a fresh 24 MB array
// took 90–170 ms the first time and 1 ms the second, and one per-slot array grown at once was a 51–61 ms
// block in a warm load at 100k notes. So the new array is faulted in a piece per step, and copied (a
// memcpy into resident pages) and swapped in by the caller in a step of its own.

/** Bytes of a new array faulted in per step. */
export const GROW_PIECE_BYTES = 1 << 20;

export type GrownArray = Uint8Array<ArrayBuffer> | Int32Array<ArrayBuffer> | Uint32Array<ArrayBuffer> | Float64Array<ArrayBuffer>;

export class ArrayGrowth<T extends GrownArray> {
  /** Entries faulted in so far. */
  touched = 0;
  private readonly piece: number;

  /** `fresh`: the new array; `empty`: what an entry past the old length holds (written as it is faulted in). */
  constructor(readonly fresh: T, private readonly empty = 0) {
    this.piece = Math.max(1, GROW_PIECE_BYTES / fresh.BYTES_PER_ELEMENT);
  }

  /** Faults the next piece in; false when every piece already was (then `finish`). */
  touchPiece(): boolean {
    if (this.touched >= this.fresh.length) return false;
    const end = Math.min(this.fresh.length, this.touched + this.piece);
    this.fresh.fill(this.empty, this.touched, end);
    this.touched = end;
    return true;
  }

  /** The new array holding `current`'s entries (read now, so writes made meanwhile are kept). */
  finish(current: T): T {
    this.fresh.set(current);
    return this.fresh;
  }
}

/**
 * Arrays 0..count-1 grown one after another, a step per call: each new copy faulted in a piece per
 * step, then copied and swapped in a step of its own. `make(k)` starts array k's growth, or gives null
 * when it already has the room; `get` and `set` read and replace array k.
 */
export class ArraysGrowth {
  /** The array being grown (count once every one was). */
  k = 0;
  /** Its growth, once started. */
  growth: ArrayGrowth<GrownArray> | null = null;

  constructor(
    private readonly count: number,
    private readonly make: (k: number) => ArrayGrowth<GrownArray> | null,
    private readonly get: (k: number) => GrownArray,
    private readonly set: (k: number, grown: GrownArray) => void,
  ) {}

  /** Takes one step; false when none was left (every array has its room). */
  step(): boolean {
    for (; this.k < this.count; this.k++) {
      this.growth ??= this.make(this.k);
      if (!this.growth) continue;
      if (this.growth.touchPiece()) return true;
      this.set(this.k, this.growth.finish(this.get(this.k)));
      this.growth = null;
      this.k++;
      return true;
    }
    return false;
  }
}
