// Text processing and query syntax: folding, identifiers, segmentation, every syntax form, and the
// promise that no query string ever throws.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fold, tokenize, terms } from '../../src/search/text.js';
import { createAnalyzer } from '../../src/search/analyzer.js';
import { parseQuery } from '../../src/search/query.js';
import { InvertedIndex } from '../../src/search/invertedIndex.js';
import { runQuery } from '../../src/search/rank.js';
import { buildDoc } from '../../src/search/document.js';

const en = createAnalyzer({ stemming: ['english'], stopWords: true });
const plain = createAnalyzer({ stemming: [], stopWords: false });

test('folding: case, Latin diacritics, ligatures, Arabic and Hebrew marks, fullwidth forms', () => {
  assert.equal(fold('Crème Brûlée'), 'creme brulee');
  assert.equal(fold('STRASSE'), fold('Straße'));
  assert.equal(fold('Øresund Łódź'), 'oresund lodz');
  assert.equal(fold('Ｏｂｓｉｄｉａｎ'), 'obsidian');
  assert.equal(fold('مُحَمَّد'), 'محمد'); // harakat removed
  assert.equal(fold('أحمد'), fold('احمد')); // alef variants
  assert.equal(fold('שָׁלוֹם'), 'שלום'); // niqqud removed
  assert.equal(fold('한국어'), '한국어'); // Hangul survives NFKD → NFC
  assert.equal(fold('हिन्दी'), 'हिन्दी'); // Devanagari marks are kept
});

test('identifiers match whole and by their parts; C++ and C# stay whole', () => {
  const t = tokenize('Try bge-m3 and v1.2.3 with C++ or C#, snake_case, Obsidian\'s API.');
  const texts = t.map((x) => x.text);
  for (const w of ['bge-m3', 'bge', 'm3', 'v1.2.3', 'c++', 'c#', 'snake_case', 'snake', 'case', 'obsidian', 'api']) assert.ok(texts.includes(w), w);
  assert.ok(!texts.includes("obsidian's"));
  assert.ok(t.filter((x) => x.part).every((x) => ['bge', 'm3', 'v1', '2', '3', 'snake', 'case'].includes(x.text)));
});

test('scripts without spaces are segmented into words (CJK, Thai)', () => {
  assert.deepEqual(tokenize('搜索引擎是什么').map((t) => t.text).slice(0, 2), ['搜索', '引擎']);
  const ja = tokenize('Obsidianでノートを検索する').map((t) => t.text);
  assert.ok(ja.includes('obsidian') && ja.includes('ノート') && ja.includes('検索'), ja.join('|'));
  const th = tokenize('ภาษาไทยง่ายนิดเดียว').map((t) => t.text);
  assert.ok(th.length >= 3 && th.includes('ภาษา'), th.join('|'));
  // Offsets point into the original string.
  const s = 'Über 検索 ok';
  for (const t of tokenize(s)) assert.equal(fold(s.slice(t.start, t.end)), t.text);
});

test('stemming and stop words follow the analyzer; signature changes with settings', () => {
  assert.deepEqual(terms('The running flows', en), ['run', 'flow']);
  assert.deepEqual(terms('The running flows', plain), ['the', 'running', 'flows']);
  const ru = createAnalyzer({ stemming: ['english', 'russian'], stopWords: false });
  assert.notEqual(ru.stem('книгами'), 'книгами');
  assert.equal(ru.stem('running'), 'run');
  assert.notEqual(en.signature, plain.signature);
  assert.deepEqual(createAnalyzer({ stemming: ['klingon'], stopWords: true }).unknownLanguages, ['klingon']);
});

test('query syntax: phrase, prefix, exclusion, OR, literal fallback', () => {
  const q = parseQuery('"exact phrase" optim* -draft alpha OR beta', plain);
  assert.equal(q.clauses.length, 3);
  assert.deepEqual(q.clauses[0].alts[0], { kind: 'phrase', terms: ['exact', 'phrase'], raw: 'exact phrase' });
  assert.equal(q.clauses[1].alts[0].kind, 'prefix');
  assert.deepEqual(q.clauses[2].alts.map((a) => a.terms[0]), ['alpha', 'beta']);
  assert.deepEqual(q.excluded.map((a) => a.terms), [['draft']]);
  assert.deepEqual(parseQuery('bge-m3', plain).clauses[0].alts[0].terms, ['bge-m3']);
  assert.deepEqual(parseQuery('C++', plain).clauses[0].alts[0].terms, ['c++']);
  assert.equal(parseQuery('foo:bar', plain).clauses[0].alts[0].kind, 'words');
  assert.equal(parseQuery('"unbalanced quote', plain).clauses.length, 2);
  assert.equal(parseQuery('OR', plain).clauses.length, 1); // a lone OR is a word
  assert.equal(parseQuery('- * "" -', plain).clauses.length, 0);
  // Only stop words: kept (searched in titles) rather than an empty query.
  assert.equal(parseQuery('the who', en).clauses.length, 2);
});

test('property: no query string throws, parsing or searching', async () => {
  const ms = new InvertedIndex();
  for (const d of [buildDoc('a.md', 'alpha beta "gamma" C++ bge-m3 foo:bar 検索', null), buildDoc('b.md', 'beta', null)]) ms.add(d, en);
  await fc.assert(fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 40 }), async (s) => {
    const q = parseQuery(s, en);
    await runQuery(ms, q, en, { readText: async () => 'alpha beta' });
  }), { numRuns: 300 });
  await fc.assert(fc.asyncProperty(fc.array(fc.constantFrom('"', '-', '*', 'OR', 'alpha', 'beta', ':', '+', '(', ')', ' ', 'C++', '#'), { maxLength: 12 }), async (parts) => {
    await runQuery(ms, parseQuery(parts.join(''), en), en, {});
  }), { numRuns: 300 });
});
