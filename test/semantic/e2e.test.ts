// semantic_search / hybrid_search / find_related / build_embeddings / stats().semantic end to end:
// the runtime in-process over a NodeHost, a real SDK Client over HTTP, the GloVe fixture model on
// onnxruntime-node, and every non-loopback fetch refused.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync, utimesSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { NodeHost } from '../../src/host/node/nodeHost.js';
import { KeyStore } from '../../src/services/keyStore.js';
import { withDefaults } from '../../src/settings.js';
import type { Settings } from '../../src/core/settings.js';
import { startRuntime, type Runtime } from '../../src/runtime.js';
import { connect, call, refusalCode, textOf } from '../helpers/server.js';
import { tempDir } from '../helpers/vault.js';
import { GLOVE, TINY, missing } from './helpers.js';

const skip = missing(GLOVE, TINY);

const NOTES: Record<string, string> = {
  'Kitchen/Bread.md': '---\ntags: [cooking]\n---\n# Bread\nNotes from the kitchen.\n\n## Ingredients\nflour, water, salt and yeast\n\n## Method\nKnead the dough, let it rise for an hour, then bake the loaf in a hot oven until the crust is brown.\n',
  'Kitchen/Soup.md': '# Soup\nA warm vegetable soup with onions, carrots and potatoes simmered for dinner.\n',
  'Finance/Markets.md': '# Markets\nThe stock market fell sharply on Monday; investors sold shares and bonds as interest rates rose.\n',
  'Garden/Tomatoes.md': '# Tomatoes\n## Watering\nWater the tomato plants every morning during the dry summer.\n## Pests\nAphids and beetles eat the leaves.\n',
  'Private/Diary.md': '# Diary\nBaked bread again today.\n',
};

let vault: string;
let dataDir: string;
const netCalls: string[] = [];
const realFetch = globalThis.fetch;

before(() => {
  // Loopback is the MCP client talking to our server; anything else would be the network.
  globalThis.fetch = (async (u: unknown, init?: RequestInit) => {
    const url = String(u instanceof Request ? u.url : u);
    if (!/^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])[:/]/.test(url)) { netCalls.push(url); throw new Error('network disabled in tests'); }
    return realFetch(u as RequestInfo, init);
  }) as typeof fetch;
  vault = join(tempDir('vmcp-sem-vault-'), 'vault');
  for (const [p, t] of Object.entries(NOTES)) { mkdirSync(dirname(join(vault, p)), { recursive: true }); writeFileSync(join(vault, p), t); }
  dataDir = join(tempDir('vmcp-sem-data-'), 'data');
});
after(() => { globalThis.fetch = realFetch; });

async function start(settings: Partial<Settings>): Promise<{ rt: Runtime; host: NodeHost; client: Client; stop(): Promise<void> }> {
  const host = new NodeHost(vault, { dataDir, watch: false });
  await host.ready();
  const keys = new KeyStore(host.data);
  const key = `vmcp_test_${randomBytes(8).toString('hex')}`;
  keys.addEphemeral(key, 'test', 'readwrite');
  const s = withDefaults({ port: 0, embeddingModel: GLOVE, embeddingSkipGlobs: ['Private/*'], ...settings });
  const rt = await startRuntime({ host, settings: () => s, keys });
  const client = await connect(rt.server.url, key);
  return { rt, host, client, stop: async () => { await client.close(); await rt.stop(); await host.close(); } };
}

test('semantic pipeline over MCP: build, search with section ordinals, filters, hybrid, related, persistence, fingerprint', { skip, timeout: 60_000 }, async () => {
  let s = await start({ embeddingAutoIndex: false });
  try {
    const tools = (await s.client.listTools()).tools.map((t) => t.name);
    for (const n of ['semantic_search', 'hybrid_search', 'find_related', 'build_embeddings', 'stats']) assert.ok(tools.includes(n), n);
    for (const n of ['semantic_search', 'hybrid_search']) {
      const desc = (await s.client.listTools()).tools.find((t) => t.name === n)!.description!;
      assert.match(desc, /exact identifiers.*keyword_search.*paraphrased.*semantic_search.*unsure.*hybrid_search/is, n);
    }

    const built = await call(s.client, 'build_embeddings', {});
    assert.equal(built.isError, undefined, textOf(built));
    assert.equal(built.structuredContent!.status, 'done');
    const st = (await call(s.client, 'stats')).structuredContent!.semantic;
    assert.equal(st.embedded, 4, 'Private/* is skipped');
    assert.match(st.model, /, 100 dims\)$/);
    assert.equal(st.pending, 0);
    assert.match(st.model, /onnxruntime-node/);

    // Paraphrase of Bread's Method section, sharing almost no words with it.
    const r = await call(s.client, 'semantic_search', { query: 'how to make a homemade loaf in the oven' });
    const rows = r.structuredContent!.results as { path: string; section: string | null; similarity: number; preview: string }[];
    assert.equal(rows[0].path, 'Kitchen/Bread.md', JSON.stringify(rows));
    const markets = rows.find((x) => x.path === 'Finance/Markets.md')!;
    assert.ok(rows[0].similarity > markets.similarity);
    assert.ok(!rows.some((x) => x.path.startsWith('Private/')));
    assert.match(rows[0].section!, /^#\d+ Method$/);
    // The ordinal opens that very section.
    const sec = await call(s.client, 'read_note', { path: rows[0].path, section: rows[0].section });
    assert.equal(sec.structuredContent!.section, rows[0].section);
    assert.match(sec.structuredContent!.content, /bake the loaf/);
    assert.match(rows[0].preview, /bake the loaf/);

    const fin = await call(s.client, 'semantic_search', { query: 'bread', folder: 'Finance' });
    assert.deepEqual(fin.structuredContent!.results.map((x: { path: string }) => x.path), ['Finance/Markets.md']);
    const tagged = await call(s.client, 'semantic_search', { query: 'food', tags: ['#cooking'] });
    assert.deepEqual(tagged.structuredContent!.results.map((x: { path: string }) => x.path), ['Kitchen/Bread.md']);
    const low = await call(s.client, 'semantic_search', { query: 'zxqv', limit: 3 });
    assert.equal(low.structuredContent!.confidence, 'low');

    const h = await call(s.client, 'hybrid_search', { query: 'tomato plants watering' });
    assert.equal(h.structuredContent!.arms, 'keyword+semantic');
    assert.equal(h.structuredContent!.confidence, 'ok', 'a note matched every keyword');
    assert.match(textOf(h), /^arms: keyword\+semantic/);
    const top = h.structuredContent!.results[0];
    assert.equal(top.path, 'Garden/Tomatoes.md');
    assert.equal(top.keyword_rank, 1);
    assert.equal(top.semantic_rank, 1);
    assert.ok(Math.abs(top.score - 2 / 61) < 1e-5);
    assert.match(top.section, /^#2 /);

    const rel = await call(s.client, 'find_related', { path: 'Kitchen/Bread.md' });
    const relPaths = rel.structuredContent!.results.map((x: { path: string }) => x.path);
    assert.ok(!relPaths.includes('Kitchen/Bread.md'));
    assert.equal(relPaths[0], 'Kitchen/Soup.md', JSON.stringify(rel.structuredContent));
  } finally { await s.stop(); }

  // Restart: the index loads from the data folder; only the note changed while down is pending.
  writeFileSync(join(vault, 'Finance/Markets.md'), '# Markets\nThe bakery down the road sells sourdough loaves.\n');
  utimesSync(join(vault, 'Finance/Markets.md'), new Date(), new Date(Date.now() + 5000));
  s = await start({ embeddingAutoIndex: false });
  try {
    const st = (await call(s.client, 'stats')).structuredContent!.semantic;
    assert.equal(st.embedded, 4);
    assert.equal(st.pending, 1, JSON.stringify(st));
    assert.equal(st.rebuilding, undefined);
    const sr = await call(s.client, 'semantic_search', { query: 'bread' });
    assert.equal(sr.structuredContent!.not_embedded, 1);
    assert.match(sr.structuredContent!.hint, /1 notes in scope are not embedded yet.*Finance\/Markets\.md/);
    assert.equal((await call(s.client, 'build_embeddings', {})).structuredContent!.status, 'done');
    assert.equal((await call(s.client, 'stats')).structuredContent!.semantic.pending, 0);
  } finally { await s.stop(); }

  // Another chunking setup: the saved vectors are dropped, never mixed; answers say what is missing.
  s = await start({ embeddingAutoIndex: false, embeddingChunkTokens: 128 });
  try {
    const st = (await call(s.client, 'stats')).structuredContent!.semantic;
    assert.match(st.rebuilding, /re-embedding every note/);
    assert.equal(st.embedded, 0);
    assert.equal(st.pending, 4);
    const sr = await call(s.client, 'semantic_search', { query: 'bread' });
    assert.deepEqual(sr.structuredContent!.results, []);
    assert.equal(sr.structuredContent!.not_embedded, 4);
  } finally { await s.stop(); }

  // And another model (different dims): background indexing rebuilds in the new space.
  s = await start({ embeddingModel: TINY });
  try {
    for (let i = 0; i < 100; i++) {
      const st = (await call(s.client, 'stats')).structuredContent!.semantic;
      if (st.state === 'ready' && st.embedded === 4) { assert.match(st.model, /, 32 dims\)$/); break; }
      assert.ok(i < 99, `background indexing did not finish: ${JSON.stringify(st)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally { await s.stop(); }
  assert.deepEqual(netCalls, []);
});

test('hybrid_search without a usable model is the keyword ranking, marked on every path', { skip, timeout: 30_000 }, async () => {
  const s = await start({ embeddingModel: '/nonexistent/model-folder' });
  try {
    const sem = await call(s.client, 'semantic_search', { query: 'bread' });
    assert.equal(refusalCode(sem), 'unavailable');
    assert.match(textOf(sem), /does not exist/);
    for (const query of ['bread loaf', 'qqqqzzzz nothing matches']) {
      const h = await call(s.client, 'hybrid_search', { query });
      assert.equal(h.isError, undefined, textOf(h));
      assert.match(h.structuredContent!.arms, /^keyword-only \(semantic unavailable: .*does not exist/);
      assert.match(textOf(h), /^arms: keyword-only \(semantic unavailable: /);
      for (const row of h.structuredContent!.results) { assert.equal(row.semantic_rank, undefined); assert.equal(row.similarity, undefined); }
    }
    const h = await call(s.client, 'hybrid_search', { query: 'bread loaf' });
    assert.equal(h.structuredContent!.results[0].path, 'Kitchen/Bread.md');
    const st = (await call(s.client, 'stats')).structuredContent!.semantic;
    assert.equal(st.state, 'unavailable');
    // The model load runs inside the build job; its failure is still a plain refusal, not a job.
    const b = await call(s.client, 'build_embeddings', {});
    assert.equal(refusalCode(b), 'unavailable');
    assert.match(textOf(b), /^Cannot build embeddings: .*does not exist/);
  } finally { await s.stop(); }
  const none = await start({ embeddingModel: '' });
  try {
    const h = await call(none.client, 'hybrid_search', { query: 'bread' });
    assert.match(h.structuredContent!.arms, /^keyword-only \(semantic unavailable: no embedding model is configured/);
  } finally { await none.stop(); }
});
