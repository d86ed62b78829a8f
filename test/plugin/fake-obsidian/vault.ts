// Vault over a real temp folder. Writes go to disk first, then the vault's in-memory tree is updated
// and its event fires synchronously, before the returned promise resolves, as in the app. The
// metadata cache reacts to those events on its own, later (see metadataCache.ts).
import { readdirSync, statSync, existsSync, realpathSync, promises as fs } from 'node:fs';
import { basename, join, dirname } from 'node:path';
import { Events } from './events.js';
import { FileSystemAdapter } from './adapter.js';
import { TAbstractFile, TFile, TFolder, setPath, parentPath } from './files.js';
import { normalizePath } from './util.js';

export interface VaultConfig {
  /** Settings → Files and links → Automatically update internal links. */
  alwaysUpdateLinks: boolean;
  /** Settings → Files and links → Deleted files: system trash, vault .trash folder, or delete. */
  trashOption: 'system' | 'local' | 'none';
  [k: string]: unknown;
}

const exists = () => new Error('File already exists.');

export class Vault extends Events {
  readonly adapter: FileSystemAdapter;
  configDir = '.obsidian';
  readonly config: VaultConfig = { alwaysUpdateLinks: true, trashOption: 'system' };
  /** Where system-trashed files go (outside the vault), so a test can look. */
  readonly systemTrashDir: string;
  private readonly items = new Map<string, TAbstractFile>();
  private readonly root: TFolder;
  private readonly cached = new Map<string, string>();

  constructor(readonly basePath: string) {
    super();
    this.adapter = new FileSystemAdapter(basePath);
    this.systemTrashDir = join(dirname(basePath), `.system-trash-${basename(basePath)}`);
    this.root = this.makeFolder('/');
    this.scan('');
  }

  private makeFolder(path: string): TFolder {
    const f = new TFolder();
    f.vault = this;
    setPath(f, path);
    this.attach(f);
    return f;
  }

  private makeFile(path: string): TFile {
    const f = new TFile();
    f.vault = this;
    setPath(f, path);
    this.refreshStat(f);
    this.attach(f);
    return f;
  }

  private attach(f: TAbstractFile): void {
    this.items.set(f.path, f);
    if (f.path === '/') return;
    const parent = this.items.get(parentPath(f.path)) as TFolder | undefined;
    f.parent = parent ?? null;
    parent?.children.push(f);
  }

  private detachItem(f: TAbstractFile): void {
    this.items.delete(f.path);
    this.cached.delete(f.path);
    // In place (the app's typings do not say; in place is the case that can hurt): code that holds the array sees it shift.
    if (f.parent) { const kids = f.parent.children; const i = kids.indexOf(f); if (i >= 0) kids.splice(i, 1); }
    f.parent = null;
  }

  private refreshStat(f: TFile): void {
    const s = statSync(join(this.basePath, f.path));
    f.stat = { ctime: s.birthtimeMs || s.ctimeMs, mtime: s.mtimeMs, size: s.size };
  }

  /**
   * Like the desktop app, the listing follows symbolic links: a link to a folder (anywhere, inside
   * or outside the vault) is listed as a folder with its files, a link to a file as a file; a link
   * that leads back into a folder already on the way is not entered again (the app warns and stops).
   */
  private scan(dir: string, emit = false, seen: string[] = [realpathSync(this.basePath)]): void {
    for (const e of readdirSync(join(this.basePath, dir), { withFileTypes: true })) {
      // The app does not index dot-files and dot-folders (the config folder among them).
      if (e.name.startsWith('.')) continue;
      const path = dir ? `${dir}/${e.name}` : e.name;
      const known = this.items.get(path);
      if (known) {
        // A folder the app already lists may have gained entries (the watcher reports those too).
        if (emit && known instanceof TFolder) this.scan(path, emit, [...seen, realpathSync(join(this.basePath, path))]);
        continue;
      }
      let folder = e.isDirectory();
      let file = e.isFile();
      if (e.isSymbolicLink()) {
        const st = statSync(join(this.basePath, path), { throwIfNoEntry: false });
        folder = !!st?.isDirectory();
        file = !!st?.isFile();
      }
      if (folder) {
        const real = realpathSync(join(this.basePath, path));
        if (seen.includes(real)) continue;
        const f = this.makeFolder(path);
        if (emit) this.trigger('create', f);
        this.scan(path, emit, [...seen, real]);
      } else if (file) {
        const f = this.makeFile(path);
        if (emit) this.trigger('create', f);
      }
    }
  }

  /**
   * Test hook: what the app's file watcher does, some time after another program changed the disk
   * (the fake does not watch by itself): entries gone from disk are dropped, new ones listed.
   */
  noticeDiskChanges(): void {
    for (const f of [...this.items.values()]) {
      if (f.path === '/' || !this.items.has(f.path) || existsSync(join(this.basePath, f.path))) continue;
      for (const g of this.forget(f)) this.trigger('delete', g);
    }
    this.scan('', true);
  }

  getConfig(key: string): unknown { return this.config[key]; }
  setConfig(key: string, value: unknown): void { this.config[key] = value; }
  getName(): string { return basename(this.basePath); }
  getRoot(): TFolder { return this.root; }

  getAbstractFileByPath(path: string): TAbstractFile | null {
    return this.items.get(path === '' ? '/' : path) ?? null;
  }
  getFileByPath(path: string): TFile | null {
    const f = this.getAbstractFileByPath(path);
    return f instanceof TFile ? f : null;
  }
  getFolderByPath(path: string): TFolder | null {
    const f = this.getAbstractFileByPath(path);
    return f instanceof TFolder ? f : null;
  }
  getAllLoadedFiles(): TAbstractFile[] { return [...this.items.values()]; }
  getAllFolders(includeRoot = false): TFolder[] {
    return [...this.items.values()].filter((f): f is TFolder => f instanceof TFolder && (includeRoot || f.path !== '/'));
  }
  getFiles(): TFile[] { return [...this.items.values()].filter((f): f is TFile => f instanceof TFile); }
  getMarkdownFiles(): TFile[] { return this.getFiles().filter((f) => f.extension === 'md'); }

  static recurseChildren(root: TFolder, cb: (file: TAbstractFile) => unknown): void {
    const walk = (f: TAbstractFile) => { cb(f); if (f instanceof TFolder) for (const c of [...f.children]) walk(c); };
    walk(root);
  }

  // ---- reads ----

  async read(file: TFile): Promise<string> {
    const text = await fs.readFile(join(this.basePath, file.path), 'utf8');
    this.cached.set(file.path, text);
    return text;
  }

  /** Like the app: the copy from the last read or write through the vault, which can be stale
   *  when the file changed on disk without the vault noticing. */
  async cachedRead(file: TFile): Promise<string> {
    return this.cached.get(file.path) ?? this.read(file);
  }

  async readBinary(file: TFile): Promise<ArrayBuffer> {
    return this.adapter.readBinary(file.path);
  }

  getResourcePath(file: TFile): string { return `app://local/${encodeURI(join(this.basePath, file.path))}?${file.stat.mtime}`; }

  // ---- writes ----

  private checkParent(path: string): void {
    const parent = parentPath(path);
    if (!this.getFolderByPath(parent)) throw new Error(`ENOENT: no such file or directory, open '${join(this.basePath, path)}' (create the folder first)`);
  }

  private async createWith(path: string, write: (full: string) => Promise<void>): Promise<TFile> {
    path = normalizePath(path);
    if (this.items.has(path) || existsSync(join(this.basePath, path))) throw exists();
    this.checkParent(path);
    await write(join(this.basePath, path));
    const f = this.makeFile(path);
    this.trigger('create', f);
    return f;
  }

  create(path: string, data: string): Promise<TFile> {
    return this.createWith(path, async (full) => { await fs.writeFile(full, data, { flag: 'wx' }); this.cached.set(normalizePath(path), data); });
  }

  createBinary(path: string, data: ArrayBuffer): Promise<TFile> {
    return this.createWith(path, (full) => fs.writeFile(full, new Uint8Array(data), { flag: 'wx' }));
  }

  async createFolder(path: string): Promise<TFolder> {
    path = normalizePath(path);
    if (this.items.has(path)) throw new Error('Folder already exists.');
    await fs.mkdir(join(this.basePath, path), { recursive: true });
    // Missing ancestors appear too, each with its own create event.
    const parts = path.split('/');
    let folder: TFolder | null = null;
    for (let i = 1; i <= parts.length; i++) {
      const p = parts.slice(0, i).join('/');
      const have = this.getFolderByPath(p);
      if (have) { folder = have; continue; }
      folder = this.makeFolder(p);
      this.trigger('create', folder);
    }
    return folder!;
  }

  private async write(file: TFile, bytes: string | Uint8Array): Promise<void> {
    if (this.items.get(file.path) !== file) throw new Error(`File ${file.path} no longer exists in the vault.`);
    await fs.writeFile(join(this.basePath, file.path), bytes);
    if (typeof bytes === 'string') this.cached.set(file.path, bytes); else this.cached.delete(file.path);
    this.refreshStat(file);
    this.trigger('modify', file);
  }

  modify(file: TFile, data: string): Promise<void> { return this.write(file, data); }
  modifyBinary(file: TFile, data: ArrayBuffer): Promise<void> { return this.write(file, new Uint8Array(data)); }
  async append(file: TFile, data: string): Promise<void> { await this.write(file, (await this.read(file)) + data); }

  /** Atomic read-modify-write: nothing else runs between the read and the write (one event turn). */
  async process(file: TFile, fn: (data: string) => string): Promise<string> {
    const before = await fs.readFile(join(this.basePath, file.path), 'utf8');
    const after = fn(before);
    if (after !== before) await this.write(file, after);
    return after;
  }

  async rename(file: TAbstractFile, newPath: string): Promise<void> {
    newPath = normalizePath(newPath);
    if (this.items.has(newPath) || existsSync(join(this.basePath, newPath))) throw new Error('Destination file already exists!');
    this.checkParent(newPath);
    const oldPath = file.path;
    await fs.rename(join(this.basePath, oldPath), join(this.basePath, newPath));
    const start = performance.now();
    const moved: [TAbstractFile, string][] = [];
    // Move the item, then (for a folder) every descendant under its new path; one event each.
    const move = (f: TAbstractFile, to: string) => {
      const from = f.path;
      const kids = f instanceof TFolder ? [...f.children] : [];
      const text = this.cached.get(from);
      this.detachItem(f);
      setPath(f, to);
      this.attach(f);
      if (text !== undefined) this.cached.set(to, text);
      moved.push([f, from]);
      if (f instanceof TFolder) {
        f.children = [];
        for (const c of kids) { c.parent = null; move(c, `${to}/${c.name}`); }
      }
    };
    move(file, newPath);
    for (const [f, from] of moved) this.trigger('rename', f, from);
    this.lastRenameTask = [start, performance.now()];
  }

  /** The last rename's synchronous part (the app's one task: its moves and every listener), for the bench. */
  lastRenameTask: [number, number] | null = null;

  private forget(file: TAbstractFile): TAbstractFile[] {
    const gone: TAbstractFile[] = [];
    const walk = (f: TAbstractFile) => { if (f instanceof TFolder) for (const c of [...f.children]) walk(c); gone.push(f); };
    walk(file);
    for (const f of gone) this.detachItem(f);
    return gone;
  }

  async delete(file: TAbstractFile, _force?: boolean): Promise<void> {
    await fs.rm(join(this.basePath, file.path), { recursive: true, force: true });
    for (const f of this.forget(file)) this.trigger('delete', f);
  }

  /** system=true: the OS trash (here a folder beside the vault); false: the vault's .trash folder. */
  async trash(file: TAbstractFile, system: boolean): Promise<void> {
    const dir = system ? this.systemTrashDir : join(this.basePath, '.trash');
    await fs.mkdir(dir, { recursive: true });
    let target = join(dir, file.name);
    for (let i = 1; existsSync(target); i++) target = join(dir, `${file.name.replace(/(\.[^.]*)?$/, ` ${i}$1`)}`);
    await fs.rename(join(this.basePath, file.path), target);
    for (const f of this.forget(file)) this.trigger('delete', f);
  }

  async copy<T extends TAbstractFile>(file: T, newPath: string): Promise<T> {
    if (!(file instanceof TFile)) throw new Error('copying folders is not supported by the fake');
    return (await this.createBinary(newPath, await this.readBinary(file))) as unknown as T;
  }
}
