// Semantic search for a root-confined key (the GloVe fixture model, onnxruntime-node): semantic_search,
// hybrid_search, find_related and stats answer the same whether or not the vault holds
// notes outside the root (scores masked), never name an outside note or word, and an outside path
// answers like a missing one. Skips when ../shared/fixtures/models is absent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, call, type ToolResult } from '../helpers/server.js';
import { GLOVE, TINY, missing } from '../semantic/helpers.js';
import { startSec, makeVault, INSIDE, OUTSIDE, MARKERS } from './helpers.js';

const skip = missing(GLOVE, TINY);

const PROBES: [string, Record<string, unknown>][] = [
  ['semantic_search', { query: 'secret classified codename' }],
  ['semantic_search', { query: 'team plan launch budget' }],
  ['semantic_search', { query: 'plan', folder: 'Private' }],
  ['hybrid_search', { query: 'zanzibarquux plan team' }],
  ['hybrid_search', { query: 'meeting notes' }],
  ['find_related', { path: 'Team/Plan.md' }],
  ['find_related', { path: 'Team/Notes.md', limit: 20 }],
  ['find_related', { path: 'Private/Secret.md' }],
  ['find_related', { path: 'Private/Nosuch.md' }],
  ['stats', {}],
];

const mask = (r: unknown) => JSON.stringify(r, (k, v) => (/^(similarity|score|rrf_score|keyword_rank|semantic_rank|rate|.*_per_s|.*_ms|ms|updated|last_.*|since|started)$/.test(k) && typeof v !== 'object' ? '<n>' : v))
  .replace(/\d{4}-\d{2}-\d{2}T[\d:.]+Z/g, '<time>').replace(/0\.\d{3,}/g, '<n>');

async function run(withOutside: boolean): Promise<Map<string, { masked: string; raw: string }>> {
  const vault = makeVault(withOutside ? { ...INSIDE, ...OUTSIDE } : INSIDE);
  const t = await startSec(vault, { embeddingModel: GLOVE, embeddingAutoIndex: false, rateLimitPerMinute: 0, defaultDailyQuota: 0 });
  const out = new Map<string, { masked: string; raw: string }>();
  try {
    const admin = await connect(t.url, await t.key({ name: 'owner', scope: 'readwrite' }));
    const built = await call(admin, 'build_embeddings', {});
    assert.equal(built.structuredContent?.status, 'done', JSON.stringify(built));
    const team = await connect(t.url, await t.key({ name: 'team', scope: 'read', root: 'Team' }));
    const listed = new Set((await team.listTools()).tools.map((x) => x.name));
    assert.ok(!listed.has('build_embeddings'), 'admin tools are hidden from confined keys');
    for (const [name, args] of PROBES) {
      assert.ok(listed.has(name), `${name} listed`);
      const r = (await call(team, name, args)) as ToolResult;
      out.set(`${name} ${JSON.stringify(args)}`, { masked: mask(r), raw: JSON.stringify(r) });
    }
    await admin.close();
    await team.close();
  } finally {
    await t.stop();
  }
  return out;
}

/** Loopback is the MCP client talking to our server; anything else would be the network. */
function trapNetwork(): { calls: string[]; restore(): void } {
  const calls: string[] = [];
  const real = globalThis.fetch;
  globalThis.fetch = (async (u: unknown, init?: RequestInit) => {
    const url = String(u instanceof Request ? u.url : u);
    if (!/^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])[:/]/.test(url)) { calls.push(url); throw new Error('network disabled in tests'); }
    return real(u as RequestInfo, init);
  }) as typeof fetch;
  return { calls, restore: () => { globalThis.fetch = real; } };
}

test('a Team-rooted key learns nothing outside Team/ through semantic search', { skip, timeout: 120_000 }, async () => {
  const net = trapNetwork();
  try {
    const a = await run(true);
    const b = await run(false);
    const leaks: string[] = [];
    for (const [id, r] of a) {
      // (Team/Plan.md's own text says [[Private/Secret]], and refusals echo the path asked for.)
      for (const m of [...MARKERS, 'Private/Deep', 'Private/Secret.png', 'Teamwork/', 'team/Lower', 'Café', '"Notes.md"']) if (r.raw.includes(m)) leaks.push(`${id}: ${m} in ${r.raw.slice(Math.max(0, r.raw.indexOf(m) - 200), r.raw.indexOf(m) + 100)}`);
      if (r.masked !== b.get(id)!.masked) leaks.push(`${id}\n  with outside:    ${r.masked.slice(0, 500)}\n  without outside: ${b.get(id)!.masked.slice(0, 500)}`);
    }
    assert.deepEqual(leaks, []);
    assert.match(a.get('find_related {"path":"Private/Secret.md"}')!.raw, /not_found/);
    assert.deepEqual(net.calls, [], 'no network');
  } finally {
    net.restore();
  }
});
