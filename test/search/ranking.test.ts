// Ranking cases on a small in-memory index: title beats long body repetition, aliases, field order,
// AND rows before partial rows, exclusion, phrases, prefixes and literal identifiers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createAnalyzer } from '../../src/search/analyzer.js';
import { parseQuery } from '../../src/search/query.js';
import { InvertedIndex } from '../../src/search/invertedIndex.js';
import { runQuery } from '../../src/search/rank.js';
import { buildDoc } from '../../src/search/document.js';
import { parseMarkdown } from '../../src/core/markdown/parse.js';
import { snippet } from '../../src/search/snippet.js';

const analyzer = createAnalyzer({ stemming: ['english'], stopWords: true });
const notes: Record<string, string> = {
  'Projects/Quantum Computing.md': '# Overview\nA short note.\n',
  'Notes/Long essay.md': `# Essay\n${'quantum computing is discussed here at length. '.repeat(80)}\n`,
  'Notes/Other essay.md': `${'computing quantum computing quantum. '.repeat(40)}\n`,
  'People/Robert.md': '---\naliases: [Bob, "Bobby Tables"]\ntags: [person]\n---\nWorks on databases.\n',
  'Notes/Bob mentions.md': 'bob bob bob bob bob said hello to everyone.\n',
  'Notes/Heading match.md': 'Intro line.\n\n## Gardening\nsome text\n',
  'Notes/Tag match.md': '---\ntags: [gardening]\n---\nsome text\n',
  'Notes/Body match.md': 'I like gardening in spring, text here.\n',
  'Notes/Both words.md': 'red apples and green pears\n',
  'Notes/One word.md': 'red red red red red red red red cars\n',
  'Notes/Draft.md': 'red apples draft version\n',
  'Tech/Models.md': 'We embed with bge-m3 and also C++ code, see foo:bar config. Version v1.2 released.\n',
  'Tech/Split.md': 'the bge model and m3 the other foo later bar\n',
  'Tech/Phrase.md': 'the exact phrase matters here\n',
  'Tech/Shuffled.md': 'phrase exact is shuffled here\n',
  'Tech/Optimization.md': 'optimizing and optimization of queries\n',
};
const ms = new InvertedIndex();
for (const [p, t] of Object.entries(notes)) ms.add(buildDoc(p, t, parseMarkdown(t)), analyzer);
const readText = async (p: string) => notes[p] ?? null;
const search = (q: string) => runQuery(ms, parseQuery(q, analyzer), analyzer, { readText });
const paths = async (q: string) => (await search(q)).map((h) => h.path);

test('a query that is a note\'s title finds that note first, above long notes repeating the words', async () => {
  const hits = await search('quantum computing');
  assert.equal(hits[0].path, 'Projects/Quantum Computing.md');
  assert.ok(hits[0].fields.includes('title'));
  assert.ok(hits.length >= 3);
});

test('an alias match ranks the aliased note first and reports the field', async () => {
  const hits = await search('bob');
  assert.equal(hits[0].path, 'People/Robert.md');
  assert.ok(hits[0].fields.includes('aliases'));
  assert.equal((await search('bobby tables'))[0].path, 'People/Robert.md');
});

test('field order: heading above tag above body', async () => {
  const order = (await paths('gardening')).filter((p) => p.includes('match'));
  assert.deepEqual(order, ['Notes/Heading match.md', 'Notes/Tag match.md', 'Notes/Body match.md']);
});

test('AND rows come first, then partial rows flagged as such', async () => {
  const hits = await search('red apples');
  assert.deepEqual(hits.filter((h) => h.matchedAll).map((h) => h.path).sort(), ['Notes/Both words.md', 'Notes/Draft.md']);
  const firstPartial = hits.findIndex((h) => !h.matchedAll);
  assert.ok(firstPartial >= 2 && hits.slice(firstPartial).every((h) => !h.matchedAll));
  assert.ok(hits.some((h) => h.path === 'Notes/One word.md' && !h.matchedAll));
});

test('-excluded drops notes; OR matches either side', async () => {
  const p = await paths('red apples -draft');
  assert.ok(!p.includes('Notes/Draft.md') && p.includes('Notes/Both words.md'));
  const or = (await search('pears OR cars')).filter((h) => h.matchedAll).map((h) => h.path).sort();
  assert.deepEqual(or, ['Notes/Both words.md', 'Notes/One word.md']);
});

test('"exact phrase" needs the words adjacent and in order; shuffled notes are partial', async () => {
  const hits = await search('"exact phrase"');
  assert.equal(hits[0].path, 'Tech/Phrase.md');
  assert.ok(hits[0].matchedAll);
  assert.ok(hits.find((h) => h.path === 'Tech/Shuffled.md')?.matchedAll === false);
});

test('prefix* matches word beginnings', async () => {
  assert.ok((await paths('optim*')).includes('Tech/Optimization.md'));
  assert.ok((await paths('gard*')).includes('Notes/Body match.md'));
});

test('identifiers and punctuation are searched literally, whole and by parts', async () => {
  const whole = await search('bge-m3');
  assert.equal(whole[0].path, 'Tech/Models.md');
  assert.ok(whole[0].matchedAll);
  assert.ok(!whole.find((h) => h.path === 'Tech/Split.md')?.matchedAll);
  assert.ok((await paths('m3')).includes('Tech/Models.md'));
  assert.equal((await search('C++'))[0].path, 'Tech/Models.md');
  const fb = await search('foo:bar');
  assert.ok(fb.find((h) => h.path === 'Tech/Models.md')?.matchedAll);
  assert.ok((await paths('v1.2')).includes('Tech/Models.md'));
  for (const q of ['"unbalanced', 'foo:', '(((', '-', '*', 'OR OR', '""', 'C#', '\\', '[[link]]']) await search(q);
});

test('snippets highlight matched words; title matches show the opening words', () => {
  const s = snippet(notes['Notes/Body match.md'], { exact: new Set(['garden']), prefixes: [] }, analyzer, false);
  assert.match(s, /\*\*gardening\*\*/);
  const o = snippet(notes['People/Robert.md'], { exact: new Set(['bob']), prefixes: [] }, analyzer, true);
  assert.ok(o.startsWith('Works on databases'), o);
  const long = snippet(notes['Notes/Long essay.md'], { exact: new Set(['quantum']), prefixes: [] }, analyzer, false);
  assert.ok(long.length < 320 && long.includes('**quantum**'));
});
