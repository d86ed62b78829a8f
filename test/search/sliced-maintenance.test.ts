// The keyword index's upkeep in slices (issue 15, no UI freezes): saving encodes in pieces with a turn
// of the event loop between them, vacuuming (dropping discarded notes' postings) is ours and sliced,
// and neither changes a result: the sliced encoding is the same bytes, the vacuumed index answers
// like one built fresh from the live notes, updates arriving during a save wait for it, and a note
// rewritten many times over (more dead postings than notes) still scores as a finite number.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAnalyzer } from '../../src/search/analyzer.js';
import { parseQuery } from '../../src/search/query.js';
import { addDoc, addDocSteps, createMiniSearch, markChanged, runQuery, type Hit } from '../../src/search/keywordIndex.js';
import { buildDoc } from '../../src/search/document.js';
import { decodeHeader, decodeIndex, encodeIndex, encodeIndexSliced, PackedPostings } from '../../src/search/persist.js';
import { vacuumDue, vacuumSliced } from '../../src/search/vacuum.js';
import { KeywordService, INDEX_FILE } from '../../src/search/service.js';
import { NodeHost } from '../../src/host/node/nodeHost.js';
import { withDefaults } from '../../src/settings.js';
import { tempDir } from '../helpers/vault.js';

const analyzer = createAnalyzer({ stemming: ['english'], stopWords: true });
const WORDS = 'vault note garden river stone tower light quantum ember fjord glacier cobalt saffron onyx zephyr'.split(' ');
const text = (i: number, v = 0) => `# Note ${i}\n${Array.from({ length: 30 }, (_, k) => WORDS[(i * 7 + k * 3 + v) % WORDS.length]).join(' ')} vault\n`;
const row = (h: Hit) => ({ path: h.path, score: h.score, matchedAll: h.matchedAll });
const QUERIES = ['vault', 'garden river', 'tower -stone', 'glac*', 'note 12', '"ember fjord"'];

function build(n: number, v = 0) {
  const ms = createMiniSearch(analyzer);
  for (let i = 0; i < n; i++) addDoc(ms, buildDoc(`f${i % 5}/Note ${i}.md`, text(i, v), null), analyzer);
  return ms;
}

async function answers(ms: ReturnType<typeof createMiniSearch>) {
  markChanged(ms);
  const out: ReturnType<typeof row>[][] = [];
  for (const q of QUERIES) out.push((await runQuery(ms, parseQuery(q, analyzer), analyzer)).map(row));
  return out;
}

test('a long note indexed in steps (pieces cut at white space) gives exactly what MiniSearch\'s own add() gives', () => {
  const parts: string[] = [];
  for (let i = 0; i < 20000; i++) parts.push(i % 50 === 0 ? '\n\n## Heading bge-m3 v1.2 C++ ' : i % 7 === 0 ? 'Obsidianで検索する日本語の文章' : `${WORDS[i % WORDS.length]}${i % 3 ? '' : `-${i}`}`);
  // White space of several kinds between words, so pieces are cut at each kind.
  const body = parts.map((w, i) => w + [' ', '\n', '\t', '\u3000'][i % 4]).join('');
  assert.ok(body.length > 150_000, `${body.length} characters`);
  const doc = buildDoc('Long.md', `# Long\n${body}\n`, null);
  const own = createMiniSearch(analyzer);
  own.add(doc);
  const ours = createMiniSearch(analyzer);
  const steps = addDocSteps(ours, doc, analyzer);
  let n = 0;
  while (!steps.next().done) n++;
  assert.ok(n > 8, `only ${n} steps`);
  const dump = (ms: ReturnType<typeof createMiniSearch>) => {
    const ix = ms as unknown as { _index: Iterable<[string, Map<number, Map<number, number>>]>; _fieldLength: Map<number, number[]> };
    const terms: [string, [number, [number, number][]][]][] = [];
    for (const [t, f] of ix._index) terms.push([t, [...f].map(([fid, p]) => [fid, [...p]] as [number, [number, number][]]).sort((a, b) => a[0] - b[0])]);
    return { terms: terms.sort((a, b) => (a[0] < b[0] ? -1 : 1)), lengths: [...ix._fieldLength] };
  };
  assert.deepEqual(dump(ours), dump(own));
});

test('sliced encoding: the same bytes as in one piece, with turns of the event loop between slices', async () => {
  const ms = build(1500);
  // A header large enough to be written in pieces: a Map of per-note records and nested values.
  const docs = new Map<string, unknown>();
  for (let i = 0; i < 3000; i++) docs.set(`f/Note ${i} "q" \u00e9.md`, { m: i, s: i * 2, h: `h${i}` });
  const header = { schema: 2, signature: 's', docs, skipped: { 'a.md': 'too_large:9' }, list: Array.from({ length: 2000 }, (_, i) => [i, `x${i}`]) };
  const plain = { ...header, docs: Object.fromEntries(docs) };
  const whole = encodeIndex(header, ms);
  let pauses = 0;
  const sliced = await encodeIndexSliced(header, ms, 0, async () => { pauses++; await new Promise((r) => setTimeout(r, 0)); });
  assert.ok(pauses > 5, `only ${pauses} pauses`);
  assert.deepEqual(sliced, whole);
  const { header: back, rest } = decodeHeader(sliced);
  assert.equal(new TextDecoder().decode(sliced.subarray(0, rest - 1)), JSON.stringify(plain), 'the header text is what JSON.stringify writes');
  assert.deepEqual(back, plain);
  assert.deepEqual(await answers(await decodeIndex(sliced, rest, analyzer)), await answers(ms));
});

test('sliced vacuum: dead postings gone, packed lists filtered without unpacking, answers as a fresh index', async () => {
  for (const packed of [false, true]) {
    let ms = build(1200);
    if (packed) { const b = encodeIndex({}, ms); ms = await decodeIndex(b, decodeHeader(b).rest, analyzer); }
    // Rewrite a third of the notes and delete a tenth: the old postings stay until the vacuum.
    for (let i = 0; i < 1200; i++) {
      const p = `f${i % 5}/Note ${i}.md`;
      if (i % 10 === 0) ms.discard(p);
      else if (i % 3 === 0) { ms.discard(p); addDoc(ms, buildDoc(p, text(i, 1), null), analyzer); }
    }
    const fresh = createMiniSearch(analyzer);
    for (let i = 0; i < 1200; i++) if (i % 10) addDoc(fresh, buildDoc(`f${i % 5}/Note ${i}.md`, text(i, i % 3 === 0 ? 1 : 0), null), analyzer);
    assert.ok(vacuumDue(ms), 'enough dirt to vacuum');
    const ix = ms as unknown as { _index: Iterable<[string, Map<number, Map<number, number>>]>; _documentIds: Map<number, string>; dirtCount: number };
    let pauses = 0;
    await vacuumSliced(ms, 0, async () => { pauses++; await new Promise((r) => setTimeout(r, 0)); });
    assert.ok(pauses > 0, 'the vacuum gave the event loop turns');
    assert.equal(ms.dirtCount, 0);
    let packedLeft = 0;
    for (const [, fields] of ix._index) {
      assert.ok(fields.size > 0, 'no term without postings');
      for (const postings of fields.values()) {
        if (postings instanceof PackedPostings && postings.pairs) { packedLeft++; for (let i = 0; i < postings.pairs.length; i += 2) assert.ok(ix._documentIds.has(postings.pairs[i])); }
        else for (const d of postings.keys()) assert.ok(ix._documentIds.has(d), `a dead posting (${d}) survived`);
      }
    }
    if (packed) assert.ok(packedLeft > 0, 'packed posting lists stay packed');
    // Same notes, same scores (BM25 reads document frequencies from the posting lists).
    const got = await answers(ms);
    const want = await answers(fresh);
    for (let q = 0; q < QUERIES.length; q++) {
      assert.deepEqual(got[q].map((r) => r.path), want[q].map((r) => r.path), `${QUERIES[q]} (${packed ? 'packed' : 'maps'})`);
      for (let i = 0; i < got[q].length; i++) assert.ok(Math.abs(got[q][i].score - want[q][i].score) < 1e-9 * Math.max(1, want[q][i].score));
    }
  }
});

test('more dead postings than live notes (before any vacuum): the scores of a fresh index, never NaN or negative', async () => {
  const ms = build(200);
  for (let round = 1; round <= 3; round++) {
    for (let i = 0; i < 200; i++) { const p = `f${i % 5}/Note ${i}.md`; ms.discard(p); addDoc(ms, buildDoc(p, text(i, round), null), analyzer); }
  }
  markChanged(ms);
  const hits = await runQuery(ms, parseQuery('vault', analyzer), analyzer);
  assert.equal(hits.length, 200);
  for (const h of hits) assert.ok(Number.isFinite(h.score) && h.score > 0, `score ${h.score} for ${h.path}`);
  const got = await answers(ms);
  const want = await answers(build(200, 3));
  for (let q = 0; q < QUERIES.length; q++) {
    assert.deepEqual(got[q].map((r) => r.path), want[q].map((r) => r.path), QUERIES[q]);
    for (let i = 0; i < got[q].length; i++) assert.ok(Math.abs(got[q][i].score - want[q][i].score) < 1e-9 * Math.max(1, want[q][i].score), `${QUERIES[q]}: ${got[q][i].score} vs ${want[q][i].score}`);
  }
});

test('service: changes arriving while a save encodes wait for it; the file on disk is whole and loads', async () => {
  const dir = join(tempDir('vmcp-kw-slice-'), 'vault');
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < 1500; i++) writeFileSync(join(dir, `Note ${i}.md`), text(i));
  const data = join(tempDir(), 'data');
  const host = new NodeHost(dir, { dataDir: data, watch: false });
  const svc = new KeywordService({ host, settings: () => withDefaults({}), debounceMs: 1, saveDelayMs: 60_000 });
  await svc.ready();
  // Edits stream in while saves run; every save must describe one consistent index.
  const saves: Promise<void>[] = [];
  for (let round = 0; round < 4; round++) {
    for (let i = round; i < 1500; i += 7) { writeFileSync(join(dir, `Note ${i}.md`), text(i, round + 1)); await host.refresh(`Note ${i}.md`); }
    saves.push(svc.save());
    await new Promise((r) => setTimeout(r, 2));
  }
  await Promise.all(saves);
  await svc.flush();
  await svc.save();
  const before = (await svc.search('vault garden')).hits.map(row);
  await svc.stop();
  await host.close();
  const bytes = readFileSync(join(data, INDEX_FILE));
  const { header, rest } = decodeHeader(bytes);
  const loaded = await decodeIndex(bytes, rest, analyzer);
  assert.equal(loaded.documentCount, Object.keys((header as { docs: object }).docs).length);
  // Reopened, it serves the same answers without re-indexing anything.
  const host2 = new NodeHost(dir, { dataDir: data, watch: false });
  const svc2 = new KeywordService({ host: host2, settings: () => withDefaults({}), debounceMs: 1 });
  await svc2.ready();
  try {
    assert.equal(svc2.details().progress.total, 0, 'nothing re-indexed after the reload');
    assert.deepEqual((await svc2.search('vault garden')).hits.map(row), before);
  } finally { await svc2.stop(); await host2.close(); }
});
