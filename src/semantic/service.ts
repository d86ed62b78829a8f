// SemanticService: the model (loaded lazily from a local folder), the vector store (loaded lazily
// from the data folder, fingerprint-checked) and the background queue that embeds new and changed
// notes only. Everything the semantic tools, the status bar and the settings tab need goes through it.
// The queue is a set of vault paths. Vault events add to it; on the first run it is reconciled with
// the saved manifest (mtime/size first, then the content hash), so a restart re-embeds only what
// changed while the server was down. Deleted, skipped and renamed-away paths leave the index the
// same way: a queued path that is no longer an indexable note is removed.
import type { VaultHost } from '../host/port.js';
import type { Settings } from '../core/settings.js';
import { contentHash } from '../core/hash.js';
import { chunkNote, chunkingKey, type ChunkOptions } from '../core/chunk.js';
import { Retrier } from '../host/storageHealth.js';
import { queueChange, skipperFor } from './moves.js';
import { isNotePath, noteTitle } from '../core/paths.js';
import { snapshotFromBytes } from '../services/noteText.js';
import { VectorStore, fingerprintKey, type Fingerprint, type NoteHit } from './store.js';
import { loadEmbedder as defaultLoader, ModelUnavailable, resolveModelFolder, modelFileName, type Backend, type Embedder, type EmbedderOptions } from './embedder.js';
import { ensureOrtWasm, type EmbeddedWasm } from './ortWasm.js';
import { workerEmbedder, type WorkerChannel } from './workerEmbedder.js';
import { semanticSettings, type SemanticSettings } from './settings.js';
import { statSync, promises as fsp } from 'node:fs';
import { clearTimeout, setTimeout } from 'node:timers'; // Node's: the service runs headless too (no window)
import { Debounce } from '../core/debounce.js';
import { join } from 'node:path';
import { nextTurn } from '../core/turns.js';
import { ShardedSet } from '../core/shardedMap.js';

export const INDEX_FILE = 'semantic-index.bin';

export interface SemanticDeps {
  host: VaultHost;
  settings: () => Settings;
  now: () => number;
  /** The bundle's compressed WASM (Obsidian); without it the WASM backend uses onnxruntime-web's dist file. */
  wasmSource?: () => Promise<EmbeddedWasm>;
  loadEmbedder?: (o: EmbedderOptions) => Promise<Embedder>;
  /** For the WASM backend: starts an inference worker (Obsidian: a Web Worker from the bundle). */
  embedWorker?: () => WorkerChannel | Promise<WorkerChannel>;
  /** Inference only in the worker (Obsidian): when it is missing or cannot start, semantic search is
   *  off with the reason, never run on this thread (onnxruntime-web's emscripten glue installs a
   *  process 'unhandledRejection' handler that throws, and may call process.exit, inside the app). */
  workerOnly?: boolean;
  log?: (msg: string) => void;
}

export class SemanticUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SemanticUnavailable';
  }
}

/** Why loading failed, as stats (semantic) and refusals say it. */
function loadFailure(e: unknown): string {
  return e instanceof SemanticUnavailable ? e.message : `the embedding model could not be loaded: ${(e as Error).message}`;
}

export interface SemanticStatus {
  state: 'disabled' | 'loading' | 'indexing' | 'ready' | 'paused' | 'unavailable';
  reason: string | null;
  provider: string | null;
  model: string | null;
  dimensions: number | null;
  embedded: number;
  chunks: number;
  pending: number;
  failed: number;
  /** Chunks per second over the last indexing run. */
  rate: number | null;
  paused: boolean;
  /** Set when a saved index was dropped (fingerprint mismatch or damage) and is being rebuilt. */
  rebuilding: string | null;
  index_bytes: number | null;
}

export type ProgressListener = (s: SemanticStatus) => void;

export class SemanticService {
  private model: { key: string; promise: Promise<Embedder>; failedAt?: number } | null = null;
  private embedder: Embedder | null = null;
  private store: VectorStore | null = null;
  private storePromise: Promise<VectorStore> | null = null;
  private reconciled = false;
  readonly pending = new ShardedSet(); // a vault-wide move adds 200k paths: a Set rehashed them at once
  private running: Promise<void> | null = null;
  private paused = false;
  private stopped = false;
  private savedGeneration = -1;
  private lastSave = 0;
  private readonly debounce = new Debounce(() => { this.drain().catch(() => undefined); }, true);
  private rate: number | null = null;
  private rebuilding: string | null = null;
  private lastError: string | null = null;
  private lock: Promise<unknown> = Promise.resolve();
  private listeners = new Set<ProgressListener>();
  private unsubscribe: (() => void) | null = null;
  private indexBytes: number | null = null;
  private workerProblem: string | null = null;
  private scheduleQueued = false;

  constructor(private readonly deps: SemanticDeps) {}

  settings(): SemanticSettings {
    return semanticSettings(this.deps.settings());
  }

  backend(): Backend {
    const b = this.settings().embeddingBackend;
    return b === 'auto' ? (this.deps.host.kind === 'obsidian' ? 'wasm' : 'node') : b;
  }

  /** Subscribes to vault events and, when auto-indexing, starts the queue after the first scan. */
  start(): void {
    this.unsubscribe = this.deps.host.subscribe((e) => {
      if (e.type === 'metadata' || e.type === 'resolved') return;
      // Nothing is queued until the index is loaded and reconciled (semantic search off, or its model
      // still loading): that reconcile finds every change. A 100k-note move queued 200k paths for nothing.
      if (this.reconciled) queueChange(e, this.store, this.pending, !!this.running, this.skipper());
      // One schedule() per task of events, not per event (a 100k-note folder move is 100k events).
      if (!this.scheduleQueued) { this.scheduleQueued = true; queueMicrotask(() => { this.scheduleQueued = false; this.schedule(); }); }
    });
    void this.deps.host.ready().then(() => this.schedule(0));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.debounce.cancel();
    this.saver.cancel();
    this.unsubscribe?.();
    await this.running?.catch(() => undefined);
    await this.save().catch((e) => this.deps.log?.(`semantic index save failed: ${(e as Error).message}`));
    await this.embedder?.dispose().catch(() => undefined);
  }

  onProgress(l: ProgressListener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  private emit(): void {
    if (!this.listeners.size) return;
    const s = this.status();
    for (const l of this.listeners) l(s);
  }

  pause(): void { this.paused = true; this.emit(); }
  resume(): void { this.paused = false; this.emit(); this.schedule(0); }
  isPaused(): boolean { return this.paused; }

  private schedule(ms = 400): void {
    if (this.stopped || this.paused) return;
    const s = this.settings();
    if (s.embeddingAutoIndex && s.embeddingModel) this.debounce.call(ms);
  }

  private skipper(): (path: string) => boolean {
    return skipperFor(this.settings().embeddingSkipGlobs);
  }

  chunkOptions(e: Embedder): ChunkOptions {
    const s = this.settings();
    const maxTokens = Math.max(32, Math.min(s.embeddingChunkTokens, e.maxTokens));
    return { maxTokens, overlapTokens: Math.max(0, Math.min(s.embeddingChunkOverlap, Math.floor(maxTokens / 2))) };
  }

  fingerprint(e: Embedder): Fingerprint {
    const file = modelFileName(e.folder);
    let size = 0;
    try { size = file ? statSync(join(e.folder, file)).size : 0; } catch { /* fingerprint without size */ }
    return { model: `${e.modelId}#${size}`, dims: e.dims, chunking: chunkingKey(this.chunkOptions(e)) };
  }

  /** Why semantic search cannot answer, without loading anything: null when it may. */
  quickReason(): string | null {
    const s = this.settings();
    if (!s.embeddingModel) return 'no embedding model is configured (download one in the plugin settings, or start the server with --embedding-model PATH)';
    if (this.model?.failedAt && this.lastError) return this.lastError;
    return null;
  }

  /** Loads the model and the index (once); throws SemanticUnavailable with a plain reason. */
  async ready(): Promise<{ embedder: Embedder; store: VectorStore }> {
    const s = this.settings();
    const reason = s.embeddingModel ? null : this.quickReason();
    if (reason) throw new SemanticUnavailable(reason);
    const backend = this.backend();
    const key = `${s.embeddingModel}|${backend}|${s.embeddingChunkTokens}|${s.embeddingChunkOverlap}`;
    const now = this.deps.now();
    if (this.model && this.model.key === key && this.model.failedAt && now - this.model.failedAt > 15_000) this.model = null; // retry a failed load now and then
    if (!this.model || this.model.key !== key) {
      const old = this.embedder;
      this.embedder = null;
      this.store = null;
      this.storePromise = null;
      this.reconciled = false;
      if (old) void old.dispose().catch(() => undefined);
      const modelsDir = join(this.deps.host.cache.dir, 'models');
      const load = this.deps.loadEmbedder ?? defaultLoader;
      const entry: { key: string; promise: Promise<Embedder>; failedAt?: number } = { key, promise: Promise.resolve(null as unknown as Embedder) };
      entry.promise = (async () => {
        const wasmFile = backend === 'wasm' && this.deps.wasmSource ? await ensureOrtWasm(this.deps.host.cache, this.deps.wasmSource) : undefined;
        const o = { model: s.embeddingModel, modelsDir, backend, wasmFile };
        const inWorker = backend === 'wasm' && !this.deps.loadEmbedder && (this.deps.embedWorker || this.deps.workerOnly);
        if (inWorker) {
          if (!this.deps.embedWorker) throw new SemanticUnavailable('semantic search is off: no inference worker is available in this build');
          try {
            const e = await workerEmbedder(o, this.deps.embedWorker);
            this.workerProblem = null;
            return e;
          } catch (err) {
            this.workerProblem = (err as Error).message;
            if (this.deps.workerOnly) {
              this.deps.log?.(`semantic search is off: the inference worker failed (${this.workerProblem})`);
              throw err instanceof ModelUnavailable ? err : new SemanticUnavailable(`semantic search is off: the inference worker could not start (${this.workerProblem}); inference never runs on Obsidian's UI thread, so restart Obsidian or turn semantic search off`);
            }
            this.deps.log?.(`semantic search: the inference worker failed (${this.workerProblem}); running inference on the main thread`);
          }
        }
        return load(o);
      })();
      entry.promise.catch((e) => { entry.failedAt = this.deps.now(); this.lastError = loadFailure(e); this.emit(); });
      this.model = entry;
      this.emit();
    }
    const entry = this.model;
    let embedder: Embedder;
    try {
      embedder = await entry.promise;
    } catch (e) {
      throw new SemanticUnavailable(loadFailure(e));
    }
    if (this.model !== entry) return this.ready();
    this.lastError = null;
    this.embedder = embedder;
    this.storePromise ??= this.loadStore(this.fingerprint(embedder));
    const store = await this.storePromise;
    this.store = store;
    // Stat-only comparison with the manifest: queues what changed while the index was not loaded.
    if (!this.reconciled) this.reconcile(store);
    return { embedder, store };
  }

  private async loadStore(fp: Fingerprint): Promise<VectorStore> {
    await this.removeStaleTemps();
    const bytes = await this.deps.host.cache.read(INDEX_FILE);
    this.indexBytes = bytes?.length ?? null;
    if (!bytes) return new VectorStore(fp);
    let saved: VectorStore;
    try {
      saved = await VectorStore.deserializeSliced(bytes);
    } catch (e) {
      this.rebuilding = `the saved index was unreadable (${(e as Error).message}); rebuilding`;
      this.deps.log?.(this.rebuilding);
      return new VectorStore(fp);
    }
    if (fingerprintKey(saved.fingerprint) !== fingerprintKey(fp)) {
      // Never mix vector spaces: the old vectors are dropped and every note is queued again.
      this.rebuilding = `the saved index was built with ${fingerprintKey(saved.fingerprint)}, the current setup is ${fingerprintKey(fp)}; re-embedding every note`;
      this.deps.log?.(this.rebuilding);
      return new VectorStore(fp);
    }
    this.savedGeneration = saved.generation;
    return saved;
  }

  /** A save killed between temp write and rename leaves `semantic-index.bin.<hex>.tmp` behind (the
   *  index itself is the previous whole file). Before the first load nothing of ours is writing one
   *  (the server lock keeps a second process off this data folder), so every such file is an orphan. */
  private async removeStaleTemps(): Promise<void> {
    const dir = this.deps.host.cache.dir;
    const re = new RegExp(`^${INDEX_FILE.replace(/\./g, '\\.')}\\.[0-9a-f]+\\.tmp$`);
    let names: string[];
    try { names = await fsp.readdir(dir); } catch { return; }
    for (const n of names) {
      if (!re.test(n)) continue;
      await fsp.rm(join(dir, n), { force: true }).then(() => this.deps.log?.(`removed ${n}, left by an interrupted save`), () => undefined);
    }
  }

  /** Queues every indexable note whose manifest entry is missing or out of date; drops vanished ones. */
  private reconcile(store: VectorStore): void {
    const skip = this.skipper();
    const seen = new Set<string>();
    for (const f of this.deps.host.files()) {
      if (!isNotePath(f.path) || skip(f.path)) continue;
      seen.add(f.path);
      const e = store.notes.get(f.path);
      const failed = store.failed.get(f.path);
      if (e && e.mtime === f.mtime && e.size === f.size) continue;
      if (!e && failed && failed.mtime === f.mtime && failed.size === f.size) continue;
      this.pending.add(f.path);
    }
    for (const p of [...store.notes.keys(), ...store.failed.keys()]) if (!seen.has(p)) this.pending.add(p);
    this.reconciled = true;
  }

  private withLock<T>(fn: () => Promise<T>): Promise<T> {
    const p = this.lock.then(fn, fn);
    this.lock = p.catch(() => undefined);
    return p;
  }

  /** Runs the queue until it is empty, paused or stopped; concurrent callers join the same run. */
  drain(): Promise<void> {
    if (this.running) return this.running;
    this.running = (async () => {
      const { embedder, store } = await this.ready();
      if (!this.reconciled) this.reconcile(store);
      const s = this.settings();
      const batchNotes = Math.max(1, s.embeddingBatchSize * 2);
      let chunks = 0;
      const t0 = this.deps.now();
      this.emit();
      while (this.pending.size && !this.paused && !this.stopped && this.store === store) {
        const take = this.pending.first(batchNotes); // not a copy of the whole queue per batch
        for (const p of take) this.pending.delete(p);
        chunks += await this.withLock(() => this.embedNotes(take, embedder, store));
        const dt = (this.deps.now() - t0) / 1000;
        if (dt > 0.5 && chunks) this.rate = Math.round((chunks / dt) * 10) / 10;
        if (this.deps.now() - this.lastSave > s.embeddingSaveIntervalS * 1000) await this.saver.run();
        this.emit();
        await nextTurn();
      }
      if (!this.pending.size) this.rebuilding = null;
      await this.saver.run();
      this.emit();
    })().finally(() => { this.running = null; });
    return this.running;
  }

  /** Embeds (or removes) the given paths; returns how many chunks were embedded. */
  private async embedNotes(paths: string[], embedder: Embedder, store: VectorStore, force = false): Promise<number> {
    const host = this.deps.host;
    const skip = this.skipper();
    const opts = { ...this.chunkOptions(embedder), countTokens: undefined };
    const jobs: { path: string; hash: string; mtime: number; size: number; chunks: ReturnType<typeof chunkNote> }[] = [];
    for (const path of paths) {
      const stat = host.stat(path);
      if (!stat || !isNotePath(path) || skip(path)) { store.remove(path); continue; }
      const entry = store.notes.get(path);
      if (!force && entry && entry.mtime === stat.mtime && entry.size === stat.size) continue;
      let bytes: Uint8Array;
      try {
        bytes = await host.readBytes(path);
      } catch (e) {
        if (!host.stat(path)) { store.remove(path); continue; }
        store.markFailed(path, '', `could not read the note: ${(e as Error).message}`, stat.mtime, stat.size);
        continue;
      }
      const hash = contentHash(bytes);
      if (!force && entry && entry.hash === hash) { entry.mtime = stat.mtime; entry.size = stat.size; store.generation++; continue; }
      const failed = store.failed.get(path);
      if (!force && !entry && failed && failed.hash === hash) continue;
      const snap = snapshotFromBytes(stat, bytes);
      jobs.push({ path, hash, mtime: stat.mtime, size: stat.size, chunks: chunkNote(noteTitle(path), snap.text, snap.split.bodyStart, snap.outline, opts) });
    }
    if (!jobs.length) return 0;
    const texts = jobs.flatMap((j) => j.chunks.map((c) => c.text));
    const dims = embedder.dims;
    const vectors = new Float32Array(texts.length * dims);
    // Similar lengths together: less padding per batch.
    const order = texts.map((_, i) => i).sort((a, b) => texts[a].length - texts[b].length);
    const batch = Math.max(1, this.settings().embeddingBatchSize);
    const bad = new Set<number>();
    for (let i = 0; i < order.length; i += batch) {
      const idx = order.slice(i, i + batch);
      try {
        const out = await embedder.embed(idx.map((k) => texts[k]));
        idx.forEach((k, r) => vectors.set(out.subarray(r * dims, (r + 1) * dims), k * dims));
      } catch {
        for (const k of idx) {
          try { vectors.set(await embedder.embed([texts[k]]), k * dims); } catch { bad.add(k); }
        }
      }
      if (order.length > batch) await nextTurn();
    }
    let row = 0;
    let n = 0;
    for (const j of jobs) {
      const rows = j.chunks.length;
      const failedHere = [...Array(rows).keys()].some((r) => bad.has(row + r));
      if (failedHere) store.markFailed(j.path, j.hash, 'the model failed on this note', j.mtime, j.size);
      else {
        store.upsert({ path: j.path, hash: j.hash, mtime: j.mtime, size: j.size, chunks: j.chunks.map((c) => ({ ordinal: c.ordinal, heading: c.heading, start: c.start, end: c.end })) }, vectors.subarray(row * dims, (row + rows) * dims));
        n += rows;
      }
      row += rows;
    }
    return n;
  }

  private readonly saver = new Retrier(() => this.save()); // a refused save (full disk) never stops embedding: retried later

  async save(): Promise<void> {
    const store = this.store;
    if (!store || store.generation === this.savedGeneration) return;
    const gen = store.generation;
    const bytes = await store.serializeSliced();
    await this.deps.host.cache.write(INDEX_FILE, bytes);
    this.indexBytes = bytes.length;
    this.savedGeneration = gen;
    this.lastSave = this.deps.now();
  }

  /** build_embeddings: queue everything (force: drop the index first) and run until `deadlineMs`. */
  async build(force: boolean, deadlineMs: number): Promise<{ done: boolean }> {
    const { embedder } = await this.ready();
    if (force) {
      await this.running?.catch(() => undefined);
      this.store = new VectorStore(this.fingerprint(embedder));
      this.storePromise = Promise.resolve(this.store);
      this.savedGeneration = -1;
      this.reconciled = false;
    }
    const wasPaused = this.paused;
    this.paused = false;
    const run = this.drain();
    run.catch(() => undefined);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const done = await Promise.race([run.then(() => true), new Promise<boolean>((r) => { timer = setTimeout(() => r(false), Math.min(deadlineMs, 2 ** 31 - 1)); })]);
    clearTimeout(timer);
    if (wasPaused && done) this.paused = true;
    return { done: done && this.pending.size === 0 };
  }

  async embedQuery(query: string): Promise<Float32Array> {
    const { embedder } = await this.ready();
    const text = this.settings().embeddingQueryPrefix + query;
    return this.withLock(() => embedder.embed([text]));
  }

  /** Top notes for a query among paths `accept` allows. */
  async search(query: string, k: number, accept: (p: string) => boolean): Promise<{ hits: NoteHit[]; store: VectorStore }> {
    const { store } = await this.ready();
    const q = await this.embedQuery(query);
    return { hits: store.searchNotes(q, k, accept), store };
  }

  /** Notes near `path`'s averaged chunk vectors, itself excluded; embeds the note first if needed. */
  async related(path: string, k: number, accept: (p: string) => boolean): Promise<{ hits: NoteHit[]; store: VectorStore } | null> {
    const { embedder, store } = await this.ready();
    if (!store.notes.has(path)) {
      this.pending.delete(path);
      await this.withLock(() => this.embedNotes([path], embedder, store));
    }
    const rows = store.noteVectors(path);
    if (!rows) return null;
    const d = store.dims;
    const avg = new Float32Array(d);
    for (let off = 0; off < rows.length; off += d) for (let i = 0; i < d; i++) avg[i] += rows[off + i];
    let norm = 0;
    for (let i = 0; i < d; i++) norm += avg[i] * avg[i];
    norm = Math.sqrt(norm) || 1;
    for (let i = 0; i < d; i++) avg[i] /= norm;
    return { hits: store.searchNotes(avg, k, (p) => p !== path && accept(p)), store };
  }

  /** Queued paths a caller may see (for "not yet embedded" notes in answers). */
  pendingVisible(accept: (p: string) => boolean): string[] {
    const out: string[] = [];
    for (const p of this.pending) if (accept(p)) out.push(p);
    return out;
  }

  /** Cheap, synchronous: counts only (for /health, the status bar and stats). */
  status(): SemanticStatus {
    const s = this.settings();
    const store = this.store;
    const configured = !!s.embeddingModel;
    let state: SemanticStatus['state'];
    let reason: string | null = null;
    if (!configured) { state = 'disabled'; reason = this.quickReason(); }
    else if (this.lastError) { state = 'unavailable'; reason = this.lastError; }
    else if (!store) state = 'loading';
    else if (this.paused && this.pending.size) state = 'paused';
    else if (this.running || this.pending.size) state = 'indexing';
    else state = 'ready';
    const notesNow = store ? null : this.deps.host.noteCount?.() ?? this.deps.host.files().filter((f) => isNotePath(f.path)).length;
    return {
      state,
      reason,
      provider: configured ? `transformers.js + onnxruntime-${this.backend() === 'wasm' ? `web (WASM, 1 thread${this.embedder?.inWorker ? ', in a worker' : this.workerProblem ? (this.deps.workerOnly ? `, off: worker failed: ${this.workerProblem}` : `, on the main thread: worker failed: ${this.workerProblem}`) : ''})` : 'node'}` : null,
      model: configured ? s.embeddingModel : null,
      dimensions: this.embedder?.dims ?? null,
      embedded: store?.notes.size ?? 0,
      chunks: store?.chunkCount ?? 0,
      pending: store ? this.pending.size : (notesNow ?? 0),
      failed: store?.failed.size ?? 0,
      rate: this.rate,
      paused: this.paused,
      rebuilding: this.rebuilding,
      index_bytes: this.indexBytes,
    };
  }

  /** The model folder a setting value names (for the settings tab). */
  modelFolder(model = this.settings().embeddingModel): string {
    return resolveModelFolder(model, join(this.deps.host.cache.dir, 'models'));
  }
}
