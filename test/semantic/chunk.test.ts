import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { chunkNote, estimateTokens, chunkPrefix, chunkingKey } from '../../src/core/chunk.js';
import { buildOutline } from '../../src/core/markdown/sections.js';
import { splitFrontmatter } from '../../src/core/markdown/frontmatter.js';
import { atxHeadings } from './helpers.js';

function chunk(title: string, text: string, maxTokens = 64, overlapTokens = 8) {
  const outline = buildOutline(text, atxHeadings(text));
  return { outline, chunks: chunkNote(title, text, splitFrontmatter(text).bodyStart, outline, { maxTokens, overlapTokens }) };
}

const NOTE = `---
tags: [a]
---
Intro line before any heading.

# Alpha
Alpha body.

## Beta
Beta body text.

### Gamma
Gamma words here.

# Delta
Delta body.
`;

test('every chunk names the section its text lies in, with a Title > Heading > Sub prefix', () => {
  const { outline, chunks } = chunk('Note', NOTE);
  assert.deepEqual(chunks.map((c) => c.ordinal), [null, '#1', '#2', '#3', '#4']);
  assert.equal(chunks[3].text.split('\n')[0], 'Note > Alpha > Beta > Gamma');
  assert.equal(chunks[0].text.split('\n')[0], 'Note');
  for (const c of chunks) {
    if (!c.ordinal) { assert.ok(c.start >= NOTE.indexOf('Intro')); continue; }
    const e = outline.find((o) => o.ordinal === c.ordinal)!;
    assert.ok(c.start >= e.bodyStart && c.end <= e.end, `chunk of ${c.ordinal} inside its section`);
    assert.equal(c.heading, e.text);
  }
  assert.ok(!chunks.some((c) => c.text.includes('tags: [a]')), 'frontmatter is not embedded');
});

test('an empty note still gets one title chunk', () => {
  const { chunks } = chunk('Empty', '');
  assert.equal(chunks.length, 1);
  assert.equal(chunks[0].text, 'Empty');
  assert.equal(chunks[0].ordinal, null);
});

test('a long section is split within the budget, with overlap, preferring paragraph breaks', () => {
  const para = (i: number) => `Paragraph ${i} ` + Array.from({ length: 20 }, (_, j) => `word${i}x${j}`).join(' ') + '.';
  const text = `# Long\n${Array.from({ length: 12 }, (_, i) => para(i)).join('\n\n')}\n`;
  const { chunks } = chunk('T', text, 64, 8);
  assert.ok(chunks.length > 3);
  for (const c of chunks) {
    assert.equal(c.ordinal, '#1');
    assert.ok(estimateTokens(c.text) <= 64 + 2, `chunk within budget (${estimateTokens(c.text)})`);
  }
  for (let i = 1; i < chunks.length; i++) assert.ok(chunks[i].start < chunks[i - 1].end, 'consecutive windows overlap');
  assert.equal(chunks.at(-1)!.end, text.trimEnd().length);
});

test('chunking key changes with the parameters (part of the fingerprint)', () => {
  assert.notEqual(chunkingKey({ maxTokens: 256, overlapTokens: 32 }), chunkingKey({ maxTokens: 128, overlapTokens: 32 }));
  assert.equal(chunkPrefix('A', ['  B  c ', '']), 'A > B c');
});

test('property: chunks cover every word, stay in their section and within budget', () => {
  const word = fc.stringMatching(/^[a-z]{1,12}$/);
  const line = fc.oneof(
    fc.array(word, { minLength: 1, maxLength: 30 }).map((ws) => ws.join(' ')),
    fc.tuple(fc.integer({ min: 1, max: 4 }), word).map(([d, w]) => `${'#'.repeat(d)} ${w}`),
    fc.constant(''),
  );
  fc.assert(fc.property(fc.array(line, { maxLength: 60 }), fc.integer({ min: 20, max: 120 }), fc.integer({ min: 0, max: 20 }), (lines, max, ov) => {
    const text = lines.join('\n');
    const outline = buildOutline(text, atxHeadings(text));
    const chunks = chunkNote('T', text, 0, outline, { maxTokens: max, overlapTokens: ov });
    assert.ok(chunks.length >= 1);
    const covered = new Uint8Array(text.length);
    for (const c of chunks) {
      for (let i = c.start; i < c.end; i++) covered[i] = 1;
      if (c.ordinal) {
        const e = outline.find((o) => o.ordinal === c.ordinal)!;
        assert.ok(c.start >= e.bodyStart && c.end <= e.end);
      }
      const body = c.text.slice(c.text.indexOf('\n\n') + 2);
      assert.ok(estimateTokens(body) <= Math.max(max, 18), `body ${estimateTokens(body)} > ${max}`);
    }
    // every non-heading word is inside some chunk
    const headingLines = new Set(outline.map((o) => o.start));
    let off = 0;
    for (const l of lines) {
      if (!headingLines.has(off)) for (const m of l.matchAll(/[a-z]+/g)) assert.equal(covered[off + m.index!], 1, `word at ${off + m.index!} covered`);
      off += l.length + 1;
    }
  }), { numRuns: 300 });
});
