// Creation times that survive edits. Headless writes publish by temp file + rename (and other
// editors often save the same way), which gives the note a new inode and so a new birth time on
// disk. The host keeps the creation time it knew instead, and persists the ones that differ from
// the disk's in the data folder (`ctimes.json`: path → inode + time), so they survive a restart.
// A record counts only while the file still has that inode: a file replaced while the server was
// not running gets the disk's time again.
import type { DataStore } from '../port.js';
import { clearTimeout, setTimeout } from 'node:timers';

const FILE = 'ctimes.json';
const SAVE_DELAY_MS = 2000;

interface Rec { ino: number; ctime: number }

export class BirthTimes {
  private recs = new Map<string, Rec>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private dirty = false;

  constructor(private readonly data: DataStore) {}

  async load(): Promise<void> {
    try {
      const bytes = await this.data.read(FILE);
      if (!bytes) return;
      const parsed = JSON.parse(new TextDecoder().decode(bytes)) as { files?: Record<string, Rec> };
      for (const [p, r] of Object.entries(parsed.files ?? {})) {
        if (typeof r?.ino === 'number' && typeof r?.ctime === 'number') this.recs.set(p, { ino: r.ino, ctime: r.ctime });
      }
    } catch { /* unreadable: creation times fall back to the disk's */ }
  }

  /** The creation time to show for a file found by a scan: the kept one when the inode still matches. */
  scanned(path: string, ino: number, diskCtime: number): number {
    const r = this.recs.get(path);
    if (r && r.ino === ino) return r.ctime;
    if (r) this.forget(path);
    return diskCtime;
  }

  /** A known file now has inode `ino` and disk birth `diskCtime`; we keep `ctime`. */
  keep(path: string, ino: number, ctime: number, diskCtime: number): void {
    const r = this.recs.get(path);
    if (ctime === diskCtime) { if (r) this.forget(path); return; }
    if (r && r.ino === ino && r.ctime === ctime) return;
    this.recs.set(path, { ino, ctime });
    this.changed();
  }

  forget(path: string): void {
    if (this.recs.delete(path)) this.changed();
  }

  private changed(): void {
    this.dirty = true;
    if (this.timer) return;
    this.timer = setTimeout(() => { this.timer = null; void this.save(); }, SAVE_DELAY_MS);
    (this.timer as { unref?: () => void }).unref?.();
  }

  /** Writes the records (also on close); a failed save is retried later. */
  async save(final = false): Promise<void> {
    if (this.timer) { clearTimeout(this.timer); this.timer = null; }
    if (!this.dirty) return;
    this.dirty = false;
    const files = Object.fromEntries([...this.recs].sort(([a], [b]) => (a < b ? -1 : 1)));
    try {
      await this.data.write(FILE, JSON.stringify({ version: 1, files }) + '\n');
    } catch {
      this.dirty = true; // full or unwritable data folder: kept in memory, written again later
      if (!this.timer && !final) {
        this.timer = setTimeout(() => { this.timer = null; void this.save(); }, 30_000);
        (this.timer as { unref?: () => void }).unref?.();
      }
    }
  }
}
