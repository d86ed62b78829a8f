// What a loaded keyword index must redo to match the vault: every note whose mtime or size differs
// from what the index recorded, and every note that is gone. In slices: at 100k notes one pass held
// the thread 50-300 ms of a warm start.
import type { VaultHost } from '../host/port.js';
import { isNotePath } from '../core/paths.js';
import type { InvertedIndex } from './invertedIndex.js';
import type { Pause } from './persist.js';

export type Op = 'upsert' | 'refresh' | 'delete';

/** The index's queue of notes to update: a Map, or the service's ShardedMap (a 130k-entry Map grows by
 *  rehashing every entry in one set(): 44 ms inside a folder rename's event slice at 100k notes). */
export interface OpQueue {
  readonly size: number;
  has(k: string): boolean;
  get(k: string): Op | undefined;
  set(k: string, v: Op): unknown;
  delete(k: string): boolean;
  [Symbol.iterator](): Iterator<[string, Op]>;
}

/**
 * Queues every note of the host's list for a build, in slices (100k notes in one go was an 85 ms
 * block). A note already queued keeps its op (an event meanwhile knows better than the list). Stops,
 * returning false, when `current()` turns false at a pause (the index was rebuilt again or stopped).
 */
export async function queueAll(host: VaultHost, queue: OpQueue, pause: Pause, current: () => boolean): Promise<boolean> {
  const files = host.files();
  for (let i = 0; i < files.length; i++) {
    if ((i & 1023) === 1023) {
      const wait = pause();
      if (wait) { await wait; if (!current()) return false; }
    }
    const p = files[i].path;
    // A note deleted meanwhile is queued from the list taken before: its update finds it gone.
    if (isNotePath(p) && !queue.has(p)) queue.set(p, 'upsert');
  }
  return true;
}

/** Queues the differences into `queue`; drops skipped notes that are gone from `skipped`. Returns how many were queued. */
export async function queueDifferences(ix: InvertedIndex, skipped: Map<string, string>, host: VaultHost, queue: OpQueue, pause: Pause): Promise<number> {
  let n = 0;
  let known = 0;
  const notes = host.files();
  for (let i = 0; i < notes.length; i++) {
    if ((i & 511) === 511) { const wait = pause(); if (wait) await wait; }
    const f = notes[i];
    if (!isNotePath(f.path)) continue;
    const id = ix.ids.get(f.path);
    if (id !== undefined) known++;
    if (id !== undefined && ix.mtimes[id] === f.mtime && ix.sizes[id] === f.size) continue;
    if (id === undefined && skipped.get(f.path) === `too_large:${f.size}`) continue;
    queue.set(f.path, 'upsert');
    n++;
  }
  // Vanished notes: only looked for when some indexed or skipped note is not in the host's list (a
  // set of 100k paths costs more than the rest). The host is asked again for each candidate: the
  // list was taken before the pauses.
  if (known !== ix.documentCount || skipped.size) {
    const seen = new Set<string>();
    for (let i = 0; i < notes.length; i++) {
      if ((i & 4095) === 4095) { const wait = pause(); if (wait) await wait; }
      seen.add(notes[i].path);
    }
    const gone = (p: string) => !seen.has(p) && !host.stat(p);
    for (const p of [...ix.ids.keys()]) if (gone(p)) { queue.set(p, 'delete'); n++; }
    for (const p of [...skipped.keys()]) if (gone(p)) skipped.delete(p);
  }
  return n;
}
