// Where things are, for tests: the repo root, the shared folder (absent on a fresh clone elsewhere).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join, resolve } from 'node:path';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const SHARED = resolve(REPO, '../shared');
export const SAMPLE_VAULT = join(REPO, 'examples/vault');
export const CLI = join(REPO, 'dist/cli.js');

/** The path of a shared fixture, or null with the reason it is missing (tests skip with it). */
export function sharedFixture(rel: string): { path: string | null; reason: string } {
  const p = join(SHARED, rel);
  return existsSync(p) ? { path: p, reason: '' } : { path: null, reason: `../shared/${rel} is not present (fresh clone without the shared folder)` };
}
