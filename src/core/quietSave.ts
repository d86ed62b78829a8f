// The timer of a delayed index save that waits for a quiet vault. While vault events are still being
// handed to the indexes (a folder move of thousands of notes delivered in slices, a sync client's
// burst), a save would be stale as soon as it is written, and its copies and encoding would share the
// app's thread, and the young generation, with that work: at 100k notes a keyword save running beside
// a folder move's updates was in most of the move's blocks over 50 ms. So when the save is due while
// `busy()` says so, it waits, asking again every `delayMs` (at most a second), until the vault is
// quiet or `maxWaitMs` have passed since it was first due: a vault that is never quiet still saves.
import { clearTimeout, setTimeout } from 'node:timers';

export interface QuietSaveOptions {
  save: () => void;
  /** Delay after schedule() (read at each call: a retry may back off). */
  delayMs: () => number;
  /** True while vault events are still on their way to the index. */
  busy: () => boolean;
  /** Longest wait for a quiet vault once the save is due (default a minute). */
  maxWaitMs?: number;
  now?: () => number;
}

const QUIET_SAVE_MAX_WAIT_MS = 60_000;

export class QuietSaveTimer {
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** When the pending save first came due (-1: not due yet). */
  private dueAt = -1;

  constructor(private readonly o: QuietSaveOptions) {}

  /** Arms the timer unless it is armed (or the save is already waiting for a quiet vault). */
  schedule(): void {
    if (!this.timer) this.arm(this.o.delayMs());
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.dueAt = -1;
  }

  /** True while a save that came due waits for a quiet vault. */
  get waiting(): boolean {
    return this.dueAt >= 0;
  }

  private arm(ms: number): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      const now = (this.o.now ?? Date.now)();
      if (this.dueAt < 0) this.dueAt = now;
      if (now - this.dueAt < (this.o.maxWaitMs ?? QUIET_SAVE_MAX_WAIT_MS) && this.o.busy()) {
        this.arm(Math.min(1000, this.o.delayMs()));
        return;
      }
      this.dueAt = -1;
      this.o.save();
    }, ms);
    (this.timer as { unref?: () => void }).unref?.();
  }
}
