// Snippets skip what a reader never sees as text: %% comments %% and lines holding only images or
// badges; snippetAt also says where the window starts, so a search row can name its section.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createAnalyzer } from '../../src/search/analyzer.js';
import { tokenize } from '../../src/search/text.js';
import { snippet, snippetAt, snippetInSlices, snippetSteps, maskNoise, SNIPPET_PIECE, type SnippetQuery } from '../../src/search/snippet.js';

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

/** snippetSteps run to its end. */
const runSteps = (note: string, query: SnippetQuery, opening: boolean, piece: number) => {
  const steps = snippetSteps(note, query, analyzer, opening, piece);
  for (let s = steps.next(); ; s = steps.next()) if (s.done) return s.value;
};

test('a snippet made a piece at a time is the snippet made in one go, for any piece size', () => {
  let seed = 11;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const words = 'the garden vault quantum notes bge-m3 camelCase data-view 東京タワー plan review draft idea'.split(' ');
  for (let n = 0; n < 30; n++) {
    const lines = Array.from({ length: 5 + Math.floor(rnd() * 60) }, () => {
      const r = rnd();
      if (r < 0.05) return '![banner](a.png)';
      if (r < 0.1) return '%% hidden quantum %%';
      return Array.from({ length: 1 + Math.floor(rnd() * 14) }, () => words[Math.floor(rnd() * words.length)]).join(rnd() < 0.2 ? '\t' : ' ');
    });
    const note = `${rnd() < 0.5 ? '---\ntags: [x]\n---\n' : ''}${lines.join(rnd() < 0.3 ? '\r\n' : '\n')}`;
    for (const query of [q('quantum'), q('garden', 'review'), { exact: new Set<string>(), prefixes: ['data'] }]) {
      for (const opening of [false, true]) {
        const whole = runSteps(note, query, opening, Infinity);
        for (const piece of [1, 7, 64, 1000]) assert.deepEqual(runSteps(note, query, opening, piece), whole, `note ${n}, piece ${piece}`);
      }
    }
  }
});

test('snippetInSlices offers a pause after every 16k characters of a long note, and answers as snippetAt', async () => {
  const para = 'Plain words about gardens and vaults fill this long note, line after line.\n';
  const note = `# Long\n\n${para.repeat(4000)}The quantum line is near the end.\n${para.repeat(10)}`;
  const offersFor = async (opening: boolean) => {
    let offers = 0;
    const r = await snippetInSlices(note, q('quantum'), analyzer, opening, () => { offers++; return null; });
    assert.deepEqual(r, snippetAt(note, q('quantum'), analyzer, opening));
    return { r, offers };
  };
  // An opening snippet only tokenizes: its offers are the pieces'.
  const opening = await offersFor(true);
  assert.ok(opening.offers >= Math.floor(note.length / SNIPPET_PIECE), `${opening.offers} offers for ${note.length} characters`);
  // A body snippet also looks for the best window: an offer every 2,048 tokens more.
  const body = await offersFor(false);
  assert.match(body.r.text, /\*\*quantum\*\*/);
  const tokens = tokenize(note).length;
  assert.ok(body.offers - opening.offers >= Math.floor(tokens / 2048) - 1, `${body.offers - opening.offers} more offers for ${tokens} tokens`);
});
