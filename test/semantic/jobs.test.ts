// build_embeddings and reindex on the shared job mechanism (src/jobs/jobs.ts) over a real MCP client:
// with a tiny soft deadline the call is promoted to a job, get_job_result polls it to completion, and a
// second call joins the running build. The model is a stand-in whose inference waits on a gate the
// test opens, so nothing here depends on timing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Embedder } from '../../src/semantic/embedder.js';
import { startTestRuntime } from '../helpers/runtime.js';
import { connect, call, textOf } from '../helpers/server.js';
import { tempDir } from '../helpers/vault.js';

function gatedEmbedder(): { load: () => Promise<Embedder>; open(): void; calls: number } {
  let release!: () => void;
  const gate = new Promise<void>((r) => { release = r; });
  const state = { calls: 0, open: () => release(), load: async (): Promise<Embedder> => ({
    modelId: 'stand-in', folder: '/nonexistent/stand-in', dims: 4, backend: 'node', maxTokens: 256,
    async embed(texts: string[]) {
      state.calls++;
      await gate;
      const out = new Float32Array(texts.length * 4);
      texts.forEach((t, i) => { out.set([1, t.length % 7, 0.5, 0.25], i * 4); let n = 0; for (let k = 0; k < 4; k++) n += out[i * 4 + k] ** 2; for (let k = 0; k < 4; k++) out[i * 4 + k] /= Math.sqrt(n); });
      return out;
    },
    countTokens: (t: string) => t.split(/\s+/).length,
    async dispose() {},
  }) };
  return state;
}

test('build_embeddings past the soft deadline: "working" + job_id, polled to completion with get_job_result; a second call joins', { timeout: 60_000 }, async () => {
  const vault = join(tempDir('vmcp-semjob-'), 'vault');
  mkdirSync(join(vault, 'a'), { recursive: true });
  for (let i = 0; i < 5; i++) writeFileSync(join(vault, `a/n${i}.md`), `# Note ${i}\nSome text about topic ${i}.\n`);
  const model = gatedEmbedder();
  const t = await startTestRuntime(vault, { embeddingModel: 'stand-in', embeddingAutoIndex: false, jobSoftDeadlineMs: 1 }, { services: { loadEmbedder: model.load } });
  const client = await connect(t.url, t.rwKey);
  try {
    const tool = (await client.listTools()).tools.find((x) => x.name === 'build_embeddings')!;
    assert.ok((tool.outputSchema as unknown as { properties: { status: { enum: string[] } } }).properties.status.enum.includes('working'));
    const first = await call(client, 'build_embeddings', {});
    assert.equal(first.isError, undefined, textOf(first));
    const w = first.structuredContent!;
    assert.equal(w.status, 'working');
    assert.match(w.job_id, /^job_/);
    assert.match(w.hint, /get_job_result\(job_id=/);
    assert.equal(typeof w.retry_after_s, 'number');
    assert.equal(typeof w.pending, 'number', 'the working answer carries the index status too');
    const second = (await call(client, 'build_embeddings', {})).structuredContent!;
    assert.equal(second.status, 'working');
    assert.notEqual(second.job_id, w.job_id, 'each caller gets its own id for the shared build');
    const still = (await call(client, 'get_job_result', { job_id: w.job_id })).structuredContent!;
    assert.equal(still.status, 'working');
    assert.equal(still.tool, 'build_embeddings');
    model.open();
    // get_job_result's wait is capped at the (here 1 ms) soft deadline, so poll with pauses.
    const poll = async (id: string): Promise<Record<string, unknown>> => {
      for (let i = 0; i < 400; i++) {
        const p = (await call(client, 'get_job_result', { job_id: id, wait_s: 1 })).structuredContent!;
        if (p.status === 'completed') return p.result as Record<string, unknown>;
        assert.equal(p.status, 'working', JSON.stringify(p));
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`job ${id} did not complete`);
    };
    const done = await poll(w.job_id);
    assert.equal(done.status, 'done');
    assert.equal(done.embedded, 5);
    assert.equal(done.pending, 0);
    assert.equal((await poll(second.job_id)).embedded, 5);
    // Another key cannot see the job.
    const other = await connect(t.url, t.readKey);
    try { assert.equal((await call(other, 'get_job_result', { job_id: w.job_id })).isError, true); } finally { await other.close(); }
    // The status tool agrees with the job's answer.
    const st = (await call(client, 'stats')).structuredContent!.semantic;
    assert.equal(st.embedded, 5);
    // reindex runs on the same mechanism.
    const r = await call(client, 'reindex', {});
    assert.equal(r.isError, undefined, textOf(r));
    const rs = r.structuredContent!;
    assert.ok(rs.status === 'done' || (rs.status === 'working' && /^job_/.test(rs.job_id)), JSON.stringify(rs));
    if (rs.status === 'working') await poll(rs.job_id);
  } finally { await client.close(); await t.stop(); }
});
