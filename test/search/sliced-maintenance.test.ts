// The keyword index's upkeep in slices (issue 15's intent, no UI freezes, on issue 14's index): a long
// note is analysed in steps, saving encodes in pieces with turns of the event loop between them, the
// vacuum (dropping removed notes' postings) is sliced, and none of it changes a result: the stepwise
// note is indexed exactly as add() indexes it, the sliced encoding is the same bytes, the vacuumed
// index answers like one built fresh from the live notes, a note rewritten many times over (more dead
// postings than notes) scores as in a fresh index, and updates arriving during saves leave a whole file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAnalyzer } from '../../src/search/analyzer.js';
import { parseQuery } from '../../src/search/query.js';
import { InvertedIndex, textPieces } from '../../src/search/invertedIndex.js';
import { PostingCursor } from '../../src/search/postings.js';
import { GROW_PIECE_BYTES } from '../../src/search/arrayGrowth.js';
import { runQuery, type Hit } from '../../src/search/rank.js';
import { buildDoc } from '../../src/search/document.js';
import { decodeHeader, decodeIndex, encodeIndex, readHeader, verifyLists } from '../../src/search/persist.js';
import { contentHash } from '../../src/core/hash.js';
import { KeywordService, INDEX_FILE } from '../../src/search/service.js';
import { NodeHost } from '../../src/host/node/nodeHost.js';
import { withDefaults } from '../../src/settings.js';
import { tempDir } from '../helpers/vault.js';

const analyzer = createAnalyzer({ stemming: ['english'], stopWords: true });
const WORDS = 'vault note garden river stone tower light quantum ember fjord glacier cobalt saffron onyx zephyr'.split(' ');
const text = (i: number, v = 0) => `# Note ${i}\n${Array.from({ length: 30 }, (_, k) => WORDS[(i * 7 + k * 3 + v) % WORDS.length]).join(' ')} vault\n`;
const row = (h: Hit) => ({ path: h.path, score: h.score, matchedAll: h.matchedAll });
const QUERIES = ['vault', 'garden river', 'tower -stone', 'glac*', 'note 12', '"ember fjord"', 'bge-m3', 'c++', '検索'];
const turn = () => new Promise<void>((r) => setTimeout(r, 0));

function build(n: number, v = 0): InvertedIndex {
  const ix = new InvertedIndex();
  for (let i = 0; i < n; i++) ix.add(buildDoc(`f${i % 5}/Note ${i}.md`, text(i, v), null), analyzer);
  return ix;
}

async function answers(ix: InvertedIndex) {
  const out: ReturnType<typeof row>[][] = [];
  for (const q of QUERIES) out.push((await runQuery(ix, parseQuery(q, analyzer), analyzer)).map(row));
  return out;
}

function assertSameAnswers(got: ReturnType<typeof row>[][], want: ReturnType<typeof row>[][], what: string) {
  for (let q = 0; q < QUERIES.length; q++) {
    assert.deepEqual(got[q].map((r) => r.path), want[q].map((r) => r.path), `${what}: ${QUERIES[q]}`);
    for (let i = 0; i < got[q].length; i++) {
      assert.ok(Number.isFinite(got[q][i].score) && got[q][i].score > 0, `${what}: score ${got[q][i].score}`);
      assert.ok(Math.abs(got[q][i].score - want[q][i].score) < 1e-9 * Math.max(1, want[q][i].score), `${what}: ${QUERIES[q]}: ${got[q][i].score} vs ${want[q][i].score}`);
    }
  }
}

function longBody(): string {
  const parts: string[] = [];
  for (let i = 0; i < 20000; i++) parts.push(i % 50 === 0 ? '\n\n## Heading bge-m3 v1.2 C++ ' : i % 7 === 0 ? 'Obsidianで検索する日本語の文章' : `${WORDS[i % WORDS.length]}${i % 3 ? '' : `-${i}`}`);
  // White space of several kinds between words (pieces are cut at ASCII white space).
  return parts.map((w, i) => w + [' ', '\n', '\t', '\u3000'][i % 4]).join('');
}

test('text pieces: cut before white space, about 32k characters each, nothing lost', () => {
  const body = longBody();
  const pieces = [...textPieces(body)];
  assert.ok(pieces.length > 4, `${pieces.length} pieces`);
  assert.equal(pieces.join(''), body);
  for (const p of pieces.slice(1)) assert.match(p[0], /\s/);
  const cjk = '検索'.repeat(60_000) + ' tail' + '日本'.repeat(10);
  assert.equal([...textPieces(cjk)].join(''), cjk);
  assert.deepEqual([...textPieces('')], ['']);
});

test('a long note indexed in steps gives exactly what add() gives at once (same saved bytes, same answers)', async () => {
  const body = longBody();
  assert.ok(body.length > 150_000, `${body.length} characters`);
  const long = buildDoc('Long.md', `---\ntags: [big]\n---\n# Long\n${body}\n`, null);
  const whole = build(300);
  whole.add(long, analyzer);
  const stepped = build(300);
  const steps = stepped.addSteps(long, analyzer);
  let n = 0;
  for (let r = steps.next(); !r.done; r = steps.next()) {
    n++;
    // Until the last step the note is not in the index: no query or save sees it half done.
    assert.equal(stepped.has('Long.md'), false);
  }
  assert.ok(n > 4, `only ${n} steps`);
  assert.ok(stepped.has('Long.md'));
  assert.deepEqual(await encodeIndex({}, stepped), await encodeIndex({}, whole));
  assertSameAnswers(await answers(stepped), await answers(whole), 'stepped');
  // Replacing in steps: the old version goes in the same step the new one arrives.
  const again = stepped.addSteps(buildDoc('Long.md', `# Long\n${body.replaceAll('vault', 'cellar')}\n`, null), analyzer, true);
  for (let r = again.next(); !r.done; r = again.next()) assert.ok(stepped.has('Long.md'));
  assert.equal((await runQuery(stepped, parseQuery('cellar', analyzer), analyzer))[0]?.path, 'Long.md');
  assert.equal(stepped.documentCount, 301);
});

test('sliced encoding: the same bytes as in one piece, with turns of the event loop between slices', async () => {
  const ix = build(3000);
  // A header large enough to be written in pieces: a Map of per-note records, a long list, small values.
  const docs = new Map<string, unknown>();
  for (let i = 0; i < 5000; i++) docs.set(`f/Note ${i} "q" \u00e9\n.md`, { m: i, s: i * 2, h: `h${i}` });
  const header = { schema: 3, signature: 's', docs, skipped: new Map([['a.md', 'too_large:9']]), list: Array.from({ length: 5000 }, (_, i) => [i, `x${i}`]), small: [1, 2] };
  const wholeBytes = await encodeIndex(header, ix);
  let pauses = 0;
  const sliced = await encodeIndex(header, ix, () => { pauses++; return turn(); });
  assert.ok(pauses > 5, `only ${pauses} pauses`);
  assert.deepEqual(sliced, wholeBytes);
  const { header: back, rest } = decodeHeader(sliced);
  assert.deepEqual(back, header, 'the header comes back as written, Maps as Maps');
  let headerPauses = 0;
  assert.deepEqual((await readHeader(sliced, () => { headerPauses++; return turn(); })).header, header);
  assert.ok(headerPauses >= 3, `only ${headerPauses} pauses reading the header`);
  // No JSON line of the header is long (each list in lines of at most 1,024 items).
  const jsonPart = new TextDecoder().decode(sliced.subarray(0, rest));
  assert.ok(Math.max(...jsonPart.split('\n').map((l) => l.length)) < 300_000, 'a JSON line of the header is too long');
  let loadPauses = 0;
  const loaded = await decodeIndex(sliced, rest, () => { loadPauses++; return turn(); });
  assert.ok(loadPauses > 5, `only ${loadPauses} pauses while loading`);
  assertSameAnswers(await answers(loaded), await answers(ix), 'loaded');
});

test('sliced vacuum: dead postings gone, answers as a fresh index, as built and as loaded', async () => {
  for (const loaded of [false, true]) {
    let ix = build(1200);
    if (loaded) { const b = await encodeIndex({}, ix); ix = await decodeIndex(b, decodeHeader(b).rest); }
    // Rewrite a third of the notes and delete a tenth: the old postings stay until the vacuum.
    for (let i = 0; i < 1200; i++) {
      const p = `f${i % 5}/Note ${i}.md`;
      if (i % 10 === 0) ix.remove(p);
      else if (i % 3 === 0) { ix.remove(p); ix.add(buildDoc(p, text(i, 1), null), analyzer); }
    }
    const fresh = new InvertedIndex();
    for (let i = 0; i < 1200; i++) if (i % 10) fresh.add(buildDoc(`f${i % 5}/Note ${i}.md`, text(i, i % 3 === 0 ? 1 : 0), null), analyzer);
    assert.ok(ix.needsVacuum(), 'enough removed notes to vacuum');
    const before = await answers(ix);
    let pauses = 0;
    await ix.vacuum(() => { pauses++; return turn(); });
    assert.ok(pauses > 0, 'the vacuum gave the event loop turns');
    assert.equal(ix.dirt, 0);
    const c = new PostingCursor();
    for (let s = 0; s < ix.store.slots; s++) for (ix.store.open(s, c); c.next();) assert.equal(ix.live[c.doc], 1, "a dead posting survived");
    assertSameAnswers(before, await answers(fresh), `before the vacuum (${loaded ? 'loaded' : 'built'})`);
    assertSameAnswers(await answers(ix), await answers(fresh), `vacuumed (${loaded ? 'loaded' : 'built'})`);
  }
});

test('more dead postings than live notes (before any vacuum): the scores of a fresh index, never NaN or negative', async () => {
  const ix = build(200);
  for (let round = 1; round <= 3; round++) {
    for (let i = 0; i < 200; i++) { const p = `f${i % 5}/Note ${i}.md`; ix.remove(p); ix.add(buildDoc(p, text(i, round), null), analyzer); }
  }
  const hits = await runQuery(ix, parseQuery('vault', analyzer), analyzer);
  assert.equal(hits.length, 200);
  assertSameAnswers(await answers(ix), await answers(build(200, 3)), 'dirty');
});

test('service: changes arriving while saves encode leave a whole file that loads and answers the same', async () => {
  const dir = join(tempDir('vmcp-kw-slice-'), 'vault');
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < 1500; i++) writeFileSync(join(dir, `Note ${i}.md`), text(i));
  writeFileSync(join(dir, 'Long.md'), `# Long\n${longBody()}\n`);
  const data = join(tempDir(), 'data');
  const host = new NodeHost(dir, { dataDir: data, watch: false });
  const svc = new KeywordService({ host, settings: () => withDefaults({}), debounceMs: 1, saveDelayMs: 60_000 });
  await svc.ready();
  const saves: Promise<void>[] = [];
  for (let round = 0; round < 4; round++) {
    for (let i = round; i < 1500; i += 7) { writeFileSync(join(dir, `Note ${i}.md`), text(i, round + 1)); await host.refresh(`Note ${i}.md`); }
    writeFileSync(join(dir, 'Long.md'), `# Long ${round}\n${longBody()}\n`);
    await host.refresh('Long.md');
    saves.push(svc.save());
    await turn();
  }
  await Promise.all(saves);
  await svc.flush();
  await svc.save();
  // The drain keeps the posting store's next arena chunk made ahead, between turns (postings.ts: spare).
  assert.ok((svc as unknown as { ix: InvertedIndex }).ix.store.spare, 'no spare chunk made ahead by the drain');
  const before = [];
  for (const q of QUERIES) before.push((await svc.search(q)).hits.map(row));
  await svc.stop();
  await host.close();
  const bytes = readFileSync(join(data, INDEX_FILE));
  const { rest } = decodeHeader(bytes);
  const loaded = await decodeIndex(bytes, rest);
  assert.equal(loaded.documentCount, 1501);
  assert.ok(loaded.hashIs('Long.md', contentHash(readFileSync(join(dir, 'Long.md'), 'utf8'))), 'the saved record is of the text indexed last');
  assert.equal(await verifyLists(loaded, () => null), true);
  // Reopened, it serves the same answers without re-indexing anything.
  const host2 = new NodeHost(dir, { dataDir: data, watch: false });
  const svc2 = new KeywordService({ host: host2, settings: () => withDefaults({}), debounceMs: 1 });
  await svc2.ready();
  try {
    assert.equal(svc2.details().progress.total, 0, 'nothing re-indexed after the reload');
    for (const [i, q] of QUERIES.entries()) assert.deepEqual((await svc2.search(q)).hits.map(row), before[i], q);
    assert.equal((await svc2.search('long 3')).hits[0]?.path, 'Long.md');
  } finally { await svc2.stop(); await host2.close(); }
});

test('the vacuum makes each new 4 MB chunk between two turns of its own, never inside a slice', async () => {
  // About 2.4M live postings (6 MB of lists): the vacuum's fresh arena needs more than one chunk.
  const ix = new InvertedIndex();
  for (let i = 0; i < 12_000; i++) ix.add(buildDoc(`n/${i}.md`, Array.from({ length: 300 }, (_, k) => `t${(i * 7 + k * 13) % 20_000}`).join(' '), null), analyzer);
  for (let i = 0; i < 12_000; i += 3) ix.remove(`n/${i}.md`);
  const log: string[] = [];
  const chunks = ix.store.chunks;
  const push = chunks.push.bind(chunks);
  chunks.push = (...items: Uint8Array[]) => { log.push('chunk'); return push(...items); };
  const rewrite = ix.store.rewriteLive.bind(ix.store);
  ix.store.rewriteLive = (...a: Parameters<typeof rewrite>) => { log.push('list'); return rewrite(...a); };
  await ix.vacuum(() => { log.push('pause'); return turn(); }, async () => { log.push('turn'); await turn(); });
  const made = log.flatMap((e, i) => (e === 'chunk' ? [i] : []));
  assert.ok(made.length >= 2, `${made.length} chunks made`);
  for (const i of made) assert.deepEqual([log[i - 1], log[i + 1]], ['turn', 'turn'], `chunk ${i}: ${log.slice(Math.max(0, i - 3), i + 3).join(' ')}`);
  assert.equal(ix.store.chunks, chunks, 'the vacuum kept the store\'s chunk list');
});

test('the per-note arrays of a large index grow one at a time, ahead of need, each faulted in a piece per note added, and keep every note', async () => {
  const ix = new InvertedIndex();
  const arrays = () => { const x = ix as unknown as Record<'live' | 'lengths' | 'mtimes' | 'sizes' | 'marks' | 'hashes', ArrayLike<number>>; return [x.live, x.lengths, x.mtimes, x.sizes, x.marks, x.hashes]; };
  let most = 0;
  let grownLarge = 0;
  let piecesOfHashes = 0;
  const N = 46_000;
  for (let i = 0; i < N; i++) {
    const before = arrays();
    const g0 = ix.growingNotes;
    ix.add(buildDoc(`n/${i}.md`, `# N ${i}\nword${i % 97} common`, null), analyzer);
    ix.record(`n/${i}.md`, i, i + 1, `sha256:${(i % 16).toString(16).repeat(64)}`);
    const changed = arrays().filter((a, k) => a !== before[k]).length;
    if (before[0].length >= 16_384) { most = Math.max(most, changed); if (changed) grownLarge++; }
    const g = ix.growingNotes;
    if (g) {
      const faulted = g.faulted - (g0 && g0.array === g.array ? g0.faulted : 0);
      assert.ok(faulted <= GROW_PIECE_BYTES, `note ${i}: at most one piece of new memory faulted in (${faulted} bytes)`);
      if (faulted > 0) assert.equal(changed, 0, `note ${i}: no array swapped in by the note that faulted a piece`);
      if (faulted > 0 && g.array === 5 && g.of > GROW_PIECE_BYTES) piecesOfHashes++;
    }
  }
  assert.equal(most, 1, 'at most one per-note array grown by one note once the room is large');
  assert.ok(grownLarge >= 12, `${grownLarge} growths past 16k notes`);
  assert.equal(ix.documentCount, N);
  // The 4 MB hash array of the growth to 131k notes came in 1 MB pieces, by different notes.
  assert.ok(piecesOfHashes >= 4, `the hash array faulted in over ${piecesOfHashes} notes`);
  assert.equal((ix as unknown as { hashes: Uint8Array }).hashes.length, 131_072 * 32, 'the growth to 131k notes is done');
  // Everything recorded before and after the growths is still there.
  for (const i of [0, 9_000, 16_383, 16_384, 30_000, 39_999, N - 1]) {
    const d = (i % 16).toString(16);
    assert.deepEqual([ix.mtimes[i], ix.sizes[i], ix.live[i], ix.hashes[i * 32 + 31]], [i, i + 1, 1, parseInt(d + d, 16)], `note ${i}`);
  }
  assert.equal((await runQuery(ix, parseQuery('word5', analyzer), analyzer)).length, Math.floor((N - 6) / 97) + 1);
});

test('the prefix dictionary is filled only once a prefix query asks, in later turns; a warm start checks the lists in a turn of its own', async () => {
  const dir = join(tempDir('vmcp-kw-warm-'), 'vault');
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < 300; i++) writeFileSync(join(dir, `Note ${i}.md`), text(i));
  const data = join(tempDir(), 'data');
  const host = new NodeHost(dir, { dataDir: data, watch: false });
  const svc = new KeywordService({ host, settings: () => withDefaults({}), debounceMs: 1 });
  await svc.ready();
  const built = (svc as unknown as { ix: InvertedIndex }).ix;
  for (let i = 0; i < 50; i++) await turn();
  // A build leaves the tree empty (at 100k notes it was 209k inserts and about 11 MB kept, for queries
  // that may never come): prefix queries scan the terms until it is filled.
  assert.equal((built as unknown as { dictUpTo: number }).dictUpTo, 0, 'no dictionary after a build');
  const scanned = (await svc.search('not*')).hits.map((h) => h.path);
  await svc.stop();
  await host.close();
  const host2 = new NodeHost(dir, { dataDir: data, watch: false });
  const svc2 = new KeywordService({ host: host2, settings: () => withDefaults({}), debounceMs: 1 });
  try {
    await svc2.start();
    const ix = (svc2 as unknown as { ix: InvertedIndex }).ix;
    const covered = () => (ix as unknown as { dictUpTo: number }).dictUpTo;
    assert.equal(await svc2.verified(), true);
    await svc2.search('note vault');
    for (let i = 0; i < 50; i++) await turn();
    assert.equal(covered(), 0, 'neither the load nor a query without a prefix fills the dictionary');
    const first = (await svc2.search('not*')).hits.map((h) => h.path);
    // The query that asked was answered by the scan; the tree is filled after it, in later turns.
    assert.equal(covered(), 0, 'no dictionary step in the prefix query\'s own task');
    for (let i = 0; i < 200 && covered() < ix.lexicon.size; i++) await turn();
    assert.equal(covered(), ix.lexicon.size, 'the dictionary caught up in later turns');
    assert.ok(first.length > 0);
    assert.deepEqual(first, scanned, 'the warm index answers as the built one did');
    assert.deepEqual((await svc2.search('not*')).hits.map((h) => h.path), first, 'the tree answers as the scan did');
  } finally { await svc2.stop(); await host2.close(); }
});

test('service: a drain that ends in a vacuum leaves the next arena chunk made ahead', async () => {
  const dir = join(tempDir('vmcp-kw-spare-'), 'vault');
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < 300; i++) writeFileSync(join(dir, `Note ${i}.md`), text(i));
  const host = new NodeHost(dir, { dataDir: join(tempDir(), 'data'), watch: false });
  // Changes wait for flush() (a long debounce), so one drain takes them all and closes with a vacuum.
  const svc = new KeywordService({ host, settings: () => withDefaults({}), debounceMs: 60_000, saveDelayMs: 60_000 });
  try {
    await svc.ready();
    const ix = () => (svc as unknown as { ix: InvertedIndex }).ix;
    // Every note rewritten: dead postings past the vacuum's threshold; the vacuum starts a fresh arena
    // chunk from the spare.
    for (let i = 0; i < 300; i++) { writeFileSync(join(dir, `Note ${i}.md`), text(i, 1)); await host.refresh(`Note ${i}.md`); }
    await svc.flush();
    assert.equal(ix().dirt, 0, 'the vacuum ran');
    assert.ok(ix().store.spare, 'no spare chunk after the vacuum that closed the drain');
  } finally {
    await svc.stop();
    await host.close();
  }
});
