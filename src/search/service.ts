// The keyword index as a living service: built from the host's notes, kept fresh from host events (batched,
// debounced, in slices that yield), persisted in the data folder, queried by keyword_search and hybrid_search (types.ts).
//
// Persistence: `keyword-index.bin` = one header line (schema, analyzer signature, per-note mtime,
// size, hash, skipped notes) + the index in the compact form of persist.ts. On start it loads, serves at once, and reconciles
// only notes whose mtime/size changed (a changed mtime with the same hash is just recorded). A corrupt
// file, an older schema or another tokenization is rebuilt from the notes, never trusted.
// Reading overlaps indexing: the next batch of notes is read while the current one is added.
import type { VaultEvent, VaultHost } from '../host/port.js';
import type { Settings } from '../core/settings.js';
import { contentHash } from '../core/hash.js';
import { createAnalyzer, type Analyzer } from './analyzer.js';
import { keywordSettings } from './settings.js';
import { parseQuery, type ParsedQuery } from './query.js';
import { buildDoc } from './document.js';
import { decodeIndex, indexWriterInTurns, readHeader, slicePause, verifyLists } from './persist.js';
import { InvertedIndex, type IndexedDoc } from './invertedIndex.js';
import { runQueryPage, type Hit, type HitKey } from './rank.js';
import type { KeywordRanked, KeywordRanker, KeywordRankOptions } from './types.js';
import type { IndexStatus } from '../services/status.js';
import { clearTimeout, setTimeout } from 'node:timers';
import { Debounce } from '../core/debounce.js';
import { QuietSaveTimer } from '../core/quietSave.js';
import { queueAll, queueDifferences, type Op } from './reconcile.js';
import { queueEvent } from './eventQueue.js';
import { nextTurn } from '../core/turns.js';
import { readAllAhead } from '../core/readAhead.js';
import { getSegmenter, segmenterMade } from './text.js';
import { ReadGate } from './readGate.js';
import { ShardedMap } from '../core/shardedMap.js';

export const INDEX_FILE = 'keyword-index.bin';
/** The JSON file of schema 1 (MiniSearch's own serialization); removed after the first save. */
const LEGACY_INDEX_FILE = 'keyword-index.json';
/** 3: own index format (issue 14: titles, BM25F, no MiniSearch internals); 4: JSON parts in lines of bounded size; 5: varint posting lists. */
export const SCHEMA = 5;

/** The synchronous part of one change: done at once, or steps to run with turns between (a long note). */
type Update = () => Iterator<void> | void;

interface Header { schema: number; signature: string; skipped: Map<string, string> }

export interface KeywordServiceOptions {
  host: VaultHost;
  settings: () => Settings;
  now?: () => number;
  log?: (m: string) => void;
  /** Debounce of host events before the index is updated (ms). */
  debounceMs?: number;
  /** Delay before the index file is saved after a change (ms); then it waits for a quiet vault (core/quietSave.ts). */
  saveDelayMs?: number;
  saveMaxWaitMs?: number;
}

const SLICE_MS = 12, BATCH = 32;
const slicer = () => slicePause(SLICE_MS);
/** Searches drain a queue this small before answering, so a caller's own writes are visible. */
const INLINE_DRAIN = 64;

export class KeywordService implements KeywordRanker {
  private analyzer: Analyzer;
  private ix: InvertedIndex;
  private skipped = new Map<string, string>();
  private queue = new ShardedMap<Op>(); // sharded: a Map of 130k queued notes rehashed in one set()
  private state: 'loading' | 'building' | 'ready' = 'loading';
  private draining: Promise<void> | null = null;
  /** Paths taken off the queue whose update is being read (eventQueue.ts: a move of one reads it again). */
  private readonly inFlight = new Set<string>();
  private readonly debounce = new Debounce(() => void this.drain());
  private readonly saveTimer: QuietSaveTimer;
  /** Updates wait while a query reads the index (src/search/readGate.ts). */
  private readonly reads = new ReadGate();
  private saving: Promise<void> | null = null;
  private vacuuming: Promise<void> | null = null;
  private dirty = false;
  private legacyRemoved = false;
  private stopped = false;
  private unsubscribe: (() => void) | null = null;
  private initPromise: Promise<void> | null = null;
  private progress = { done: 0, total: 0 };
  private lastNote: string | null = null;
  private lastBuildMs: number | null = null;
  /** Set by the first prefix query: only then is the prefix tree filled (catchUpDict; until then, and for
   *  terms it has not caught up with, a scan of the terms answers: 1-3 ms at 209k terms). */
  private prefixInUse = false;

  constructor(private readonly o: KeywordServiceOptions) {
    this.analyzer = this.makeAnalyzer();
    this.ix = new InvertedIndex();
    const delayMs = () => Math.max(this.saveRetryMs, o.saveDelayMs ?? 3000);
    this.saveTimer = new QuietSaveTimer({ save: () => void this.save(), delayMs, busy: () => this.stale(), maxWaitMs: o.saveMaxWaitMs });
  }

  private analyzerKey = '';

  private makeAnalyzer(): Analyzer {
    const s = keywordSettings(this.o.settings());
    this.analyzerKey = JSON.stringify([s.keywordStemming, s.keywordStopWords]);
    return createAnalyzer({ stemming: s.keywordStemming, stopWords: s.keywordStopWords });
  }

  private log(m: string): void {
    this.o.log?.(`keyword index: ${m}`);
  }

  /** Subscribes to host events and starts loading / building in the background. */
  start(): Promise<void> {
    if (!this.unsubscribe) this.unsubscribe = this.o.host.subscribe((e) => this.onEvent(e));
    this.initPromise ??= this.init().catch((e) => { this.log(`start failed: ${(e as Error).message}`); this.state = 'ready'; });
    return this.initPromise;
  }

  /** Resolves when the index is loaded or built and every queued change is applied. */
  async ready(): Promise<void> {
    await this.start();
    await this.flush();
  }

  private async init(): Promise<void> {
    const loaded = await this.load();
    await this.o.host.ready();
    if (loaded) {
      await this.reconcile(); // still 'loading': a query waits for it rather than miss what changed
      this.state = 'ready';
      if (this.queue.size) this.kick(0);
      this.verifying = this.verify();
      void this.catchUpDict();
    } else {
      this.state = 'building';
      const started = Date.now();
      await this.enqueueAll();
      await this.flush();
      this.lastBuildMs = Date.now() - started;
    }
  }

  private async load(): Promise<boolean> {
    let bytes: Uint8Array | null;
    try { bytes = await this.o.host.cache.read(INDEX_FILE); } catch { bytes = null; }
    if (!bytes) return false;
    try {
      const { header: h, rest } = await readHeader(bytes, slicer());
      const header = h as Header;
      if (header.schema !== SCHEMA) { this.log(`saved index has schema ${header.schema}, expected ${SCHEMA}: rebuilding`); return false; }
      if (header.signature !== this.analyzer.signature) { this.log('text processing settings changed since the index was saved: rebuilding'); return false; }
      const ix = await decodeIndex(bytes, rest, slicer(), (p) => this.o.host.stat(p)?.path ?? p);
      this.ix = ix;
      const skipped: unknown = header.skipped;
      if (!(skipped instanceof Map)) throw new Error('header without skipped notes');
      this.skipped = skipped as Map<string, string>;
      return true;
    } catch (e) {
      this.log(`saved index is unreadable (${(e as Error).message}): rebuilding`);
      this.ix = new InvertedIndex();
      this.skipped = new Map();
      return false;
    }
  }

  /** True while enqueueAll() fills the queue: the build is not done when the queue runs dry meanwhile. */
  private enqueuing = false;

  /** Queues every note for a build (reconcile.ts, in slices), then starts the drain. */
  private async enqueueAll(): Promise<void> {
    const ix = this.ix;
    this.enqueuing = true;
    const done = await queueAll(this.o.host, this.queue, slicer(), () => ix === this.ix && !this.stopped)
      .finally(() => { if (ix === this.ix) this.enqueuing = false; });
    if (!done) return; // rebuilt again meanwhile: that build queues its own
    this.progress = { done: 0, total: this.queue.size };
    this.kick(0);
  }

  /** Queues what changed in the vault since the index was saved (reconcile.ts). The caller kicks the queue. */
  async reconcile(): Promise<number> {
    const n = await queueDifferences(this.ix, this.skipped, this.o.host, this.queue, slicer());
    this.progress = { done: 0, total: this.queue.size };
    return n;
  }

  private onEvent(e: VaultEvent): void {
    if (this.stopped) return;
    const effect = queueEvent(e, this.state === 'loading' ? null : this.ix, this.queue, this.inFlight);
    if (effect === 'ignored') return;
    if (effect === 'moved') this.dirty = true; // saved after the drain, as any change
    this.progress.total = Math.max(this.progress.total, this.progress.done + this.queue.size);
    if (this.state !== 'loading') this.kick(this.o.debounceMs ?? 50);
  }

  private kick(delay: number): void {
    if (!this.stopped) this.debounce.call(delay);
  }

  /** Applies every queued change now; resolves when the queue is empty. */
  async flush(): Promise<void> {
    this.debounce.cancel();
    while ((this.queue.size || this.draining || this.enqueuing) && !this.stopped) {
      if (this.queue.size || this.draining) await this.drain();
      else await nextTurn(); // a rebuild still queueing its notes
    }
  }

  private drain(): Promise<void> {
    if (!this.draining) {
      this.draining = this.drainLoop().finally(() => { this.draining = null; this.inFlight.clear(); });
    }
    return this.draining;
  }

  private async drainLoop(): Promise<void> {
    if (!segmenterMade()) { await nextTurn(); getSegmenter(); await nextTurn(); }
    const pause = slicer(); // one slice budget for reading, analysing and indexing alike
    const take = (): Promise<Update[]> | null => {
      const batch: [string, Op][] = [];
      for (const entry of this.queue) {
        batch.push(entry);
        if (batch.length >= BATCH) break;
      }
      for (const [p] of batch) { this.queue.delete(p); this.inFlight.add(p); }
      // Notes read a few ahead and analysed one at a time, within the same slices as the indexing.
      return batch.length ? readAllAhead(batch, ([p, op]) => this.prepare(p, op), pause) : null;
    };
    let pending = take();
    while (pending) {
      const prepared = await pending;
      if (this.stopped) return;
      // The next batch is read (I/O off the main thread) while this one is indexed.
      pending = take();
      for (const apply of prepared) {
        if (!this.ix.store.spare) { await nextTurn(); this.ix.store.makeSpare(); await nextTurn(); } // postings.ts: spare
        if (this.reads.busy) await this.reads.clear();
        // A long note is indexed in steps (InvertedIndex.addSteps): the clock is read after each.
        const steps = apply();
        if (steps) {
          for (;;) {
            if (this.reads.busy) await this.reads.clear();
            if (steps.next().done) break;
            { const wait = pause(); if (wait) await wait; }
          }
        }
        this.progress.done++;
        { const wait = pause(); if (wait) await wait; }
        if (this.stopped) return;
      }
      pending ??= take();
    }
    if (this.state === 'building' && !this.queue.size && !this.enqueuing) { this.state = 'ready'; this.log(`${this.ix.documentCount} notes indexed`); }
    if (this.ix.needsVacuum() && !this.queue.size) await this.vacuum();
    if (this.dirty) this.scheduleSave();
    if (!this.queue.size) void this.catchUpDict();
    if (!this.ix.store.spare && !this.stopped) { await nextTurn(); this.ix.store.makeSpare(); } // taken by the last update or the vacuum
  }

  /** Set after a load: resolves once the loaded lists were read through (false: damaged, rebuilt). */
  private verifying: Promise<boolean> = Promise.resolve(true);
  verified(): Promise<boolean> {
    return this.verifying;
  }

  /** Reads a loaded index's lists through in the background; a damaged file means a rebuild. */
  private async verify(): Promise<boolean> {
    // Started with the dictionary's catch-up right after the reconcile's last slice: each begins in a turn
    // of its own (the three first slices in one task were 40 ms in a profiled 100k warm load).
    const ix = this.ix;
    await nextTurn();
    const ok = await verifyLists(ix, slicer(), () => this.stopped || ix !== this.ix);
    if (!ok && ix === this.ix && !this.stopped) { this.rebuild('the saved index is damaged'); await this.flush(); }
    return ok;
  }

  /** Fills the prefix tree with new terms in the background (prefix queries scan for the rest meanwhile). */
  private async catchUpDict(): Promise<void> {
    if (!this.prefixInUse) return;
    const ix = this.ix;
    await nextTurn(); // see verify()
    await this.reads.clear();
    return ix.catchUpDict(this.reads.changing(slicer()), () => this.stopped || ix !== this.ix);
  }

  /** Drops removed notes' postings, in slices; never while a save is encoding the same lists. */
  private async vacuum(): Promise<void> {
    while (this.saving) await this.saving;
    if (this.vacuuming || this.stopped) return;
    await this.reads.clear();
    if (this.vacuuming || this.stopped) return;
    this.vacuuming = this.ix.vacuum(this.reads.changing(slicer()), () => nextTurn().then(() => this.reads.clear())).finally(() => { this.vacuuming = null; });
    await this.vacuuming;
  }

  /**
   * Reads what one change needs (async); returns the synchronous index update. An update whose note was
   * changed by another update since it was read is dropped and the note queued again (batches overlap).
   */
  private async prepare(path: string, op: Op): Promise<Update> {
    const ix = this.ix;
    const seen = ix.markOf(path);
    const fn = await this.prepareUpdate(path, op);
    return () => {
      this.inFlight.delete(path);
      if (ix !== this.ix || ix.markOf(path) !== seen) { this.queue.set(path, op); return; }
      return fn();
    };
  }

  private async prepareUpdate(path: string, op: Op): Promise<Update> {
    const remove = () => {
      if (this.ix.remove(path)) this.dirty = true;
      if (this.skipped.delete(path)) this.dirty = true;
    };
    if (op === 'delete') return remove;
    const stat = this.o.host.stat(path);
    if (!stat) return remove;
    const max = keywordSettings(this.o.settings()).keywordMaxNoteBytes;
    if (stat.size > max) return () => { remove(); this.skipped.set(path, `too_large:${stat.size}`); this.dirty = true; };
    // Text, not bytes: the host decodes natively (and in Obsidian serves it from the vault), and the
    // hash here only tells this index whether a note changed since it was indexed.
    let text: string;
    try { text = await this.o.host.readText(path); } catch {
      return () => { remove(); this.skipped.set(path, 'unreadable'); this.dirty = true; };
    }
    const hash = contentHash(text);
    // What the file was when indexed (kept by the index: InvertedIndex.record).
    const meta = { m: stat.mtime, s: stat.size, h: hash };
    if (op !== 'refresh' && this.ix.hashIs(path, hash)) {
      return () => { this.ix.record(path, meta.m, meta.s, meta.h); this.dirty = true; };
    }
    const doc = buildDoc(path, text, this.o.host.metadata(path));
    return () => this.upsertSteps(path, doc, meta);
  }

  private *upsertSteps(path: string, doc: IndexedDoc, meta: { m: number; s: number; h: string }): Generator<void, void> {
    const ix = this.ix;
    // The note may have been deleted while it was read; a later queued op handles that.
    yield* ix.addSteps(doc, this.analyzer, true);
    if (ix !== this.ix) return; // rebuilt meanwhile (a settings change): the new index queues it again
    ix.record(path, meta.m, meta.s, meta.h);
    this.skipped.delete(path);
    this.lastNote = path;
    this.dirty = true;
  }

  /** Delay before retrying a save the disk refused (doubles up to a minute; reset by a success). */
  private saveRetryMs = 0;

  private scheduleSave(): void {
    if (!this.stopped) this.saveTimer.schedule();
  }

  /** Writes the index file now (atomic replace through the data store). */
  async save(): Promise<void> {
    while (this.saving || this.vacuuming) await (this.saving ?? this.vacuuming);
    if (!this.dirty) return;
    this.saving = (async () => {
      this.dirty = false;
      try {
        // The skipped notes and the index's snapshot as of one moment: updates wait at the gate meanwhile.
        const writer = await this.reads.read(() => {
          const header = { schema: SCHEMA, signature: this.analyzer.signature, skipped: new Map(this.skipped) };
          return indexWriterInTurns(header, this.ix, slicer());
        });
        await this.o.host.cache.write(INDEX_FILE, writer);
        if (!this.legacyRemoved) { this.legacyRemoved = true; await this.o.host.cache.remove(LEGACY_INDEX_FILE).catch(() => undefined); }
        this.saveRetryMs = 0;
      } catch (e) {
        // Full or unwritable cache folder: the index stays in memory and the save is tried again.
        this.dirty = true;
        this.log(`could not save (${(e as Error).message})`);
        this.saveRetryMs = Math.min(60_000, Math.max(5000, this.saveRetryMs * 2));
        this.scheduleSave();
      }
    })().finally(() => { this.saving = null; });
    await this.saving;
  }

  /** Drops the index and builds it again (force), or re-checks every note against the disk. */
  async reindex(force: boolean): Promise<void> {
    await this.start();
    if (force) this.rebuild('reindex(force=true)');
    else { await this.reconcile(); if (this.queue.size) this.kick(0); }
    await this.flush();
    await this.save();
  }

  private rebuild(why: string): void {
    this.log(`rebuilding: ${why}`);
    this.analyzer = this.makeAnalyzer();
    this.ix = new InvertedIndex();
    this.skipped.clear();
    this.queue.clear();
    this.state = 'building';
    this.dirty = true;
    void this.enqueueAll();
  }

  /** A changed stemming / stop-word setting means a different tokenization: rebuild, never mix. */
  private checkSettings(): void {
    if (this.state === 'loading') return;
    const s = keywordSettings(this.o.settings());
    if (JSON.stringify([s.keywordStemming, s.keywordStopWords]) === this.analyzerKey) return;
    const before = this.analyzer.signature;
    const a = this.makeAnalyzer();
    if (a.signature !== before) this.rebuild('text processing settings changed');
    else this.analyzer = a; // same tokenization (e.g. an unknown language added): keep the index
  }

  /** Settings were edited (plugin settings tab): rebuild now if the tokenization changed. */
  settingsChanged(): void {
    this.checkSettings();
  }

  stale(): boolean {
    return this.state !== 'ready' || this.queue.size > 0 || !!this.draining || this.o.host.pendingCount() > 0;
  }

  /** Waits (bounded) for the host's pending metadata and every queued index change; false on timeout. */
  async waitForPending(timeoutMs = 10_000): Promise<boolean> {
    const until = Date.now() + timeoutMs;
    await Promise.race([this.start(), new Promise((r) => setTimeout(r, timeoutMs))]);
    while (this.o.host.pendingCount() > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    const left = until - Date.now();
    if (left <= 0) return false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ok = await Promise.race([this.flush().then(() => true), new Promise<boolean>((r) => { timer = setTimeout(() => r(false), left); })]);
    clearTimeout(timer);
    return ok && !this.stale();
  }

  unavailableReason(): string | null {
    if (this.state === 'loading') return 'the keyword index is still loading';
    if (this.state === 'building') return `the keyword index is being built (${this.progress.done}/${this.progress.total} notes)`;
    return null;
  }

  get analyzerInUse(): Analyzer {
    return this.analyzer;
  }

  parse(query: string): ParsedQuery {
    return parseQuery(query, this.analyzer);
  }

  /**
   * Matching notes, AND rows first, then partial rows; filters applied before any limit. Without a
   * limit every match is returned; with one, only that page (after `after`, the previous page's last row).
   */
  async search(query: string, opts: { accept?: (p: string) => boolean; signal?: AbortSignal; limit?: number; after?: HitKey } = {}): Promise<{ hits: Hit[]; parsed: ParsedQuery; total: number; totalAll: number; offset: number }> {
    this.checkSettings();
    if (this.queue.size && this.queue.size <= INLINE_DRAIN && this.state === 'ready') await this.flush();
    const parsed = this.parse(query);
    if (!this.prefixInUse && parsed.leaves.some((l) => l.prefix)) { this.prefixInUse = true; void this.catchUpDict(); }
    const host = this.o.host;
    // The query reads the index across several turns (it pauses between slices): updates wait for it.
    const page = await this.reads.read(() => runQueryPage(this.ix, parsed, this.analyzer, {
      accept: opts.accept,
      signal: opts.signal,
      limit: opts.limit,
      after: opts.after,
      readText: async (p) => { try { return await host.readText(p); } catch { return null; } },
      pause: slicer(),
    }));
    return { ...page, parsed };
  }

  /** The display title the index holds for a note (src/search/title.ts), or null when it is not indexed. */
  title(path: string): string | null {
    return this.ix.displayTitle(path);
  }

  async rank(query: string, opts: KeywordRankOptions): Promise<KeywordRanked[]> {
    const { hits } = await this.search(query, { accept: opts.accept, signal: opts.signal, limit: opts.limit });
    return hits.map((h) => ({ path: h.path, score: h.score, matchedAll: h.matchedAll }));
  }

  status(): IndexStatus {
    const skippedBy: Record<string, number> = {};
    for (const r of this.skipped.values()) { const k = r.split(':')[0]; skippedBy[k] = (skippedBy[k] ?? 0) + 1; }
    const skipDetail = Object.entries(skippedBy).map(([k, n]) => `${n} ${k.replace('_', ' ')}`).join(', ');
    const state: IndexStatus['state'] = this.state === 'ready' && (this.queue.size || this.draining) ? 'building' : this.state;
    const parts: string[] = [];
    if (this.state === 'building') parts.push(`${this.progress.done}/${this.progress.total} notes`);
    if (skipDetail) parts.push(`skipped: ${skipDetail}`);
    if (this.analyzer.unknownLanguages.length) parts.push(`unknown stemming language(s): ${this.analyzer.unknownLanguages.join(', ')}`);
    return { name: 'keyword', state, indexed: this.ix.documentCount, pending: this.queue.size, skipped: this.skipped.size, ...(parts.length ? { detail: parts.join('; ') } : {}) };
  }

  /** Counts for tools: progress of the current run and the last full build's duration. */
  details() {
    return { ...this.status(), progress: { ...this.progress }, last_build_ms: this.lastBuildMs, last_indexed: this.lastNote };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    this.debounce.cancel();
    this.saveTimer.cancel();
    await this.draining?.catch(() => undefined);
    await this.save();
  }
}
