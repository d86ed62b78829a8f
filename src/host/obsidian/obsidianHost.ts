// The in-app host: app.vault for bytes, app.metadataCache for metadata and links. Only type imports
// from 'obsidian' here; runtime classes (TFile, TFolder) are passed in by main.ts, so the core never
// loads the app's module and this file can be tested against a fake.
import { readFileSync } from 'node:fs';
import type { App, EventRef, PluginManifest, TAbstractFile, TFile, TFolder } from 'obsidian';
import type { DataStore, FileStat, LinkRowMaps, VaultEvent, VaultHost } from '../port.js';
import type { NoteMetadata } from '../../core/markdown/metadata.js';
import { isNotePath } from '../../core/paths.js';
import { FsDataStore } from '../fsDataStore.js';
import { ObsidianWriter } from './obsidianWriter.js';
import { NON_ASCII, appNormalizePath, hidden, nfc, pluginDataDir, vaultBasePath } from './paths.js';
import { RealPathGate } from './realPaths.js';
import { EventSlices, SLICE_MS } from './eventSlices.js';
import { RawEvents, type RawEvent } from './rawEvents.js';
import { Slicer } from '../../services/slicer.js';
import { nextTurn } from '../../core/turns.js';
import { walkFiles } from './walkFiles.js';
import { FileList, statOf, type StatOp } from './fileList.js';
import { LinkViews } from './linkMaps.js';

export { pluginDataDir, vaultBasePath };

type Ctor<T> = abstract new (...args: never[]) => T;

export interface ObsidianHostOptions {
  app: App;
  manifest: Pick<PluginManifest, 'id' | 'dir'>;
  /** The plugin's registerEvent, so every listener dies with the plugin. */
  register: (ref: EventRef) => void;
  classes: { TFile: Ctor<TFile>; TFolder: Ctor<TFolder> };
  /** Where rebuildable caches go (main.ts: outside the vault unless kept inside); default the plugin folder. */
  cacheDir?: string;
  /** How long ready() waits for the app to cache every note before it proceeds (the rest count as stale). */
  readyBoundMs?: number;
  /** The app's normalizePath (main.ts passes obsidian's): where the app puts what it creates. */
  normalizePath?: (path: string) => string;
  now?: () => number;
  /** Absolute outside folders a symlink may lead into (setting symlinkAllowedFolders); default none. */
  allowedOutside?: () => readonly string[];
  /** Monotonic milliseconds for slicing event delivery (default performance.now; tests pass a fast clock). */
  clock?: () => number;
}

/** A note changed longer ago than this with a cache present counts as done even without an event
 *  (Obsidian does not re-parse, and so fires nothing, when the content hash is unchanged). */
const PENDING_GRACE_MS = 5000;

/** How long a call waits for the app's watcher to list (or drop) a path another program changed on disk. */
const SYNC_WAIT_MS = 2000;

/** ready() proceeds after this long even if the app never caches some note (they are reported stale). */
const READY_BOUND_MS = 20_000;

/** Files up to this size are read synchronously (see readText). */
const SYNC_READ_MAX = 256 * 1024;

/** How long a tool call waits for recorded events to be handled in slices (caughtUp) before going on. */
const CATCH_UP_MS = 10_000;

export class ObsidianHost implements VaultHost {
  readonly kind = 'obsidian' as const;
  readonly name: string;
  readonly basePath: string;
  readonly configDir: string;
  readonly data: DataStore;
  readonly cache: DataStore;
  readonly writer: ObsidianWriter;
  /** The symlink rule: the app follows links, so paths it lists are checked against their real location. */
  private readonly gate: RealPathGate;
  private readonly app: App;
  private readonly TFile: Ctor<TFile>;
  private readonly TFolder: Ctor<TFolder>;
  private readonly isTFile = (f: TAbstractFile): f is TFile => f instanceof this.TFile;
  private readonly now: () => number;
  private readonly clock: () => number;
  private readonly listeners = new Set<(e: VaultEvent) => void>();
  /** Notes created/modified whose 'changed' has not arrived yet (NFC path → since). */
  private readonly pending = new Map<string, number>();
  /** Notes re-parsed whose links are not resolved yet (until the next 'resolved'). */
  private readonly unresolvedChange = new Map<string, number>();
  private initialDone = false;
  /** The app's link maps as this host shows them (their plain-object copy is dropped by every event). */
  private readonly links: LinkViews;
  private byNfc: Map<string, TAbstractFile> | null = null;
  /** Every visible file's stat, kept from vault events (fileList.ts). */
  private readonly fileList: FileList;
  private readyPromise: Promise<void> | null = null;
  private readyCheck: (() => void) | null = null;
  private closed = false;
  private readonly readyBoundMs: number;
  private readonly norm: (path: string) => string;
  /** ready() gave up waiting with notes still uncached: pendingCount() keeps counting them. */
  private staleAfterBound = false;

  constructor(opts: ObsidianHostOptions) {
    this.app = opts.app;
    this.TFile = opts.classes.TFile;
    this.TFolder = opts.classes.TFolder;
    this.now = opts.now ?? Date.now;
    this.clock = opts.clock ?? (() => performance.now());
    this.fileList = new FileList(() => this.walk(), this.isTFile, this.clock);
    this.slices = new EventSlices({ clock: this.clock, deliver: (e) => this.deliver(e), apply: (op, deadline) => this.fileList.apply(op, deadline), opsDone: (deadline) => this.fileList.flushHeld(deadline), upstream: () => this.raw.size });
    this.raw = new RawEvents({ clock: this.clock, sliceMs: SLICE_MS, handle: (e) => this.handleRaw(e), emptied: () => this.slices.wake() });
    const v = opts.app.vault;
    const mc = opts.app.metadataCache;
    this.name = v.getName();
    this.basePath = vaultBasePath(opts.app);
    this.configDir = v.configDir;
    this.data = new FsDataStore(pluginDataDir(opts.app, opts.manifest));
    this.cache = opts.cacheDir && opts.cacheDir !== this.data.dir ? new FsDataStore(opts.cacheDir) : this.data;
    this.readyBoundMs = opts.readyBoundMs ?? READY_BOUND_MS;
    this.norm = opts.normalizePath ?? appNormalizePath;
    this.writer = new ObsidianWriter({ app: opts.app, basePath: this.basePath, classes: opts.classes, normalizePath: this.norm });
    this.gate = new RealPathGate(this.basePath, { allowedOutside: opts.allowedOutside, forbidden: () => [this.data.dir, this.cache.dir] });
    this.links = new LinkViews({
      resolved: () => this.app.metadataCache.resolvedLinks,
      unresolved: () => this.app.metadataCache.unresolvedLinks,
      sources: () => this.linkSources(),
      spelling: (p) => this.lookup(p)?.path ?? null,
    }, this.gate);
    const r = opts.register;
    r(v.on('create', (f) => this.onVault('create', f)));
    r(v.on('modify', (f) => this.onVault('modify', f)));
    r(v.on('delete', (f) => this.onVault('delete', f)));
    r(v.on('rename', (f, oldPath) => this.onVault('rename', f, oldPath)));
    r(mc.on('changed', (f) => this.onChanged(f)));
    r(mc.on('resolve', () => this.dropLinks()));
    r(mc.on('resolved', () => this.onResolved()));
  }

  // ---- events ----

  /** What follows from each vault event, at once or in timer slices (see eventSlices.ts). Queued events
   *  count in pendingCount(); files() applies queued updates of the kept list before it answers. */
  private readonly slices: EventSlices<VaultEvent, StatOp>;
  /** Events recorded once the app's task has spent its event slice, handled later in order (rawEvents.ts). */
  private readonly raw: RawEvents;

  private emit(e: VaultEvent): void {
    if (!this.closed) this.slices.event(e);
  }

  private deliver(e: VaultEvent): void {
    for (const l of this.listeners) {
      try { l(e); } catch { /* one listener's failure must not stop the others */ }
    }
  }

  private onVault(type: 'create' | 'modify' | 'delete' | 'rename', f: TAbstractFile, oldPath?: string): void {
    this.dropLinks();
    if (type !== 'modify') this.byNfc = null;
    // A path created or moved in is judged by the symlink rule at once (RealPathGate.observe).
    if ((type === 'create' || type === 'rename') && !hidden(f.path)) void this.gate.observe(f.path, type === 'rename' ? oldPath : undefined);
    // Asked first: within() may begin the count of a new app task, whose number the record carries.
    if (this.raw.size > 0 || !this.slices.within()) this.raw.record(type, f, f.path, oldPath, this.slices.task);
    else this.vaultEvent({ kind: type, file: f, path: f.path, oldPath, task: this.slices.task }, true);
  }

  /** One vault event's bookkeeping, with the file's path as the app reported it. */
  private vaultEvent(op: StatOp, atOnce: boolean): void {
    const { kind: type, file: f, path: fpath, oldPath } = op;
    this.trackStat(op, atOnce);
    if (!(f instanceof this.TFile) || hidden(fpath)) return;
    const path = nfc(fpath);
    if (type === 'delete') {
      this.pending.delete(path);
      this.unresolvedChange.delete(path);
      this.emit({ type: 'delete', path });
      return;
    }
    if (type === 'rename') {
      const from = nfc(oldPath ?? '');
      this.pending.delete(from);
      this.unresolvedChange.delete(from);
      // The app moves the cache with the file and does not re-parse it (no 'changed' follows), so a
      // renamed note is pending only if it has no cache yet (e.g. a .txt renamed to .md).
      if (isNotePath(path) && !this.app.metadataCache.getFileCache(f)) this.pending.set(path, this.now());
      this.emit({ type: 'rename', path, oldPath: from });
      return;
    }
    if (isNotePath(path)) this.pending.set(path, this.now());
    this.emit({ type, path });
  }

  private handleRaw(e: RawEvent): void {
    if (e.kind === 'changed') this.changed(e.path);
    else if (e.kind === 'resolved') this.resolved();
    else this.vaultEvent(e as StatOp, false); // a vault event's record: kind create/modify/delete/rename, with its file
  }

  /** The kept file list's paths when they name the app's link sources exactly (linkMaps.ts): built,
   *  caught up with every event the app sent, and every path spelled as the app spells it. */
  private linkSources(): Iterable<string> | null {
    const fl = this.fileList;
    return fl.kept && !fl.rawDiffers && this.raw.size === 0 && !this.slices.hasOps() ? fl.paths() : null;
  }

  private dropLinks(): void {
    this.links.drop();
  }

  private onChanged(f: TFile): void {
    this.dropLinks();
    // Behind events still recorded, to keep the app's order.
    if (this.raw.size > 0) this.raw.record('changed', f, f.path, undefined, this.slices.task);
    else this.changed(f.path);
  }

  private changed(fpath: string): void {
    const path = nfc(fpath);
    this.pending.delete(path);
    this.unresolvedChange.set(path, this.now());
    this.emit({ type: 'metadata', path });
  }

  private onResolved(): void {
    this.dropLinks();
    if (this.raw.size > 0) this.raw.record('resolved', null, '', undefined, this.slices.task);
    else this.resolved();
  }

  private resolved(): void {
    this.unresolvedChange.clear();
    this.emit({ type: 'resolved' });
    this.readyCheck?.();
  }

  subscribe(listener: (e: VaultEvent) => void): () => void {
    this.listeners.add(listener);
    return () => { this.listeners.delete(listener); };
  }

  // ---- readiness ----

  /** Notes the app had not cached at the last count: after a first pass over the vault only these are
   *  looked at again (a pass over 100k notes at every 'resolved' was a 100-300 ms block). */
  private uncached: Set<TFile> | null = null;
  /** What the first pass has found so far (until it is done). */
  private uncachedSoFar: Set<TFile> | null = null;
  /** Notes the first pass has still to look at (counted as pending meanwhile). */
  private passLeft = 0;

  /** The vault's files from the app's folder tree, one at a time (walkFiles.ts). */
  private walk(): Generator<TFile, void, void> {
    return walkFiles(this.app.vault.getRoot(), this.isTFile, (f): f is TFolder => f instanceof this.TFolder);
  }

  /** The first pass, yielding after each file (cachesReady runs it in slices): the notes first, then
   *  whether the app has cached each (passLeft counts those not looked at yet). */
  private *countUncached(): Generator<void, void, void> {
    const mc = this.app.metadataCache;
    const found = new Set<TFile>();
    this.uncachedSoFar = found;
    const all: TFile[] = [];
    for (const f of this.walk()) {
      if (f.extension === 'md') { all.push(f); this.passLeft++; }
      yield;
    }
    for (const f of all) {
      if (!hidden(f.path) && !mc.getFileCache(f)) found.add(f);
      this.passLeft--;
      yield;
    }
    this.uncached ??= found;
  }

  private missingCaches(): number {
    // Before ready()'s sliced first pass is done, not a pass of our own (a status update at start ran
    // one over 100k notes: 65 ms): what it found so far plus what it has still to look at, at least one.
    if (!this.uncached) return Math.max(1, (this.uncachedSoFar?.size ?? 0) + this.passLeft);
    const mc = this.app.metadataCache;
    const v = this.app.vault;
    for (const f of this.uncached ?? []) if (mc.getFileCache(f) || v.getAbstractFileByPath(f.path) !== f || hidden(f.path)) this.uncached?.delete(f);
    return this.uncached?.size ?? 0;
  }

  ready(): Promise<void> {
    this.readyPromise ??= Promise.all([this.cachesReady(), this.gate.survey(), this.fileList.build()]).then(() => undefined);
    return this.readyPromise;
  }

  linksJudged(): Promise<void> {
    return this.gate.survey();
  }

  async caughtUp(): Promise<void> {
    // Timer turns let the recorded events' own slices run; past the bound, files() handles the rest.
    const until = this.clock() + CATCH_UP_MS;
    while (!this.closed && (this.raw.size > 0 || this.slices.hasOps()) && this.clock() < until) await nextTurn();
  }

  private async cachesReady(): Promise<void> {
    // A turn first: the pass must not share a task with whatever asked for ready().
    await nextTurn();
    const slicer = new Slicer(this.clock);
    for (const pass = this.countUncached(); !pass.next().done;) if (slicer.due()) await slicer.pause();
    return new Promise<void>((resolve) => {
      let timer: number | null = null;
      let done = false;
      const started = this.now();
      const check = () => {
        if (done) return;
        // Bounded: a note the app never caches must not keep every index loading forever; past the
        // bound the still-uncached notes stay counted in pendingCount(), so answers say they are stale.
        if (!this.closed && this.missingCaches() > 0 && this.now() - started < this.readyBoundMs) return;
        done = true;
        this.initialDone = true;
        this.staleAfterBound = !this.closed && this.missingCaches() > 0;
        this.readyCheck = null;
        if (timer !== null) window.clearInterval(timer);
        resolve();
      };
      this.readyCheck = check;
      check();
      // 'resolved' is the signal; the poll covers a cache that fills without one, and the bound.
      if (!done) timer = window.setInterval(check, Math.min(500, this.readyBoundMs));
    });
  }

  private prune(map: Map<string, number>): void {
    const limit = this.now() - PENDING_GRACE_MS;
    for (const [path, since] of map) {
      if (since > limit) continue;
      const f = this.lookup(path);
      if (!(f instanceof this.TFile) || this.app.metadataCache.getFileCache(f)) map.delete(path);
    }
  }

  pendingCount(): number {
    this.prune(this.pending);
    this.prune(this.unresolvedChange);
    const changed = new Set([...this.pending.keys(), ...this.unresolvedChange.keys()]);
    // Events still queued for the indexes (a folder rename delivered in slices): not fresh yet.
    const queued = this.slices.undelivered() + this.raw.size;
    if (!this.initialDone || this.staleAfterBound) {
      const missing = this.missingCaches();
      if (missing === 0) { this.initialDone = true; this.staleAfterBound = false; }
      return Math.max(missing, changed.size) + queued;
    }
    return changed.size + queued;
  }

  // ---- files ----

  /** The app's file for a vault path, whatever Unicode spelling the disk (and so the app) uses. */
  private lookup(path: string): TAbstractFile | null {
    const v = this.app.vault;
    const key = nfc(path);
    const hit = v.getAbstractFileByPath(key);
    if (hit) return hit;
    if (!NON_ASCII.test(key)) return null;
    const nfd = key.normalize('NFD');
    const alt = v.getAbstractFileByPath(nfd);
    if (alt) return alt;
    // A path as given for a file the app created under its normalizePath (no-break spaces as spaces).
    const normalized = this.norm(key);
    if (normalized !== key) { const n = v.getAbstractFileByPath(normalized); if (n) return n; }
    if (!this.byNfc) {
      // Mixed spellings (one folder NFC, the file NFD): one map, rebuilt after creates/deletes/renames.
      this.byNfc = new Map();
      for (const f of v.getAllLoadedFiles()) if (NON_ASCII.test(f.path)) this.byNfc.set(f.path.normalize('NFC'), f);
    }
    return this.byNfc.get(key) ?? null;
  }

  private file(path: string): TFile {
    const f = this.lookup(path);
    if (f instanceof this.TFile) return f;
    throw Object.assign(new Error(`ENOENT: no file "${path}" in the vault`), { code: 'ENOENT' });
  }

  /** Keeps the file list in step with one vault event: at once within the task's slice, else queued.
   *  A folder moved or deleted always waits for a slice, and with it every event after it. */
  private trackStat(op: StatOp, atOnce: boolean): void {
    if (!this.fileList.kept) { this.fileList.early(op); return; }
    const now = atOnce && this.slices.within() && (op.file instanceof this.TFile || op.kind === 'create' || op.kind === 'modify');
    this.slices.op(op, now);
  }

  files(): FileStat[] {
    if (this.raw.size > 0) this.raw.drain();
    if (this.slices.hasOps()) this.slices.applyOps();
    const all = this.fileList.all();
    // A copy: callers sort and filter what they get.
    return this.gate.refusing ? all.filter((f) => this.gate.visible(f.path)) : all.slice();
  }

  /** A status count: while a burst's list updates wait for their slices it lags by them, and while the
   *  list is first built it grows with the build (applying or building 100k entries for a status poll
   *  was a 200-270 ms block); files() is always current. */
  noteCount(): number {
    return this.fileList.noteCount();
  }

  folders(): string[] {
    return this.app.vault.getAllFolders(false).filter((f) => !hidden(f.path)).map((f) => nfc(f.path)).filter((p) => this.gate.visible(p));
  }

  stat(path: string): FileStat | null {
    const f = this.lookup(path);
    return f instanceof this.TFile && !hidden(f.path) && this.gate.visible(nfc(f.path)) ? statOf(f) : null;
  }

  isFile(path: string): boolean {
    const f = this.lookup(path);
    return f instanceof this.TFile && !hidden(f.path) && this.gate.visible(nfc(f.path));
  }

  isFolder(path: string): boolean {
    return path === '' || (this.lookup(path) instanceof this.TFolder && this.gate.visible(path.normalize('NFC')));
  }

  /**
   * Before a tool answers about `path` (freshness middleware): when the disk and the app's view
   * disagree on whether it exists (another program saved or removed it a moment ago), waits, bounded,
   * for the app's watcher to catch up, so the next call after an outside save finds the note.
   * Contents are always read from disk, so an entry the app knows is never answered stale.
   */
  async sync(path: string): Promise<void> {
    const rel = path.normalize('NFC');
    const known = () => !!this.lookup(rel);
    const onDisk = await this.app.vault.adapter.exists(this.lookup(rel)?.path ?? rel).catch(() => known());
    const until = this.now() + SYNC_WAIT_MS;
    while (known() !== onDisk && this.now() < until && !this.closed) await new Promise((r) => window.setTimeout(r, 25));
    await this.gate.settle(rel); // a path the app just listed is shown once the symlink rule has judged it
  }

  /** See VaultHost.realPathOf: a file link's real vault path, null inside an allow-listed outside folder. */
  realPathOf(path: string): string | null | undefined {
    return this.gate.realPathOf(path.normalize('NFC'));
  }

  // Reads go to disk, never the app's cachedRead: the cached copy can lag behind a change made outside
  // the app (sync, git, the CLI) until the watcher reports it, and the hash we return must describe the
  // bytes an expected_hash check will later compare against. A file up to SYNC_READ_MAX is read here,
  // synchronously, from the real path just checked (a link swapped in between cannot redirect it): the
  // app's vault.read is four thread-pool round trips, and at 100k notes their dispatch held the app's
  // thread 100-270 ms per batch of index reads; larger files go through vault.read / readBinary.
  async readText(path: string): Promise<string> {
    const { file, real } = await this.readable(path);
    return file.stat.size <= SYNC_READ_MAX ? readFileSync(real, 'utf8') : this.app.vault.read(file);
  }

  async readBytes(path: string): Promise<Uint8Array> {
    const { file, real } = await this.readable(path);
    if (file.stat.size > SYNC_READ_MAX) return new Uint8Array(await this.app.vault.readBinary(file));
    const b = readFileSync(real);
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  }

  /** The file for a read and its real location on disk, checked right before reading (the app would follow any link). */
  private async readable(path: string): Promise<{ file: TFile; real: string }> {
    const f = this.file(path);
    if (!this.gate.visible(nfc(f.path))) throw Object.assign(new Error(`ENOENT: no file "${path}" in the vault`), { code: 'ENOENT' });
    return { file: f, real: await this.gate.realForRead(nfc(f.path), f.path) };
  }

  // ---- metadata ----

  metadata(path: string): NoteMetadata | null {
    const f = this.lookup(path);
    if (!(f instanceof this.TFile) || !isNotePath(f.path) || !this.gate.visible(nfc(f.path))) return null;
    // CachedMetadata is structurally a superset of NoteMetadata (core/markdown/metadata.ts).
    const cache: NoteMetadata | null = this.app.metadataCache.getFileCache(f);
    return cache;
  }

  resolveLink(linkpath: string, sourcePath: string): string | null {
    const mc = this.app.metadataCache;
    const source = this.lookup(sourcePath)?.path ?? sourcePath;
    const nfc = linkpath.normalize('NFC');
    const dest = mc.getFirstLinkpathDest(linkpath, source)
      ?? (nfc !== linkpath ? mc.getFirstLinkpathDest(nfc, source) : null)
      ?? (NON_ASCII.test(nfc) ? mc.getFirstLinkpathDest(nfc.normalize('NFD'), source) : null);
    const out = dest ? dest.path.normalize('NFC') : null;
    return out !== null && this.gate.visible(out) ? out : null;
  }

  linkRows(): LinkRowMaps {
    return this.links.rows;
  }

  resolvedLinks(): Record<string, Record<string, number>> {
    return this.links.asRecords().resolved;
  }

  unresolvedLinks(): Record<string, Record<string, number>> {
    return this.links.asRecords().unresolved;
  }

  async close(): Promise<void> {
    // The app's listeners are removed by the plugin's unload; from here on they do nothing.
    this.closed = true;
    this.readyCheck?.();
    this.listeners.clear();
    this.raw.close();
    this.slices.close();
  }
}
