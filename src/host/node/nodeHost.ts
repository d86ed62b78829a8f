// The headless host: node fs plus our own metadata extraction and link resolution, shaped like
// Obsidian's metadata cache so the core cannot tell the hosts apart.
import { promises as fs, readFileSync, watch, type FSWatcher } from 'node:fs';
import { basename as pathBasename, join } from 'node:path';
import type { DataStore, FileStat, VaultEvent, VaultHost } from '../port.js';
import { fileStat } from '../fileStat.js';
import type { NoteMetadata } from '../../core/markdown/metadata.js';
import { parseMarkdown } from '../../core/markdown/parse.js';
import { LinkIndex, resolveLinkpath, linkpathOf, linkNameKeys, nameKeyOf } from '../../core/markdown/links.js';
import { isNotePath, dirname } from '../../core/paths.js';
import { scanVault } from './scan.js';
import { Containment, missing, samePlacement } from '../containment.js';
import { BirthTimes } from './birthTimes.js';
import { FsDataStore } from '../fsDataStore.js';
import { DEFAULT_CONFIG_DIR } from '../configDir.js';
import { NodeWriter } from './nodeWriter.js';
import { clearTimeout, setTimeout } from 'node:timers';

/** Notes up to this size are read synchronously (readText). */
const SYNC_READ_MAX = 256 * 1024;

/** `real`: see Located.real (undefined = its own real location). */
interface Entry { stat: FileStat; disk: string; real: string | null | undefined; ino: number }

export interface NodeHostOptions {
  dataDir?: string;
  /** Where rebuildable caches go (default: the data folder). */
  cacheDir?: string;
  configDir?: string;
  /** Watch the folder for outside changes (default true). */
  watch?: boolean;
  debounceMs?: number;
  /** Absolute outside folders a symlink may lead into (setting symlinkAllowedFolders; read at start). */
  allowedOutside?: () => readonly string[];
}

export class NodeHost implements VaultHost {
  readonly kind = 'node' as const;
  readonly name: string;
  readonly configDir: string;
  readonly data: DataStore;
  readonly cache: DataStore;
  readonly writer: NodeWriter = new NodeWriter(this);
  /** The symlink rule (host/containment.ts). */
  readonly contain: Containment;
  /** Real folders of allow-listed outside trees already followed (a loop is walked once). */
  private readonly outsideFolders = new Set<string>();
  /** Creation times kept across edits and moves (temp + rename gives a file a new birth time). */
  private readonly births: BirthTimes;
  private readonly entries = new Map<string, Entry>();
  private readonly folderSet = new Set<string>();
  private readonly meta = new Map<string, NoteMetadata>();
  private readonly linkIndex = new LinkIndex([]);
  // resolvedLinks/unresolvedLinks are kept incrementally: a full pass once (lazily), then only rows
  // that may have changed are recomputed: a re-parsed, added or removed note's own row, and the rows
  // of notes with a link whose resolution looks at the name of a file that appeared or went away
  // (linkNameKeys: the resolver only consults index entries filed under those names).
  private resolved: Record<string, Record<string, number>> | null = null;
  private unresolved: Record<string, Record<string, number>> | null = null;
  private readonly dirtyRows = new Set<string>();
  /** setRow always assigns fresh row objects (see VaultHost.linkRowsReplaced). */
  readonly linkRowsReplaced = true;
  /** source → name keys its links look at; name key → sources. */
  private readonly keysOfSource = new Map<string, string[]>();
  private readonly sourcesOfKey = new Map<string, Set<string>>();
  private readonly listeners = new Set<(e: VaultEvent) => void>();
  private pending = new Set<string>();
  private readyPromise: Promise<void> | null = null;
  private watcher: FSWatcher | null = null;
  private readonly debounce = new Map<string, ReturnType<typeof setTimeout>>();
  private closed = false;

  constructor(readonly basePath: string, private readonly opts: NodeHostOptions = {}) {
    this.name = pathBasename(basePath);
    this.configDir = opts.configDir ?? DEFAULT_CONFIG_DIR;
    this.data = new FsDataStore(opts.dataDir ?? join(basePath, this.configDir, 'plugins', 'vault-mcp-server'));
    this.cache = opts.cacheDir && opts.cacheDir !== this.data.dir ? new FsDataStore(opts.cacheDir) : this.data;
    this.births = new BirthTimes(this.data);
    this.contain = new Containment(basePath, { allowedOutside: opts.allowedOutside, forbidden: () => [this.data.dir, this.cache.dir] });
  }

  ready(): Promise<void> {
    this.readyPromise ??= this.initialScan();
    return this.readyPromise;
  }

  private async initialScan(): Promise<void> {
    await this.births.load();
    const { files, folders } = await scanVault(this.basePath, this.contain, { disk: '', outside: false, visited: this.outsideFolders });
    for (const f of folders) this.folderSet.add(f);
    for (const f of files) {
      const ctime = this.births.scanned(f.rel, f.ino, f.ctime);
      this.entries.set(f.rel, { stat: fileStat(f.rel, f.size, f.mtime, ctime), disk: f.disk, real: f.real, ino: f.ino });
      this.linkIndex.add(f.rel); // before the first full pass: nothing to mark
      if (isNotePath(f.rel)) this.pending.add(f.rel);
    }
    if (this.opts.watch !== false) this.startWatcher();
    // Parse in small concurrent batches; each await yields to the event loop.
    const queue = [...this.pending];
    const worker = async () => {
      for (let p = queue.pop(); p !== undefined; p = queue.pop()) await this.parse(p);
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    this.invalidateLinks();
    this.emit({ type: 'resolved' });
  }

  private async parse(path: string): Promise<void> {
    const e = this.entries.get(path);
    if (!e) { this.pending.delete(path); return; }
    try {
      const text = await fs.readFile(await this.checkedDisk(path), 'utf8');
      this.meta.set(path, parseMarkdown(text));
    } catch {
      this.meta.delete(path);
    }
    this.rowChanged(path);
    this.pending.delete(path);
  }

  pendingCount(): number {
    return this.pending.size;
  }

  files(): FileStat[] {
    return [...this.entries.values()].map((e) => e.stat);
  }

  folders(): string[] {
    return [...this.folderSet];
  }

  stat(path: string): FileStat | null {
    return this.entries.get(path.normalize('NFC'))?.stat ?? null;
  }

  isFolder(path: string): boolean {
    return path === '' || this.folderSet.has(path.normalize('NFC'));
  }

  /**
   * Where a visible path really is when a symlink is on its way: the vault path of a file symlink's
   * target inside the vault, null inside an allow-listed outside folder, undefined when the path is
   * its own real location (ScopedVault checks a confined key's root against it).
   */
  realPathOf(path: string): string | null | undefined {
    return this.entries.get(path.normalize('NFC'))?.real;
  }

  /**
   * The real disk path to read for `path`, resolved now: a path whose real location no longer agrees
   * with what the scan admitted (a symlink retargeted, a folder swapped for a link) reads as missing.
   */
  private async checkedDisk(path: string): Promise<string> {
    const rel = path.normalize('NFC');
    const e = this.entries.get(rel);
    const hit = await this.contain.place(join(this.basePath, e ? e.disk : rel));
    if (!hit || !samePlacement(hit.placement, rel, e?.real)) {
      if (e) void this.refresh(rel).catch(() => undefined);
      throw missing(rel);
    }
    return hit.real;
  }

  /** Absolute disk path of a vault path (existing spelling when the file exists). */
  diskPath(path: string): string {
    const e = this.entries.get(path.normalize('NFC'));
    return join(this.basePath, e ? e.disk : path);
  }

  async readBytes(path: string): Promise<Uint8Array> {
    return new Uint8Array(await fs.readFile(await this.checkedDisk(path)));
  }

  async readText(path: string): Promise<string> {
    // A small note is read synchronously: the same real-path check, but one system call each instead of
    // five thread-pool round trips (a cold index reads every note; 4× less CPU per note measured).
    const e = this.entries.get(path.normalize('NFC'));
    if (e && e.stat.size <= SYNC_READ_MAX) {
      return readFileSync(this.checkedDiskSync(path), 'utf8');
    }
    return fs.readFile(await this.checkedDisk(path), 'utf8');
  }

  /** checkedDisk() synchronously. */
  private checkedDiskSync(path: string): string {
    const rel = path.normalize('NFC');
    const e = this.entries.get(rel);
    const hit = this.contain.placeSync(join(this.basePath, e ? e.disk : rel));
    if (!hit || !samePlacement(hit.placement, rel, e?.real)) {
      if (e) void this.refresh(rel).catch(() => undefined);
      throw missing(rel);
    }
    return hit.real;
  }

  metadata(path: string): NoteMetadata | null {
    return this.meta.get(path.normalize('NFC')) ?? null;
  }

  resolveLink(linkpath: string, sourcePath: string): string | null {
    return resolveLinkpath(linkpath, sourcePath, this.linkIndex);
  }

  /** Drops the link maps: the next query makes a full pass (after the first scan). */
  private invalidateLinks(): void {
    this.resolved = null;
    this.unresolved = null;
    this.dirtyRows.clear();
    this.keysOfSource.clear();
    this.sourcesOfKey.clear();
  }

  /** `path`'s own metadata changed (parsed, dropped, renamed): its row is recomputed. */
  private rowChanged(path: string): void {
    if (this.resolved) this.dirtyRows.add(path);
  }

  /** A file appeared or went away: rows whose links look at its name are recomputed. */
  private nameChanged(path: string): void {
    if (!this.resolved) return;
    const sources = this.sourcesOfKey.get(nameKeyOf(path));
    if (sources) for (const s of sources) this.dirtyRows.add(s);
  }

  private indexAdd(path: string): void {
    this.linkIndex.add(path);
    this.nameChanged(path);
  }

  private indexRemove(path: string): void {
    this.linkIndex.remove(path);
    this.nameChanged(path);
  }

  private setRow(source: string, m: NoteMetadata | undefined): void {
    for (const k of this.keysOfSource.get(source) ?? []) {
      const set = this.sourcesOfKey.get(k);
      if (set) { set.delete(source); if (!set.size) this.sourcesOfKey.delete(k); }
    }
    this.keysOfSource.delete(source);
    if (!m) { delete this.resolved![source]; delete this.unresolved![source]; return; }
    const r: Record<string, number> = {};
    const u: Record<string, number> = {};
    const keys = new Set<string>();
    for (const ref of [...(m.links ?? []), ...(m.embeds ?? []), ...(m.frontmatterLinks ?? [])]) {
      const lp = linkpathOf(ref.link);
      if (lp === '') { r[source] = (r[source] ?? 0) + 1; continue; } // [[#heading]] points at itself
      const target = resolveLinkpath(lp, source, this.linkIndex);
      if (target) r[target] = (r[target] ?? 0) + 1;
      else u[lp] = (u[lp] ?? 0) + 1;
      for (const k of this.nameKeys(lp, source)) keys.add(k);
    }
    this.resolved![source] = r;
    this.unresolved![source] = u;
    if (keys.size) {
      this.keysOfSource.set(source, [...keys]);
      for (const k of keys) { let set = this.sourcesOfKey.get(k); if (!set) this.sourcesOfKey.set(k, set = new Set()); set.add(source); }
    }
  }

  /** linkNameKeys depends only on the link and the source's folder: memoised (bounded). */
  private readonly nameKeyMemo = new Map<string, readonly string[]>();
  private nameKeys(lp: string, source: string): readonly string[] {
    const id = `${dirname(source)}\n${lp}`;
    let k = this.nameKeyMemo.get(id);
    if (!k) {
      if (this.nameKeyMemo.size >= 100_000) this.nameKeyMemo.clear();
      this.nameKeyMemo.set(id, k = linkNameKeys(lp, source));
    }
    return k;
  }

  private computeLinks(): void {
    if (!this.resolved || !this.unresolved) {
      this.resolved = {};
      this.unresolved = {};
      this.dirtyRows.clear();
      for (const [source, m] of this.meta) this.setRow(source, m);
      return;
    }
    for (const source of this.dirtyRows) this.setRow(source, this.meta.get(source));
    this.dirtyRows.clear();
  }

  resolvedLinks(): Record<string, Record<string, number>> {
    this.computeLinks();
    return this.resolved!;
  }

  unresolvedLinks(): Record<string, Record<string, number>> {
    this.computeLinks();
    return this.unresolved!;
  }

  /** Test hook: the link maps recomputed from scratch (what a fresh full pass would give). */
  fullLinkRebuild(): { resolved: Record<string, Record<string, number>>; unresolved: Record<string, Record<string, number>> } {
    this.invalidateLinks();
    this.computeLinks();
    return { resolved: this.resolved!, unresolved: this.unresolved! };
  }

  subscribe(listener: (e: VaultEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(e: VaultEvent): void {
    for (const l of this.listeners) {
      try { l(e); } catch { /* a listener's failure must not stop the others */ }
    }
  }

  private addFolders(path: string): void {
    for (let d = dirname(path); d !== '' && !this.folderSet.has(d); d = dirname(d)) this.folderSet.add(d);
  }

  /**
   * Brings one path in line with the disk (after our own write or a watcher event) and emits the
   * events Obsidian would: create/modify/delete, then metadata, then resolved.
   */
  async refresh(path: string, diskRel?: string): Promise<void> {
    const rel = path.normalize('NFC');
    // Pending from the first moment (not after the first await), so a wait_for_pending_writes call
    // made while this runs waits for it; a path that turned out to be nothing is pending no more.
    if (!isNotePath(rel)) return this.refreshNow(rel, diskRel);
    this.pending.add(rel);
    try { await this.refreshNow(rel, diskRel); } finally { if (!this.entries.has(rel)) this.pending.delete(rel); }
  }

  private async refreshNow(rel: string, diskRel?: string): Promise<void> {
    const disk = diskRel ?? this.entries.get(rel)?.disk ?? rel;
    // The symlink rule decides what the path is: a followed folder, an admitted file, or nothing.
    const loc = await this.contain.locate(rel, disk);
    const before = this.entries.get(rel);
    if (loc?.folder) {
      if (before) await this.drop(rel);
      if (!this.folderSet.has(rel)) { this.folderSet.add(rel); this.addFolders(rel); await this.rescanFolder(disk, loc.real === null); }
      return;
    }
    if (!loc) {
      if (this.folderSet.has(rel)) {
        for (const p of [...this.entries.keys()]) if (p.startsWith(rel + '/')) await this.drop(p);
        for (const f of [...this.folderSet]) if (f === rel || f.startsWith(rel + '/')) this.folderSet.delete(f);
        return;
      }
      if (before) await this.drop(rel);
      return;
    }
    const st = loc.st;
    const diskCtime = st.birthtimeMs || st.ctimeMs;
    // A file we already knew keeps its creation time, whatever a re-save did to its inode.
    const stat = fileStat(rel, st.size, st.mtimeMs, before ? before.stat.ctime : diskCtime);
    if (before) this.births.keep(rel, st.ino, stat.ctime, diskCtime);
    if (before && before.stat.size === stat.size && before.stat.mtime === stat.mtime && before.real === loc.real) { this.pending.delete(rel); return; }
    this.entries.set(rel, { stat, disk, real: loc.real, ino: st.ino });
    this.addFolders(rel);
    if (!before) this.indexAdd(rel);
    this.emit({ type: before ? 'modify' : 'create', path: rel });
    if (isNotePath(rel)) {
      this.pending.add(rel);
      await this.parse(rel);
      this.emit({ type: 'metadata', path: rel });
    }
    this.emit({ type: 'resolved' });
  }

  /**
   * Before a tool answers about `path`: when the disk disagrees with what we hold (a file the
   * watcher has not reported yet, a re-save, a removal), the path is refreshed now. One stat when
   * nothing changed; a pending watcher event for the path then finds nothing left to do.
   */
  async sync(path: string): Promise<void> {
    const rel = path.normalize('NFC');
    const e = this.entries.get(rel);
    const st = await fs.stat(join(this.basePath, e ? e.disk : rel)).catch(() => null);
    if (e) {
      if (!st || !st.isFile() || st.size !== e.stat.size || st.mtimeMs !== e.stat.mtime) await this.refresh(rel);
      return;
    }
    if (this.folderSet.has(rel)) {
      if (!st || !st.isDirectory()) await this.refresh(rel);
      return;
    }
    if (st) await this.refresh(rel);
  }

  /** Records a rename we performed ourselves, so listeners see one rename instead of delete + create. */
  async renamed(oldPath: string, newPath: string): Promise<void> {
    const from = oldPath.normalize('NFC');
    const to = newPath.normalize('NFC');
    const e = this.entries.get(from);
    this.entries.delete(from);
    this.indexRemove(from);
    const m = this.meta.get(from);
    this.meta.delete(from);
    this.rowChanged(from);
    let st;
    try { st = await fs.stat(join(this.basePath, to)); } catch { st = null; }
    if (!st) { if (e) this.emit({ type: 'delete', path: from }); return; }
    const ctime = e?.stat.ctime ?? (st.birthtimeMs || st.ctimeMs);
    this.entries.set(to, { stat: fileStat(to, st.size, st.mtimeMs, ctime), disk: to, real: undefined, ino: st.ino });
    this.births.forget(from);
    this.births.keep(to, st.ino, ctime, st.birthtimeMs || st.ctimeMs);
    this.addFolders(to);
    this.indexAdd(to);
    if (m && isNotePath(to)) { this.meta.set(to, m); this.rowChanged(to); } // a note renamed to a non-note has no metadata
    this.emit({ type: 'rename', path: to, oldPath: from });
    // The same bytes under a new name: metadata known for the old path holds (as in the app, whose cache
    // fires no 'changed' on a rename), and a 'metadata' event would have every index read the note again.
    if (isNotePath(to) && !m) { await this.parse(to); this.emit({ type: 'metadata', path: to }); }
    this.emit({ type: 'resolved' });
  }

  private async drop(rel: string): Promise<void> {
    this.entries.delete(rel);
    this.births.forget(rel);
    this.meta.delete(rel);
    this.rowChanged(rel);
    this.pending.delete(rel);
    this.indexRemove(rel);
    this.emit({ type: 'delete', path: rel });
    this.emit({ type: 'resolved' });
  }

  /** A folder that appeared (disk spelling `disk`): every file in it is admitted by the same rule. */
  private async rescanFolder(disk: string, outside: boolean): Promise<void> {
    const { files, folders } = await scanVault(this.basePath, this.contain, { disk, outside, visited: this.outsideFolders });
    for (const f of folders) this.folderSet.add(f);
    for (const f of files) await this.refresh(f.rel, f.disk);
  }

  private startWatcher(): void {
    try {
      this.watcher = watch(this.basePath, { recursive: true }, (_type, name) => {
        if (!name || this.closed) return;
        const disk = String(name).replace(/\\/g, '/');
        if (disk.split('/').some((c) => c.startsWith('.'))) return;
        const rel = disk.normalize('NFC');
        clearTimeout(this.debounce.get(rel));
        if (isNotePath(rel)) this.pending.add(rel);
        this.debounce.set(rel, setTimeout(() => {
          this.debounce.delete(rel);
          void this.refresh(rel, disk).finally(() => { if (!this.entries.has(rel)) this.pending.delete(rel); });
        }, this.opts.debounceMs ?? 100));
      });
      this.watcher.on('error', () => { /* the folder vanished; keep serving what we have */ });
    } catch {
      this.watcher = null; // recursive watch unsupported: changes are seen on our own writes only
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.watcher?.close();
    for (const t of this.debounce.values()) clearTimeout(t);
    this.debounce.clear();
    await this.births.save(true);
  }
}
