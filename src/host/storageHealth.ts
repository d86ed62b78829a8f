// Background saves (keys' last use, the audit log, usage counters, indexes, the change feed, creation
// times) run with no caller waiting for them. A failed save must not end the process or vanish: the
// data store records it here by file name, /health and the status bar report it, the saver keeps its
// data and retries, and the next successful write of that file clears it. Only file names and causes
// in words are kept (no absolute path, no errno text), so the report is safe to show anywhere.
import { clearTimeout, setTimeout } from 'node:timers';

export interface SaveProblem {
  /** The data file (e.g. "keys.json"), never a path. */
  file: string;
  /** The cause in words ("the disk is full"). */
  cause: string;
  /** When it first failed (ms since epoch) and how many attempts failed since. */
  since: number;
  failures: number;
}

const CAUSES: Record<string, string> = {
  ENOSPC: 'the disk is full', EDQUOT: 'the disk quota is used up', EACCES: 'no permission to write the data folder',
  EPERM: 'no permission to write the data folder', EROFS: 'the data folder is on a read-only file system',
  ENOTDIR: 'the data folder is not a folder', EEXIST: 'a file is in the way of the data folder', EISDIR: 'a folder is in the way of a data file', EIO: 'the disk reported an input/output error',
  EMFILE: 'too many open files', ENFILE: 'too many open files', EBUSY: 'the file is locked by another program',
};

export function causeOf(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code;
  return (typeof code === 'string' && CAUSES[code]) || 'the write failed';
}

export class StorageHealth {
  private readonly failing = new Map<string, SaveProblem>();
  constructor(private readonly now: () => number = Date.now) {}

  ok(file: string): void {
    this.failing.delete(file);
  }

  failed(file: string, e: unknown): void {
    const had = this.failing.get(file);
    this.failing.set(file, { file, cause: causeOf(e), since: had?.since ?? this.now(), failures: (had?.failures ?? 0) + 1 });
  }

  problems(): SaveProblem[] {
    return [...this.failing.values()];
  }
}

/** Retry delays for a background save that failed: 2 s, doubling, at most 60 s. */
export const RETRY_FIRST_MS = 2000;
export const RETRY_MAX_MS = 60_000;

/**
 * Runs a background save and, when it fails, runs it again later (backing off) until it succeeds or
 * `cancel()` is called; never rejects. One per saver: a new `run` replaces a pending retry.
 */
export class Retrier {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private delay = RETRY_FIRST_MS;
  private stopped = false;

  constructor(private readonly save: () => Promise<void>) {}

  /** Saves now; on failure schedules a retry. Resolves true when this attempt succeeded. */
  async run(): Promise<boolean> {
    if (this.timer) { clearTimeout(this.timer); this.timer = null; }
    try {
      await this.save();
      this.delay = RETRY_FIRST_MS;
      return true;
    } catch {
      if (!this.stopped) {
        this.timer = setTimeout(() => { this.timer = null; void this.run(); }, this.delay);
        (this.timer as { unref?: () => void }).unref?.();
        this.delay = Math.min(RETRY_MAX_MS, this.delay * 2);
      }
      return false;
    }
  }

  get pending(): boolean {
    return this.timer !== null;
  }

  cancel(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
