// Queries read the keyword index across several turns (they pause between slices so a query over 100k
// matches is not one long task); while one is paused, nothing may change the index under it. Queries
// read through the gate; index updates, the vacuum and the prefix-tree catch-up wait for it to clear.
import type { Pause } from './persist.js';

export class ReadGate {
  private readers = 0;
  private waiting: (() => void)[] = [];

  /** True while a query is reading (an update should `await clear()` first). */
  get busy(): boolean {
    return this.readers > 0;
  }

  async read<T>(query: () => Promise<T>): Promise<T> {
    this.readers++;
    try {
      return await query();
    } finally {
      if (--this.readers === 0) { const w = this.waiting; this.waiting = []; for (const r of w) r(); }
    }
  }

  /** Resolves once no query is reading. */
  async clear(): Promise<void> {
    while (this.readers) await new Promise<void>((r) => this.waiting.push(r));
  }

  /** `pause` for work that changes the index in place: each of its pauses also waits for the gate. */
  changing(pause: Pause): Pause {
    return () => {
      const wait = pause() ?? (this.readers ? Promise.resolve() : null);
      return wait && wait.then(() => this.clear());
    };
  }
}
