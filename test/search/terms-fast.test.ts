// The indexing fast paths give exactly the terms of the reference path (tokenize() → stop words → stem),
// in order: forEachTerm (ASCII chunks scanned by character code) and the lexicon's term ids (plain words
// looked up in its hash table straight from the text); on random text mixing ASCII words, joiners,
// C++/C#, punctuation, whitespace and other scripts, and on the sample vault's notes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { createAnalyzer } from '../../src/search/analyzer.js';
import { terms, tokenize } from '../../src/search/text.js';
import type { Analyzer } from '../../src/search/types.js';
import { Lexicon } from '../../src/search/lexicon.js';
import { SAMPLE_VAULT } from '../helpers/paths.js';

const analyzers = [createAnalyzer({ stemming: ['english'], stopWords: true }), createAnalyzer({ stemming: [], stopWords: false })];

function reference(text: string, a: Analyzer, keepStop: boolean): string[] {
  const out: string[] = [];
  for (const t of tokenize(text)) if (keepStop || !a.isStopWord(t.text)) out.push(a.stem(t.text));
  return out;
}

const pieces = ['a', 'Z', 'word', 'The', 'running', '42', 'v1.2', 'bge-m3', "don't", "Obsidian's", 'a_b', 'C++', 'C#', 'c#x', '+', '++', '#', '-', '.', '_', "'", '--',
  ' ', '  ', '\n', '\t', '\r\n', ',', ':', '(', ')', '[[', ']]', '*', 'é', 'Café', 'straße', '’s', 'naïve', '検索', 'ไทย', 'привет', '\u00a0', '\u2003', '😀', 'x\u0301'];

/** The terms the lexicon's id path gives (one lexicon across calls, as in an index). */
const lexicons = new Map<Analyzer, Lexicon>();
function viaIds(text: string, a: Analyzer, keepStop: boolean): string[] {
  let lex = lexicons.get(a);
  if (!lex) { lex = new Lexicon(); lexicons.set(a, lex); }
  const out: string[] = [];
  lex.forEachTermId(text, a, keepStop, (id) => { out.push(lex.terms[id]); });
  return out;
}

test('property: the fast paths give the reference terms, in order', () => {
  fc.assert(fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), fc.boolean(), (parts, keepStop) => {
    const text = parts.join('');
    for (const a of analyzers) {
      const want = reference(text, a, keepStop);
      assert.deepEqual(terms(text, a, keepStop), want, JSON.stringify(text));
      assert.deepEqual(viaIds(text, a, keepStop), want, JSON.stringify(text));
    }
  }), { numRuns: 3000 });
});

test('the fast path gives the reference terms on every note of the sample vault', () => {
  const walk = (dir: string): string[] => readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : n.endsWith('.md') ? [p] : [];
  });
  const files = walk(SAMPLE_VAULT);
  assert.ok(files.length > 5);
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    for (const a of analyzers) {
      const want = reference(text, a, false);
      assert.deepEqual(terms(text, a), want, f);
      assert.deepEqual(viaIds(text, a, false), want, f);
    }
  }
});
