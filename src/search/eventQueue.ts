// What a vault event does to the keyword index's queue of changes. A note moved to another folder
// under the same file name is re-keyed at once instead: nothing the index holds of a note depends on
// its folder (the title comes from the file name), so reading and analysing it again changes nothing.
// A folder of 100k notes renamed used to queue every one of them for a full re-index.
import type { VaultEvent } from '../host/port.js';
import { isNotePath, keepsNoteName } from '../core/paths.js';
import type { InvertedIndex } from './invertedIndex.js';
import type { Op, OpQueue } from './reconcile.js';

/** 'moved': the index changed at once; 'queued': the queue did; 'ignored': neither. */
export type EventEffect = 'moved' | 'queued' | 'ignored';

/**
 * Applies `e` to `queue`, or to `ix` when it is a move in place (pass `ix` null to never move: an index
 * still loading). `inFlight`: paths taken off the queue whose update is being read; a move of one of
 * them queues its new path again, so the update read for the old path is not lost.
 */
export function queueEvent(e: VaultEvent, ix: InvertedIndex | null, queue: OpQueue, inFlight: ReadonlySet<string>): EventEffect {
  if (e.type === 'resolved') return 'ignored';
  if (e.type === 'rename') {
    if (ix && moveInPlace(ix, queue, inFlight, e.oldPath, e.path)) return 'moved';
    if (isNotePath(e.oldPath)) queue.set(e.oldPath, 'delete');
    if (isNotePath(e.path)) queue.set(e.path, 'upsert');
    return isNotePath(e.oldPath) || isNotePath(e.path) ? 'queued' : 'ignored';
  }
  if (!isNotePath(e.path)) return 'ignored';
  if (e.type === 'delete') queue.set(e.path, 'delete');
  else {
    // 'metadata' re-indexes even when the bytes are unchanged: headings/tags come from the cache.
    const prev = queue.get(e.path);
    queue.set(e.path, e.type === 'metadata' || prev === 'refresh' ? 'refresh' : 'upsert');
  }
  return 'queued';
}

function moveInPlace(ix: InvertedIndex, queue: OpQueue, inFlight: ReadonlySet<string>, from: string, to: string): boolean {
  if (!keepsNoteName(from, to)) return false;
  const carried: Op | undefined = queue.get(from) ?? (inFlight.has(from) ? 'upsert' : undefined);
  if (carried === 'delete' || !ix.move(from, to)) return false;
  queue.delete(from);
  // A change queued or being read for either path is read again at the new one.
  if (carried || queue.get(to) || inFlight.has(to)) queue.set(to, carried === 'refresh' ? 'refresh' : 'upsert');
  return true;
}
