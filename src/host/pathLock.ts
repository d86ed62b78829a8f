// Per-path serialisation of writes within one process: the read-check-publish of one call never
// interleaves with another call's on the same path (our own callers can then only ever see a stale
// hash, never lose an update). Paths are compared case-insensitively, as on macOS and Windows disks.

export class PathLocks {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(paths: string[], fn: () => Promise<T>): Promise<T> {
    const keys = [...new Set(paths.map((p) => p.normalize('NFC').toLowerCase()))].sort();
    const prev = keys.map((k) => this.tails.get(k) ?? Promise.resolve());
    let release!: () => void;
    const mine = new Promise<void>((r) => { release = r; });
    const chained = Promise.all(prev).then(() => mine);
    for (const k of keys) this.tails.set(k, chained);
    await Promise.all(prev);
    try {
      return await fn();
    } finally {
      release();
      for (const k of keys) if (this.tails.get(k) === chained) this.tails.delete(k);
    }
  }
}
