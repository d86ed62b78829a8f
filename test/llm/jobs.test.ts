// The job mechanism on its own: promotion at the soft deadline, shared work, per-key visibility,
// the running-jobs cap, cancellation before promotion and shutdown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JobStore, runAsJob, MAX_RUNNING_PER_KEY } from '../../src/jobs/jobs.js';
import { Refusal } from '../../src/core/errors.js';
import type { ServerDeps, ToolContext } from '../../src/mcp/tool.js';
import { withDefaults } from '../../src/settings.js';

function ctxFor(keyId: string, deps: ServerDeps, signal = new AbortController().signal): ToolContext {
  return { deps, caller: { keyId, keyName: keyId, scope: 'read', root: '', disabledFamilies: [] }, vault: null as never, signal, tools: () => [] };
}
function depsWith(softMs: number): ServerDeps {
  const store = new JobStore(Date.now);
  return { host: null as never, settings: () => withDefaults({ jobSoftDeadlineMs: softMs }), version: 't', now: Date.now, middleware: [], services: { jobs: store } };
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('fast work answers directly; errors are thrown as usual', async () => {
  const deps = depsWith(200);
  const r = await runAsJob(ctxFor('k', deps), 't', async () => ({ structured: { ok: 1 } }));
  assert.deepEqual(r.structured, { ok: 1 });
  await assert.rejects(runAsJob(ctxFor('k', deps), 't', async () => { throw new Refusal('x_code', 'no'); }), (e: Refusal) => e.code === 'x_code');
  await assert.rejects(runAsJob(ctxFor('k', deps), 't', async () => { throw new Error('kaput'); }), (e: Refusal) => e.code === 'internal_error');
});

test('slow work is promoted; progress is visible to the owner only; opts.working shapes the answer', async () => {
  const deps = depsWith(50);
  const store = deps.services.jobs as JobStore;
  const r = await runAsJob(ctxFor('k', deps), 'reindex', async (job) => { job.progress('half'); await sleep(150); return { structured: { done: true } }; },
    { working: (w) => ({ structured: { ...w, extra: 1 } as never }) });
  const w = r.structured as unknown as { status: string; job_id: string; extra: number };
  assert.equal(w.status, 'working');
  assert.equal(w.extra, 1);
  const v = store.view('k', w.job_id);
  assert.equal(v?.state, 'working');
  assert.equal(v?.state === 'working' && v.progress, 'half');
  assert.equal(store.view('other', w.job_id), null);
  await store.wait('k', w.job_id, 1000);
  const done = store.view('k', w.job_id);
  assert.equal(done?.state, 'completed');
  assert.deepEqual(done?.state === 'completed' && done.result.structured, { done: true });
});

test('share: concurrent calls join one run, each with its own job id', async () => {
  const deps = depsWith(20);
  let runs = 0;
  const work = async () => { runs++; await sleep(100); return { structured: { n: runs } }; };
  const [r1, r2] = await Promise.all([runAsJob(ctxFor('k1', deps), 'reindex', work, { share: 'reindex' }), runAsJob(ctxFor('k2', deps), 'reindex', work, { share: 'reindex' })]);
  const id1 = (r1.structured as unknown as { job_id: string }).job_id;
  const id2 = (r2.structured as unknown as { job_id: string }).job_id;
  assert.notEqual(id1, id2);
  const store = deps.services.jobs as JobStore;
  await store.wait('k1', id1, 1000);
  await store.wait('k2', id2, 1000);
  assert.equal(runs, 1);
  assert.equal(store.view('k2', id2)?.state, 'completed');
  assert.equal(store.view('k2', id1), null);
});

test('at most MAX_RUNNING_PER_KEY running jobs per key', async () => {
  const deps = depsWith(1);
  const work = async () => { await sleep(200); return { structured: {} }; };
  for (let i = 0; i < MAX_RUNNING_PER_KEY; i++) await runAsJob(ctxFor('k', deps), 't', work);
  await assert.rejects(runAsJob(ctxFor('k', deps), 't', work), (e: Refusal) => e.code === 'rate_limited');
  await runAsJob(ctxFor('other', deps), 't', work); // another key is not affected
});

test('a call cancelled before promotion aborts its work; stop() aborts running jobs', async () => {
  const deps = depsWith(500);
  const ac = new AbortController();
  let seen: AbortSignal | null = null;
  const p = runAsJob(ctxFor('k', deps, ac.signal), 't', async (job) => {
    seen = job.signal;
    await new Promise((_, rej) => job.signal.addEventListener('abort', () => rej(new Refusal('unavailable', 'aborted'))));
    return { structured: {} };
  });
  setTimeout(() => ac.abort(), 20);
  await assert.rejects(p, (e: Refusal) => e.code === 'unavailable');
  assert.equal(seen!.aborted, true);

  const d2 = depsWith(10);
  let s2: AbortSignal | null = null;
  await runAsJob(ctxFor('k', d2), 't', async (job) => { s2 = job.signal; await sleep(100); return { structured: {} }; });
  (d2.services.jobs as JobStore).stop();
  assert.equal(s2!.aborted, true);
});
