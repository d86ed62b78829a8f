// Snippets skip what a reader never sees as text: %% comments %% and lines holding only images or
// badges; snippetAt also says where the window starts, so a search row can name its section.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createAnalyzer } from '../../src/search/analyzer.js';
import { snippet, snippetAt, maskNoise } from '../../src/search/snippet.js';

const analyzer = createAnalyzer({ stemming: ['english'], stopWords: true });
const q = (...w: string[]) => ({ exact: new Set(w), prefixes: [] });

test('a title match skips leading badges, images and comments to the first real words', () => {
  const note = [
    '---', 'tags: [plugin]', '---',
    '[![GitHub stars](https://img.shields.io/github/stars/x/y)](https://github.com/x/y) [![Downloads](https://img.shields.io/d.svg)](https://x)',
    '![banner](attachments/banner.png)',
    '![[cover.png]]',
    '%% maintainer note: dataview dataview dataview %%',
    '<img src="logo.svg" width="40">',
    'Dataview turns your vault into a database you can query.',
  ].join('\n');
  const s = snippet(note, q('dataview'), analyzer, true);
  assert.ok(s.replace(/\*\*/g, '').startsWith('Dataview turns your vault'), s);
  assert.doesNotMatch(s, /shields|banner|cover|maintainer|logo|…/);
});

test('a body hit inside a comment is not the snippet; the visible hit is', () => {
  const note = 'Intro line.\n\n%%\nquantum quantum quantum (a hidden draft)\n%%\n\nLater the word quantum appears in plain text.\n';
  const r = snippetAt(note, q('quantum'), analyzer, false);
  assert.match(r.text, /appears in plain text/);
  assert.doesNotMatch(r.text, /hidden draft/);
  assert.equal(note.slice(r.offset).startsWith('quantum appears'), true, `offset ${r.offset} points at ${JSON.stringify(note.slice(r.offset, r.offset + 20))}`);
});

test('masking keeps offsets and line breaks; text lines with an inline image stay', () => {
  const body = 'a %%x\ny%% b\n![i](u.png)\r\nsee ![i](u.png) here\n';
  const m = maskNoise(body);
  assert.equal(m.length, body.length);
  assert.equal(m.split('\n').length, body.split('\n').length);
  assert.match(m, /see !\[i\]\(u\.png\) here/);
  assert.doesNotMatch(m, /x|y/);
  assert.equal(m.split('\n')[2].trim(), '');
});
