// A query over many candidates pauses inside its long passes, not only between them: the title bonus
// (every candidate when a query word is in every title) and the choice of the notes read to verify a
// phrase (every candidate of a phrase of common words) ran as one block each (at 100k notes 30-300 ms and
// 120-140 ms), and a word in every note read every field's list in one go. Work between two pauses is counted through the index's title and path arrays; and the
// notes a phrase check reads are still the best `phraseReadCap` in rank order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createAnalyzer } from '../../src/search/analyzer.js';
import { parseQuery } from '../../src/search/query.js';
import { InvertedIndex } from '../../src/search/invertedIndex.js';
import { runQuery, runQueryPage } from '../../src/search/rank.js';
import { buildDoc } from '../../src/search/document.js';

const analyzer = createAnalyzer({ stemming: ['english'], stopWords: true });
const N = 6000;

function build(text: (i: number) => string): { ix: InvertedIndex; texts: Map<string, string> } {
  const ix = new InvertedIndex();
  const texts = new Map<string, string>();
  for (let i = 0; i < N; i++) {
    const p = `n/Note ${String(i).padStart(5, '0')}.md`;
    texts.set(p, text(i));
    ix.add(buildDoc(p, texts.get(p)!, null), analyzer);
  }
  return { ix, texts };
}

/** Wraps `arr` so reads of its items are counted; returns the most read between two calls of the pause. */
function countReads<T>(arr: T[]): { proxy: T[]; pause: () => Promise<void>; most: () => number } {
  let since = 0;
  let most = 0;
  const proxy = new Proxy(arr, { get(t, k, r) { if (typeof k === 'string' && /^\d+$/.test(k)) since++; return Reflect.get(t, k, r); } });
  return { proxy, pause: async () => { most = Math.max(most, since); since = 0; }, most: () => Math.max(most, since) };
}

test('the title bonus pauses while it goes over every candidate (a query word in every title)', async () => {
  const { ix } = build((i) => `alpha ${i % 3 ? 'beta' : 'gamma'} words\n`);
  const titles = countReads(ix.titles);
  ix.titles = titles.proxy;
  const page = await runQueryPage(ix, parseQuery('note alpha', analyzer), analyzer, { limit: 5, pause: titles.pause });
  assert.equal(page.total, N);
  assert.ok(titles.most() > 0, 'titles were read');
  // Filling the title cache runs the analyzer on each title: 512 between two offers were 25-38 ms at
  // 100k, and 64 were 40 ms in a profiled warm load's first query.
  assert.ok(titles.most() <= 16, `at most 16 titles read between two pauses (read ${titles.most()})`);
});

test('a word in every note is scored a field at a time, with a pause offer after each list of a field', async () => {
  // "note" is in every title and every body: two lists of N postings each.
  const { ix } = build((i) => `note ${i % 3 ? 'beta' : 'gamma'} words\n`);
  let since = 0;
  let most = 0;
  const live = ix.live;
  ix.live = new Proxy(live, { get(t, k) { if (typeof k === 'string' && /^\d+$/.test(k)) since++; const v = Reflect.get(t, k, t); return typeof v === 'function' ? v.bind(t) : v; } });
  const page = await runQueryPage(ix, parseQuery('note', analyzer), analyzer, { limit: 5, pause: async () => { most = Math.max(most, since); since = 0; } });
  ix.live = live;
  most = Math.max(most, since);
  assert.equal(page.total, N);
  assert.ok(most >= N, `a whole list is read in one go (${most})`);
  assert.ok(most < 2 * N, `at most one field's list read between two pauses (read ${most} postings' notes)`);
});

test('picking the notes to read for a phrase check pauses, and picks the best phraseReadCap by score, then path', async () => {
  // Every note has both words (every one needs a check); a third have them as a phrase; lengths vary, so
  // scores do, and equal texts tie on score (path decides).
  const { ix, texts } = build((i) => (i % 3 === 0 ? 'alpha beta' : 'beta alpha') + ' filler'.repeat(i % 7) + '\n');
  const q = parseQuery('"alpha beta"', analyzer);
  const readText = async (p: string) => texts.get(p) ?? null;
  const everyNote = await runQuery(ix, q, analyzer, { readText, phraseReadCap: Infinity });
  const cap = 150;
  const capped = await runQuery(ix, q, analyzer, { readText, phraseReadCap: cap });
  // Reference: the first `cap` notes by score (descending), then path; of them, those holding the phrase.
  const order = [...everyNote].sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1));
  const read = new Set(order.slice(0, cap).map((h) => h.path));
  const want = everyNote.filter((h) => h.matchedAll && read.has(h.path)).map((h) => h.path).sort();
  assert.ok(want.length > 0 && want.length < cap, 'the cut falls among notes with and without the phrase');
  assert.ok(new Set(order.map((h) => h.score)).size < order.length, 'scores tie (the path decides)');
  assert.deepEqual(capped.filter((h) => h.matchedAll).map((h) => h.path).sort(), want);
  // Linear work per stretch (for a page; the full ranking sorts every row): a sort of every candidate read
  // a path at each of its ~N log N comparisons.
  const paths = countReads(ix.paths as string[]);
  ix.paths = paths.proxy;
  const page = await runQueryPage(ix, q, analyzer, { readText, phraseReadCap: cap, limit: 10, pause: paths.pause });
  assert.deepEqual(page.hits.map((h) => h.path), capped.slice(0, 10).map((h) => h.path));
  assert.ok(paths.most() <= 3 * N, `at most ${3 * N} paths read between two pauses (read ${paths.most()})`);
});

test('the first query over a large index makes its per-note arrays a task at a time', async () => {
  // 20k notes: the arrays (nine, of 22.5k entries) are large enough to be made between turns.
  const ix = new InvertedIndex();
  for (let i = 0; i < 20_000; i++) ix.add(buildDoc(`n/${i}.md`, `alpha w${i % 50}\n`, null), analyzer);
  let ticks = 0;
  let on = true;
  const tick = () => { if (!on) return; ticks++; setTimeout(tick, 0); };
  setTimeout(tick, 0);
  const first = await runQueryPage(ix, parseQuery('w7', analyzer), analyzer, { limit: 5 });
  const atFirst = ticks;
  const second = await runQueryPage(ix, parseQuery('w7', analyzer), analyzer, { limit: 5 });
  on = false;
  assert.equal(first.total, 400);
  assert.deepEqual(second, first);
  assert.ok(atFirst >= 8, `the event loop turned ${atFirst} times while the first query made its arrays`);
  assert.ok(ticks - atFirst <= 1, 'a later query reuses them');
});
