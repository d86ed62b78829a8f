// The app's events recorded now, handled later. The app reports a folder rename as one event per file
// under it, all in one task of its thread: at 100k notes even a few Map operations and two objects per
// event (the host's bookkeeping) added 57-130 ms to that task. Once the task has spent its event slice
// (EventSlices.within() says no), each event is only recorded here, with the paths and the app's task as
// they are at that moment, and handled in order in timer slices; while any wait, every later event waits
// behind them, so listeners still see the app's order. files() handles them all at once first.
// Recording makes no object per event and grows no array by copying: each event goes into a fixed
// chunk, its file and paths into an array, its kind and task into typed arrays (outside V8's heap). An object per event, or arrays
// grown by push (at 100k events each growth a young copy of up to a megabyte), filled the young
// generation inside the app's task, so its scavenges ran there. The record object is made when the
// event is handled, in a slice of ours.
import type { TAbstractFile } from 'obsidian';

export type RawKind = 'create' | 'modify' | 'delete' | 'rename' | 'changed' | 'resolved';
const KINDS: readonly RawKind[] = ['create', 'modify', 'delete', 'rename', 'changed', 'resolved'];

/** One event as the app reported it: `path` is the file's path then (it may move again before handling). */
export interface RawEvent { kind: RawKind; file: TAbstractFile | null; path: string; oldPath: string | undefined; task: number }

/** Events per chunk: three references each (96 KB, an ordinary young object), a kind byte and a task
 *  time (typed arrays), made once and never grown. */
const CHUNK = 4096;
interface Chunk { refs: (TAbstractFile | string | null | undefined)[]; kinds: Uint8Array; tasks: Float64Array }

export class RawEvents {
  /** Per event: file, path, old path (refs), kind and task; CHUNK events to a chunk. */
  private chunks: Chunk[] = [];
  private count = 0;
  private head = 0;
  private timer: number | null = null;
  private closed = false;

  constructor(private readonly o: { clock: () => number; sliceMs: number; handle: (e: RawEvent) => void; emptied: () => void }) {}

  get size(): number {
    return this.count - this.head;
  }

  record(kind: RawKind, file: TAbstractFile | null, path: string, oldPath: string | undefined, task: number): void {
    if (this.closed) return;
    const i = this.count++;
    const k = i % CHUNK;
    if (k === 0) this.chunks.push({ refs: new Array<TAbstractFile | string | null | undefined>(CHUNK * 3), kinds: new Uint8Array(CHUNK), tasks: new Float64Array(CHUNK) });
    const c = this.chunks[this.chunks.length - 1];
    c.kinds[k] = KINDS.indexOf(kind);
    c.tasks[k] = task;
    c.refs[k * 3] = file;
    c.refs[k * 3 + 1] = path;
    c.refs[k * 3 + 2] = oldPath;
    this.schedule();
  }

  /** One timer slice of drain(), unless one is already due. */
  private schedule(): void {
    this.timer ??= window.setTimeout(() => { this.timer = null; this.drain(this.o.clock() + this.o.sliceMs); }, 0);
  }

  /** Handles recorded events in order, until `deadline` (clock) if given. */
  drain(deadline?: number): void {
    while (this.head < this.count && !this.closed) {
      const i = this.head++;
      const c = this.chunks[Math.floor(i / CHUNK)];
      const k = i % CHUNK;
      const at = k * 3;
      const e: RawEvent = { kind: KINDS[c.kinds[k]], file: c.refs[at] as TAbstractFile | null, path: c.refs[at + 1] as string, oldPath: c.refs[at + 2] as string | undefined, task: c.tasks[k] };
      c.refs[at] = null; // the app's file objects are not held once handled
      try { this.o.handle(e); } catch { /* one event's failure must not stall the rest */ }
      if (deadline !== undefined && (this.head & 63) === 0 && this.o.clock() >= deadline) break;
    }
    if (this.head >= this.count) {
      const had = this.head > 0;
      this.clear();
      if (had && !this.closed) this.o.emptied();
    } else this.schedule();
  }

  private clear(): void {
    this.chunks = [];
    this.count = 0;
    this.head = 0;
  }

  close(): void {
    this.closed = true;
    if (this.timer !== null) window.clearTimeout(this.timer);
    this.timer = null;
    this.clear();
  }
}
