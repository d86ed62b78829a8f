// The task index: every note's tasks, kept from host events so list_tasks never re-reads notes.
// Metadata says which notes have tasks (listItems with a task character); only those are read, once
// per change, and their lines parsed with core/tasks.ts. Notes without tasks cost nothing. The queue
// is drained in small batches that yield; a query drains a short queue first so a caller's own write
// is visible, and otherwise reports how many notes are not yet scanned.
import type { VaultEvent, VaultHost } from '../host/port.js';
import { isNotePath } from '../core/paths.js';
import { tasksOfNote, type NoteTask } from '../core/tasks.js';
import { setTimeout } from 'node:timers';
import { Slicer, SLICE_MS } from '../services/slicer.js';
import { nextTurn } from '../core/turns.js';
import { readAhead } from '../core/readAhead.js';
import type { NoteMetadata } from '../core/markdown/metadata.js';

const BATCH = 32;
const INLINE_DRAIN = 64;

export class TaskService {
  /** A note's tasks by its path. The rows do not carry the path: a folder move re-keys each note's array
   *  as it is (copying every row with its new path made 40k objects in a 100k-note move). */
  private readonly byNote = new Map<string, readonly NoteTask[]>();
  private readonly queue = new Set<string>();
  /** Taken from the queue, being read now. */
  private inFlight = 0;
  private draining: Promise<void> | null = null;
  private unsubscribe: (() => void) | null = null;
  private started: Promise<void> | null = null;
  private initial = true;
  private stopped = false;

  constructor(private readonly host: VaultHost) {}

  start(): Promise<void> {
    this.started ??= (async () => {
      this.unsubscribe = this.host.subscribe((e) => this.onEvent(e));
      await this.host.ready();
      // Every note's metadata is looked at once: in slices, so 100k notes never hold the UI thread.
      const slicer = new Slicer();
      for (const f of this.host.files()) {
        if (this.stopped) return;
        if (isNotePath(f.path)) this.consider(f.path);
        if (slicer.due()) await slicer.pause();
      }
      this.initial = false;
      this.kick();
    })();
    return this.started;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    await this.draining?.catch(() => undefined);
  }

  /** Queue a note when its metadata has tasks; drop it from the index when it has none. */
  private consider(path: string): void {
    const m = this.host.metadata(path);
    if (m && m.listItems?.some((i) => i.task !== undefined)) this.queue.add(path);
    else { this.queue.delete(path); if (m || !this.host.stat(path)) this.byNote.delete(path); }
  }

  private onEvent(e: VaultEvent): void {
    if (e.type === 'metadata') { if (isNotePath(e.path)) { this.consider(e.path); if (!this.initial) this.kick(); } return; }
    if (e.type === 'delete') { this.byNote.delete(e.path); this.queue.delete(e.path); return; }
    if (e.type === 'rename') {
      const rows = this.byNote.get(e.oldPath);
      const queued = this.queue.delete(e.oldPath);
      this.byNote.delete(e.oldPath);
      if (!isNotePath(e.path)) return;
      // A move does not change the text (the app moves the cache with it): the rows move along, and
      // only a note that was waiting for a scan, or newly a note (.txt → .md), is looked at again.
      // A folder rename is one event per note in a single task of the app: this must stay cheap.
      if (rows) this.byNote.set(e.path, rows);
      if (queued) this.queue.add(e.path);
      else if (!rows && !isNotePath(e.oldPath)) this.consider(e.path);
      if (!this.initial) this.kick();
    }
  }

  private kick(): void {
    if (this.draining || !this.queue.size || this.stopped) return;
    this.draining = (async () => {
      try {
        while (this.queue.size && !this.stopped) {
          const batch: string[] = [];
          for (const p of this.queue) { batch.push(p); if (batch.length === BATCH) break; }
          for (const p of batch) this.queue.delete(p);
          this.inFlight += batch.length;
          try {
            // Read a few ahead, parse one at a time: with reads answered at once, the batch's parses
            // all ran in one task (40-70 ms at 100k notes).
            const slicer = new Slicer(undefined, SLICE_MS, 1);
            for await (const [path, read] of readAhead(batch, (p) => this.read(p))) {
              this.scanned(path, read);
              if (slicer.due()) await slicer.pause();
            }
          } finally { this.inFlight -= batch.length; }
          await nextTurn();
        }
      } finally {
        this.draining = null;
      }
    })();
  }

  /** A note's metadata and text (null when it has no metadata or cannot be read); never rejects. */
  private async read(path: string): Promise<{ meta: NoteMetadata; text: string } | null> {
    const meta = this.host.metadata(path);
    if (!meta) return null;
    try { return { meta, text: await this.host.readText(path) }; } catch { return null; }
  }

  private scanned(path: string, read: { meta: NoteMetadata; text: string } | null): void {
    const tasks = read ? tasksOfNote(read.text, read.meta) : [];
    if (tasks.length) this.byNote.set(path, tasks); else this.byNote.delete(path);
  }

  /** Notes known to have tasks but not scanned yet (plus notes the host has not parsed). */
  pending(): number {
    return this.queue.size + this.inFlight + this.host.pendingCount();
  }

  /** Brings the index up to date when little is left (own writes), or waits up to `waitMs`. */
  async settle(waitMs = 0): Promise<boolean> {
    await this.start();
    const until = Date.now() + waitMs;
    for (;;) {
      if (this.queue.size + this.inFlight <= INLINE_DRAIN && (this.queue.size || this.draining)) { this.kick(); await this.draining; }
      if (this.pending() === 0) return true;
      if (Date.now() >= until) return false;
      await new Promise((r) => setTimeout(r, 20));
      this.kick();
    }
  }

  notesWithTasks(): number {
    return this.byNote.size;
  }

  /** Every note with tasks: its path and its rows. */
  notes(): IterableIterator<[string, readonly NoteTask[]]> {
    return this.byNote.entries();
  }

  ofNote(path: string): readonly NoteTask[] {
    return this.byNote.get(path) ?? [];
  }
}
