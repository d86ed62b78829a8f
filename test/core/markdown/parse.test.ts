// parseMarkdown as a whole (Obsidian CachedMetadata semantics for the headless host): properties over
// random markdown and linear time on hostile input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseMarkdown, hasUnclosedFence } from '../../../src/core/markdown/parse.js';
import type { Pos } from '../../../src/core/markdown/metadata.js';

const slice = (t: string, p: Pos) => t.slice(p.start.offset, p.end.offset);

// ---------------------------------------------------------------- properties

const mdPiece = fc.constantFrom(
  '#', '##', '# ', '#tag', '#日本', '#2024', '[[', ']]', '[[a|b]]', '[[x#y]]', '![[i.png]]', '[t](a.md)', '[t](<a b.md>)', '![', '](', ')', '(', '[', ']', '|', '\\|', '\\',
  '`', '```', '~~~', '$', '$$', '%%', '<!--', '-->', '<div>', '>', '> [!note]', '- ', '* ', '1. ', '- [ ] ', '- [x] ', '  ', '\t', '    ', '\n', '\r\n', '\n\n', '---', '===', '***',
  '^id', ' ^b1', 'http://x.com/#a', 'text', ' ', 'é', '🎉', '\uFEFF', 'a:', '|---|', '**', '==',
);
const mdText = fc.oneof(fc.string({ maxLength: 200 }), fc.array(mdPiece, { maxLength: 60 }).map((a) => a.join('')), fc.array(mdPiece, { maxLength: 40 }).map((a) => '---\n' + a.join('')));

function checkPos(t: string, p: Pos, what: string) {
  for (const l of [p.start, p.end]) {
    assert.ok(l.offset >= 0 && l.offset <= t.length, `${what} offset in range`);
    const lineStart = l.offset - l.col;
    assert.ok(lineStart === 0 || t[lineStart - 1] === '\n', `${what} col consistent with offset`);
    assert.equal(t.slice(0, lineStart).split('\n').length - 1, l.line, `${what} line consistent with offset`);
  }
  assert.ok(p.end.offset >= p.start.offset, `${what} non-empty range`);
}

test('property: never throws; positions slice back to the element', () => {
  fc.assert(fc.property(mdText, (t) => {
    const m = parseMarkdown(t);
    for (const l of [...(m.links ?? []), ...(m.embeds ?? [])]) { checkPos(t, l.position, 'link'); assert.equal(slice(t, l.position), l.original); }
    for (const tg of m.tags ?? []) {
      checkPos(t, tg.position, 'tag');
      assert.equal(slice(t, tg.position), tg.tag);
      assert.match(tg.tag, /^#.*[^0-9#]/u);
    }
    for (const h of m.headings ?? []) { checkPos(t, h.position, 'heading'); assert.ok(h.level >= 1 && h.level <= 6); }
    for (const li of m.listItems ?? []) {
      checkPos(t, li.position, 'list item');
      assert.ok(li.parent < li.position.start.line || li.parent <= 0);
      if (li.task !== undefined) assert.equal([...li.task].length, 1);
    }
    for (const s of m.sections ?? []) checkPos(t, s.position, 'section');
    if (m.frontmatterPosition) checkPos(t, m.frontmatterPosition, 'frontmatter');
    for (const [k, b] of Object.entries(m.blocks ?? {})) { assert.equal(k, b.id.toLowerCase()); checkPos(t, b.position, 'block'); }
    hasUnclosedFence(t);
  }), { numRuns: 4000 });
});

test('property: a tag, link or heading put on its own line is found exactly', () => {
  const name = fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9_/-]{0,10}$/);
  fc.assert(fc.property(fc.array(mdPiece, { maxLength: 20 }).map((a) => a.join('').replace(/[`~%$<]/g, '')), name, (prefix, n) => {
    const t = `${prefix}\n\n#${n} [[${n}|x]]\n`;
    const m = parseMarkdown(t);
    const line = t.split('\n').length - 2;
    assert.ok(m.tags?.some((x) => x.tag === `#${n}` && x.position.start.line === line), JSON.stringify(t));
    assert.ok(m.links?.some((x) => x.link === n && x.displayText === 'x' && x.position.start.line === line), JSON.stringify(t));
  }), { numRuns: 1000 });
});

// No timed assertion: the inputs are large enough that a scan going back over the line (quadratic)
// would take minutes and hit the test's timeout, while the linear scanner takes well under a second.
test('linear on pathological lines (a quadratic scan would time out)', { timeout: 60_000 }, () => {
  const big = '['.repeat(400_000) + ' ' + '[['.repeat(160_000) + ' ' + '`'.repeat(40_000) + ' ' + '$'.repeat(40_000) + ' #a'.repeat(160_000);
  assert.equal(parseMarkdown(big).tags?.length, 160_000);
  const tasks = parseMarkdown(Array.from({ length: 100_000 }, (_, i) => `- [ ] task ${i} #t [[n${i}]]`).join('\n'));
  assert.equal(tasks.listItems?.length, 100_000);
  assert.equal(tasks.links?.length, 100_000);
});
