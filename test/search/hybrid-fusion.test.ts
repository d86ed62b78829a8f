// Hybrid fusion that never hurts and helps where the semantic arm is good (issue 14).
// The weight rule is checked on its own (flat similarities → almost no weight; a clear standout → full
// weight), and end to end over HTTP with the GloVe fixture model on test/fixtures/hybrid-vault.json: a
// small vault of distinct topics, queried both in paraphrase (the right note shares no word with the
// question: the semantic arm finds it) and by exact names and identifiers (the keyword arm finds them).
// There hybrid_search must beat both arms on nDCG@10 and MAP; a weak arm must not drag it below the
// better one (that half is measured on Cranfield and CISI by `npm run eval:search`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { rrf, semanticWeight, FULL_TRUST_GAP } from '../../src/core/fusion.js';
import { startTestRuntime } from '../helpers/runtime.js';
import { connect, call } from '../helpers/server.js';
import { tempDir, removeDir } from '../helpers/vault.js';
import { REPO } from '../helpers/paths.js';
import { GLOVE, missing } from '../semantic/helpers.js';

test('semantic weight: flat similarities count for almost nothing, a clear standout counts fully', () => {
  // GloVe on Cranfield: the best note is 0.017 above the 10th.
  const flat = [0.935, 0.93, 0.928, 0.925, 0.924, 0.922, 0.921, 0.92, 0.919, 0.918, 0.91];
  assert.ok(semanticWeight(flat) < 0.02, String(semanticWeight(flat)));
  const clear = [0.82, 0.7, 0.66, 0.6, 0.58, 0.55, 0.53, 0.52, 0.51, 0.5];
  assert.equal(semanticWeight(clear), 1);
  assert.ok(Math.abs(semanticWeight([0.5, 0.5 - FULL_TRUST_GAP / 2]) - 0.25) < 1e-12);
  assert.equal(semanticWeight([]), 0);
  assert.equal(semanticWeight([0, 0, 0]), 0); // words the model does not know: zero vectors
});

test('weighted rrf: with no semantic weight the keyword ranking stands, semantic-only notes follow it', () => {
  const kw = ['a', 'b', 'c', 'd'];
  const sem = ['d', 'x', 'c', 'y'];
  assert.deepEqual(rrf([kw, sem], 60, 50, [1, 0]).map((r) => r.id), ['a', 'b', 'c', 'd', 'x', 'y']);
  // Full weight is plain RRF: agreement lifts d and c.
  assert.deepEqual(rrf([kw, sem], 60, 50, [1, 1]).map((r) => r.id).slice(0, 2), ['d', 'c']);
});

/** nDCG@10 and average precision of one ranking (binary relevance). */
function metrics(ranked: string[], relevant: string[]): { ndcg: number; ap: number } {
  let dcg = 0;
  let hits = 0;
  let ap = 0;
  ranked.forEach((p, i) => {
    if (!relevant.includes(p)) return;
    if (i < 10) dcg += 1 / Math.log2(i + 2);
    hits++;
    ap += hits / (i + 1);
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(10, relevant.length); i++) ideal += 1 / Math.log2(i + 2);
  return { ndcg: dcg / ideal, ap: ap / relevant.length };
}

const fixture = JSON.parse(readFileSync(join(REPO, 'test/fixtures/hybrid-vault.json'), 'utf8')) as { notes: Record<string, string>; queries: { query: string; relevant: string[]; kind: string }[] };

test('hybrid_search beats both arms where the semantic arm is good (GloVe, fixture vault, over HTTP)', { skip: missing(GLOVE), timeout: 120_000 }, async () => {
  const vault = join(tempDir('vmcp-hybrid-'), 'vault');
  for (const [p, t] of Object.entries(fixture.notes)) { mkdirSync(dirname(join(vault, p)), { recursive: true }); writeFileSync(join(vault, p), t); }
  const t = await startTestRuntime(vault, { embeddingModel: GLOVE, embeddingAutoIndex: false, rateLimitPerMinute: 1e6, rateLimitBurst: 1e6 });
  try {
    const client = await connect(t.url, t.rwKey);
    await call(client, 'keyword_search', { query: 'warmup', wait_for_pending_writes: true });
    let r = (await call(client, 'build_embeddings', {})).structuredContent!;
    while (r.status === 'working') {
      const p = (await call(client, 'get_job_result', { job_id: r.job_id, wait_s: 20 })).structuredContent!;
      r = p.status === 'completed' ? p.result as Record<string, unknown> : { status: 'working', job_id: r.job_id };
    }
    const sums: Record<string, { ndcg: number; ap: number }> = {};
    const weights: number[] = [];
    for (const q of fixture.queries) {
      for (const tool of ['keyword_search', 'semantic_search', 'hybrid_search']) {
        const res = await call(client, tool, { query: q.query, limit: 10 });
        assert.ok(!res.isError, JSON.stringify(res.content));
        if (tool === 'hybrid_search') { assert.equal(res.structuredContent!.arms, 'keyword+semantic'); weights.push(res.structuredContent!.semantic_weight as number); }
        const m = metrics((res.structuredContent!.results as { path: string }[]).map((x) => x.path), q.relevant);
        const s = (sums[tool] ??= { ndcg: 0, ap: 0 });
        s.ndcg += m.ndcg / fixture.queries.length;
        s.ap += m.ap / fixture.queries.length;
      }
    }
    await client.close();
    const f = (x: { ndcg: number; ap: number }) => `${x.ndcg.toFixed(3)} / ${x.ap.toFixed(3)}`;
    console.log(`nDCG@10 / MAP over ${fixture.queries.length} queries: keyword ${f(sums.keyword_search)}, semantic ${f(sums.semantic_search)}, hybrid ${f(sums.hybrid_search)}; semantic weight median ${[...weights].sort()[weights.length >> 1]}`);
    const h = sums.hybrid_search;
    for (const arm of ['keyword_search', 'semantic_search']) {
      assert.ok(h.ndcg > sums[arm].ndcg, `hybrid nDCG@10 ${h.ndcg} not above ${arm} ${sums[arm].ndcg}`);
      assert.ok(h.ap > sums[arm].ap, `hybrid MAP ${h.ap} not above ${arm} ${sums[arm].ap}`);
    }
  } finally {
    await t.stop();
    removeDir(join(vault, '..'));
  }
});
