// Cooperative slicing for long loops on the UI thread (in Obsidian everything runs there): in a loop,
// `if (slicer.due()) await slicer.pause();` yields to the event loop (a macrotask, so input, rendering
// and I/O get their turn) once the current slice has run for `budgetMs`. The clock is read only every
// `every` items, so an item costs a counter increment.
import { nextTurn } from '../core/turns.js';

export const SLICE_MS = 8;

export class Slicer {
  private count = 0;
  private started: number;
  /** How many times it yielded (tests, bench). */
  yields = 0;

  constructor(private readonly clock: () => number = () => performance.now(), private readonly budgetMs = SLICE_MS, private readonly every = 32) {
    this.started = clock();
  }

  /** True when the slice's budget is spent (then await pause()). */
  due(): boolean {
    return ++this.count % this.every === 0 && this.clock() - this.started >= this.budgetMs;
  }

  /** One event-loop turn; the next slice starts after it. */
  async pause(): Promise<void> {
    this.yields++;
    await nextTurn();
    this.started = this.clock();
  }
}
