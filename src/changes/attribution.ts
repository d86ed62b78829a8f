// Which key made a change: the write path records its intent BEFORE it writes, and the host event that
// follows for that path (within OWN_TTL_MS) takes the record. Events nobody recorded are `human`.

const OWN_TTL_MS = 30_000;

export type OwnKind = 'created' | 'modified' | 'moved' | 'deleted';
export interface OwnRecord { kind: OwnKind; key: string; at: number; from?: string; reason?: string }

export class OwnRecords {
  private readonly own = new Map<string, OwnRecord[]>();

  constructor(private readonly now: () => number) {}

  /** Records a write about to happen at `path` (a move: the NEW path and `from`); returns its withdrawal. */
  record(path: string, kind: OwnKind, keyName: string, opts: { from?: string; reason?: string } = {}): () => void {
    const p = path.normalize('NFC');
    const rec: OwnRecord = { kind, key: keyName, at: this.now(), ...(opts.from ? { from: opts.from.normalize('NFC') } : {}), ...(opts.reason ? { reason: opts.reason } : {}) };
    const list = this.own.get(p) ?? [];
    list.push(rec);
    this.own.set(p, list);
    return () => {
      const l = this.own.get(p);
      if (!l) return;
      const i = l.indexOf(rec);
      if (i >= 0) l.splice(i, 1);
      if (!l.length) this.own.delete(p);
    };
  }

  /** The oldest live record for `path` (else `alt`), taken; null when the change is nobody's. */
  take(path: string, alt?: string): OwnRecord | null {
    const limit = this.now() - OWN_TTL_MS;
    for (const p of alt ? [path, alt] : [path]) {
      const list = this.own.get(p);
      if (!list) continue;
      while (list.length && list[0].at < limit) list.shift();
      const rec = list.shift() ?? null;
      if (!list.length) this.own.delete(p);
      if (rec) return rec;
    }
    return null;
  }
}
