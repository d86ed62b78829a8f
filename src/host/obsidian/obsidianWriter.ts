// Writes inside Obsidian go through the app's own APIs so its metadata cache, open editors, link
// auto-update and sync see every change: Vault.create (refuses an existing file), Vault.process
// (atomic read-modify-write), Vault.createBinary/modifyBinary, FileManager.renameFile (when the
// user's "Automatically update internal links" is on and links should be rewritten; Vault.rename
// otherwise, and then linkMoves.ts rewrites links itself, so rewrite_links means the same on both
// hosts), FileManager.trashFile (the user's "Deleted files" preference) and Vault.delete.
// Frontmatter edits use Vault.process with the yaml Document API rather than
// FileManager.processFrontMatter, which re-serialises the block and drops comments.
// Only type imports from 'obsidian': runtime classes come in through the constructor.
import type { App, TAbstractFile, TFile, TFolder } from 'obsidian';
import type { FileStat } from '../port.js';
import { hardLinked, symlinkOnPath } from '../containment.js';
import { WriteError, type Check, type ProcessResult, type RenameResult, type VaultWriter } from '../writer.js';
import { PathLocks } from '../pathLock.js';
import { isNotePath } from '../../core/paths.js';
import { appNormalizePath } from './paths.js';

type Ctor<T> = abstract new (...args: never[]) => T;

export interface ObsidianWriterOptions {
  app: App;
  basePath: string;
  classes: { TFile: Ctor<TFile>; TFolder: Ctor<TFolder> };
  /** How long a write waits for the metadata cache to re-parse the note (ms). */
  cacheWaitMs?: number;
  /** The app's normalizePath (main.ts passes obsidian's); default: the same rules (paths.ts). */
  normalizePath?: (path: string) => string;
}

const enc = new TextEncoder();
const dec = new TextDecoder('utf-8', { ignoreBOM: true });
const toBytes = (d: Uint8Array | string) => (typeof d === 'string' ? enc.encode(d) : d);

function same(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function withoutBom(b: Uint8Array): Uint8Array {
  return b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? b.subarray(3) : b;
}

function buffer(b: Uint8Array): ArrayBuffer {
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
}

export class ObsidianWriter implements VaultWriter {
  private readonly locks = new PathLocks();
  private readonly app: App;
  /** Where the app puts a file created or moved to `path` (its normalizePath: no-break spaces become
   *  spaces), so the write, its wait for the cache and the answer all name the file that exists. */
  private readonly norm: (path: string) => string;

  constructor(private readonly o: ObsidianWriterOptions) {
    this.app = o.app;
    this.norm = o.normalizePath ?? appNormalizePath;
  }

  /** The file at `path` as written, in the disk's other Unicode spelling, or where the app would have put it. */
  private lookup(path: string): TAbstractFile | null {
    const v = this.app.vault;
    const hit = v.getAbstractFileByPath(path) ?? v.getAbstractFileByPath(path.normalize('NFD'));
    if (hit) return hit;
    const n = this.norm(path);
    return n !== path ? v.getAbstractFileByPath(n) : null;
  }

  private file(path: string): TFile {
    const f = this.lookup(path);
    if (!f) throw new WriteError('missing', `"${path}" does not exist`, path);
    if (!(f instanceof this.o.classes.TFile)) throw new WriteError('not_file', `"${path}" is not a file`, path);
    return f;
  }

  /** Writes never follow a symbolic link in ANY component (the app's own writes would follow it). */
  private async noSymlink(f: TAbstractFile | string): Promise<void> {
    const path = typeof f === 'string' ? f : f.path;
    const at = await symlinkOnPath(this.o.basePath, path);
    if (at !== null) throw new WriteError('symlink', at === path.normalize('NFC') ? `"${at}" is a symbolic link; writes never follow one` : `"${at}" (a folder on the way to "${path}") is a symbolic link; writes never follow one`, at);
  }

  /** The app writes files in place: a file with other names (a hard link) would change under all of them. */
  private async notHardLinked(f: TFile): Promise<void> {
    if (await hardLinked(this.o.basePath, f.path)) throw new WriteError('outside', `"${f.path}" has other names on disk (a hard link), which a write in the app would change too; it is not written`, f.path);
  }

  private async taken(path: string): Promise<boolean> {
    return !!this.lookup(path) || (await this.app.vault.adapter.exists(path));
  }

  private async ensureFolder(dir: string): Promise<void> {
    if (dir === '' || dir === '/') return;
    const f = this.lookup(dir);
    if (f instanceof this.o.classes.TFolder) return;
    if (f) throw new WriteError('not_file', `"${dir}" is a file, not a folder`, dir);
    try { await this.app.vault.createFolder(dir); } catch (e) {
      if (!(this.lookup(dir) instanceof this.o.classes.TFolder)) throw e;
    }
  }

  /** Resolves once the metadata cache has re-parsed `path` (or after a bounded wait). */
  private cacheWaiter(path: string): () => Promise<void> {
    if (!isNotePath(path)) return async () => undefined;
    const mc = this.app.metadataCache;
    let done!: () => void;
    const p = new Promise<void>((r) => { done = r; });
    const ref = mc.on('changed', (f: TFile) => { if (f.path === path || f.path.normalize('NFC') === path) done(); });
    const timer = window.setTimeout(done, this.o.cacheWaitMs ?? 1500);
    return async () => { await p; window.clearTimeout(timer); mc.offref(ref); };
  }

  private stat(f: TFile): FileStat {
    return { path: f.path.normalize('NFC'), size: f.stat.size, mtime: f.stat.mtime, ctime: f.stat.ctime };
  }

  async create(asked: string, data: Uint8Array | string): Promise<FileStat> {
    const path = this.norm(asked);
    return this.locks.run([path], async () => {
      if (await this.taken(path)) throw new WriteError('exists', `"${path}" already exists`, path);
      await this.noSymlink(path); // before any folder is made
      const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
      await this.ensureFolder(dir);
      const bytes = toBytes(data);
      const wait = this.cacheWaiter(path);
      let f: TFile;
      try {
        f = isNotePath(path) || typeof data === 'string'
          ? await this.app.vault.create(path, typeof data === 'string' ? data : dec.decode(bytes))
          : await this.app.vault.createBinary(path, buffer(bytes));
      } catch (e) {
        if (await this.taken(path)) throw new WriteError('exists', `"${path}" already exists`, path);
        throw e;
      }
      await wait();
      return this.stat(f);
    });
  }

  async process(path: string, fn: (current: Uint8Array) => Uint8Array | string | null): Promise<ProcessResult> {
    return this.locks.run([path], async () => {
      const f = this.file(path);
      await this.noSymlink(f);
      await this.notHardLinked(f);
      const before = new Uint8Array(await this.app.vault.readBinary(f));
      const out = fn(before);
      if (out === null) return { before, after: before, changed: false };
      const after = toBytes(out);
      if (same(before, after)) return { before, after, changed: false };
      const text = dec.decode(after);
      const wait = this.cacheWaiter(path);
      await this.app.vault.process(f, (data) => {
        // Vault.process reads and writes in one step; it must still hold the bytes `fn` saw.
        const cur = enc.encode(data);
        if (!same(cur, before) && !same(cur, withoutBom(before))) throw new WriteError('changed', `"${path}" changed while we were writing it`, path);
        return text;
      });
      await wait();
      return { before, after: new Uint8Array(await this.app.vault.readBinary(f)), changed: true };
    });
  }

  async writeBinary(asked: string, data: Uint8Array, opts: { overwrite: boolean; check?: (current: Uint8Array | null) => void }): Promise<{ created: boolean }> {
    const path = this.norm(asked);
    return this.locks.run([path], async () => {
      const f = this.lookup(asked);
      if (f) {
        if (!(f instanceof this.o.classes.TFile)) throw new WriteError('not_file', `"${path}" is a folder`, path);
        await this.noSymlink(f);
        if (!opts.overwrite) throw new WriteError('exists', `"${path}" already exists`, path);
        await this.notHardLinked(f);
        const before = new Uint8Array(await this.app.vault.readBinary(f));
        opts.check?.(before);
        // No atomic process for binary data in the app API: modifyBinary replaces the whole file.
        if (!same(before, data)) await this.app.vault.modifyBinary(f, buffer(data));
        return { created: false };
      }
      if (await this.app.vault.adapter.exists(path)) throw new WriteError('exists', `"${path}" already exists`, path);
      await this.noSymlink(path);
      opts.check?.(null);
      await this.ensureFolder(path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
      await this.app.vault.createBinary(path, buffer(data));
      return { created: true };
    });
  }

  async rename(from: string, toAsked: string, opts: { updateLinks?: boolean; check?: Check } = {}): Promise<RenameResult> {
    const to = this.norm(toAsked);
    return this.locks.run([from, to], async () => {
      const f = this.lookup(from);
      if (!f) throw new WriteError('missing', `"${from}" does not exist`, from);
      await this.noSymlink(f);
      if (await this.taken(to)) throw new WriteError('exists', `"${to}" already exists`, to);
      await this.noSymlink(to);
      if (opts.check && f instanceof this.o.classes.TFile) opts.check(new Uint8Array(await this.app.vault.readBinary(f)));
      await this.ensureFolder(to.includes('/') ? to.slice(0, to.lastIndexOf('/')) : '');
      const appUpdates = !!(this.app.vault as unknown as { getConfig(k: string): unknown }).getConfig('alwaysUpdateLinks');
      if (opts.updateLinks && appUpdates) {
        await this.app.fileManager.renameFile(f, to);
        return { linksUpdated: true };
      }
      await this.app.vault.rename(f, to);
      return { linksUpdated: false };
    });
  }

  async trash(path: string, check?: Check): Promise<string> {
    return this.locks.run([path], async () => {
      const f = this.file(path);
      await this.noSymlink(f);
      check?.(new Uint8Array(await this.app.vault.readBinary(f)));
      const where = this.trashDestination();
      await this.app.fileManager.trashFile(f);
      return where ?? 'nowhere: the vault\'s "Deleted files" setting deletes permanently';
    });
  }

  /** Where trashFile puts a file under the vault's "Deleted files" setting; null when it deletes. */
  private trashDestination(): string | null {
    const option = (this.app.vault as unknown as { getConfig(k: string): unknown }).getConfig('trashOption');
    return option === 'local' ? '.trash/ (the vault\'s trash folder)' : option === 'none' ? null : 'the system trash';
  }

  /** In the app even a permanent delete follows the user's "Deleted files" setting (system trash,
   *  .trash or gone), as every deletion in Obsidian does; the answer says where the file went. */
  async remove(path: string, check?: Check): Promise<string | null> {
    return this.locks.run([path], async () => {
      const f = this.file(path);
      await this.noSymlink(f);
      check?.(new Uint8Array(await this.app.vault.readBinary(f)));
      const where = this.trashDestination();
      await this.app.fileManager.trashFile(f);
      return where;
    });
  }

  async mkdir(path: string): Promise<void> {
    const dir = path === '' ? '' : this.norm(path);
    await this.noSymlink(dir);
    await this.ensureFolder(dir);
  }

  async removeEmptyFolder(path: string): Promise<boolean> {
    const f = this.lookup(path);
    if (!(f instanceof this.o.classes.TFolder) || f.children.length) return false;
    if (await symlinkOnPath(this.o.basePath, f.path)) return false;
    // Empty: the user's deletion setting decides, as when they delete an empty folder themselves.
    await this.app.fileManager.trashFile(f);
    return true;
  }
}
