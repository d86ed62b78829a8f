// The app's events recorded now, handled later. The app reports a folder rename as one event per file
// under it, all in one task of its thread: at 100k notes even a few Map operations and two objects per
// event (the host's bookkeeping) added 57-130 ms to that task. Once the task has spent its event slice
// (EventSlices.within() says no), each event is only recorded here, with the paths and the app's task as
// they are at that moment, and handled in order in timer slices; while any wait, every later event waits
// behind them, so listeners still see the app's order. files() handles them all at once first.
// An event is recorded as columns (its kind, file, paths and task each pushed onto an array), not as an
// object: inside the app's task a listener then makes nothing a scavenge must copy, and the record
// object is made when the event is handled, in a slice of ours.
import type { TAbstractFile } from 'obsidian';

export type RawKind = 'create' | 'modify' | 'delete' | 'rename' | 'changed' | 'resolved';

/** One event as the app reported it: `path` is the file's path then (it may move again before handling). */
export interface RawEvent { kind: RawKind; file: TAbstractFile | null; path: string; oldPath: string | undefined; task: number }

export class RawEvents {
  private kinds: RawKind[] = [];
  private files: (TAbstractFile | null)[] = [];
  private paths: string[] = [];
  private oldPaths: (string | undefined)[] = [];
  private tasks: number[] = [];
  private head = 0;
  private timer: number | null = null;
  private closed = false;

  constructor(private readonly o: { clock: () => number; sliceMs: number; handle: (e: RawEvent) => void; emptied: () => void }) {}

  get size(): number {
    return this.kinds.length - this.head;
  }

  record(kind: RawKind, file: TAbstractFile | null, path: string, oldPath: string | undefined, task: number): void {
    if (this.closed) return;
    this.kinds.push(kind);
    this.files.push(file);
    this.paths.push(path);
    this.oldPaths.push(oldPath);
    this.tasks.push(task);
    this.schedule();
  }

  /** One timer slice of drain(), unless one is already due. */
  private schedule(): void {
    this.timer ??= window.setTimeout(() => { this.timer = null; this.drain(this.o.clock() + this.o.sliceMs); }, 0);
  }

  /** Handles recorded events in order, until `deadline` (clock) if given. */
  drain(deadline?: number): void {
    while (this.head < this.kinds.length && !this.closed) {
      const i = this.head++;
      const e: RawEvent = { kind: this.kinds[i], file: this.files[i], path: this.paths[i], oldPath: this.oldPaths[i], task: this.tasks[i] };
      this.files[i] = null; // the app's file objects are not held once handled
      try { this.o.handle(e); } catch { /* one event's failure must not stall the rest */ }
      if (deadline !== undefined && (this.head & 63) === 0 && this.o.clock() >= deadline) break;
    }
    if (this.head >= this.kinds.length) {
      const had = this.head > 0;
      this.clear();
      if (had && !this.closed) this.o.emptied();
    } else this.schedule();
  }

  private clear(): void {
    this.kinds = [];
    this.files = [];
    this.paths = [];
    this.oldPaths = [];
    this.tasks = [];
    this.head = 0;
  }

  close(): void {
    this.closed = true;
    if (this.timer !== null) window.clearTimeout(this.timer);
    this.timer = null;
    this.clear();
  }
}
