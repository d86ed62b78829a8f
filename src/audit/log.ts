// The audit log: one JSON line per tool call in the plugin data folder. The active file is
// audit.jsonl; it is rotated into audit-<first-ms>.jsonl when it passes auditMaxFileBytes or when a
// new local day begins, and rotated files are deleted after auditRetentionDays or when all of them
// together pass auditMaxTotalBytes. audit-index.json lists the rotated files (the data store has no
// directory listing). Lines are appended in batches, so a busy server does one append per tick.
import type { DataStore } from '../host/port.js';
import type { Settings } from '../core/settings.js';
import { limitSettings } from '../limits/settings.js';
import { dayKey } from '../limits/day.js';
import { RETRY_FIRST_MS, RETRY_MAX_MS } from '../host/storageHealth.js';
import { clearTimeout, setTimeout } from 'node:timers';

export const ACTIVE = 'audit.jsonl';
export const INDEX = 'audit-index.json';
const RING = 2000;
/** Lines kept in memory while the disk refuses them; older ones are dropped (and counted). */
const MAX_QUEUED = 10_000;
const DAY_MS = 86_400_000;

export interface AuditEntry {
  /** ms since epoch */
  t: number;
  key: string;
  key_id: string;
  tool: string;
  /** Summary of the arguments (never contents, never a key), at most 200 characters. */
  args: string;
  ms: number;
  bytes: number;
  /** "ok" or the refusal code. */
  outcome: string;
}

export interface Segment {
  name: string;
  first: number;
  last: number;
  bytes: number;
}

export interface AuditFilter {
  key?: string;
  tool?: string;
  /** "ok", "refused" (any refusal) or one refusal code. */
  outcome?: string;
  since?: number;
}

export function matches(e: AuditEntry, f: AuditFilter): boolean {
  if (f.key && e.key !== f.key && e.key_id !== f.key) return false;
  if (f.tool && e.tool !== f.tool) return false;
  if (f.outcome) {
    if (f.outcome === 'refused' ? e.outcome === 'ok' : e.outcome !== f.outcome) return false;
  }
  if (f.since !== undefined && e.t < f.since) return false;
  return true;
}

export function parseLines(text: string): AuditEntry[] {
  const out: AuditEntry[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const e = JSON.parse(line) as Partial<AuditEntry> | null;
      if (e && typeof e.t === 'number' && typeof e.tool === 'string') out.push(e as AuditEntry);
    } catch { /* a torn last line after a crash */ }
  }
  return out;
}

const decode = (b: Uint8Array | null) => (b ? new TextDecoder().decode(b) : '');

export async function readIndex(data: DataStore): Promise<Segment[]> {
  try {
    const parsed = JSON.parse(decode(await data.read(INDEX)) || '{}') as { segments?: unknown };
    return Array.isArray(parsed.segments) ? (parsed.segments as Segment[]) : [];
  } catch {
    return [];
  }
}

/** Every stored entry, oldest first (rotated files, then the active one, or the `active` bytes already read). For the CLI and tests. */
export async function readAllEntries(data: DataStore, f: AuditFilter = {}, active?: Uint8Array | null): Promise<AuditEntry[]> {
  const out: AuditEntry[] = [];
  for (const seg of await readIndex(data)) {
    if (f.since !== undefined && seg.last < f.since) continue;
    out.push(...parseLines(decode(await data.read(seg.name).catch(() => null))).filter((e) => matches(e, f)));
  }
  const bytes = active !== undefined ? active : await data.read(ACTIVE).catch(() => null);
  out.push(...parseLines(decode(bytes)).filter((e) => matches(e, f)));
  return out;
}

export class AuditLog {
  private queue: string[] = [];
  private chain: Promise<void> = Promise.resolve();
  private scheduled = false;
  private activeBytes = 0;
  private activeFirst: number | null = null;
  private segments: Segment[] = [];
  private readonly ring: AuditEntry[] = [];
  private readonly listeners = new Set<(e: AuditEntry) => void>();

  constructor(private readonly data: DataStore, private readonly settings: () => Settings, private readonly now: () => number = Date.now) {}

  async load(): Promise<void> {
    this.segments = await readIndex(this.data);
    const active = parseLines(decode(await this.data.read(ACTIVE).catch(() => null)));
    this.activeBytes = (await this.data.size(ACTIVE).catch(() => null)) ?? 0;
    this.activeFirst = active[0]?.t ?? null;
    this.ring.push(...active.slice(-RING));
    if (this.segments.length) await this.prune().catch(() => undefined);
  }

  record(e: AuditEntry): void {
    this.ring.push(e);
    if (this.ring.length > RING) this.ring.splice(0, this.ring.length - RING);
    for (const l of this.listeners) { try { l(e); } catch { /* views must not fail calls */ } }
    if (!limitSettings(this.settings()).auditEnabled) return;
    this.queue.push(JSON.stringify(e) + '\n');
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => { this.scheduled = false; void this.flush(); });
    }
  }

  /** Newest first, from memory (the last 2000 calls, including those before a restart). */
  recent(limit = 200, f: AuditFilter = {}): AuditEntry[] {
    const out: AuditEntry[] = [];
    for (let i = this.ring.length - 1; i >= 0 && out.length < limit; i--) if (matches(this.ring[i], f)) out.push(this.ring[i]);
    return out;
  }

  onEntry(fn: (e: AuditEntry) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Writes queued lines; resolves when they are on disk (or kept for a retry when the disk refused). */
  flush(): Promise<void> {
    this.chain = this.chain.then(() => this.drain()).catch(() => this.retryLater());
    return this.chain;
  }

  /** Lines dropped because the disk refused them for longer than the queue could hold. */
  dropped = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private retryMs = RETRY_FIRST_MS;

  /** The disk refused the lines (full, unwritable): they stay queued (bounded) and are written later. */
  private retryLater(): void {
    if (this.queue.length > MAX_QUEUED) {
      this.dropped += this.queue.length - MAX_QUEUED;
      this.queue.splice(0, this.queue.length - MAX_QUEUED);
    }
    if (this.retryTimer) return;
    this.retryTimer = setTimeout(() => { this.retryTimer = null; void this.flush(); }, this.retryMs);
    (this.retryTimer as { unref?: () => void }).unref?.();
    this.retryMs = Math.min(RETRY_MAX_MS, this.retryMs * 2);
  }

  private async drain(): Promise<void> {
    if (!this.queue.length) return;
    const lines = this.queue;
    this.queue = [];
    const text = lines.join('');
    try {
      const s = limitSettings(this.settings());
      const t = this.now();
      const newDay = this.activeFirst !== null && dayKey(this.activeFirst) !== dayKey(t);
      if (this.activeBytes > 0 && (newDay || this.activeBytes + text.length > s.auditMaxFileBytes)) await this.rotate();
      await this.data.append(ACTIVE, text);
      this.activeBytes += Buffer.byteLength(text, 'utf8');
      if (this.activeFirst === null) this.activeFirst = t;
      this.retryMs = RETRY_FIRST_MS;
    } catch (e) {
      this.queue = lines.concat(this.queue); // oldest first, ahead of lines recorded meanwhile
      throw e;
    }
  }

  /** Stops retrying (server stop). */
  stop(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  private async rotate(): Promise<void> {
    const bytes = await this.data.read(ACTIVE);
    if (bytes && bytes.length) {
      const entries = parseLines(decode(bytes));
      const first = entries[0]?.t ?? this.activeFirst ?? this.now();
      const last = entries[entries.length - 1]?.t ?? first;
      let name = `audit-${first}.jsonl`;
      if (this.segments.some((g) => g.name === name)) name = `audit-${first}-${this.segments.length}.jsonl`;
      await this.data.write(name, bytes);
      this.segments.push({ name, first, last, bytes: bytes.length });
    }
    await this.data.remove(ACTIVE);
    this.activeBytes = 0;
    this.activeFirst = null;
    await this.prune();
  }

  private async prune(): Promise<void> {
    const s = limitSettings(this.settings());
    const cutoff = this.now() - s.auditRetentionDays * DAY_MS;
    const keep: Segment[] = [];
    for (const g of this.segments) {
      if (g.last < cutoff) await this.data.remove(g.name).catch(() => undefined);
      else keep.push(g);
    }
    let total = keep.reduce((a, g) => a + g.bytes, 0);
    while (keep.length && total > s.auditMaxTotalBytes) {
      const g = keep.shift()!;
      total -= g.bytes;
      await this.data.remove(g.name).catch(() => undefined);
    }
    this.segments = keep;
    await this.data.write(INDEX, JSON.stringify({ version: 1, segments: keep }, null, 1) + '\n');
  }

  /** Rotated files, oldest first (for the settings tab's "audit log size"). */
  segmentList(): Segment[] {
    return [...this.segments];
  }
}
