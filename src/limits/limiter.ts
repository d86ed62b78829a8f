// Per-key limits every tool call passes (installed as middleware by limits/feature.ts): concurrent
// calls, the size of a write, the daily quota, the general token bucket and, for write tools, the write
// bucket. Nothing is charged unless every check passes. Refusals are normal tool results
// (`rate_limited`, `over_quota`, `too_many_concurrent`, `payload_too_large`) that name the setting and,
// where waiting helps, carry `retry_after_seconds`.
import type { Settings } from '../core/settings.js';
import type { KeyRecord } from '../core/keys.js';
import type { Caller } from '../mcp/contract.js';
import { Refusal } from '../core/errors.js';
import { TokenBucket } from './tokenBucket.js';
import { limitSettings, type LimitSettings } from './settings.js';
import { msToNextDay } from './day.js';
import type { UsageStore } from './usage.js';

export interface Admission {
  release(): void;
}

/**
 * Bytes a write call's `content` will at least put into the file it produces (base64 decoded): a
 * cheap lower bound of the result size, so refusing it early for maxWriteBytes never refuses a write
 * the write tool itself (src/services/writeSupport.ts, exact result size) would have let through.
 */
export function contentBytes(args: Record<string, unknown>): number {
  const c = args.content;
  if (typeof c !== 'string') return 0;
  if (args.encoding === 'base64') {
    const pad = c.endsWith('==') ? 2 : c.endsWith('=') ? 1 : 0;
    return Math.max(0, Math.floor((c.replace(/\s+/g, '').length * 3) / 4) - pad);
  }
  return Buffer.byteLength(c, 'utf8');
}

/** Effective daily quota of a key: its own (0 or null = unlimited), else the default for keys without one. */
export function quotaOf(rec: Pick<KeyRecord, 'dailyQuota'> | undefined, s: LimitSettings): number {
  const own = rec?.dailyQuota;
  if (own === null) return 0;
  if (typeof own === 'number') return own;
  return s.defaultDailyQuota;
}

export class Limiter {
  private readonly general = new Map<string, TokenBucket>();
  private readonly writes = new Map<string, TokenBucket>();
  private readonly running = new Map<string, number>();
  private total = 0;

  constructor(
    private readonly settings: () => Settings,
    private readonly usage: UsageStore,
    private readonly keyRecord: (id: string) => KeyRecord | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  private bucket(map: Map<string, TokenBucket>, id: string, burst: number, perMinute: number): TokenBucket {
    let b = map.get(id);
    if (!b) { b = new TokenBucket(burst, perMinute, this.now); map.set(id, b); }
    b.configure(burst, perMinute);
    return b;
  }

  runningFor(keyId: string): number {
    return this.running.get(keyId) ?? 0;
  }

  /** The daily-quota or general-bucket refusal this key's next call would get, charging nothing. */
  private quotaOrRate(caller: Caller, s: LimitSettings): Refusal | null {
    const id = caller.keyId;
    const key = `key "${caller.keyName}"`;
    const quota = quotaOf(this.keyRecord(id), s);
    const used = this.usage.today(id);
    if (quota > 0 && used >= quota) {
      const retry = Math.ceil(msToNextDay(this.now()) / 1000);
      return new Refusal('over_quota', `Daily quota used up: ${key} has made ${used} of its ${quota} calls today (the key's daily quota${this.keyRecord(id)?.dailyQuota === undefined ? ', setting defaultDailyQuota' : ''}). It resets at midnight, in ${retry} s; the vault owner can raise it in the settings tab.`, { retry_after_seconds: retry, quota, used, setting: 'dailyQuota' });
    }
    const g = s.rateLimitPerMinute > 0 ? this.bucket(this.general, id, Math.max(1, s.rateLimitBurst), s.rateLimitPerMinute) : null;
    if (g && g.available() < 1) {
      const retry = g.waitSeconds(1);
      return new Refusal('rate_limited', `Rate limit: ${key} may make ${s.rateLimitPerMinute} calls per minute with bursts of ${s.rateLimitBurst} (settings rateLimitPerMinute, rateLimitBurst). Wait ${retry} s, then retry; space calls out instead of looping.`, { retry_after_seconds: retry, limit: s.rateLimitPerMinute, burst: s.rateLimitBurst, setting: 'rateLimitPerMinute' });
    }
    return null;
  }

  /**
   * For the HTTP layer's cheap early refusal: the refusal a tool call from this key gets whatever the
   * tool (quota used up, general bucket empty), or null. Charges nothing; admit() re-checks.
   */
  precheck(caller: Caller): Refusal | null {
    return this.quotaOrRate(caller, limitSettings(this.settings()));
  }

  /** Checks and charges one call; throws a Refusal when a limit refuses it. */
  admit(caller: Caller, write: boolean, args: Record<string, unknown>): Admission {
    const s = limitSettings(this.settings());
    const id = caller.keyId;
    const key = `key "${caller.keyName}"`;
    const mine = this.runningFor(id);
    if (s.maxConcurrentCallsPerKey > 0 && mine >= s.maxConcurrentCallsPerKey) {
      throw new Refusal('too_many_concurrent', `Concurrency limit: ${key} already has ${mine} calls running (setting maxConcurrentCallsPerKey = ${s.maxConcurrentCallsPerKey}). Wait for one to finish, then retry.`, { retry_after_seconds: 1, setting: 'maxConcurrentCallsPerKey', limit: s.maxConcurrentCallsPerKey });
    }
    if (s.maxConcurrentCalls > 0 && this.total >= s.maxConcurrentCalls) {
      throw new Refusal('too_many_concurrent', `Concurrency limit: the server already runs ${this.total} calls (setting maxConcurrentCalls = ${s.maxConcurrentCalls}). Retry in a moment.`, { retry_after_seconds: 1, setting: 'maxConcurrentCalls', limit: s.maxConcurrentCalls });
    }
    const maxWrite = this.settings().maxWriteBytes;
    if (write && maxWrite > 0) {
      const size = contentBytes(args);
      if (size > maxWrite) {
        throw new Refusal('payload_too_large', `This write carries ${size} bytes of content, over the ${maxWrite}-byte write limit (setting maxWriteBytes); nothing was written. Split it into several notes or files, or append in parts.`, { size, limit: maxWrite, setting: 'maxWriteBytes' });
      }
    }
    const early = this.quotaOrRate(caller, s);
    if (early) throw early;
    const g = s.rateLimitPerMinute > 0 ? this.bucket(this.general, id, Math.max(1, s.rateLimitBurst), s.rateLimitPerMinute) : null;
    const w = write && s.writeRateLimitPerMinute > 0 ? this.bucket(this.writes, id, Math.max(1, s.writeRateLimitBurst), s.writeRateLimitPerMinute) : null;
    if (w && w.available() < 1) {
      const retry = w.waitSeconds(1);
      throw new Refusal('rate_limited', `Write rate limit: ${key} may make ${s.writeRateLimitPerMinute} write calls per minute with bursts of ${s.writeRateLimitBurst} (settings writeRateLimitPerMinute, writeRateLimitBurst). Wait ${retry} s, then retry; batch changes into fewer edits.`, { retry_after_seconds: retry, limit: s.writeRateLimitPerMinute, burst: s.writeRateLimitBurst, setting: 'writeRateLimitPerMinute' });
    }
    g?.tryTake(1);
    w?.tryTake(1);
    this.usage.admit(id, caller.keyName);
    this.running.set(id, mine + 1);
    this.total++;
    let done = false;
    return {
      release: () => {
        if (done) return;
        done = true;
        this.total--;
        const n = (this.running.get(id) ?? 1) - 1;
        if (n <= 0) this.running.delete(id); else this.running.set(id, n);
      },
    };
  }
}
