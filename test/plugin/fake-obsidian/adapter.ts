// FileSystemAdapter over a real folder: vault-relative paths in, node fs underneath.
import { promises as fs, existsSync } from 'node:fs';
import { basename, join } from 'node:path';

export class FileSystemAdapter {
  constructor(private readonly basePath: string) {}

  getName(): string { return basename(this.basePath); }
  getBasePath(): string { return this.basePath; }
  getFullPath(normalizedPath: string): string { return join(this.basePath, normalizedPath); }

  async exists(normalizedPath: string, _sensitive?: boolean): Promise<boolean> {
    return existsSync(this.getFullPath(normalizedPath));
  }

  async stat(normalizedPath: string): Promise<{ type: 'file' | 'folder'; ctime: number; mtime: number; size: number } | null> {
    try {
      const s = await fs.stat(this.getFullPath(normalizedPath));
      return { type: s.isDirectory() ? 'folder' : 'file', ctime: s.birthtimeMs || s.ctimeMs, mtime: s.mtimeMs, size: s.size };
    } catch {
      return null;
    }
  }

  /** Like the app: vault-relative paths of the direct children, dot-entries included. */
  async list(normalizedPath: string): Promise<{ files: string[]; folders: string[] }> {
    const dir = normalizedPath === '/' ? '' : normalizedPath;
    const entries = await fs.readdir(this.getFullPath(dir), { withFileTypes: true });
    const rel = (n: string) => (dir ? `${dir}/${n}` : n);
    return { files: entries.filter((e) => e.isFile()).map((e) => rel(e.name)), folders: entries.filter((e) => e.isDirectory()).map((e) => rel(e.name)) };
  }

  read(normalizedPath: string): Promise<string> { return fs.readFile(this.getFullPath(normalizedPath), 'utf8'); }
  async readBinary(normalizedPath: string): Promise<ArrayBuffer> {
    const b = await fs.readFile(this.getFullPath(normalizedPath));
    return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
  }
  write(normalizedPath: string, data: string): Promise<void> { return fs.writeFile(this.getFullPath(normalizedPath), data); }
  writeBinary(normalizedPath: string, data: ArrayBuffer): Promise<void> { return fs.writeFile(this.getFullPath(normalizedPath), new Uint8Array(data)); }
  async mkdir(normalizedPath: string): Promise<void> { await fs.mkdir(this.getFullPath(normalizedPath), { recursive: true }); }
  remove(normalizedPath: string): Promise<void> { return fs.rm(this.getFullPath(normalizedPath), { force: true }); }
  rmdir(normalizedPath: string, recursive: boolean): Promise<void> { return fs.rm(this.getFullPath(normalizedPath), { recursive, force: true }); }
  rename(from: string, to: string): Promise<void> { return fs.rename(this.getFullPath(from), this.getFullPath(to)); }
}
