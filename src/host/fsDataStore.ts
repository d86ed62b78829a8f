// The plugin's data folder on disk. Both hosts use it (the plugin is desktop-only), so the plugin and
// the CLI share keys, indexes and logs. Writes are atomic: temp file, fsync, rename, fsync the folder.
import { promises as fs, statSync } from 'node:fs';
import { setTimeout } from 'node:timers';
import { join } from 'node:path';
import type { DataStore, WriteBody } from './port.js';
import { StorageHealth } from './storageHealth.js';
import { PieceWriter } from '../core/pieceWriter.js';
import { closeFile, makeFolder, openFile, renameFile, sizeOf, syncFile, truncateFile, writeAll } from './fsCalls.js';

function checkName(name: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) throw new Error(`bad data file name: ${name}`);
}

/** A data-file lock older than this is left over from a crash. */
const LOCK_STALE_MS = 10_000;

/** A text (whole or in parts) written to `fd` through one buffer (at most a megabyte) encoded per round trip. */
async function writeText(fd: number, text: string | readonly string[]): Promise<void> {
  const parts = typeof text === 'string' ? [text] : text;
  // A small text gets a small buffer (UTF-8 takes at most 3 bytes per UTF-16 unit), 4 KB at least so
  // that it is one the piece writer keeps for the next write (core/pieceWriter.ts).
  const units = parts.reduce((n, p) => n + p.length, 0);
  const out = new PieceWriter((piece) => writeAll(fd, piece), Math.min(1 << 20, Math.max(4096, units * 3)));
  for (const part of parts) await out.text(part);
  await out.end();
}

export async function atomicWriteFile(file: string, bytes: WriteBody): Promise<void> {
  const dir = file.slice(0, file.lastIndexOf('/')) || '.';
  // (Not crypto's randomBytes: a Buffer, so an ArrayBuffer, per write; see fsCalls.ts.)
  const tmp = `${file}.${Math.floor(Math.random() * 2 ** 32).toString(16).padStart(8, '0')}.tmp`;
  const fd = await openFile(tmp, 'w', 0o600);
  try {
    try {
      // Big texts (the change feed's state and lines) are encoded a buffer-full (a megabyte) at a time
      // into one reused buffer; each write of it is a thread-pool round trip, so the encoding of the
      // next megabyte is a task of its own.
      if (bytes instanceof Uint8Array) await writeAll(fd, bytes);
      else if (typeof bytes === 'function') await bytes((piece) => writeAll(fd, piece));
      else await writeText(fd, bytes);
      await syncFile(fd);
    } finally {
      await closeFile(fd);
    }
    await renameFile(tmp, file);
  } catch (e) {
    // A full disk or a writer that gave up: the half-written temp file goes, the old file stays.
    await fs.rm(tmp, { force: true });
    throw e;
  }
  const d = await openFile(dir, 'r').catch(() => null);
  if (d !== null) { await syncFile(d).catch(() => undefined); await closeFile(d); }
}

/**
 * Appends a text given in parts, encoded a buffer-full at a time as atomicWriteFile writes (the change
 * feed's lines after a 100k-note move, joined and encoded in one go, were two tasks of 97 and 138 ms in
 * a profile). A failure cuts the file back to its length before: no half-added lines.
 */
async function appendText(file: string, text: string | readonly string[]): Promise<void> {
  const fd = await openFile(file, 'a', 0o600);
  let before = -1;
  try {
    before = await sizeOf(fd);
    await writeText(fd, text);
  } catch (e) {
    if (before >= 0) await truncateFile(fd, before).catch(() => undefined);
    throw e;
  } finally {
    await closeFile(fd);
  }
}

export class FsDataStore implements DataStore {
  /** Failed writes by file name, until that file is written again (reported by /health). */
  readonly health = new StorageHealth();

  constructor(readonly dir: string) {}

  /** Records the outcome of a write of `name` in `health`; the error still reaches the caller. */
  private async tracked(name: string, fn: () => Promise<void>): Promise<void> {
    try {
      await fn();
      this.health.ok(name);
    } catch (e) {
      this.health.failed(name, e);
      throw e;
    }
  }

  async ensure(): Promise<void> {
    await makeFolder(this.dir);
  }

  async read(name: string): Promise<Uint8Array | null> {
    checkName(name);
    try {
      // A view, not a copy: copying a 120 MB Buffer into a new Uint8Array held the thread for a second.
      const b = await fs.readFile(join(this.dir, name));
      return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
  }

  async write(name: string, bytes: WriteBody): Promise<void> {
    checkName(name);
    await this.tracked(name, async () => {
      await this.ensure();
      await atomicWriteFile(join(this.dir, name), bytes);
    });
  }

  async append(name: string, text: string | readonly string[]): Promise<void> {
    checkName(name);
    await this.tracked(name, async () => {
      await this.ensure();
      await appendText(join(this.dir, name), text);
    });
  }

  async remove(name: string): Promise<void> {
    checkName(name);
    await fs.rm(join(this.dir, name), { force: true });
  }

  async lock(name: string): Promise<() => Promise<void>> {
    checkName(name);
    // Taking the lock is the first write of a read-modify-write: its failure is that file's failure.
    try { return await this.takeLock(name); } catch (e) { this.health.failed(name, e); throw e; }
  }

  private async takeLock(name: string): Promise<() => Promise<void>> {
    await this.ensure();
    const file = join(this.dir, `${name}.lock`);
    for (let attempt = 0; ; attempt++) {
      try {
        const fh = await fs.open(file, 'wx', 0o600);
        await fh.writeFile(`${process.pid}\n`);
        await fh.close();
        return async () => { await fs.rm(file, { force: true }).catch(() => undefined); };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
        const st = await fs.stat(file).catch(() => null);
        // A holder that crashed leaves its lock behind: one older than the longest write is broken.
        if (st && Date.now() - st.mtimeMs > LOCK_STALE_MS) { await fs.rm(file, { force: true }); continue; }
        if (attempt >= 1000) throw new Error(`${file} is held by another process; retry in a moment`);
        await new Promise((r) => setTimeout(r, 10));
      }
    }
  }

  async signature(name: string): Promise<string | null> {
    checkName(name);
    try {
      // Synchronous: one stat of a small file, asked before every request (key refresh); the promise
      // form cost the app's thread far more than the call itself under load (seen at 30k notes).
      const s = statSync(join(this.dir, name), { bigint: true });
      return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
    } catch {
      return null;
    }
  }

  async size(name: string): Promise<number | null> {
    checkName(name);
    try {
      return (await fs.stat(join(this.dir, name))).size;
    } catch {
      return null;
    }
  }
}
