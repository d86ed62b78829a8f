// Per-client-address failed-authentication budget, checked before any key lookup (http/app.ts calls
// check() first and fail() after a bad or missing key). A token bucket per address: `budget` failures,
// refilled over `windowMinutes`; over it, the app answers HTTP 429 with Retry-After.
import { TokenBucket } from './tokenBucket.js';

const SWEEP_AT = 1024;
const HARD_CAP = 10_000;

export class AuthThrottle {
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(private readonly limits: () => { budget: number; windowMinutes: number }, private readonly now: () => number = Date.now) {}

  private params(): { cap: number; perMinute: number } {
    const { budget, windowMinutes } = this.limits();
    return { cap: Math.max(1, budget), perMinute: Math.max(1, budget) / Math.max(1 / 60, windowMinutes) };
  }

  /** Seconds to wait when this address has spent its budget, else null. */
  check(ip: string): number | null {
    const b = this.buckets.get(ip);
    if (!b) return null;
    const { cap, perMinute } = this.params();
    b.configure(cap, perMinute);
    const w = b.waitSeconds(1);
    return w > 0 ? (Number.isFinite(w) ? w : 60) : null;
  }

  fail(ip: string): void {
    const { cap, perMinute } = this.params();
    let b = this.buckets.get(ip);
    if (!b) {
      if (this.buckets.size >= SWEEP_AT) this.sweep();
      b = new TokenBucket(cap, perMinute, this.now);
      this.buckets.set(ip, b);
    }
    b.configure(cap, perMinute);
    b.tryTake(1);
  }

  get size(): number {
    return this.buckets.size;
  }

  /** Forgets addresses whose budget is whole again; past a hard cap, the oldest entries. */
  private sweep(): void {
    for (const [ip, b] of this.buckets) if (b.isFull()) this.buckets.delete(ip);
    for (const ip of this.buckets.keys()) {
      if (this.buckets.size < HARD_CAP) break;
      this.buckets.delete(ip);
    }
  }
}
