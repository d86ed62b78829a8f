// The page path (limit / after: title bonus only for notes that can reach the page, top-k selection,
// accumulators reused between queries) returns exactly the rows of the full ranking (every match
// scored, bonus applied to all, whole list sorted), with the same totals: on a generated vault as built
// (each list in its own buffer) and as saved and loaded (windows on one array), for many query shapes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createAnalyzer } from '../../src/search/analyzer.js';
import { parseQuery } from '../../src/search/query.js';
import { InvertedIndex } from '../../src/search/invertedIndex.js';
import { runQuery, runQueryPage, type Hit } from '../../src/search/rank.js';
import { buildDoc } from '../../src/search/document.js';
import { encodeIndex, decodeHeader, decodeIndex } from '../../src/search/persist.js';

const analyzer = createAnalyzer({ stemming: ['english'], stopWords: true });

function rng(seed: number) {
  return () => { seed = (seed * 1664525 + 1013904223) >>> 0; return seed / 2 ** 32; };
}

const VOCAB = ['note', 'alpha', 'beta', 'gamma', 'delta', 'garden', 'gardening', 'quantum', 'compute', 'computing', 'river', 'stone', 'light', 'tower',
  'plugin', 'plugins', 'library', 'device', 'table', 'model', 'search', 'index', 'query', 'vault', 'link', 'graph', 'task', 'daily', 'journal', 'idea',
  'zephyr', 'onyx', 'quartz', 'umber', 'violet', 'saffron', 'cobalt', 'ember', 'fjord', 'glacier'];
const r = rng(11);
const zipf = () => VOCAB[Math.min(VOCAB.length - 1, Math.floor(VOCAB.length ** r()) - 1)];
const notes: Record<string, string> = {};
for (let i = 0; i < 1500; i++) {
  const words: string[] = [];
  const n = 5 + Math.floor(r() * 60);
  for (let w = 0; w < n; w++) words.push(w % 17 === 16 ? `\n\n## ${zipf()} ${zipf()}\n` : zipf());
  const aliases = i % 7 === 0 ? `aliases: ["${zipf()} ${zipf()}", ${zipf()}]\n` : '';
  const text = `---\n${aliases}tags: [t${i % 13}, ${zipf()}]\n---\n# ${zipf()}\n${words.join(' ')}\n`;
  // Titles like the benchmark's "Note 123 word": one term in every title makes every note a candidate.
  notes[`f${i % 10}/Note ${i} ${zipf()}.md`] = text;
}
// Exact ties in score (same text, different paths) exercise the path tie-break.
for (let i = 0; i < 30; i++) notes[`ties/Same ${i % 3}.${i}.md`] = 'tower light tower stone\n';

const paths = Object.keys(notes);
const queries: string[] = [];
const qr = rng(5);
const pick = <T>(xs: T[]) => xs[Math.floor(qr() * xs.length)];
for (let i = 0; i < 60; i++) queries.push(pick(paths).replace(/^.*\//, '').replace(/\.md$/, '')); // titles
for (let i = 0; i < 30; i++) queries.push(pick(VOCAB));
for (let i = 0; i < 40; i++) queries.push(`${pick(VOCAB)} ${pick(VOCAB)}`);
for (let i = 0; i < 20; i++) queries.push(`note ${pick(VOCAB)} ${pick(VOCAB)}`);
for (let i = 0; i < 15; i++) queries.push(`${pick(VOCAB).slice(0, 3)}* ${pick(VOCAB)}`);
for (let i = 0; i < 15; i++) queries.push(`${pick(VOCAB)} OR ${pick(VOCAB)} ${pick(VOCAB)}`);
for (let i = 0; i < 15; i++) queries.push(`${pick(VOCAB)} ${pick(VOCAB)} -${pick(VOCAB)}`);
for (let i = 0; i < 10; i++) queries.push(`"${pick(VOCAB)} ${pick(VOCAB)}" ${pick(VOCAB)}`);
queries.push('tower light', 'Same 1', VOCAB.join(' ')); // the last has more than 32 leaves
const readText = async (p: string) => notes[p] ?? null;
const accept = (p: string) => !p.startsWith('f3/');

const row = (h: Hit) => ({ path: h.path, score: h.score, matchedAll: h.matchedAll, fields: h.fields, terms: [...h.terms].sort() });

async function check(ms: InvertedIndex, label: string) {
  for (const q of queries) {
    for (const filter of [undefined, accept]) {
      const parsed = parseQuery(q, analyzer);
      const full = await runQuery(ms, parsed, analyzer, { readText, accept: filter });
      const fullAll = full.filter((h) => h.matchedAll).length;
      for (const limit of [1, 5, 20]) {
        let after: Hit | undefined;
        let seen = 0;
        for (let pageNo = 0; pageNo < 3; pageNo++) {
          const page = await runQueryPage(ms, parsed, analyzer, { readText, accept: filter, limit, after });
          const want = full.slice(seen, seen + limit);
          assert.deepEqual(page.hits.map(row), want.map(row), `${label}: "${q}" limit ${limit} page ${pageNo}`);
          assert.equal(page.total, full.length, `${label}: total of "${q}"`);
          assert.equal(page.totalAll, fullAll, `${label}: totalAll of "${q}"`);
          assert.equal(page.offset, seen, `${label}: offset of "${q}"`);
          seen += page.hits.length;
          if (page.hits.length < limit) break;
          after = page.hits[page.hits.length - 1];
        }
      }
    }
  }
}

const ms = new InvertedIndex();
for (const [p, t] of Object.entries(notes)) ms.add(buildDoc(p, t, null), analyzer);

test('page rows and totals equal the full ranking (as built)', async () => {
  await check(ms, 'built');
});

test('page rows and totals equal the full ranking (saved and loaded)', async () => {
  const bytes = await encodeIndex({ v: 1 }, ms);
  const { rest } = decodeHeader(bytes);
  const loaded = await decodeIndex(bytes, rest);
  await check(loaded, 'loaded');
});

test('reused accumulators: results do not depend on earlier queries, and follow index changes', async () => {
  const ms2 = new InvertedIndex();
  for (const [p, t] of Object.entries(notes).slice(0, 300)) ms2.add(buildDoc(p, t, null), analyzer);
  const q = parseQuery('tower light', analyzer);
  const first = (await runQueryPage(ms2, q, analyzer, { limit: 10 })).hits.map(row);
  await runQueryPage(ms2, parseQuery(VOCAB.join(' '), analyzer), analyzer, { limit: 10 });
  await Promise.all([runQueryPage(ms2, q, analyzer, { limit: 10, readText }), runQueryPage(ms2, parseQuery('"tower light" stone', analyzer), analyzer, { limit: 10, readText })]);
  assert.deepEqual((await runQueryPage(ms2, q, analyzer, { limit: 10 })).hits.map(row), first);
  // Removals and additions between queries are picked up.
  ms2.remove(first[0].path);
  const without = await runQueryPage(ms2, q, analyzer, { limit: 10 });
  assert.ok(!without.hits.some((h) => h.path === first[0].path));
  ms2.add(buildDoc('new/Tower light.md', 'tower light tower light', null), analyzer);
  const withNew = await runQuery(ms2, q, analyzer);
  assert.equal(withNew[0].path, 'new/Tower light.md');
  assert.deepEqual((await runQueryPage(ms2, q, analyzer, { limit: 5 })).hits.map(row), withNew.slice(0, 5).map(row));
});

test('prefix queries find the same terms before the prefix tree has caught up (scan) and after (tree)', async () => {
  const ix = new InvertedIndex();
  for (const [p, t] of Object.entries(notes).slice(0, 400)) ix.add(buildDoc(p, t, null), analyzer);
  const prefixQueries = ['gar*', 'q*', 'com* tower', 'zz*', 'no*'];
  const before = [];
  for (const q of prefixQueries) before.push((await runQuery(ix, parseQuery(q, analyzer), analyzer)).map(row));
  await ix.catchUpDict(() => null);
  for (const [i, q] of prefixQueries.entries()) assert.deepEqual((await runQuery(ix, parseQuery(q, analyzer), analyzer)).map(row), before[i], q);
  assert.ok(before[0].length > 0);
});
