// One event-loop turn per slice, shared by every sliced job (index builds, saves, the change feed, task
// scans, UTF-8 coding). Each job used to yield with its own setTimeout(0); timers due together run back
// to back in one timers phase, and in Obsidian Node's loop runs as one task of the renderer, so two jobs'
// 12 ms slices made one 24 ms task (three made 36 ms). Here the waiting jobs form one queue and each
// timer resumes one of them: a slice is a task of its own, whatever else is slicing.
import { setTimeout } from 'node:timers';

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
