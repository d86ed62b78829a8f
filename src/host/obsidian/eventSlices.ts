// Vault events in slices, for the in-app host (ObsidianHost). The app reports a folder rename as one
// event per file and folder under it, all in one task of its thread, which its UI shares. What follows
// from each event (an update of the host's kept file list, every index's listener) runs at once only
// while the current task, and the loop turn it is part of, have spent under SLICE_MS on events; after
// that, and while anything is queued (order is kept), it waits for timer slices of SLICE_MS: file-list
// updates first, then events.

/** Event work done in one task of the app's thread before the rest waits for a timer. */
export const SLICE_MS = 8;

export interface EventSlicesOptions<E, Op> {
  /** Monotonic milliseconds. */
  clock: () => number;
  /** Hands one event to the listeners. */
  deliver: (e: E) => void;
  /** Applies one file-list update; false when work it needs first stopped at `deadline` (clock): it is
   *  then not applied yet, and handed again at the next call. */
  apply: (op: Op, deadline?: number) => boolean;
  /** Every queued update has been applied: the work that follows them (a folder move's closing scan of
   *  the file list), until `deadline` (clock) if given. False when it stopped there (called again later,
   *  before any newer update is applied). */
  opsDone: (deadline?: number) => boolean;
  /** Events recorded upstream and not handed over yet (rawEvents.ts): while any wait, the updates are
   *  not done (a folder move's run goes on in them). */
  upstream?: () => number;
}

export class EventSlices<E, Op> {
  private events: E[] = [];
  private eventsHead = 0;
  private ops: Op[] = [];
  private opsHead = 0;
  private timer: number | null = null;
  private inTask = false;
  private taskStart = 0;
  private closed = false;
  /** opsDone's work stopped at its deadline: updates wait for it as for queued ones. */
  private finishing = false;
  /** The app's current task: a counter bumped at the first event of each. */
  task = 0;
  /** When this turn of the loop's first event came (-1: none yet). Callbacks that land together (a
   *  thousand file writes finishing at once) run in one turn, each a task of its own with a microtask
   *  checkpoint after it; the turn is one stretch of the thread, so they share one slice. A timer marks
   *  the turn's end: it cannot fire before the turn is over. (In a hidden window the browser may hold
   *  it up to a second; events meanwhile wait for the timer slices, as queued ones always do.) */
  private turnStart = -1;

  constructor(private readonly o: EventSlicesOptions<E, Op>) {}

  /** True while the current task may still do event work at once (and nothing waits before it). */
  within(): boolean {
    // Once anything waits, nothing more runs at once in this task: no clock reading needed (a folder
    // rename of 100k notes asks this for each of them inside the app's own task).
    if (this.inTask && (this.eventsHead < this.events.length || this.hasOps())) return false;
    const t = this.o.clock();
    if (!this.inTask) {
      this.inTask = true;
      this.task++;
      this.taskStart = t;
      queueMicrotask(() => { this.inTask = false; });
      if (this.turnStart < 0) {
        this.turnStart = t;
        window.setTimeout(() => { this.turnStart = -1; }, 0);
      }
    }
    if (this.eventsHead < this.events.length || this.hasOps()) return false;
    return t - this.taskStart < SLICE_MS && t - this.turnStart < SLICE_MS;
  }

  /** An event for the listeners: delivered now within the slice, else queued in order. */
  event(e: E): void {
    if (this.closed) return;
    if (this.within()) { this.o.deliver(e); return; }
    this.events.push(e);
    this.schedule();
  }

  /** A file-list update: applied now when `now` (the caller asked within()), else queued. */
  op(op: Op, now: boolean): void {
    if (now) { this.o.apply(op); return; } // no deadline: always applied
    this.ops.push(op);
    this.schedule();
  }

  hasOps(): boolean {
    return this.opsHead < this.ops.length || this.finishing;
  }

  /** Applies queued updates in order (and what follows them), until `deadline` (clock) if given. */
  applyOps(deadline?: number): void {
    if (this.finishing) {
      this.finishing = !this.o.opsDone(deadline);
      if (this.finishing) return;
    }
    while (this.opsHead < this.ops.length) {
      if (!this.o.apply(this.ops[this.opsHead], deadline)) return;
      this.opsHead++;
      if (deadline !== undefined && this.o.clock() >= deadline) break;
    }
    if (this.opsHead === this.ops.length) {
      this.ops = [];
      this.opsHead = 0;
      if (!this.o.upstream?.()) this.finishing = !this.o.opsDone(deadline);
    }
  }

  /** The upstream queue has emptied: a slice finishes what follows the updates (opsDone). */
  wake(): void {
    this.schedule();
  }

  /** Events not handed to the listeners yet. */
  undelivered(): number {
    return this.events.length - this.eventsHead;
  }

  private schedule(): void {
    if (this.timer !== null || this.closed) return;
    this.timer = window.setTimeout(() => { this.timer = null; this.drain(); }, 0);
  }

  /** One slice: file-list updates first (listeners read the app's state), then events in order. */
  private drain(): void {
    if (this.closed) return;
    const start = this.o.clock();
    this.applyOps(start + SLICE_MS);
    if (!this.hasOps()) {
      while (this.eventsHead < this.events.length) {
        this.o.deliver(this.events[this.eventsHead++]);
        if (this.o.clock() - start >= SLICE_MS) break;
      }
      if (this.eventsHead === this.events.length) { this.events = []; this.eventsHead = 0; }
    }
    if (this.undelivered() > 0 || this.hasOps()) this.schedule();
  }

  /** Queued events are dropped; updates stay for a last read. */
  close(): void {
    this.closed = true;
    if (this.timer !== null) window.clearTimeout(this.timer);
    this.timer = null;
    this.events = [];
    this.eventsHead = 0;
  }
}
