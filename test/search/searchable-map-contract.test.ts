// The keyword index relies on MiniSearch's public SearchableMap (`minisearch/SearchableMap`) for its term
// dictionary; these are the behaviours it uses, checked against the installed package (pinned exactly
// in package.json), so an upgrade that changed them fails here rather than in search results.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import SearchableMap from 'minisearch/SearchableMap';
import { REPO } from '../helpers/paths.js';

test('minisearch is pinned exactly and the installed version is the pinned one', () => {
  const pinned = (JSON.parse(readFileSync(`${REPO}/package.json`, 'utf8')) as { dependencies: Record<string, string> }).dependencies.minisearch;
  assert.match(pinned, /^\d+\.\d+\.\d+$/, 'an exact version, no range');
  const installed = (JSON.parse(readFileSync(`${REPO}/node_modules/minisearch/package.json`, 'utf8')) as { version: string }).version;
  assert.equal(installed, pinned);
});

test('SearchableMap: set/get/has/delete/size, and atPrefix yields every key with the prefix (the prefix itself included)', () => {
  const m = new SearchableMap<number[]>();
  const words = ['gard', 'garden', 'gardening', 'gardener', 'garage', 'go', 'g', 'zebra', 'über', '検索', '検'];
  words.forEach((w, i) => m.set(w, [i]));
  assert.equal(m.size, words.length);
  for (const [i, w] of words.entries()) { assert.ok(m.has(w)); assert.deepEqual(m.get(w), [i]); }
  assert.equal(m.get('garde'), undefined);
  const keys = (p: string) => [...m.atPrefix(p)].map(([k]) => k).sort();
  assert.deepEqual(keys('gard'), ['gard', 'garden', 'gardener', 'gardening']);
  assert.deepEqual(keys('garde'), ['garden', 'gardener', 'gardening']);
  assert.deepEqual(keys('g'), ['g', 'garage', 'gard', 'garden', 'gardener', 'gardening', 'go']);
  assert.deepEqual(keys('検'), ['検', '検索']);
  assert.deepEqual(keys('x'), []);
  // Values come back as the same objects (the index mutates them in place).
  const v = m.get('garden')!;
  assert.equal([...m.atPrefix('garden')].find(([k]) => k === 'garden')![1], v);
  m.delete('garden');
  assert.ok(!m.has('garden'));
  assert.deepEqual(keys('gard'), ['gard', 'gardener', 'gardening']);
  assert.equal(m.size, words.length - 1);
  m.set('garden', [99]);
  assert.deepEqual(m.get('garden'), [99]);
  // Deleting every key under a prefix leaves nothing behind.
  for (const k of keys('g')) m.delete(k);
  assert.deepEqual(keys('g'), []);
  assert.equal(m.size, 4);
});
