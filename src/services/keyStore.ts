// Keys persisted as hashes in keys.json in the plugin data folder, shared by the plugin and the CLI.
// Every authentication first compares the file's fingerprint (one stat: inode, size, times) with the
// one it had when last read and re-reads it when it changed, so a key added or revoked from the CLI
// (or the settings tab) takes effect on the very next request of a running server.
import type { DataStore } from '../host/port.js';
import { findKey, generateRawKey, hashKey, KEY_NAME, type KeyRecord } from '../core/keys.js';
import { refuse } from '../core/errors.js';
import { clearTimeout, setTimeout } from 'node:timers';

const FILE = 'keys.json';

export interface NewKey {
  name: string;
  scope: 'read' | 'readwrite';
  root?: string;
  disabledFamilies?: string[];
  expires?: number | null;
  dailyQuota?: number | null;
}

export class KeyStore {
  private records: KeyRecord[] = [];
  private ephemeral: KeyRecord[] = [];
  /** Raw in-memory keys (any shape): the audit log masks them wherever they appear. */
  private ephemeralRaw: string[] = [];
  private loadedAt = -Infinity;
  /** keys.json's fingerprint when it was last read (undefined: never read, or no fingerprints). */
  private seen: string | null | undefined = undefined;
  private dirtyUse = new Map<string, number>();
  private flushTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly data: DataStore, private readonly now: () => number = Date.now) {}

  async load(): Promise<void> {
    const sig = await this.data.signature?.(FILE).catch(() => undefined);
    const bytes = await this.data.read(FILE);
    let list: KeyRecord[] = [];
    if (bytes) {
      try {
        const parsed = JSON.parse(new TextDecoder().decode(bytes)) as { keys?: unknown } | null;
        if (Array.isArray(parsed?.keys)) list = parsed.keys as KeyRecord[];
      } catch {
        throw new Error(`${this.data.dir}/${FILE} is not valid JSON; fix or delete it (deleting removes every key).`);
      }
    }
    // Uses not yet written back (touch() flushes every 5 s) survive a re-read.
    for (const r of list) { const t = this.dirtyUse.get(r.id); if (t) r.lastUsed = Math.max(r.lastUsed ?? 0, t); }
    this.records = list;
    this.loadedAt = this.now();
    this.seen = sig;
  }

  /**
   * Re-reads keys.json when it changed since the last read: one stat per call, so a revocation by
   * another process is seen by the next request. (A store without fingerprints re-reads every 2 s.)
   */
  async refresh(): Promise<void> {
    if (!this.data.signature) {
      if (this.now() - this.loadedAt > 2000) await this.load();
      return;
    }
    const sig = await this.data.signature(FILE);
    if (sig !== this.seen || this.seen === undefined) await this.load();
  }

  /**
   * Every read-modify-write of keys.json (add, update, revoke, the last-use flush) holds the data
   * folder's lock on it, shared with other processes (the CLI, the plugin): otherwise a flush that
   * read the file just before `keys revoke` wrote it would write the revoked key back.
   */
  private async locked<T>(fn: () => Promise<T>): Promise<T> {
    const release = await this.data.lock?.(FILE);
    try {
      await this.load();
      return await fn();
    } finally {
      await release?.();
    }
  }

  private async save(): Promise<void> {
    await this.data.write(FILE, JSON.stringify({ version: 1, keys: this.records }, null, 2) + '\n');
  }

  list(): KeyRecord[] {
    return [...this.records, ...this.ephemeral];
  }

  async add(spec: NewKey): Promise<{ raw: string; record: KeyRecord }> {
    return this.locked(() => this.addLocked(spec));
  }

  private async addLocked(spec: NewKey): Promise<{ raw: string; record: KeyRecord }> {
    if (!KEY_NAME.test(spec.name)) refuse('invalid_argument', `Key name "${spec.name}" is not allowed: use 1–64 letters, digits, spaces, "_", ".", "@" or "-".`);
    if (this.list().some((r) => r.name === spec.name && !r.revoked)) refuse('already_exists', `A key named "${spec.name}" already exists; pick another name or revoke the old key first.`);
    const raw = generateRawKey();
    const hash = hashKey(raw);
    const record: KeyRecord = {
      id: hash.slice(0, 8), name: spec.name, scope: spec.scope, hash, created: this.now(), lastUsed: null,
      ...(spec.root ? { root: spec.root } : {}),
      ...(spec.disabledFamilies?.length ? { disabledFamilies: spec.disabledFamilies } : {}),
      ...(spec.expires ? { expires: spec.expires } : {}),
      ...(spec.dailyQuota !== undefined ? { dailyQuota: spec.dailyQuota } : {}),
    };
    this.records = this.records.filter((r) => r.name !== spec.name);
    this.records.push(record);
    await this.save();
    return { raw, record };
  }

  /** Changes a key's restrictions (settings tab); open sessions pick them up on their next request. */
  async update(name: string, patch: Partial<Pick<KeyRecord, 'scope' | 'root' | 'disabledFamilies' | 'expires' | 'dailyQuota'>>): Promise<KeyRecord> {
    return this.locked(async () => {
      const rec = this.records.find((r) => r.name === name && !r.revoked);
      if (!rec) refuse('not_found', `No key named "${name}".`);
      for (const [k, v] of Object.entries(patch) as [keyof typeof patch, unknown][]) {
        if (v === undefined || (k === 'root' && v === '') || (k === 'disabledFamilies' && Array.isArray(v) && !v.length)) delete rec[k];
        else (rec as unknown as Record<string, unknown>)[k] = v;
      }
      await this.save();
      return rec;
    });
  }

  /** A key that lives only in this process (VAULT_MCP_TOKEN for scripts). */
  addEphemeral(raw: string, name: string, scope: 'read' | 'readwrite'): void {
    const hash = hashKey(raw);
    this.ephemeral.push({ id: hash.slice(0, 8), name, scope, hash, created: this.now(), lastUsed: null, ephemeral: true });
    this.ephemeralRaw.push(raw);
  }

  /** The raw secrets this process holds (in-memory keys); persisted keys exist only as hashes. */
  secrets(): readonly string[] {
    return this.ephemeralRaw;
  }

  async revoke(name: string): Promise<boolean> {
    return this.locked(async () => {
      const before = this.records.length;
      this.records = this.records.filter((r) => r.name !== name);
      const hit = this.records.length !== before;
      if (hit) await this.save();
      return hit;
    });
  }

  /** The live record for a raw key, or null (unknown, revoked or expired). */
  async authenticate(raw: string): Promise<KeyRecord | null> {
    await this.refresh().catch(() => undefined);
    const rec = findKey(this.list(), raw);
    if (!rec || rec.revoked) return null;
    if (rec.expires && this.now() >= rec.expires) return null;
    return rec;
  }

  /** Records last use; written back at most every 5 s. */
  touch(rec: KeyRecord): void {
    rec.lastUsed = this.now();
    if (rec.ephemeral) return;
    this.dirtyUse.set(rec.id, rec.lastUsed);
    this.scheduleFlush(5000);
  }

  private scheduleFlush(ms: number): void {
    if (this.flushTimer) return;
    // From a timer nobody awaits: a failure is kept (uses stay dirty, retried later), never thrown.
    this.flushTimer = setTimeout(() => { this.flushTimer = null; this.flush().catch(() => undefined); }, ms);
    (this.flushTimer as { unref?: () => void }).unref?.();
  }

  /** Delay before retrying a failed last-use write (doubles up to a minute; reset by a success). */
  private retryMs = 5000;

  async flush(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (!this.dirtyUse.size) return;
    const uses = new Map(this.dirtyUse);
    this.dirtyUse.clear();
    try {
      await this.locked(async () => {
        for (const r of this.records) { const t = uses.get(r.id); if (t) r.lastUsed = Math.max(r.lastUsed ?? 0, t); }
        await this.save();
      });
      this.retryMs = 5000;
    } catch (e) {
      // Unwritable or full data folder: the uses are kept and written when it works again.
      for (const [id, t] of uses) if ((this.dirtyUse.get(id) ?? 0) < t) this.dirtyUse.set(id, t);
      this.scheduleFlush(this.retryMs);
      this.retryMs = Math.min(60_000, this.retryMs * 2);
      throw e;
    }
  }

  /** Is a (persisted) key still live? Used by open sessions on every request. */
  isLive(id: string): boolean {
    const r = this.list().find((k) => k.id === id);
    return !!r && !r.revoked && !(r.expires && this.now() >= r.expires);
  }
}
