// Cooperative slicing for long loops on the UI thread (in Obsidian everything runs there): in a loop,
// `if (slicer.due()) await slicer.pause();` yields to the event loop (a macrotask, so input, rendering
// and I/O get their turn) once the current slice has run for `budgetMs`. The clock is read only every
// `every` items, so an item costs a counter increment. A slice also ends once the loop turn's sliced
// work, every job's together, has run its budget (core/turns.ts): two jobs continued by reads that land
// in the same turn made one 20-30 ms block. The turn's budget is read on the real clock, whatever clock
// is injected for the slice's own.
import { beginSlice, nextTurn, turnSpent } from '../core/turns.js';

export const SLICE_MS = 8;

export class Slicer {
  private count = 0;
  private started: number;
  /** How many times it yielded (tests, bench). */
  yields = 0;

  constructor(private readonly clock: () => number = () => performance.now(), private readonly budgetMs = SLICE_MS, private readonly every = 32) {
    this.started = clock();
    beginSlice();
  }

  /** True when the slice's budget is spent (then await pause()). */
  due(): boolean {
    return ++this.count % this.every === 0 && (this.clock() - this.started >= this.budgetMs || turnSpent());
  }

  /** One event-loop turn; the next slice starts after it. */
  async pause(): Promise<void> {
    this.yields++;
    await nextTurn();
    this.started = this.clock();
  }
}
