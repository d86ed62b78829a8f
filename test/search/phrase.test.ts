// Phrase checks a piece at a time (src/search/phrase.ts): for any text and any cut size, the answer is
// the whole-text check's (the pieces end at white space, and a run across a cut is carried over); and a
// long note is checked with pauses between its pieces (280 KB in one go was a 25-40 ms block).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createAnalyzer } from '../../src/search/analyzer.js';
import { hasPhrase, phrasesHold, PHRASE_PIECE } from '../../src/search/phrase.js';
import { tokenize } from '../../src/search/text.js';
import type { Alt } from '../../src/search/query.js';

const analyzer = createAnalyzer({ stemming: ['english'], stopWords: true });

/** The reference: the whole text's index terms at once, then a search for the run. */
function containsPhrase(text: string, alt: Alt): boolean {
  const seq = tokenize(text).filter((t) => !t.part && !analyzer.isStopWord(t.text)).map((t) => analyzer.stem(t.text));
  const want = alt.terms;
  for (let i = 0; i + want.length <= seq.length; i++) if (want.every((w, j) => seq[i + j] === w)) return true;
  return false;
}
const WORDS = ['vault', 'vaults', 'note', 'notes', 'the', 'of', 'graph', 'link', 'C++', 'don’t', 'x.y', 'a-b', '#tag', '東京タワー', 'Obsidianで', 'café'];
const SEPS = [' ', '  ', '\n', '\t', '\r\n', ', ', '. ', '—', ' (', ') '];
const text = fc.array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...SEPS)), { maxLength: 60 }).map((xs) => xs.map(([w, s]) => w + s).join(''));
const alt = fc.array(fc.constantFrom('vault', 'note', 'graph', 'link', 'c++', 'x.y', 'caf'), { minLength: 1, maxLength: 3 })
  .map((ts): Alt => ({ kind: 'phrase', terms: ts.map((t) => analyzer.stem(t)) }) as Alt);

test('checked a piece at a time, a phrase is found exactly where the whole-text check finds it', async () => {
  await fc.assert(fc.asyncProperty(text, alt, fc.integer({ min: 1, max: 40 }), async (t, a, piece) => {
    assert.equal(await hasPhrase(t, a, analyzer, undefined, piece), containsPhrase(t, a));
  }), { numRuns: 1500 });
  // Found across a cut, and not made up from terms on both sides of a dropped one.
  const a = { kind: 'phrase', terms: ['vault', 'note'] } as Alt;
  assert.equal(await hasPhrase('x '.repeat(10) + 'vault note', a, analyzer, undefined, 21), true);
  assert.equal(await hasPhrase('vault graph note', a, analyzer, undefined, 6), false);
});

test('every phrase group needs one alt the text holds', async () => {
  const alt = (...terms: string[]) => ({ kind: 'phrase', terms }) as Alt;
  const text = 'the vault note links a graph';
  assert.equal(await phrasesHold(text, [[alt('vault', 'note')], [alt('graph', 'vault'), alt('link', 'graph')]], analyzer), true);
  assert.equal(await phrasesHold(text, [[alt('vault', 'note')], [alt('graph', 'vault')]], analyzer), false);
  assert.equal(await phrasesHold(text, [], analyzer), true);
});

test('a long note is checked with pauses between its pieces', async () => {
  const long = 'graph link '.repeat(30_000) + 'vault note';
  let pauses = 0;
  const found = await hasPhrase(long, { kind: 'phrase', terms: ['vault', 'note'] } as Alt, analyzer, () => { pauses++; return null; });
  assert.equal(found, true);
  assert.ok(pauses >= Math.floor(long.length / PHRASE_PIECE) - 1, `paused ${pauses} times over ${long.length} characters`);
});
