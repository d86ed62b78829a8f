// One event-loop turn per slice, shared by every sliced job (index builds, saves, the change feed, task
// scans, UTF-8 coding). Each job used to yield with its own setTimeout(0); timers due together run back
// to back in one timers phase, and in Obsidian Node's loop runs as one task of the renderer, so two jobs'
// 12 ms slices made one 24 ms task (three made 36 ms). Here the waiting jobs form one queue and each
// timer resumes one of them: a slice is a task of its own, whatever else is slicing.
// Jobs also run in the same turn without a timer: several reads finish in one poll phase and each
// continues its job. So the turn's sliced work also shares one budget (turnSpent): a job that finds it
// spent yields, even when its own slice has just begun.
import { performance as loop } from 'node:perf_hooks';
import { setImmediate, setTimeout } from 'node:timers';

/** Sliced work per loop turn, all jobs together (ms): the longest slice any job takes on its own. */
export const TURN_MS = 12;
/** When this turn's sliced work began (performance.now), or -1 before any; and the loop's idle time then. */
let turnBegan = -1;
let idleThen = 0;
const endTurn = (): void => { turnBegan = -1; };
/** The time Node's loop has waited for I/O (ms): in Node a turn's poll phase can wait between the
 *  timer that resumed a job and the reads that continue others, and waiting is not work. */
const idle = (): number => loop.nodeTiming?.idleTime ?? 0;

/** Notes that sliced work runs now; the first call in a loop turn starts the turn's count. A check
 *  phase ends it (setImmediate: the same loop turn, after its timers and I/O callbacks). */
export function beginSlice(): void {
  if (turnBegan >= 0) return;
  turnBegan = performance.now();
  idleThen = idle();
  setImmediate(endTurn);
}

/** Whether this loop turn's sliced work, every job's together, has run TURN_MS. */
export function turnSpent(): boolean {
  if (turnBegan < 0) { beginSlice(); return false; }
  return performance.now() - turnBegan - (idle() - idleThen) >= TURN_MS;
}

const waiting: (() => void)[] = [];
let head = 0;
let scheduled = false;

function schedule(): void {
  scheduled = true;
  setTimeout(resumeOne, 0);
}

function resumeOne(): void {
  scheduled = false;
  if (head >= waiting.length) return;
  const next = waiting[head++];
  // The resumed job's slice counts in this turn (its continuation runs before the turn's check phase).
  beginSlice();
  if (head === waiting.length) {
    waiting.length = 0;
    head = 0;
  } else {
    if (head > 1024 && head * 2 > waiting.length) { waiting.splice(0, head); head = 0; }
    // A timer queued from inside the timers phase runs in the next loop iteration, after this slice.
    schedule();
  }
  next();
}

/** Resolves in a later event-loop turn, after every job that asked before it had its turn. */
export function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => {
    waiting.push(resolve);
    if (!scheduled) schedule();
  });
}

/** Jobs waiting for a turn (tests). */
export function turnsWaiting(): number {
  return waiting.length - head;
}
