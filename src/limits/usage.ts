// Per-key daily counters, persisted as usage.json in the plugin data folder so a daily quota survives
// restarts and the activity view can chart the last 14 days without reading the audit log.
// `admitted` counts calls the limits let through (what the quota is charged with); `ok` and `refused`
// count outcomes (refusals by the limits included), so the chart shows refusals apart.
import type { DataStore } from '../host/port.js';
import { dayKey, lastDays } from './day.js';
import { clearTimeout, setTimeout } from 'node:timers';

const FILE = 'usage.json';
const KEEP_DAYS = 35;

export interface DayCount {
  name: string;
  admitted: number;
  ok: number;
  refused: number;
  lastUsed: number;
}

type Days = Record<string, Record<string, DayCount>>; // day → key id → counts

export class UsageStore {
  private days: Days = {};
  private timer: ReturnType<typeof setTimeout> | null = null;
  private dirty = false;
  private writing: Promise<void> = Promise.resolve();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly data: DataStore, private readonly now: () => number = Date.now, private readonly flushMs = 5000) {}

  async load(): Promise<void> {
    const bytes = await this.data.read(FILE).catch(() => null);
    if (!bytes) return;
    try {
      const parsed = JSON.parse(new TextDecoder().decode(bytes)) as { days?: unknown } | null;
      if (parsed && typeof parsed.days === 'object' && parsed.days) this.days = parsed.days as Days;
    } catch { /* a damaged counter file starts afresh; the audit log still has the history */ }
  }

  private entry(keyId: string, name: string): DayCount {
    const day = dayKey(this.now());
    const d = (this.days[day] ??= {});
    const e = (d[keyId] ??= { name, admitted: 0, ok: 0, refused: 0, lastUsed: 0 });
    e.name = name;
    return e;
  }

  /** Calls admitted today for a key (what its quota is charged with). */
  today(keyId: string): number {
    return this.days[dayKey(this.now())]?.[keyId]?.admitted ?? 0;
  }

  todayCounts(keyId: string): DayCount | null {
    return this.days[dayKey(this.now())]?.[keyId] ?? null;
  }

  admit(keyId: string, name: string): void {
    this.entry(keyId, name).admitted++;
    this.changed();
  }

  outcome(keyId: string, name: string, ok: boolean): void {
    const e = this.entry(keyId, name);
    if (ok) e.ok++; else e.refused++;
    e.lastUsed = this.now();
    this.changed();
  }

  /** The last `n` days (oldest first), each with counts per key id. */
  history(n = 14): { day: string; keys: Record<string, DayCount> }[] {
    return lastDays(this.now(), n).map((day) => ({ day, keys: { ...(this.days[day] ?? {}) } }));
  }

  onChange(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private changed(): void {
    this.dirty = true;
    for (const l of this.listeners) { try { l(); } catch { /* a view's error must not fail a call */ } }
    if (!this.timer) {
      this.timer = setTimeout(() => { this.timer = null; void this.flush(); }, this.flushMs);
      (this.timer as { unref?: () => void }).unref?.();
    }
  }

  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.dirty) return this.writing;
    this.dirty = false;
    const keep = new Set(lastDays(this.now(), KEEP_DAYS));
    for (const d of Object.keys(this.days)) if (!keep.has(d)) delete this.days[d];
    const text = JSON.stringify({ version: 1, days: this.days }) + '\n';
    this.writing = this.writing.then(() => this.data.write(FILE, text)).catch(() => {
      // The disk refused (full, unwritable): the counters stay in memory and are written again later.
      this.dirty = true;
      if (!this.timer) {
        this.timer = setTimeout(() => { this.timer = null; void this.flush(); }, Math.max(this.flushMs, 5000));
        (this.timer as { unref?: () => void }).unref?.();
      }
    });
    return this.writing;
  }
}
