// A note moved to another folder under the same file name keeps its chunks and vectors: the chunks'
// text and the title they carry come from the note and its file name, not its folder. It is re-keyed
// instead of read and embedded again (a folder of 1,000 notes moved cost minutes of embedding).
import { compileGlob } from '../core/glob.js';
import { isNotePath, keepsNoteName } from '../core/paths.js';
import type { VaultEvent } from '../host/port.js';
import type { ShardedSet } from '../core/shardedMap.js';
import type { VectorStore } from './store.js';

/**
 * Moves `from`'s entry to `to` when the move keeps the note as embedded; false when it must be embedded
 * again (another name, not embedded, `to` taken or skipped). `embedding`: a batch is being embedded now.
 */
export function moveInPlace(store: VectorStore | null, pending: ShardedSet, embedding: boolean, skip: (p: string) => boolean, from: string, to: string): boolean {
  if (!store || !keepsNoteName(from, to) || skip(to) || !store.move(from, to)) return false;
  // A change queued or being embedded for the old path is checked again at the new one (an unchanged
  // note costs a stat there: its entry keeps the mtime and size it was embedded at).
  if (pending.delete(from) || embedding) pending.add(to);
  if (embedding) pending.add(from); // an old-path entry the running batch writes back is removed after it
  return true;
}

/** What a vault event (not metadata) changes: the paths to embed again or drop, or a move in place. */
export function queueChange(e: Exclude<VaultEvent, { type: 'metadata' | 'resolved' }>, store: VectorStore | null, pending: ShardedSet, embedding: boolean, skip: (p: string) => boolean): void {
  const moved = e.type === 'rename' && moveInPlace(store, pending, embedding, skip, e.oldPath, e.path);
  if (!moved && e.type === 'rename' && isNotePath(e.oldPath)) pending.add(e.oldPath);
  if (!moved && isNotePath(e.path)) pending.add(e.path);
}

let compiled: { key: string; skip: (p: string) => boolean } | null = null;

/** Whether a path matches one of the skip globs (compiled once per list: a folder move asks per note). */
export function skipperFor(globs: readonly string[]): (p: string) => boolean {
  const key = globs.join('\0');
  if (compiled?.key !== key) {
    const res = globs.map(compileGlob);
    compiled = { key, skip: (p) => res.some((r) => r.test(p)) };
  }
  return compiled.skip;
}
