// A token bucket with an injected clock: `capacity` tokens (the burst), refilled continuously at
// `perMinute` tokens per minute. Pure: no timers, so tests drive it with a fake clock.

export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(private capacity: number, private perMinute: number, private readonly now: () => number) {
    this.tokens = capacity;
    this.last = now();
  }

  /** Applies changed settings without resetting what was already spent. */
  configure(capacity: number, perMinute: number): void {
    if (capacity === this.capacity && perMinute === this.perMinute) return;
    this.refill();
    this.capacity = capacity;
    this.perMinute = perMinute;
    this.tokens = Math.min(this.tokens, capacity);
  }

  private refill(): void {
    const t = this.now();
    const dt = Math.max(0, t - this.last);
    this.last = t;
    this.tokens = Math.min(this.capacity, this.tokens + (dt * this.perMinute) / 60_000);
  }

  /** Tokens available now (fractional). */
  available(): number {
    this.refill();
    return this.tokens;
  }

  /** Seconds until `n` tokens are available (0 when they are now; Infinity when the rate is 0). */
  waitSeconds(n = 1): number {
    this.refill();
    if (this.tokens >= n) return 0;
    if (this.perMinute <= 0 || n > this.capacity) return Infinity;
    return Math.max(1, Math.ceil(((n - this.tokens) * 60) / this.perMinute));
  }

  /** Takes `n` tokens when available; returns false (taking nothing) otherwise. */
  tryTake(n = 1): boolean {
    this.refill();
    if (this.tokens < n) return false;
    this.tokens -= n;
    return true;
  }

  /** True when the bucket is full again, i.e. it carries no state worth keeping. */
  isFull(): boolean {
    this.refill();
    return this.tokens >= this.capacity;
  }
}
