// Headless writes: stage the new bytes in a hidden temp file in the same folder (`.<name>.<rand>.tmp`,
// invisible to the scan and the watcher), fsync it, then publish: a new file by link() (fails when
// the name is taken: no clobber), a replacement by rename() (atomic), then fsync the folder. A crash
// at any point leaves the old bytes or the new bytes under the name, never a truncated file; a
// leftover temp file stays hidden. After each write the host is told (refresh/renamed) before the
// call returns, so the caller's next read, listing and search see it.
import { promises as fs, constants as C } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, dirname as pathDirname, basename as pathBasename, relative, sep } from 'node:path';
import type { FileStat } from '../port.js';
import { WriteError, type Check, type ProcessResult, type RenameResult, type VaultWriter } from '../writer.js';
import { PathLocks } from '../pathLock.js';
import { trashName, TRASH_DIR } from '../../core/trash.js';

/** What the writer needs from NodeHost (kept narrow so tests can drive it). */
export interface NodeWriterHost {
  readonly basePath: string;
  diskPath(path: string): string;
  stat(path: string): FileStat | null;
  isFolder(path: string): boolean;
  files(): FileStat[];
  folders(): string[];
  refresh(path: string, diskRel?: string): Promise<void>;
  renamed(oldPath: string, newPath: string): Promise<void>;
}

const enc = new TextEncoder();
const toBytes = (d: Uint8Array | string) => (typeof d === 'string' ? enc.encode(d) : d);

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const code = (e: unknown) => (e as NodeJS.ErrnoException)?.code;

async function fsyncDir(dir: string): Promise<void> {
  const d = await fs.open(dir, 'r').catch(() => null);
  if (!d) return;
  try { await d.sync(); } catch { /* some file systems cannot fsync a folder */ } finally { await d.close(); }
}

export class NodeWriter implements VaultWriter {
  private readonly locks = new PathLocks();
  private realBase: string | null = null;
  /** Test hook: runs after the temp file is staged and before the replace is checked and published. */
  beforePublish: ((path: string) => Promise<void> | void) | null = null;

  constructor(private readonly host: NodeWriterHost, private readonly now: () => number = Date.now) {}

  private abs(path: string): string {
    return this.host.stat(path) || this.host.isFolder(path) ? this.host.diskPath(path) : join(this.host.basePath, path);
  }

  /** Vault-relative disk spelling of a path (the existing spelling when the host knows it). */
  private diskRel(path: string): string {
    return relative(this.host.basePath, this.abs(path)).split(sep).join('/');
  }

  /**
   * Writes never follow a symbolic link in ANY component. Checks, from the vault root down, every
   * component of `path` that exists: none may be a symlink, every one but the last must be a folder.
   * Creates nothing; returns how many leading components exist (all of them = the path exists).
   */
  private async walk(path: string): Promise<number> {
    const parts = this.diskRel(path).split('/');
    let abs = this.host.basePath;
    for (let i = 0; i < parts.length; i++) {
      abs = join(abs, parts[i]);
      let st;
      try { st = await fs.lstat(abs); } catch (e) { if (code(e) === 'ENOENT' || code(e) === 'ENOTDIR') return i; throw e; }
      const at = parts.slice(0, i + 1).join('/').normalize('NFC');
      if (st.isSymbolicLink()) {
        throw new WriteError('symlink', i === parts.length - 1 ? `"${at}" is a symbolic link; writes never follow one` : `"${at}" (a folder on the way to "${path}") is a symbolic link; writes never follow one`, at);
      }
      if (i < parts.length - 1 && !st.isDirectory()) throw new WriteError('not_file', `"${at}" is a file, not a folder`, at);
    }
    return parts.length;
  }

  /** Last guard before publishing: the folder's real path is exactly the vault's folder (nothing swapped in meanwhile). */
  private async checkInside(absDir: string, path: string): Promise<void> {
    this.realBase ??= await fs.realpath(this.host.basePath);
    const real = await fs.realpath(absDir).catch(() => null);
    const want = join(this.realBase, relative(this.host.basePath, absDir));
    if (real === null || real.normalize('NFC') !== want.normalize('NFC')) {
      throw new WriteError('outside', `the folder of "${path}" is not where it should be in the vault (a symbolic link?); writes never leave the vault`, path);
    }
  }

  /**
   * Creates the missing parent folders of `path` one at a time, AFTER walk() checked the existing
   * ones (no mkdir -p of anything a symlink leads to), then re-checks the folder's real path.
   */
  private async ensureParents(path: string): Promise<number> {
    const existing = await this.walk(path);
    const parts = this.diskRel(path).split('/');
    let abs = this.host.basePath;
    for (let i = 0; i < parts.length - 1; i++) {
      abs = join(abs, parts[i]);
      if (i < existing) continue;
      try { await fs.mkdir(abs); } catch (e) { if (code(e) !== 'EEXIST') throw e; }
      const st = await fs.lstat(abs);
      if (st.isSymbolicLink() || !st.isDirectory()) throw new WriteError('outside', `"${parts.slice(0, i + 1).join('/')}" changed while the folder was being created; nothing was written`, path);
    }
    const dir = pathDirname(join(this.host.basePath, parts.join('/')));
    await this.checkInside(dir, path);
    return existing;
  }

  private async lstatFile(abs: string, path: string): Promise<import('node:fs').Stats | null> {
    let st;
    try { st = await fs.lstat(abs); } catch (e) { if (code(e) === 'ENOENT' || code(e) === 'ENOTDIR') return null; throw e; }
    if (st.isSymbolicLink()) throw new WriteError('symlink', `"${path}" is a symbolic link; writes never follow one`, path);
    if (!st.isFile()) throw new WriteError('not_file', `"${path}" is not a regular file`, path);
    return st;
  }

  /** Writes `bytes` to a hidden temp file beside `abs`, fsynced; returns its path. */
  private async stage(abs: string, bytes: Uint8Array, mode = 0o644): Promise<string> {
    const tmp = join(pathDirname(abs), `.${pathBasename(abs)}.${randomBytes(6).toString('hex')}.tmp`);
    const fh = await fs.open(tmp, C.O_WRONLY | C.O_CREAT | C.O_EXCL, mode);
    try {
      await fh.writeFile(bytes);
      await fh.sync();
    } catch (e) {
      await fh.close().catch(() => undefined);
      await fs.rm(tmp, { force: true });
      throw e;
    }
    await fh.close();
    return tmp;
  }

  /** Publishes a staged temp file under a name that must be free (hard link, or O_EXCL copy-free fallback). */
  private async publishNew(tmp: string, abs: string, path: string): Promise<void> {
    try {
      await fs.link(tmp, abs);
    } catch (e) {
      if (code(e) === 'EEXIST') { await fs.rm(tmp, { force: true }); throw new WriteError('exists', `"${path}" already exists`, path); }
      if (code(e) !== 'EPERM' && code(e) !== 'ENOTSUP' && code(e) !== 'EOPNOTSUPP' && code(e) !== 'EXDEV') { await fs.rm(tmp, { force: true }); throw e; }
      // No hard links here (some network/FAT file systems): reserve the name with O_EXCL, then rename over our own reservation.
      let fh;
      try { fh = await fs.open(abs, C.O_WRONLY | C.O_CREAT | C.O_EXCL, 0o644); } catch (e2) {
        await fs.rm(tmp, { force: true });
        if (code(e2) === 'EEXIST') throw new WriteError('exists', `"${path}" already exists`, path);
        throw e2;
      }
      await fh.close();
      await fs.rename(tmp, abs);
      return;
    }
    await fs.rm(tmp, { force: true });
  }

  async create(path: string, data: Uint8Array | string): Promise<FileStat> {
    return this.locks.run([path], async () => {
      if (this.host.stat(path) || this.host.isFolder(path)) throw new WriteError('exists', `"${path}" already exists`, path);
      const abs = join(this.host.basePath, path);
      const dir = pathDirname(abs);
      if ((await this.ensureParents(path)) === path.split('/').length) throw new WriteError('exists', `"${path}" already exists`, path);
      const tmp = await this.stage(abs, toBytes(data));
      await this.publishNew(tmp, abs, path);
      await fsyncDir(dir);
      await this.host.refresh(path, path);
      const st = this.host.stat(path);
      if (!st) throw new Error(`"${path}" was written but is not visible`);
      return st;
    });
  }

  private async replace(path: string, abs: string, before: Uint8Array, after: Uint8Array, mode: number): Promise<void> {
    const dir = pathDirname(abs);
    await this.checkInside(dir, path);
    const tmp = await this.stage(abs, after, mode & 0o7777);
    try {
      await this.beforePublish?.(path);
      // Someone else (sync, an editor, git) may have written since our read: then publish nothing.
      const st = await fs.lstat(abs).catch(() => null);
      if (!st || !st.isFile()) throw new WriteError('changed', `"${path}" was removed or replaced while we were writing it`, path);
      const now = new Uint8Array(await fs.readFile(abs));
      if (!sameBytes(now, before)) throw new WriteError('changed', `"${path}" changed while we were writing it`, path);
      await fs.rename(tmp, abs);
    } catch (e) {
      await fs.rm(tmp, { force: true });
      throw e;
    }
    await fsyncDir(dir);
    await this.host.refresh(path);
  }

  async process(path: string, fn: (current: Uint8Array) => Uint8Array | string | null): Promise<ProcessResult> {
    return this.locks.run([path], async () => {
      const abs = this.abs(path);
      await this.walk(path);
      const st = await this.lstatFile(abs, path);
      if (!st) throw new WriteError('missing', `"${path}" does not exist`, path);
      const before = new Uint8Array(await fs.readFile(abs));
      const out = fn(before);
      if (out === null) return { before, after: before, changed: false };
      const after = toBytes(out);
      if (sameBytes(before, after)) return { before, after, changed: false };
      await this.replace(path, abs, before, after, st.mode);
      return { before, after, changed: true };
    });
  }

  async writeBinary(path: string, data: Uint8Array, opts: { overwrite: boolean; check?: (current: Uint8Array | null) => void }): Promise<{ created: boolean }> {
    return this.locks.run([path], async () => {
      if (this.host.isFolder(path)) throw new WriteError('not_file', `"${path}" is a folder`, path);
      const abs = this.abs(path);
      const exists = (await this.walk(path)) === path.split('/').length;
      const st = exists ? await this.lstatFile(abs, path) : null;
      if (st) {
        if (!opts.overwrite) throw new WriteError('exists', `"${path}" already exists`, path);
        const before = new Uint8Array(await fs.readFile(abs));
        opts.check?.(before);
        if (!sameBytes(before, data)) await this.replace(path, abs, before, data, st.mode);
        return { created: false };
      }
      opts.check?.(null);
      const dir = pathDirname(abs);
      await this.ensureParents(path);
      const tmp = await this.stage(abs, data);
      await this.publishNew(tmp, abs, path);
      await fsyncDir(dir);
      await this.host.refresh(path, path);
      return { created: true };
    });
  }

  async rename(from: string, to: string, opts: { updateLinks?: boolean; check?: Check } = {}): Promise<RenameResult> {
    return this.locks.run([from, to], async () => {
      const isDir = this.host.isFolder(from);
      const src = this.abs(from);
      const dst = join(this.host.basePath, to);
      if ((await this.walk(from)) < from.split('/').length) throw new WriteError('missing', `"${from}" does not exist`, from);
      if ((await this.walk(to)) === to.split('/').length) throw new WriteError('exists', `"${to}" already exists`, to);
      if (this.host.stat(to) || this.host.isFolder(to) || (await fs.lstat(dst).then(() => true, () => false))) {
        throw new WriteError('exists', `"${to}" already exists`, to);
      }
      const st = await fs.lstat(src).catch(() => null);
      if (!st) throw new WriteError('missing', `"${from}" does not exist`, from);
      if (st.isSymbolicLink()) throw new WriteError('symlink', `"${from}" is a symbolic link; move the file it points to instead`, from);
      if (opts.check && st.isFile()) opts.check(new Uint8Array(await fs.readFile(src)));
      await this.checkInside(pathDirname(src), from);
      await this.ensureParents(to);
      if (!isDir && !st.isDirectory()) {
        // link + unlink: fails instead of replacing when the destination appeared meanwhile.
        let linked = false;
        try { await fs.link(src, dst); linked = true; } catch (e) {
          if (code(e) === 'EEXIST') throw new WriteError('exists', `"${to}" already exists`, to);
          if (code(e) !== 'EPERM' && code(e) !== 'ENOTSUP' && code(e) !== 'EOPNOTSUPP' && code(e) !== 'EXDEV') throw e;
        }
        if (linked) await fs.unlink(src); else await fs.rename(src, dst);
      } else {
        // Folders cannot be hard-linked: checked free above; rename never replaces a non-empty folder.
        await fs.rename(src, dst);
      }
      await fsyncDir(pathDirname(dst));
      if (pathDirname(dst) !== pathDirname(src)) await fsyncDir(pathDirname(src));
      if (isDir || st.isDirectory()) {
        const prefix = from + '/';
        const subfolders = this.host.folders().filter((f) => f.startsWith(prefix)).map((f) => to + f.slice(from.length));
        for (const f of this.host.files().filter((x) => x.path.startsWith(prefix))) await this.host.renamed(f.path, to + f.path.slice(from.length));
        await this.host.refresh(from);
        await this.host.refresh(to);
        for (const f of subfolders) await this.host.refresh(f);
      } else {
        await this.host.renamed(from, to);
      }
      return { linksUpdated: false };
    });
  }

  async trash(path: string, check?: Check): Promise<string> {
    return this.locks.run([path], async () => {
      const abs = this.abs(path);
      await this.walk(path);
      const st = await this.lstatFile(abs, path);
      if (!st) throw new WriteError('missing', `"${path}" does not exist`, path);
      await this.checkInside(pathDirname(abs), path);
      check?.(new Uint8Array(await fs.readFile(abs)));
      const trashAbs = join(this.host.basePath, TRASH_DIR);
      // .trash must be a real folder of the vault: created here if missing, never followed if a symlink.
      await fs.mkdir(trashAbs).catch((e) => { if (code(e) !== 'EEXIST') throw e; });
      const tst = await fs.lstat(trashAbs);
      if (!tst.isDirectory()) throw new WriteError('outside', `${TRASH_DIR} in the vault is not a folder (a symbolic link?); nothing was moved`, path);
      for (let attempt = 0; ; attempt++) {
        const rel = trashName(path, this.now(), randomBytes(4).toString('hex'));
        const dst = join(this.host.basePath, rel);
        try {
          await fs.link(abs, dst);
          await fs.unlink(abs);
        } catch (e) {
          if (code(e) === 'EEXIST' && attempt < 5) continue;
          if (code(e) === 'EPERM' || code(e) === 'ENOTSUP' || code(e) === 'EOPNOTSUPP' || code(e) === 'EXDEV') {
            if (await fs.lstat(dst).then(() => true, () => false)) continue;
            await fs.rename(abs, dst);
          } else throw e;
        }
        await fsyncDir(trashAbs);
        await fsyncDir(pathDirname(abs));
        await this.host.refresh(path);
        return rel;
      }
    });
  }

  async remove(path: string, check?: Check): Promise<null> {
    return this.locks.run([path], async () => {
      const abs = this.abs(path);
      await this.walk(path);
      const st = await this.lstatFile(abs, path);
      if (!st) throw new WriteError('missing', `"${path}" does not exist`, path);
      await this.checkInside(pathDirname(abs), path);
      check?.(new Uint8Array(await fs.readFile(abs)));
      await fs.unlink(abs);
      await fsyncDir(pathDirname(abs));
      await this.host.refresh(path);
      return null;
    });
  }

  async mkdir(path: string): Promise<void> {
    if ((await this.ensureParents(path)) < path.split('/').length) {
      const abs = join(this.host.basePath, path);
      try { await fs.mkdir(abs); } catch (e) { if (code(e) !== 'EEXIST') throw e; }
      await this.walk(path);
    }
    await this.host.refresh(path, path);
  }

  async removeEmptyFolder(path: string): Promise<boolean> {
    const abs = this.abs(path);
    try { await this.walk(path); await fs.rmdir(abs); } catch { return false; }
    await fsyncDir(pathDirname(abs));
    await this.host.refresh(path);
    return true;
  }
}
