// Debounce (src/core/debounce.ts): the keyword and semantic services debounce vault events with
// one timer, re-armed only when it fires early. A burst of calls runs the function once, after the
// last call's delay; cancel stops it; a call after the run starts a new round.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { Debounce } from '../../src/core/debounce.js';

test('a burst runs the function once, not before the last call, and cancel drops a pending run', async () => {
  let runs = 0;
  let lastCall = 0;
  let ranAt = 0;
  const d = new Debounce(() => { runs++; ranAt = Date.now(); });
  // 2,000 calls over ~60 ms, each pushing the deadline 30 ms past itself.
  for (let i = 0; i < 20; i++) {
    for (let j = 0; j < 100; j++) { d.call(30); lastCall = Date.now(); }
    await sleep(3);
  }
  await sleep(200);
  assert.equal(runs, 1);
  assert.ok(ranAt - lastCall >= 29, `ran ${ranAt - lastCall} ms after the last call`);

  d.call(10);
  await sleep(60);
  assert.equal(runs, 2, 'a call after the run starts a new round');

  d.call(10);
  d.cancel();
  await sleep(60);
  assert.equal(runs, 2, 'cancelled');
});
