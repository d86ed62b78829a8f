// reindex as a background job (src/jobs/jobs.ts runAsJob, share "reindex"): with a tiny soft deadline
// a rebuild of a modest vault answers {status: "working", job_id, retry_after_s, hint}, and
// get_job_result over the real SDK client polls it to completion. A second call joins the same run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/vault.js';
import { startTestRuntime } from '../helpers/runtime.js';
import { connect, call, textOf } from '../helpers/server.js';

test('a long reindex returns working and finishes through get_job_result', async () => {
  const vault = join(tempDir('vmcp-reindex-'), 'vault');
  mkdirSync(join(vault, 'n'), { recursive: true });
  const N = 400;
  for (let i = 0; i < N; i++) writeFileSync(join(vault, 'n', `Note ${i}.md`), `# Note ${i}\nwombat ${'lorem ipsum dolor '.repeat(20 + (i % 30))} item${i}\n`);
  const t = await startTestRuntime(vault, { jobSoftDeadlineMs: 1 });
  const rw = await connect(t.url, t.rwKey);
  try {
    const warm = await call(rw, 'keyword_search', { query: 'wombat', wait_for_pending_writes: true });
    assert.equal(warm.structuredContent!.total, N, textOf(warm));
    const r = await call(rw, 'reindex', { force: true });
    assert.ok(!r.isError, textOf(r));
    const w = r.structuredContent!;
    assert.equal(w.status, 'working', JSON.stringify(w));
    assert.match(w.job_id, /^job_/);
    assert.match(w.hint, /get_job_result\(job_id=/);
    assert.ok(w.retry_after_s > 0);
    assert.equal(typeof w.state, 'string');
    // A second call while it runs joins the same run (its own job id).
    const joined = (await call(rw, 'reindex', {})).structuredContent!;
    let final: Record<string, any> | null = null;
    for (const id of [w.job_id, joined.status === 'working' ? joined.job_id : null]) {
      if (!id) continue;
      let polled: Record<string, any> = {};
      for (let i = 0; i < 120; i++) {
        const p = await call(rw, 'get_job_result', { job_id: id, wait_s: 1 });
        assert.ok(!p.isError, textOf(p));
        polled = p.structuredContent!;
        if (polled.status !== 'working') break;
      }
      assert.equal(polled.status, 'completed', JSON.stringify(polled));
      assert.equal(polled.tool, 'reindex');
      final ??= polled.result;
    }
    assert.equal(final!.status, 'done');
    assert.equal(final!.indexed, N);
    assert.equal(final!.pending, 0);
    const after = await call(rw, 'keyword_search', { query: 'item7' });
    assert.deepEqual(after.structuredContent!.results.map((x: { path: string }) => x.path), ['n/Note 7.md']);
  } finally {
    await rw.close();
    await t.stop();
  }
});
