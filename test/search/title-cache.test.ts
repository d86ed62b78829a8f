// The title bonus's cache of term ids (src/search/titleCache.ts) against the string lists it replaced:
// for any titles (stop words only, repeated words, long titles past the 31-term mask, other scripts),
// any query leaves (prefixes, stop words, words in no title) and notes replaced meanwhile, the best match
// is exactly what scoring.ts gives on the title forms' term lists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createAnalyzer } from '../../src/search/analyzer.js';
import { buildDoc } from '../../src/search/document.js';
import { InvertedIndex } from '../../src/search/invertedIndex.js';
import { TitleTermCache } from '../../src/search/titleCache.js';
import { titleMatchOf, titleTerms, type TitleLeaf } from '../../src/search/scoring.js';
import { runQueryPage } from '../../src/search/rank.js';
import { parseQuery } from '../../src/search/query.js';

const analyzer = createAnalyzer({ stemming: ['english'], stopWords: true });
const WORDS = ['the', 'of', 'and', 'art', 'war', 'running', 'runner', 'run', 'garden', 'gardens', 'Straße', 'café', '東京', 'x1', '2024', 'a', 'is', 'vault', 'note'];

const expected = (ix: InvertedIndex, doc: number, leaves: TitleLeaf[]) =>
  Math.max(0, ...ix.titles[doc].split('\n').map((t) => titleMatchOf(titleTerms(t, analyzer), leaves)));

const word = fc.oneof(fc.constantFrom(...WORDS), fc.integer({ min: 0, max: 50 }).map((k) => `w${k}z`));
const title = fc.array(word, { minLength: 0, maxLength: 60 }).map((ws) => ws.join(' '));
const leaf = fc.record({ term: fc.constantFrom(...WORDS.map((w) => w.toLowerCase()), 'gard', 'ru', 'zzz', 'run', 'w1', 'w3', 'w33z', 'w40z'), prefix: fc.boolean() });

test('the cached title ids give the same best match as the title forms\' term lists', () => {
  fc.assert(fc.property(
    fc.array(fc.tuple(title, fc.array(title, { maxLength: 2 })), { minLength: 1, maxLength: 12 }),
    fc.array(fc.array(leaf, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 4 }),
    fc.array(fc.nat(), { maxLength: 6 }),
    (notes, queries, replaced) => {
      const ix = new InvertedIndex();
      const body = (i: number, [t, forms]: [string, string[]]) => `---\ntitle: ${JSON.stringify(t || 'x')}\naliases: []\n---\n# ${forms[0] ?? t}\n${forms.join(' ')} text ${i}\n`;
      notes.forEach((n, i) => ix.add(buildDoc(`n/${i} ${n[0].slice(0, 20)}.md`, body(i, n), null), analyzer));
      const cache = new TitleTermCache(ix, analyzer);
      const check = () => {
        for (const leaves of queries) for (let doc = 0; doc < ix.titles.length; doc++) {
          if (ix.paths[doc] === undefined) continue;
          assert.equal(cache.bestMatch(doc, leaves), expected(ix, doc, leaves), `${JSON.stringify(ix.titles[doc])} ${JSON.stringify(leaves)}`);
        }
      };
      check();
      // Notes re-indexed take new ids (and maybe new terms) while the cache is kept.
      for (const r of replaced) {
        const i = r % notes.length;
        const p = ix.paths.find((x) => x?.startsWith(`n/${i} `));
        if (p) { ix.remove(p); ix.add(buildDoc(p, body(i + 100, [notes[(r + 1) % notes.length][0], []]), null), analyzer); }
      }
      check();
    }), { numRuns: 300 });
});

test('entries past the arena\'s first size (it grows while a title is added) read back whole', () => {
  const ix = new InvertedIndex();
  // One-term titles first (3 words an entry), then 14,000 of three terms (5 words): caches that begin
  // with 0-4 of the short ones grow their 65,536-word arena at each place inside an entry.
  const pad = ['Alpha', 'Bravo', 'Charlie', 'Delta'];
  for (const t of pad) ix.add(buildDoc(`p/${t}.md`, 'body\n', null), analyzer);
  const N = pad.length + 14_000;
  for (let i = pad.length; i < N; i++) ix.add(buildDoc(`n/Garden ${i} of w${i % 97}z.md`, `body ${i}\n`, null), analyzer);
  const leaves = [{ term: 'garden', prefix: false }, { term: 'w4', prefix: true }, { term: 'alpha', prefix: false }];
  const want = Array.from({ length: N }, (_, doc) => expected(ix, doc, leaves));
  for (let s = 0; s <= pad.length; s++) {
    const cache = new TitleTermCache(ix, analyzer);
    for (let doc = pad.length - s; doc < N; doc++) cache.bestMatch(doc, leaves);
    assert.ok(cache.size > 65_536, `${cache.size} words`);
    for (let doc = pad.length - s; doc < N; doc++) assert.equal(cache.bestMatch(doc, leaves), want[doc], `${s}: ${ix.titles[doc]}`);
  }
});

test('a title of more than 31 distinct terms counts each matched term once', () => {
  const ix = new InvertedIndex();
  const long = Array.from({ length: 45 }, (_, k) => `w${k}z`).join(' ');
  ix.add(buildDoc('n/long.md', `---\ntitle: ${long}\n---\nbody\n`, null), analyzer);
  const leaves = [{ term: 'w8z', prefix: false }, { term: 'w40z', prefix: false }, { term: 'w4', prefix: true }];
  const got = new TitleTermCache(ix, analyzer).bestMatch(0, leaves);
  assert.equal(got, expected(ix, 0, leaves));
  assert.equal(got, 7 / 45, 'w8z and the six w4… terms, w40z among them');
});

test('a query whose words are in every title ranks as before with the cached ids (titles of stop words, prefixes)', async () => {
  const ix = new InvertedIndex();
  const titles = ['The Art of War', 'Of the', 'Vault note', 'Vault notes and runners', 'Running the vault', 'Note', 'The', 'Gardens of Tokyo 東京'];
  titles.forEach((t, i) => ix.add(buildDoc(`n/${t}.md`, `${t} vault note body ${i}\n`, null), analyzer));
  for (const q of ['vault note', 'the', 'of the', 'art war', 'run*', 'gard* 東京', 'note -war']) {
    const page = await runQueryPage(ix, parseQuery(q, analyzer), analyzer, { limit: 5 });
    const all = await runQueryPage(ix, parseQuery(q, analyzer), analyzer, {});
    assert.deepEqual(page.hits.map((h) => [h.path, h.score]), all.hits.slice(0, 5).map((h) => [h.path, h.score]), q);
  }
  const top = (await runQueryPage(ix, parseQuery('the art of war', analyzer), analyzer, { limit: 1 })).hits[0];
  assert.equal(top.path, 'n/The Art of War.md', 'the exact title ranks first');
});
