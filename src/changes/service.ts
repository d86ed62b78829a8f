// The change feed: one line per note created, modified, moved or deleted, attributed to the key that
// made it or to `human` (Obsidian, a sync client, git…), persisted as JSON lines in the plugin data
// folder (`changes.jsonl`) with retention by age and count, and resumable with `ev:<n>` cursors.
//
// Attribution: the write path calls `recordOwn(path, kind, keyName)` BEFORE it writes; the host event
// that follows for that path (within OWN_TTL_MS) is attributed to the key and consumes the record.
// Everything else is `human`. A touch or re-sync that keeps the bytes (same sha256) adds no line and
// does not move the note's content-changed time (get_recent order_by="content_changed").
//
// Start-up: `changes-state.json` remembers every note's mtime, size, hash and content-changed time.
// Reconciliation compares it with the vault: differences found are listed as `human` changes with
// reason "found at start", after one `gap` line for the unwatched window; identical bytes deleted at
// one path and present at another become a move. Without a usable state file the feed starts with a
// `reset` line (nothing before it is known) and hashes every note in the background as its baseline.
import type { DataStore, VaultEvent, VaultHost } from '../host/port.js';
import type { Settings } from '../core/settings.js';
import { contentHash } from '../core/hash.js';
import { isNotePath } from '../core/paths.js';
import { changeSettings, type ChangeSettings } from './settings.js';
import { decodeState, emitState, type LoadedState } from './stateFile.js';
import { PieceWriter } from '../core/pieceWriter.js';
import { SnapshotMap } from './snapshotMap.js';
import { NoteTable } from './noteTable.js';
import {
  cursorOf, diffSteps, feedPartsInTurns, lowerBound, noteState, pairMoves, parseCursor, parseFeedParts, retain, scopeEvent,
  type ChangeEvent, type ChangeKind, type NoteState,
} from './feed.js';
import { clearTimeout, setTimeout } from 'node:timers';
import { utf8LinePieces } from '../services/utf8Slices.js';
import { Slicer, SLICE_MS } from '../services/slicer.js';
import { nextTurn } from '../core/turns.js';
import { QuietSaveTimer } from '../core/quietSave.js';
import { OwnRecords, type OwnKind } from './attribution.js';

export const FEED_FILE = 'changes.jsonl';
export const STATE_FILE = 'changes-state.json';
/** Feed lines kept in memory while the disk refuses them. */
const RETRY_MAX_LINES = 20_000;
const DAY_MS = 86_400_000;

export type { OwnKind } from './attribution.js';

export interface ChangeServiceOptions {
  host: VaultHost;
  settings: () => Settings;
  now?: () => number;
  log?: (m: string) => void;
  /** Delay before the state snapshot is saved after a change (ms); then it waits for a quiet vault (core/quietSave.ts). */
  saveDelayMs?: number;
  saveMaxWaitMs?: number;
}

/** A feed line as a caller sees it (root-confined, filtered). Synthetic gap/reset lines have no cursor. */
export interface FeedRow { event: ChangeEvent; synthetic: boolean }

export interface FeedQuery {
  since: string;
  /** Filter after visibility; gap and reset lines always pass. */
  accept: (e: ChangeEvent) => boolean;
  visible: (path: string) => boolean;
  limit: number;
}

/** The events the feed records (metadata and link resolution change no note's bytes). */
type HandledEvent = Exclude<VaultEvent, { type: 'metadata' | 'resolved' }>;

export class ChangeService {
  private readonly host: VaultHost;
  private readonly data: DataStore;
  private readonly now: () => number;
  private events: ChangeEvent[] = [];
  private table = new NoteTable(); // the state's store, read directly where a record per note is waste
  private state = SnapshotMap.adopt<NoteState>(this.table);
  private seq = 0;
  private prunedBefore = { t: 0, n: 0 };
  private readonly own: OwnRecords;
  private chain: Promise<void> = Promise.resolve();
  private started: Promise<void> | null = null;
  private unsubscribe: (() => void) | null = null;
  /** Events to append to the feed file, each made a line only then (a line held per event, for the
   *  20 ms until the append, outlived the young generation in a 100k-note move). */
  private unwritten: ChangeEvent[] = [];
  /** Lines in the feed file: what it held at load or at its last rewrite, plus the appends since. */
  private fileLines = 0;
  private appendTimer: ReturnType<typeof setTimeout> | null = null;
  private appending: Promise<void> = Promise.resolve();
  private readonly saveTimer: QuietSaveTimer;
  /** State saves run one after another (see saveState). */
  private saving: Promise<void> = Promise.resolve();
  private lastAgeCheck = 0;
  private baseline: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly o: ChangeServiceOptions) {
    this.host = o.host;
    this.data = o.host.data;
    this.now = o.now ?? Date.now;
    this.own = new OwnRecords(() => this.now());
    const save = () => void this.saveState().catch((e) => { this.o.log?.(`change feed: state save failed: ${(e as Error).message}`); this.scheduleSave(); });
    this.saveTimer = new QuietSaveTimer({ save, delayMs: () => o.saveDelayMs ?? 5000, busy: () => this.host.pendingCount() > 0, maxWaitMs: o.saveMaxWaitMs });
  }

  // ---- lifecycle ----

  start(): Promise<void> {
    if (this.started) return this.started;
    // Subscribe first: events during reconciliation queue behind it on the chain.
    this.unsubscribe = this.host.subscribe((e) => this.onEvent(e));
    this.started = this.chain = this.reconcile().catch((e) => this.o.log?.(`change feed: start failed: ${(e as Error).message}`));
    return this.started;
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    await this.chain.catch(() => undefined);
    this.stopped = true;
    await this.baseline?.catch(() => undefined);
    await this.flushLines();
    this.saveTimer.cancel();
    await this.saveState().catch(() => undefined);
  }

  /** Resolves when every event seen so far has been processed (and reconciliation is done). */
  async settle(): Promise<void> {
    await this.start();
    let c: Promise<void>;
    do { c = this.chain; await c; } while (c !== this.chain);
  }

  // ---- attribution API for the write path ----

  /**
   * Call BEFORE writing `path` on behalf of key `keyName` (kind: what the write will do; for a move
   * pass the NEW path and `from`). The next host event for that path within 30 s is attributed to
   * the key. Returns a function that withdraws the record (call it when the write fails).
   */
  recordOwn(path: string, kind: OwnKind, keyName: string, opts: { from?: string; reason?: string } = {}): () => void {
    return this.own.record(path, kind, keyName, opts);
  }

  // ---- reading ----

  head(): number {
    return this.seq;
  }

  /** When the note's bytes last changed (ms), as far as the feed knows; null when it has no record. */
  contentChanged(path: string): number | null {
    return this.table.changedAt(path) ?? null;
  }

  eventCount(): number {
    return this.events.length;
  }

  async query(q: FeedQuery): Promise<{ rows: FeedRow[]; next_since: string; more: boolean; head: string }> {
    await this.settle();
    const c = parseCursor(q.since);
    const rows: FeedRow[] = [];
    const synth = (kind: ChangeKind, reason: string, extra: Partial<ChangeEvent> = {}): FeedRow => ({ synthetic: true, event: { n: -1, t: this.now(), kind, by: 'server', reason, ...extra } });
    let idx = 0;
    if (!c) throw new Error('bad cursor'); // validated by the tool
    if (c.kind === 'seq') {
      if (c.n > this.seq) {
        rows.push(synth('reset', `The cursor ev:${c.n} is ahead of this feed (its newest line is ev:${this.seq}): the feed was reset or the cursor belongs to another vault. Changes since that cursor are unknown; continue from next_since.`));
        return { rows, next_since: cursorOf(this.seq), more: false, head: cursorOf(this.seq) };
      }
      idx = lowerBound(this.events, (e) => e.n > c.n);
      if (c.n + 1 < this.prunedBefore.n) {
        rows.push(synth('gap', `Lines ev:${c.n + 1}…ev:${this.prunedBefore.n - 1} were dropped by retention (older than ${changeSettings(this.o.settings()).changesRetentionDays} days or beyond ${changeSettings(this.o.settings()).changesMaxEvents} lines); changes in that window are not listed.`));
      }
    } else {
      const t = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(q.since.trim()) ? `${q.since.trim()}T00:00:00Z` : q.since.trim());
      const ms = /^\d{10,}$/.test(q.since.trim()) ? Number(q.since.trim()) : t;
      idx = lowerBound(this.events, (e) => e.t >= ms);
      if (ms < this.prunedBefore.t) rows.push(synth('gap', `Lines before ${new Date(this.prunedBefore.t).toISOString()} were dropped by retention; changes between ${new Date(ms).toISOString()} and then are not listed.`));
    }
    let last = idx > 0 ? this.events[idx - 1].n : (c.kind === 'seq' ? c.n : 0);
    let i = idx;
    for (; i < this.events.length && rows.length < q.limit; i++) {
      const e = this.events[i];
      last = e.n;
      const v = scopeEvent(e, q.visible);
      if (!v) continue;
      if (v.kind === 'gap' || v.kind === 'reset' || q.accept(v)) rows.push({ event: v, synthetic: false });
    }
    const more = i < this.events.length;
    return { rows, next_since: cursorOf(more ? last : this.seq), more, head: cursorOf(this.seq) };
  }

  // ---- events ----

  private onEvent(e: VaultEvent): void {
    if (e.type === 'metadata' || e.type === 'resolved') return;
    if (e.type === 'rename') { if (!isNotePath(e.path) && !isNotePath(e.oldPath)) return; }
    else if (!isNotePath(e.path)) return;
    this.inbox.push(e);
    if (this.inboxOpen) return;
    this.inboxOpen = true;
    this.chain = this.chain.then(() => this.handleInbox());
  }

  /** Events waiting for handleInbox, from `inboxAt` on. One loop takes them in order: a folder rename is
   *  an event per note, and a promise chained per event kept 100k closures and promises alive at once. */
  private inbox: (HandledEvent | undefined)[] = [];
  private inboxAt = 0;
  /** A handleInbox is on the chain and will take what is pushed. */
  private inboxOpen = false;
  /** Its slices: with reads answered at once, the events would run back to back in one task of the app's thread. */
  private readonly chainSlicer = new Slicer();

  private async handleInbox(): Promise<void> {
    try {
      while (this.inboxAt < this.inbox.length) {
        const e = this.inbox[this.inboxAt]!;
        this.inbox[this.inboxAt++] = undefined;
        if (this.chainSlicer.due()) await this.chainSlicer.pause();
        try { await this.handle(e); } catch (err) { this.o.log?.(`change feed: ${(err as Error).message}`); }
      }
    } finally {
      this.inbox = [];
      this.inboxAt = 0;
      this.inboxOpen = false;
    }
  }

  private async hashOf(path: string): Promise<string | null> {
    try { return contentHash(await this.host.readBytes(path)); } catch { return null; }
  }

  private async handle(e: HandledEvent): Promise<void> {
    const now = this.now();
    if (e.type === 'delete') {
      const own = this.own.take(e.path);
      this.state.delete(e.path);
      this.push({ kind: 'deleted', path: e.path, by: own?.key ?? 'human', reason: own ? (own.reason ?? `deleted by the key "${own.key}"`) : 'deleted outside the server (in Obsidian, by a sync client, git or on disk)' }, now);
      return;
    }
    if (e.type === 'rename') {
      const own = this.own.take(e.path, e.oldPath);
      const by = own?.key ?? 'human';
      const prev = this.state.get(e.oldPath);
      this.state.delete(e.oldPath);
      if (!isNotePath(e.path)) { this.push({ kind: 'deleted', path: e.oldPath, by, reason: `renamed to the non-note "${e.path}"` }, now); return; }
      const st = this.host.stat(e.path);
      const h = prev?.h ?? await this.hashOf(e.path);
      // The same bytes under a new key: the entry is reused (entries are replaced, never changed).
      if (st) this.state.set(e.path, prev?.h && prev.m === st.mtime && prev.s === st.size ? prev : noteState(st.mtime, st.size, h, prev?.c ?? st.mtime));
      if (!isNotePath(e.oldPath)) this.push({ kind: 'created', path: e.path, by, reason: `renamed from the non-note "${e.oldPath}"` }, now);
      else this.push({ kind: 'moved', path: e.path, from: e.oldPath, by, ...(own?.reason ? { reason: own.reason } : {}) }, now);
      return;
    }
    // create / modify
    const own = this.own.take(e.path);
    const st = this.host.stat(e.path);
    if (!st) return; // already gone; its delete event follows
    const h = await this.hashOf(e.path);
    const prev = this.state.get(e.path);
    if (prev && prev.h && h && prev.h === h) {
      this.state.set(e.path, noteState(st.mtime, st.size, prev.h, prev.c));
      this.scheduleSave();
      return; // a touch or re-sync with the same bytes
    }
    this.state.set(e.path, noteState(st.mtime, st.size, h, Math.max(st.mtime, prev?.c ?? 0)));
    const kind: ChangeKind = e.type === 'create' && !prev ? 'created' : 'modified';
    this.push({ kind, path: e.path, by: own?.key ?? 'human', ...(own?.reason ? { reason: own.reason } : {}) }, now);
  }

  private push(e: Omit<ChangeEvent, 'n' | 't'>, t = this.now()): ChangeEvent {
    const ev: ChangeEvent = { n: ++this.seq, t, ...e };
    this.events.push(ev);
    this.unwritten.push(ev);
    this.scheduleAppend();
    this.scheduleSave();
    return ev;
  }

  // ---- persistence ----

  private scheduleAppend(): void {
    if (this.appendTimer || this.stopped) return;
    this.appendTimer = setTimeout(() => { this.appendTimer = null; void this.flushLines(); }, 20);
  }

  private flushLines(): Promise<void> {
    if (this.appendTimer) { clearTimeout(this.appendTimer); this.appendTimer = null; }
    this.appending = this.appending.then(async () => {
      const s = changeSettings(this.o.settings());
      const now = this.now();
      const ageDue = now - this.lastAgeCheck > 3_600_000 && this.events.length && this.events[0].t < now - s.changesRetentionDays * DAY_MS;
      // What the tools read is trimmed at 10 % over the limit, the file rewritten only at twice the limit:
      // rewritten at 10 % over, its 20,000 lines were made again every 2,000 events (39 times in a
      // 100k-note move). A start drops the lines the file holds beyond the limit.
      if (this.events.length > s.changesMaxEvents * 1.1 + 50) this.trim(s);
      if (this.fileLines > s.changesMaxEvents * 2 + 50 || ageDue) {
        this.unwritten = [];
        await this.compact();
        return;
      }
      if (!this.unwritten.length) return;
      const lines = this.unwritten;
      this.unwritten = [];
      try {
        await this.data.append(FEED_FILE, await feedPartsInTurns(lines));
        this.fileLines += lines.length;
      } catch (e) {
        // The disk refused (full, unwritable): the lines wait (bounded) and are written again later.
        this.unwritten = lines.concat(this.unwritten).slice(-RETRY_MAX_LINES);
        if (!this.stopped && !this.appendTimer) this.appendTimer = setTimeout(() => { this.appendTimer = null; void this.flushLines(); }, 5000);
        throw e;
      }
    }).catch((e) => this.o.log?.(`change feed: write failed: ${(e as Error).message}`));
    return this.appending;
  }

  /** Applies retention and rewrites the feed file (atomically) with what is kept. */
  private async compact(): Promise<void> {
    this.lastAgeCheck = this.now();
    const kept = this.trim(changeSettings(this.o.settings()));
    // The lines of the events kept now, in slices; events pushed meanwhile go to the next append.
    await this.data.write(FEED_FILE, await feedPartsInTurns(kept));
    this.fileLines = kept.length;
    this.scheduleSave();
  }

  /** Retention on the events in memory (the file keeps its lines until the next rewrite); returns what is kept. */
  private trim(s: ChangeSettings): ChangeEvent[] {
    const { kept, dropped } = retain(this.events, this.now(), s.changesRetentionDays * DAY_MS, s.changesMaxEvents);
    if (dropped.length) {
      const lastDropped = dropped[dropped.length - 1];
      this.prunedBefore = { t: Math.max(this.prunedBefore.t, lastDropped.t + 1), n: Math.max(this.prunedBefore.n, lastDropped.n + 1) };
    }
    this.events = kept;
    return kept;
  }

  /** A failed save is tried again (the disk may have been full for a while). */
  private scheduleSave(): void {
    if (!this.stopped) this.saveTimer.schedule();
  }

  /**
   * Saves are serialised, and each takes its snapshot only when its turn comes: two saves in flight at
   * once (a timer's and stop()'s) could otherwise finish in either order, and an older snapshot landing
   * last made the next start see notes "changed while stopped" that were not (an extra gap line and a
   * human "modified" line for a note the feed had already listed).
   */
  private saveState(): Promise<void> {
    const run = this.saving.then(() => this.writeState());
    this.saving = run.catch(() => undefined);
    return run;
  }

  private async writeState(): Promise<void> {
    // Mid-reconcile the state is being filled in slices; reconcile saves it when it is whole.
    if (this.reconciling) return;
    // A snapshot (the encoding yields, and events may change this.state meanwhile): copy on write,
    // so taking it costs nothing however large the vault.
    const header = { seq: this.seq, saved: this.now(), pruned_before_t: this.prunedBefore.t, pruned_before_n: this.prunedBefore.n };
    const snap = this.state.snapshot();
    try {
      await this.data.write(STATE_FILE, async (put) => {
        const out = new PieceWriter(put);
        await emitState(header, snap.entries, (part) => out.text(part));
        await out.end();
      });
    } finally { snap.close(); }
  }

  private async loadState(): Promise<{ state: LoadedState | null; problem: string | null }> {
    let bytes: Uint8Array | null;
    try { bytes = await this.data.read(STATE_FILE); } catch (e) { return { state: null, problem: `the saved state could not be read (${(e as Error).message})` }; }
    if (!bytes) return { state: null, problem: null };
    return decodeState(utf8LinePieces(bytes), (p) => this.host.stat(p)?.path ?? p);
  }

  /** True while reconcile() fills the state (a save then would write a partial one). */
  private reconciling = false;

  private async reconcile(): Promise<void> {
    this.reconciling = true;
    let changed: boolean;
    try { changed = await this.reconcileState(); } finally { this.reconciling = false; }
    // Unchanged, the saved file already says all but its time: rewritten when the vault is quiet, not
    // beside the other indexes' loads (at 100k notes a 14 MB encode and write in the warm load).
    if (changed) await this.saveState(); else this.scheduleSave();
  }

  /** False when the state and feed are as saved: every note as recorded, no line added or dropped. */
  private async reconcileState(): Promise<boolean> {
    await this.host.ready();
    const { state, problem } = await this.loadState();
    const feedBytes = await this.data.read(FEED_FILE).catch(() => null);
    const { events, bad } = feedBytes ? await parseFeedParts(utf8LinePieces(feedBytes), nextTurn) : { events: [], bad: 0 };
    this.fileLines = events.length + bad;
    this.seq = Math.max(state?.seq ?? 0, events.length ? events[events.length - 1].n : 0);
    if (state) this.prunedBefore = { t: state.pruned_before_t ?? 0, n: state.pruned_before_n ?? 0 };
    else if (events.length) this.prunedBefore = { t: events[0].t, n: events[0].n };
    // Lines the last run had already dropped from what the tools read stay in the file until a rewrite.
    this.events = events.slice(lowerBound(events, (e) => e.n >= this.prunedBefore.n));
    const s = changeSettings(this.o.settings());
    const r = retain(this.events, this.now(), s.changesRetentionDays * DAY_MS, s.changesMaxEvents);
    const compacted = r.dropped.length > 0 || bad > 0 || this.events.length < events.length;
    if (compacted) await this.compact();
    // The vault's list (100k entries copied, then filtered in slices: at once, 20-45 ms at 100k notes)
    // in tasks of its own.
    await nextTurn();
    const now = this.now();
    const files = this.host.files();
    await nextTurn();
    // One slicer for the start's passes over the vault (the per-note hashing below has its own).
    const slicer = new Slicer();
    const notes: typeof files = [];
    for (const f of files) { if (isNotePath(f.path)) notes.push(f); if (slicer.due()) await slicer.pause(); }

    if (!state) {
      const why = problem ?? (feedBytes ? 'the saved state of the vault is missing' : 'first start: there is no earlier record of this vault');
      this.push({ kind: 'reset', by: 'server', reason: `${why}. Changes made before this line are not in the feed.` }, now);
      // In slices (events wait on the chain meanwhile): 100k notes at once was a 400 ms block of the app's thread.
      for (const f of notes) { this.state.set(f.path, noteState(f.mtime, f.size, null, f.mtime)); if (slicer.due()) await slicer.pause(); }
      this.baseline = this.hashBaseline();
      return true;
    }

    // The loaded map becomes the state itself (no copy): `prev` is read below only for a note before
    // it is changed, and a move's old entry is kept in `deleted` (events wait on the chain meanwhile).
    const prev = state.files;
    this.table = prev;
    this.state = SnapshotMap.adopt(prev);
    const steps = diffSteps(prev, notes);
    let step = steps.next();
    // The clock after every step (1,024 notes): read every 32 steps, as for single items, it let 32k
    // notes' comparison run between two turns (39 ms in a profiled warm load at 100k notes).
    const perStep = new Slicer(undefined, SLICE_MS, 1);
    for (; !step.done; step = steps.next()) if (perStep.due()) await perStep.pause();
    const diffs = step.value;
    const created: { path: string; h: string | null }[] = [];
    const deleted: { path: string; h: string | null; was: NoteState }[] = [];
    const modified: string[] = [];
    // A turn whenever the slice is spent, looked at after every note: each may be read and hashed (64
    // notes between turns made 40-60 ms blocks at 100k notes).
    const perNote = new Slicer(undefined, SLICE_MS, 1);
    for (const d of diffs) {
      if (perNote.due()) await perNote.pause();
      const st = this.host.stat(d.path);
      if (d.kind === 'deleted') { const was = prev.get(d.path)!; deleted.push({ path: d.path, h: was.h, was }); this.state.delete(d.path); continue; }
      if (!st) continue;
      const h = await this.hashOf(d.path);
      if (d.kind === 'created') { created.push({ path: d.path, h }); this.state.set(d.path, noteState(st.mtime, st.size, h, st.mtime)); continue; }
      const p = prev.get(d.path)!;
      if (p.h && h && p.h === h) { this.state.set(d.path, noteState(st.mtime, st.size, p.h, p.c)); continue; }
      this.state.set(d.path, noteState(st.mtime, st.size, h, st.mtime));
      modified.push(d.path);
    }
    const paired = pairMoves(deleted, created);
    const wasAt = paired.moves.length ? new Map(deleted.map((d) => [d.path, d.was])) : null;
    for (const mv of paired.moves) { const st = this.state.get(mv.to); const old = wasAt?.get(mv.from); if (st && old) this.state.set(mv.to, noteState(st.m, st.s, st.h, old.c)); }
    const total = paired.moves.length + paired.created.length + modified.length + paired.deleted.length;
    if (total) {
      const from = new Date(state.saved).toISOString();
      this.push({ kind: 'gap', by: 'server', gap_from: state.saved, gap_until: now, reason: `The server was not watching the vault between ${from} and ${new Date(now).toISOString()}. The ${total} change${total === 1 ? '' : 's'} that follow were found at start by comparing with the last known state: exact times, intermediate edits and authors are unknown (attributed to human).` }, now);
      const found = 'found at start: changed while the server was not running';
      for (const mv of paired.moves) this.push({ kind: 'moved', path: mv.to, from: mv.from, by: 'human', reason: found }, now);
      for (const p of paired.created) this.push({ kind: 'created', path: p, by: 'human', reason: found }, now);
      for (const p of modified) this.push({ kind: 'modified', path: p, by: 'human', reason: found }, now);
      for (const p of paired.deleted) this.push({ kind: 'deleted', path: p, by: 'human', reason: 'missing at start: deleted (or moved away) while the server was not running' }, now);
    }
    const pruned = this.prunedBefore.t !== (state.pruned_before_t ?? 0) || this.prunedBefore.n !== (state.pruned_before_n ?? 0);
    return diffs.length > 0 || compacted || pruned || this.seq !== state.seq;
  }

  /** First start: hash every note once (in slices that yield) so later touches can be told from edits. */
  private async hashBaseline(): Promise<void> {
    const slicer = new Slicer(undefined, SLICE_MS, 1); // a note's read and hash per clock reading (see the start)
    const same = (a: { mtime: number; size: number } | null, st: NoteState) => !!a && a.mtime === st.m && a.size === st.s;
    // Paths listed at once, states read in turn (a read makes a record: noteTable.ts); the clock read
    // before every note, skipped ones too (thousands hashed by their events in a row: 80 ms at 100k).
    for (const path of [...this.state.keys()]) {
      if (slicer.due()) await slicer.pause();
      if (this.stopped) return;
      const st = this.state.get(path);
      if (!st || st.h) continue;
      // The hash is kept only if the file is still the version the state describes, before and after
      // the read: a write racing the read (its event not yet handled) must not lend its hash to the
      // old mtime/size, or the event that follows would look like a touch and be dropped.
      if (!same(this.host.stat(path), st)) continue;
      const h = await this.hashOf(path);
      const cur = this.state.get(path);
      if (cur && cur.m === st.m && cur.s === st.s && !cur.h && same(this.host.stat(path), st)) this.state.set(path, noteState(cur.m, cur.s, h, cur.c));
    }
    this.scheduleSave();
  }

  /** Test/bench hook: resolves when the first-start baseline hashing is done. */
  async baselineDone(): Promise<void> {
    await this.start();
    await this.baseline;
  }
}
