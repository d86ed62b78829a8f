// Background saves the disk refused (host/storageHealth.ts), over the host's data and cache folders:
// what /health and the plugin's status bar report. File names and causes in words only, never paths.
import type { VaultHost } from '../host/port.js';
import type { SaveProblem } from '../host/storageHealth.js';

export type { SaveProblem } from '../host/storageHealth.js';

export function saveProblems(host: Pick<VaultHost, 'data' | 'cache'>): SaveProblem[] {
  const stores = host.cache === host.data ? [host.data] : [host.data, host.cache];
  return stores.flatMap((s) => s.health?.problems() ?? []);
}

/** One line for people: "could not save keys.json (the disk is full) since 12:03; retrying". */
export function saveProblemLines(problems: SaveProblem[]): string[] {
  return problems.map((p) => `Could not save ${p.file} (${p.cause}) since ${new Date(p.since).toISOString().slice(11, 19)} UTC, ${p.failures} attempt${p.failures === 1 ? '' : 's'}; retrying, nothing is lost meanwhile.`);
}
