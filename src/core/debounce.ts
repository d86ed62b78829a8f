// A debounce that makes no timer per call: a burst of vault events (a folder rename is one event per
// note, thousands in one task of the app) only moves a deadline; the pending timer, when it fires
// early, sets itself again for the rest.
import { clearTimeout, setTimeout } from 'node:timers';

export class Debounce {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private due = 0;

  /** `unref`: the timer does not keep a headless process alive. */
  constructor(private readonly fn: () => void, private readonly unref = false) {}

  /** Runs the function once `ms` have passed without another call. */
  call(ms: number): void {
    this.due = Date.now() + ms;
    if (!this.timer) this.arm(ms);
  }

  private arm(ms: number): void {
    this.timer = setTimeout(() => {
      const left = this.due - Date.now();
      if (left > 0) { this.arm(left); return; }
      this.timer = null;
      this.fn();
    }, ms);
    if (this.unref) (this.timer as { unref?: () => void }).unref?.();
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
