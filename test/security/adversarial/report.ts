// The shared tally of the adversarial suite (test/security/adversarial/*.test.ts): each category
// counts its attempts and the ones that broke a promise, prints ONE line
//   [adversarial] <category>: <attempts> attempts, <failures> failures
// and then fails the test with the first few failures when there are any.
import assert from 'node:assert/strict';

export interface Tally {
  readonly name: string;
  readonly attempts: number;
  readonly failures: readonly string[];
  /** One attempt; `ok === false` counts a failure described by `label` (and `detail`). */
  check(label: string, ok: boolean, detail?: string): void;
  /** One attempt that fails when `fn` throws (an assertion, an unexpected error). */
  attempt(label: string, fn: () => unknown): Promise<void>;
  /** Prints the category's line and asserts there were no failures. */
  report(): void;
}

export function tally(name: string): Tally {
  let attempts = 0;
  const failures: string[] = [];
  return {
    name,
    get attempts() { return attempts; },
    failures,
    check(label, ok, detail) {
      attempts++;
      if (!ok) failures.push(detail ? `${label}: ${detail}` : label);
    },
    async attempt(label, fn) {
      attempts++;
      try { await fn(); } catch (e) { failures.push(`${label}: ${(e as Error)?.message ?? e}`); }
    },
    report() {
      console.log(`[adversarial] ${name}: ${attempts} attempts, ${failures.length} failures`);
      assert.ok(attempts > 0, `${name}: no attempts were made`);
      assert.equal(failures.length, 0, `${name}: ${failures.length} of ${attempts} attempts broke a promise:\n${failures.slice(0, 15).join('\n')}`);
    },
  };
}
