// The in-app host: app.vault for bytes, app.metadataCache for metadata and links. Only type imports
// from 'obsidian' here; runtime classes (TFile, TFolder) are passed in by main.ts, so the core never
// loads the app's module and this file can be tested against a fake.
import type { App, EventRef, PluginManifest, TAbstractFile, TFile, TFolder } from 'obsidian';
import type { DataStore, FileStat, VaultEvent, VaultHost } from '../port.js';
import type { NoteMetadata } from '../../core/markdown/metadata.js';
import { isNotePath } from '../../core/paths.js';
import { FsDataStore } from '../fsDataStore.js';
import { ObsidianWriter } from './obsidianWriter.js';
import { appNormalizePath, pluginDataDir, vaultBasePath } from './paths.js';
import { RealPathGate } from './realPaths.js';
import { EventSlices } from './eventSlices.js';

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

/** One vault event's change to the kept file list, with the paths as they were when it happened. */
interface StatOp { type: 'create' | 'modify' | 'delete' | 'rename'; file: TAbstractFile; path: string; oldPath: string; task: number }

const NON_ASCII = /[\u0080-\uffff]/;
/** A path with a component starting with '.' (.obsidian, .trash, .git…): never shown. */
const hidden = (p: string) => p.charCodeAt(0) === 46 || p.includes('/.');
const nfc = (p: string) => (NON_ASCII.test(p) ? p.normalize('NFC') : p);

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
  private readonly now: () => number;
  private readonly clock: () => number;
  private readonly listeners = new Set<(e: VaultEvent) => void>();
  /** Notes created/modified whose 'changed' has not arrived yet (NFC path → since). */
  private readonly pending = new Map<string, number>();
  /** Notes re-parsed whose links are not resolved yet (until the next 'resolved'). */
  private readonly unresolvedChange = new Map<string, number>();
  private initialDone = false;
  private links: { resolved: Record<string, Record<string, number>>; unresolved: Record<string, Record<string, number>> } | null = null;
  private byNfc: Map<string, TAbstractFile> | null = null;
  /** Every visible file's stat by NFC path, kept from vault events: files() serves every status poll and
   *  index, and walking the vault for it costs milliseconds per call at 100k files. null = rebuild. */
  private fileStats: Map<string, FileStat> | null = null;
  private fileList: FileStat[] | null = null;
  /** Notes among fileStats, kept with it. */
  private notes = 0;
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
    this.slices = new EventSlices({ clock: this.clock, deliver: (e) => this.deliver(e), apply: (op) => this.applyStat(op), opsDone: () => this.flushHeld() });
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
    const r = opts.register;
    r(v.on('create', (f) => this.onVault('create', f)));
    r(v.on('modify', (f) => this.onVault('modify', f)));
    r(v.on('delete', (f) => this.onVault('delete', f)));
    r(v.on('rename', (f, oldPath) => this.onVault('rename', f, oldPath)));
    r(mc.on('changed', (f) => this.onChanged(f)));
    r(mc.on('resolve', () => { this.links = null; }));
    r(mc.on('resolved', () => this.onResolved()));
  }

  // ---- events ----

  /** What follows from each vault event, at once or in timer slices (see eventSlices.ts). Queued events
   *  count in pendingCount(); files() applies queued updates of the kept list before it answers. */
  private readonly slices: EventSlices<VaultEvent, StatOp>;

  private emit(e: VaultEvent): void {
    if (!this.closed) this.slices.event(e);
  }

  private deliver(e: VaultEvent): void {
    for (const l of this.listeners) {
      try { l(e); } catch { /* one listener's failure must not stop the others */ }
    }
  }

  private onVault(type: 'create' | 'modify' | 'delete' | 'rename', f: TAbstractFile, oldPath?: string): void {
    this.links = null;
    if (type !== 'modify') this.byNfc = null;
    this.trackStat(type, f, oldPath);
    // A path created or moved in is judged by the symlink rule (RealPathGate.observe).
    if ((type === 'create' || type === 'rename') && !hidden(f.path)) void this.gate.observe(f.path, type === 'rename' ? oldPath : undefined);
    if (!(f instanceof this.TFile) || hidden(f.path)) return;
    const path = nfc(f.path);
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

  private onChanged(f: TFile): void {
    this.links = null;
    const path = nfc(f.path);
    this.pending.delete(path);
    this.unresolvedChange.set(path, this.now());
    this.emit({ type: 'metadata', path });
  }

  private onResolved(): void {
    this.links = null;
    this.unresolvedChange.clear();
    this.emit({ type: 'resolved' });
    this.readyCheck?.();
  }

  subscribe(listener: (e: VaultEvent) => void): () => void {
    this.listeners.add(listener);
    return () => { this.listeners.delete(listener); };
  }

  // ---- readiness ----

  private missingCaches(): number {
    let n = 0;
    for (const f of this.app.vault.getMarkdownFiles()) if (!hidden(f.path) && !this.app.metadataCache.getFileCache(f)) n++;
    return n;
  }

  ready(): Promise<void> {
    this.readyPromise ??= Promise.all([this.cachesReady(), this.gate.survey()]).then(() => undefined);
    return this.readyPromise;
  }

  private cachesReady(): Promise<void> {
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
    const queued = this.slices.undelivered();
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
    const nfc = path.normalize('NFC');
    const hit = v.getAbstractFileByPath(nfc);
    if (hit) return hit;
    if (!NON_ASCII.test(nfc)) return null;
    const nfd = nfc.normalize('NFD');
    const alt = v.getAbstractFileByPath(nfd);
    if (alt) return alt;
    // A path as given for a file the app created under its normalizePath (no-break spaces as spaces).
    const normalized = this.norm(nfc);
    if (normalized !== nfc) { const n = v.getAbstractFileByPath(normalized); if (n) return n; }
    if (!this.byNfc) {
      // Mixed spellings (one folder NFC, the file NFD): one map, rebuilt after creates/deletes/renames.
      this.byNfc = new Map();
      for (const f of v.getAllLoadedFiles()) if (NON_ASCII.test(f.path)) this.byNfc.set(f.path.normalize('NFC'), f);
    }
    return this.byNfc.get(nfc) ?? null;
  }

  private file(path: string): TFile {
    const f = this.lookup(path);
    if (f instanceof this.TFile) return f;
    throw Object.assign(new Error(`ENOENT: no file "${path}" in the vault`), { code: 'ENOENT' });
  }

  /** Keeps fileStats in step with one vault event: at once within the task's slice, else queued.
   *  A folder moved or deleted always waits for a slice, and with it every event after it. */
  private trackStat(type: 'create' | 'modify' | 'delete' | 'rename', f: TAbstractFile, oldPath?: string): void {
    if (!this.fileStats) return;
    this.fileList = null;
    const now = this.slices.within() && (f instanceof this.TFile || type === 'create' || type === 'modify');
    this.slices.op({ type, file: f, path: f.path, oldPath: oldPath ?? '', task: this.slices.task }, now);
  }

  /**
   * A folder moved or deleted, held while the events that follow it in the same app task are about
   * its own files: the app reports each of them too (moved or deleted one by one, O(1) each), so
   * when that run ends, one scan of the list moves or drops only what no event covered.
   */
  private held: { from: string; to: string | null; task: number } | null = null;

  /** One event's update of fileStats: O(1) for a file; a folder move or delete is held (see held). */
  private applyStat(op: StatOp): void {
    const stats = this.fileStats;
    if (!stats) return;
    this.fileList = null;
    const { type, file: f } = op;
    const src = nfc(type === 'rename' ? op.oldPath : op.path);
    const isFile = f instanceof this.TFile;
    const h = this.held;
    if (h) {
      const inRun = h.task === op.task && src.startsWith(`${h.from}/`);
      // A folder under the held one, moved along with it (or deleted with it): covered by its scan.
      const along = inRun && !isFile && (type === 'rename' ? h.to !== null && nfc(op.path) === h.to + src.slice(h.from.length) : type === 'delete' && h.to === null);
      if (along) return;
      if (!inRun || !isFile) this.flushHeld();
    }
    if (!isFile) {
      if ((type === 'rename' || type === 'delete') && src !== '') this.held = { from: src, to: type === 'rename' ? nfc(op.path) : null, task: op.task };
      return;
    }
    if (type === 'delete' || type === 'rename') {
      if (stats.delete(src) && isNotePath(src)) this.notes--;
    }
    if (type !== 'delete' && !hidden(op.path)) {
      const path = nfc(op.path);
      if (!stats.has(path) && isNotePath(path)) this.notes++;
      stats.set(path, { path, size: f.stat.size, mtime: f.stat.mtime, ctime: f.stat.ctime });
    }
  }

  /** The held folder's run is over: entries still under it are re-keyed under its new place or dropped. */
  private flushHeld(): void {
    const h = this.held;
    const stats = this.fileStats;
    this.held = null;
    if (!h || !stats) return;
    const prefix = `${h.from}/`;
    const moved: [string, FileStat][] = [];
    for (const [path, st] of stats) if (path.startsWith(prefix)) moved.push([path, st]);
    for (const [path, st] of moved) {
      stats.delete(path);
      const dest = h.to === null ? null : `${h.to}/${path.slice(prefix.length)}`;
      if (dest !== null && !hidden(dest)) stats.set(dest, { ...st, path: dest });
      else if (isNotePath(path)) this.notes--;
    }
  }

  private toStat(f: TFile): FileStat {
    return { path: nfc(f.path), size: f.stat.size, mtime: f.stat.mtime, ctime: f.stat.ctime };
  }

  files(): FileStat[] {
    this.fileList ??= [...this.stats().values()];
    // A copy: callers sort and filter what they get.
    return this.gate.refusing ? this.fileList.filter((f) => this.gate.visible(f.path)) : this.fileList.slice();
  }

  private stats(): Map<string, FileStat> {
    if (this.slices.hasOps()) this.slices.applyOps();
    if (!this.fileStats) {
      this.fileStats = new Map();
      this.notes = 0;
      for (const f of this.app.vault.getFiles()) {
        if (hidden(f.path)) continue;
        const path = nfc(f.path);
        this.fileStats.set(path, this.toStat(f));
        if (isNotePath(path)) this.notes++;
      }
      this.fileList = null;
    }
    return this.fileStats;
  }

  noteCount(): number {
    this.stats();
    return this.notes;
  }

  folders(): string[] {
    return this.app.vault.getAllFolders(false).filter((f) => !hidden(f.path)).map((f) => nfc(f.path)).filter((p) => this.gate.visible(p));
  }

  stat(path: string): FileStat | null {
    const f = this.lookup(path);
    return f instanceof this.TFile && !hidden(f.path) && this.gate.visible(nfc(f.path)) ? this.toStat(f) : null;
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

  // Reads go to disk (vault.read / readBinary), not cachedRead: the cached copy can lag behind a
  // change made outside the app (sync, git, the CLI) until the watcher reports it, and the hash we
  // return must describe the bytes an expected_hash check will later compare against.
  async readText(path: string): Promise<string> {
    return this.app.vault.read(await this.readable(path));
  }

  async readBytes(path: string): Promise<Uint8Array> {
    return new Uint8Array(await this.app.vault.readBinary(await this.readable(path)));
  }

  /** The file for a read, after checking its real location on disk (the app would follow any link). */
  private async readable(path: string): Promise<TFile> {
    const f = this.file(path);
    if (!this.gate.visible(nfc(f.path))) throw Object.assign(new Error(`ENOENT: no file "${path}" in the vault`), { code: 'ENOENT' });
    await this.gate.checkRead(nfc(f.path), f.path);
    return f;
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

  private linkMaps() {
    if (!this.links) {
      // NFC keys, dot-folders left out. Rows whose keys are already NFC (all-ASCII paths: nearly every
      // vault) are the app's own objects, not copies: at 100k notes copying every row was the bulk of
      // the time a graph rebuild held the UI thread. Nothing here writes into them.
      const norm = (m: Record<string, Record<string, number>>, inner: boolean) => {
        const out: Record<string, Record<string, number>> = {};
        for (const src in m) {
          if (hidden(src) || !this.gate.visible(nfc(src))) continue;
          const targets = m[src];
          let row = targets;
          if (inner) {
            for (const t in targets) {
              if (!NON_ASCII.test(t)) continue;
              row = {};
              for (const [k, n] of Object.entries(targets)) { const key = nfc(k); row[key] = (row[key] ?? 0) + n; }
              break;
            }
            // Links into a path the symlink rule refuses are not links.
            if (this.gate.refusing && Object.keys(row).some((k) => !this.gate.visible(nfc(k)))) row = Object.fromEntries(Object.entries(row).filter(([k]) => this.gate.visible(nfc(k))));
          }
          out[nfc(src)] = row;
        }
        return out;
      };
      this.links = { resolved: norm(this.app.metadataCache.resolvedLinks, true), unresolved: norm(this.app.metadataCache.unresolvedLinks, false) };
    }
    return this.links;
  }

  resolvedLinks(): Record<string, Record<string, number>> {
    return this.linkMaps().resolved;
  }

  unresolvedLinks(): Record<string, Record<string, number>> {
    return this.linkMaps().unresolved;
  }

  async close(): Promise<void> {
    // The app's listeners are removed by the plugin's unload; from here on they do nothing.
    this.closed = true;
    this.readyCheck?.();
    this.listeners.clear();
    this.slices.close();
  }
}
