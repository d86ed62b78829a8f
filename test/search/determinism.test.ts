// The same vault and query give the same ranking (same rows, same scores) whatever order the notes were
// indexed in, after a restart (the saved index loaded), and after a forced rebuild: corpus statistics
// are exact integers, a note's score is summed in query order, prefix expansions in term order, and
// ties are broken by path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { createAnalyzer } from '../../src/search/analyzer.js';
import { parseQuery } from '../../src/search/query.js';
import { InvertedIndex } from '../../src/search/invertedIndex.js';
import { runQuery, runQueryPage, type Hit } from '../../src/search/rank.js';
import { buildDoc } from '../../src/search/document.js';
import { parseMarkdown } from '../../src/core/markdown/parse.js';
import { NodeHost } from '../../src/host/node/nodeHost.js';
import { withDefaults } from '../../src/settings.js';
import { KeywordService } from '../../src/search/service.js';
import type { FileStat } from '../../src/host/port.js';
import { tempDir, removeDir } from '../helpers/vault.js';

const analyzer = createAnalyzer({ stemming: ['english'], stopWords: true });
function rng(seed: number) {
  return () => { seed = (seed * 1664525 + 1013904223) >>> 0; return seed / 2 ** 32; };
}
const VOCAB = ['wing', 'drag', 'lift', 'flow', 'boundary', 'layer', 'shock', 'wave', 'heat', 'transfer', 'plate', 'cylinder', 'pressure', 'velocity',
  'turbulent', 'laminar', 'supersonic', 'hypersonic', 'nozzle', 'jet', 'vortex', 'stability', 'buckling', 'shell', 'panel', 'flutter'];
const r = rng(3);
const word = () => VOCAB[Math.floor(VOCAB.length ** r()) - 1];
const notes: Record<string, string> = {};
for (let i = 0; i < 400; i++) {
  const title = `${word()} ${word()} ${word()}`;
  const body = Array.from({ length: 10 + Math.floor(r() * 80) }, word).join(' ');
  const id = String(i).padStart(4, '0');
  const layout = i % 4;
  if (layout === 0) notes[`d${i % 7}/${title} ${i}.md`] = `${body}\n`;
  else if (layout === 1) notes[`${id} ${title.split(' ')[0]}.md`] = `# ${title}\n\n${body}\n`;
  else if (layout === 2) notes[`${id}.md`] = `---\ntitle: ${title}\naliases: [${word()} ${word()}]\n---\n${body}\n`;
  else notes[`${id}.md`] = `${title}\n\n${body}\n`;
}
// Exact ties: the same text under different paths.
for (let i = 0; i < 12; i++) notes[`ties/Same ${i % 4} copy ${i}.md`] = 'shock wave boundary layer\n';
const QUERIES = ['wing drag', 'shock wave boundary layer', 'heat transfer to a flat plate', 'turb* flow', 'supersonic OR hypersonic nozzle', 'wing -drag',
  '"boundary layer" stability', 'same', 'the pressure distribution on a cylinder in supersonic flow with shock waves', ...VOCAB.slice(0, 8)];

const row = (h: Hit) => `${h.path} ${h.score} ${h.matchedAll}`;

async function rankings(search: (q: string) => Promise<Hit[]>): Promise<string[][]> {
  const out: string[][] = [];
  for (const q of QUERIES) out.push((await search(q)).map(row));
  return out;
}

test('building in any order gives the same rows and scores', async () => {
  const entries = Object.entries(notes);
  const orders = [entries, [...entries].reverse(), [...entries].sort(() => r() - 0.5)];
  const results: string[][][] = [];
  for (const order of orders) {
    const ix = new InvertedIndex();
    for (const [p, t] of order) ix.add(buildDoc(p, t, parseMarkdown(t)), analyzer);
    const readText = async (p: string) => notes[p] ?? null;
    results.push(await rankings((q) => runQuery(ix, parseQuery(q, analyzer), analyzer, { readText })));
    // The page path agrees with the full ranking here too.
    const page = await runQueryPage(ix, parseQuery('wing drag', analyzer), analyzer, { limit: 10, readText });
    assert.deepEqual(page.hits.map(row), results[results.length - 1][0].slice(0, 10));
  }
  assert.deepEqual(QUERIES.filter((_, i) => !results[0][i].length), []);
  assert.deepEqual(results[1], results[0]);
  assert.deepEqual(results[2], results[0]);
});

/** A host whose file list (the first build's order) is reversed. */
class ReversedHost extends NodeHost {
  override files(): FileStat[] {
    return super.files().reverse();
  }
}

test('the service gives the same ranking after a restart, a forced rebuild, and a first build in another order', async () => {
  const vault = join(tempDir('vmcp-det-'), 'vault');
  for (const [p, t] of Object.entries(notes)) { mkdirSync(dirname(join(vault, p)), { recursive: true }); writeFileSync(join(vault, p), t); }
  const settings = () => withDefaults({});
  const run = async (host: NodeHost, fn: (svc: KeywordService) => Promise<void>) => {
    await host.ready();
    const svc = new KeywordService({ host, settings, saveDelayMs: 10 });
    await svc.ready();
    try { await fn(svc); } finally { await svc.stop(); await host.close(); }
  };
  const search = (svc: KeywordService) => (q: string) => svc.search(q).then((x) => x.hits);
  const data = join(tempDir(), 'data');
  let first: string[][] = [];
  await run(new NodeHost(vault, { dataDir: data, watch: false }), async (svc) => { first = await rankings(search(svc)); });
  assert.deepEqual(QUERIES.filter((_, i) => !first[i].length), []);
  await run(new NodeHost(vault, { dataDir: data, watch: false }), async (svc) => {
    assert.equal(svc.details().last_build_ms, null, 'the restart loaded the saved index');
    assert.deepEqual(await rankings(search(svc)), first, 'after a restart');
    await svc.reindex(true);
    assert.deepEqual(await rankings(search(svc)), first, 'after a forced rebuild');
  });
  await run(new ReversedHost(vault, { dataDir: join(tempDir(), 'data'), watch: false }), async (svc) => {
    assert.deepEqual(await rankings(search(svc)), first, 'first build in reverse order');
  });
  removeDir(join(vault, '..'));
});
