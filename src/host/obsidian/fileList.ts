// ObsidianHost's kept file list: every visible file's stat by NFC path, kept from vault events. files()
// serves every status poll and index, and walking the vault for it costs milliseconds per call at 100k
// files. Built once in timer slices (at start: a one-go build of 100k entries was a 270 ms block of the
// app's UI thread), then updated one event at a time, in the app's order (eventSlices.ts decides when).
import type { TAbstractFile, TFile } from 'obsidian';
import type { FileStat } from '../port.js';
import { fileStat } from '../fileStat.js';
import { isNotePath } from '../../core/paths.js';
import { Slicer } from '../../services/slicer.js';
import { nextTurn } from '../../core/turns.js';
import { hidden, nfc } from './paths.js';
import { SLICE_MS } from './eventSlices.js';
import { ShardedMap } from '../../core/shardedMap.js';

/** One vault event's change to the kept file list, with the paths as they were when it happened: the
 *  host's record of the event itself (a RawEvent, rawEvents.ts), so a folder move makes no second object per file. */
export interface StatOp { kind: 'create' | 'modify' | 'delete' | 'rename'; file: TAbstractFile; path: string; oldPath: string | undefined; task: number }

export const statOf = (f: TFile): FileStat => fileStat(nfc(f.path), f.stat.size, f.stat.mtime, f.stat.ctime);

export class FileList {
  /** null until built (build() or at once by map()). Sharded: a vault-wide move deletes and adds every
   *  key, and a Map of 100k entries rehashed them in one set() (a 50 ms slice in a profile). */
  private stats: ShardedMap<FileStat> | null = null;
  private list: FileStat[] | null = null;
  /** Set for good once some file's path as the app spells it is not its NFC spelling: the list's keys
   *  then no longer name the app's own keys (see paths()). */
  rawDiffers = false;
  /** Notes among stats, kept with it. */
  private notes = 0;
  /** Updates from events that came before the list was kept, applied in order once it is built. */
  private earlyOps: StatOp[] = [];
  private earlyHead = 0;
  private building: Promise<void> | null = null;
  /** Notes seen so far by the build in progress (what noteCount() says until it is done). */
  private seen = 0;
  /**
   * A folder moved or deleted, held while the events that follow it in the same app task are about
   * its own files: the app reports each of them too (moved or deleted one by one, O(1) each), so
   * when that run ends, one scan of the list moves or drops only what no event covered.
   */
  private held: { from: string; to: string | null; task: number } | null = null;
  /** Entries closing scans found left behind and moved (tests: 0 when the app reported every file). */
  scanMoved = 0;
  /** flushHeld's scan, when it stopped at a deadline. */
  private scanning: { prefix: string; to: string | null; entries: IterableIterator<[string, FileStat]>; found: [string, FileStat][] } | null = null;

  constructor(private readonly files: () => Iterable<TFile>, private readonly isFile: (f: TAbstractFile) => f is TFile, private readonly clock: () => number) {}

  /** True once built and caught up with the events that came before: later events are applied by the caller. */
  get kept(): boolean {
    return this.stats !== null && this.earlyHead === this.earlyOps.length;
  }

  /** An event's update while not kept: applied after the build, in order (before, the build restarted and
   *  after three tries built at once: one 300 ms block at 100k files when the app reported a few events). */
  early(op: StatOp): void {
    this.earlyOps.push(op);
  }

  /** Builds the list in slices, then applies the updates of events that came meanwhile, in slices too. */
  build(): Promise<void> {
    this.building ??= (async () => {
      await nextTurn(); // not in the task of whatever asked for the list
      const slicer = new Slicer(this.clock);
      if (!this.stats) {
        const pass = this.collect();
        let step = pass.next();
        for (; !step.done; step = pass.next()) if (slicer.due()) await slicer.pause();
        if (!this.stats) this.install(step.value.map, step.value.notes);
      }
      // Each update reads the file's path and stat as they are now, so one the pass already saw is a
      // no-op or a correction: the pass and the updates in order end as the app's list.
      while (!this.applyEarly(this.clock() + SLICE_MS)) await slicer.pause();
    })();
    return this.building;
  }

  /** Applies the early updates, until `deadline` (clock) if given; true when none is left. */
  private applyEarly(deadline?: number): boolean {
    while (this.earlyHead < this.earlyOps.length) {
      if (!this.apply(this.earlyOps[this.earlyHead], deadline)) return false;
      this.earlyHead++;
      if (deadline !== undefined && (this.earlyHead & 63) === 0 && this.earlyHead < this.earlyOps.length && this.clock() >= deadline) return false;
    }
    this.earlyOps = [];
    this.earlyHead = 0;
    // A folder move among them closes its run as the caller's updates would (see flushHeld).
    return this.flushHeld(deadline);
  }

  /** One pass over the app's files (walked from its folder tree, not its whole list at once) into a
   *  new map, yielding after each file. */
  private *collect(): Generator<void, { map: ShardedMap<FileStat>; notes: number }, void> {
    const map = new ShardedMap<FileStat>();
    let notes = 0;
    for (const f of this.files()) {
      if (!hidden(f.path)) {
        const st = statOf(f);
        if (st.path !== f.path) this.rawDiffers = true;
        map.set(st.path, st);
        if (isNotePath(st.path)) this.seen = Math.max(this.seen, ++notes);
      }
      yield;
    }
    return { map, notes };
  }

  private install(map: ShardedMap<FileStat>, notes: number): void {
    this.stats = map;
    this.notes = notes;
    this.list = null;
  }

  /** The kept map, built and caught up at once if not yet. */
  map(): ShardedMap<FileStat> {
    if (!this.stats) {
      const pass = this.collect();
      let step = pass.next();
      while (!step.done) step = pass.next();
      this.install(step.value.map, step.value.notes);
    }
    if (this.earlyHead < this.earlyOps.length) this.applyEarly();
    return this.stats as ShardedMap<FileStat>;
  }

  /** Every visible file's path, as the app spells it while rawDiffers is false (null before the build). */
  paths(): Iterable<string> | null {
    return this.stats ? this.stats.keys() : null;
  }

  /** Every entry (the same array until the next change; callers copy it). */
  all(): FileStat[] {
    this.list ??= this.map().valuesArray();
    return this.list;
  }

  /** Notes in the list as kept so far; while it is first built, the notes its build has seen (counting
   *  the app's notes instead was itself a pass over 100k files, 75-250 ms, at each status update). */
  noteCount(): number {
    if (this.stats) return this.notes;
    if (!this.building) this.map();
    return this.stats ? this.notes : this.seen;
  }

  /**
   * One event's update: O(1) for a file; a folder move or delete is held (see held). When the update ends
   * a held run, the run's closing scan comes first and stops at `deadline` (clock) if given: then the
   * update is not applied yet (false) and the next call with it goes on.
   */
  apply(op: StatOp, deadline?: number): boolean {
    const stats = this.stats;
    if (!stats) return true;
    if (this.scanning && !this.flushHeld(deadline)) return false;
    this.list = null;
    const { kind: type, file: f } = op;
    const src = nfc(type === 'rename' ? op.oldPath ?? '' : op.path);
    if (nfc(op.path) !== op.path) this.rawDiffers = true;
    const isFile = this.isFile(f);
    const h = this.held;
    if (h) {
      const inRun = h.task === op.task && src.startsWith(`${h.from}/`);
      // A folder under the held one, moved along with it (or deleted with it): covered by its scan.
      const along = inRun && !isFile && (type === 'rename' ? h.to !== null && nfc(op.path) === h.to + src.slice(h.from.length) : type === 'delete' && h.to === null);
      if (along) return true;
      if ((!inRun || !isFile) && !this.flushHeld(deadline)) return false;
    }
    if (!this.isFile(f)) {
      if ((type === 'rename' || type === 'delete') && src !== '') this.held = { from: src, to: type === 'rename' ? nfc(op.path) : null, task: op.task };
      return true;
    }
    if (type === 'delete' || type === 'rename') {
      if (stats.delete(src) && isNotePath(src)) this.notes--;
    }
    if (type !== 'delete' && !hidden(op.path)) {
      const path = nfc(op.path);
      if (!stats.has(path) && isNotePath(path)) this.notes++;
      stats.set(path, fileStat(path, f.stat.size, f.stat.mtime, f.stat.ctime));
    }
    return true;
  }

  /**
   * The held folder's run is over: entries still under it are re-keyed under its new place or dropped.
   * The scan of the whole list for them (20-40 ms at 100k files, after a vault-wide move) stops at
   * `deadline` (clock) if given and returns false; the next call goes on from there. The caller applies no
   * other update in between (EventSlices holds them), so the list does not change under the scan.
   */
  flushHeld(deadline?: number): boolean {
    const stats = this.stats;
    if (!this.scanning) {
      const h = this.held;
      this.held = null;
      if (!h || !stats) return true;
      this.scanning = { prefix: `${h.from}/`, to: h.to, entries: stats.entries(), found: [] };
    }
    const sc = this.scanning;
    let n = 0;
    for (let e = sc.entries.next(); !e.done; e = sc.entries.next()) {
      if (e.value[0].startsWith(sc.prefix)) sc.found.push(e.value);
      if (deadline !== undefined && (++n & 1023) === 0 && this.clock() >= deadline) return false;
    }
    this.scanning = null;
    if (!stats || !sc.found.length) return true;
    this.list = null;
    this.scanMoved += sc.found.length;
    for (const [path, st] of sc.found) {
      stats.delete(path);
      const dest = sc.to === null ? null : `${sc.to}/${path.slice(sc.prefix.length)}`;
      if (dest !== null && !hidden(dest)) stats.set(dest, fileStat(dest, st.size, st.mtime, st.ctime));
      else if (isNotePath(path)) this.notes--;
    }
    return true;
  }
}
