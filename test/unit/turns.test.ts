// nextTurn (src/core/turns.ts): every sliced job yields through it, so two jobs' slices never run in the
// same event-loop turn (in Obsidian, Node's loop turn is one task of the renderer: two 12 ms slices in one
// turn are one 24 ms freeze). A setImmediate chain marks each loop turn (one check phase per turn).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate } from 'node:timers';
import { TURN_MS, nextTurn, turnsWaiting } from '../../src/core/turns.js';
import { slicePause } from '../../src/search/persist.js';
import { Slicer } from '../../src/services/slicer.js';

function markTurns(log: string[]): () => void {
  let on = true;
  const tick = () => { if (!on) return; log.push('|'); setImmediate(tick); };
  setImmediate(tick);
  return () => { on = false; };
}

/** Each job's first slice runs at once, before any yield (all in the first turn); after that one slice per turn. */
function assertOnePerTurn(log: string[], jobs: number): void {
  const [first, ...rest] = log.join('').split('|');
  assert.ok(first.length <= jobs, `the first turn ran more than each job's first slice: ${first}`);
  assert.ok(rest.every((turn) => turn.length <= 1), `a turn ran several slices: ${JSON.stringify(rest.filter((t) => t.length > 1))}`);
}

const busy = (ms: number) => { const end = performance.now() + ms; while (performance.now() < end) { /* a slice's work */ } };

test('three jobs slicing at once: each slice in a loop turn of its own, in turn order', async () => {
  const log: string[] = [];
  const stop = markTurns(log);
  const job = async (name: string) => {
    for (let i = 0; i < 4; i++) { log.push(name); busy(2); await nextTurn(); }
  };
  await Promise.all([job('a'), job('b'), job('c')]);
  stop();
  assertOnePerTurn(log, 3);
  assert.equal(log.filter((x) => x !== '|').length, 12);
  // Fair: the jobs take turns (a b c a b c …), none waits behind another's whole run.
  const order = log.filter((x) => x !== '|').slice(3).join('');
  assert.equal(order, 'abcabcabc');
  assert.equal(turnsWaiting(), 0);
});

test('Slicer.pause goes through the shared turns', async () => {
  const log: string[] = [];
  const stop = markTurns(log);
  const run = async (name: string) => {
    const s = new Slicer(() => performance.now(), 1, 1);
    for (let i = 0; i < 6; i++) { log.push(name); busy(1.5); if (s.due()) await s.pause(); }
  };
  await Promise.all([run('x'), run('y')]);
  stop();
  assertOnePerTurn(log, 2);
});

test('a long queue of waiters is served in order and leaves nothing behind', async () => {
  const got: number[] = [];
  await Promise.all(Array.from({ length: 1100 }, (_, i) => nextTurn().then(() => got.push(i))));
  assert.deepEqual(got, Array.from({ length: 1100 }, (_, i) => i));
  assert.equal(turnsWaiting(), 0);
});

/** Runs `s.due()` once per 0.1 ms of busy work until it says due; returns the ms that took (or `limit`). */
function workUntilDue(s: Slicer, limit: number): number {
  const t0 = performance.now();
  for (;;) {
    busy(0.1);
    const spent = performance.now() - t0;
    if (s.due() || spent >= limit) return spent;
  }
}

test('jobs continued in the same loop turn share one budget: the second yields once the turn has run TURN_MS', async () => {
  // As when two reads land in one poll phase and each continues its job: the first job works 7 ms (under
  // its own 8 ms slice), then the second begins in the same turn with a slice of its own of 1 s.
  await new Promise((r) => setImmediate(r)); // a fresh turn
  const first = new Slicer(undefined, 8, 1);
  const firstRan = workUntilDue(first, 7);
  assert.ok(firstRan >= 7, 'the first job was told to yield inside its own 7 ms');
  const second = new Slicer(undefined, 1000, 1);
  const secondRan = workUntilDue(second, 500);
  // Without the shared budget the second job ran on to its own second (here cut at 500 ms). The bound is
  // loose so that a machine that stops the test for a while does not fail it.
  assert.ok(secondRan < 400, `the second job ran ${secondRan.toFixed(1)} ms in a turn that had already run ${firstRan.toFixed(1)} ms`);
  assert.ok(firstRan + secondRan >= TURN_MS - 0.5, `yielded before the turn had run ${TURN_MS} ms: ${(firstRan + secondRan).toFixed(1)}`);
  // A new turn (its check phase passed) has its budget whole again.
  await new Promise((r) => setImmediate(r));
  const third = new Slicer(undefined, 1000, 1);
  assert.ok(workUntilDue(third, 5) >= 5, 'a job in a new turn was told to yield at once');
});

test('a pause offer (search/persist.ts slicePause) counts the turn too', async () => {
  await new Promise((r) => setImmediate(r));
  const job = new Slicer(undefined, 1000, 1);
  workUntilDue(job, 13);
  const pause = slicePause(1000);
  const wait = pause();
  assert.ok(wait, 'a pause offer in a spent turn went on');
  await wait;
});
