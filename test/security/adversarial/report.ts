// The adversarial suite's shared format: each test tallies attempts per category and prints one line per
// category, "adversarial <category>: N attempts, M failures", so `npm test` output shows how hard each
// promise was attacked. A failure is an attempt where the promise broke; the test then fails, naming the
// first few.
import assert from 'node:assert/strict';

export class Category {
  attempts = 0;
  readonly failures: string[] = [];
  constructor(readonly name: string) {}

  /** Records one attempt; `ok` false is a failure described by `label` (and `detail`, e.g. the answer). */
  check(label: string, ok: boolean, detail = ''): boolean {
    this.attempts++;
    if (!ok) this.failures.push(detail ? `${label}: ${detail}` : label);
    return ok;
  }

  /** Runs one attempt; a thrown error (an assert failing, a rejected call) is a failure. */
  async attempt(label: string, fn: () => unknown): Promise<boolean> {
    try {
      const r = await fn();
      return this.check(label, r !== false);
    } catch (e) {
      return this.check(label, false, (e as Error)?.message?.slice(0, 300) ?? String(e));
    }
  }

  line(): string {
    return `adversarial ${this.name}: ${this.attempts} attempts, ${this.failures.length} failures`;
  }
}

/** Prints one line per category, then fails the test if any attempt failed (or a category made none). */
export function report(...categories: Category[]): void {
  for (const c of categories) console.log(c.line());
  const broken = categories.filter((c) => c.failures.length || !c.attempts);
  assert.equal(broken.length, 0, broken.map((c) => `${c.line()}\n  ${c.failures.slice(0, 8).join('\n  ') || 'no attempts made'}`).join('\n'));
}
