// Block structure: headings, lists, sections, block ids, unclosed fences (src/core/markdown/blocks.ts
// and parse.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseMarkdown, hasUnclosedFence } from '../../../src/core/markdown/parse.js';
import type { Pos } from '../../../src/core/markdown/metadata.js';

const heads = (t: string) => (parseMarkdown(t).headings ?? []).map((h) => `${h.level}:${h.heading}`);
const slice = (t: string, p: Pos) => t.slice(p.start.offset, p.end.offset);

// ---------------------------------------------------------------- headings

test('headings: ATX levels, closing #s, indentation, no-space', () => {
  assert.deepEqual(heads('# One\n## Two ##\n###### Six\n####### Seven\n#NoSpace\n   ### Indented\n    # Code'), ['1:One', '2:Two', '6:Six', '3:Indented']);
  assert.deepEqual(heads('# A #not-closing\n## B#\n# C \\#\n#\n## ## ##'), ['1:A #not-closing', '2:B#', '1:C \\#', '1:', '2:##']); // one closing sequence is removed, as CommonMark
  assert.deepEqual(heads('#\tTab'), ['1:Tab']);
  const t = '# *Hello*, World';
  assert.deepEqual(heads(t), ['1:*Hello*, World']);
  assert.equal(slice(t, parseMarkdown(t).headings![0].position), t);
});

test('headings: not in code, frontmatter, lists, quotes or comments', () => {
  assert.deepEqual(heads('---\n# yaml comment\n---\n```\n# code\n```\n- # item\n> # quote\n%%\n# hidden\n%%\n<!--\n# hidden\n-->\n# Real'), ['1:Real']);
});

test('headings: setext', () => {
  const t = 'Title\n=====\n\nSub\n---\ntext\n\n---\n- item\n---';
  assert.deepEqual(heads(t), ['1:Title', '2:Sub']);
  const h = parseMarkdown(t).headings!;
  assert.equal(slice(t, h[0].position), 'Title\n=====');
  assert.deepEqual(h[1].position.start, { line: 3, col: 0, offset: 13 });
  assert.deepEqual(heads('a\nb\n==='), ['1:a b']);
});


// ---------------------------------------------------------------- lists

test('list items: markers, tasks with any status char, ids', () => {
  const t = '- a\n* b\n+ c\n1. d\n2) e\n- [ ] todo\n- [x] done\n- [-] cancelled\n- [/] half\n- [>] fwd\n- [?] q ^blk-1\n- [] not\n- [xx] not\n-no';
  const items = parseMarkdown(t).listItems!;
  assert.equal(items.length, 13);
  assert.deepEqual(items.map((i) => i.task), [undefined, undefined, undefined, undefined, undefined, ' ', 'x', '-', '/', '>', '?', undefined, undefined]);
  assert.equal(items[10].id, 'blk-1');
  assert.deepEqual(parseMarkdown(t).blocks!['blk-1'].position, items[10].position);
  assert.equal(slice(t, items[5].position), '- [ ] todo');
});

test('list items: parents like Obsidian', () => {
  const t = 'intro\n\n- a\n  - b\n    - c\n  - d\n- e\n\tx continuation\n\t- f\n\nother\n\n1. one\n   - sub\n2. two';
  const items = parseMarkdown(t).listItems!;
  assert.deepEqual(items.map((i) => [i.position.start.line, i.parent]), [
    [2, -2], [3, 2], [4, 3], [5, 2], [6, -2], [8, 6], [12, -12], [13, 12], [14, -12],
  ]);
  // A list on line 0: root parent is 0 (= -0), as Obsidian reports.
  assert.deepEqual(parseMarkdown('- a\n  - b').listItems!.map((i) => i.parent), [0, 0]);
  // Changing the bullet starts a new list; a blank line between items does not.
  assert.deepEqual(parseMarkdown('x\n- a\n\n- b\n* c').listItems!.map((i) => i.parent), [-1, -1, -4]);
  // Not nested enough for the parent's content column: sibling.
  assert.deepEqual(parseMarkdown('x\n- a\n - b').listItems!.map((i) => i.parent), [-1, -1]);
});

test('list items: a list ends at an unindented paragraph after a blank line', () => {
  const items = parseMarkdown('x\n- a\nlazy\n\npara\n- b').listItems!;
  assert.deepEqual(items.map((i) => [i.position.start.line, i.parent, i.position.end.line]), [[1, -1, 2], [5, -5, 5]]);
  assert.equal(parseMarkdown('The year\n2024. was good').listItems, undefined);
});

test('list items inside callouts and quotes', () => {
  const items = parseMarkdown('> [!todo]\n> - [ ] one\n>   - [x] two').listItems!;
  assert.deepEqual(items.map((i) => [i.position.start.line, i.parent, i.task]), [[1, -1, ' '], [2, 1, 'x']]);
});


// ---------------------------------------------------------------- sections and blocks

test('sections and block ids', () => {
  const t = '---\na: 1\n---\n# H\npara ^p1\n\n- l\n\n```\nc\n```\n> q\n\n^q1\n\n> [!tip]\n> x\n\n| a |\n|---|\n\n***\n\n$$\nm\n$$\n\n%%\nhidden\n%%\n\n<div>\nx\n</div>\n\n[^1]: note';
  const m = parseMarkdown(t);
  assert.deepEqual(m.sections!.map((s) => s.type), ['yaml', 'heading', 'paragraph', 'list', 'code', 'blockquote', 'callout', 'table', 'thematicBreak', 'math', 'comment', 'html', 'footnoteDefinition']);
  assert.equal(m.blocks!.p1.id, 'p1');
  assert.equal(slice(t, m.blocks!.p1.position), 'para ^p1');
  assert.equal(m.sections![2].id, 'p1');
  assert.equal(slice(t, m.blocks!.q1.position), '> q');
  for (const s of m.sections!) assert.ok(s.position.end.offset >= s.position.start.offset);
  assert.equal(parseMarkdown('a^no').blocks, undefined);
  assert.equal(parseMarkdown('Mixed ^Up-Case').blocks!['up-case'].id, 'Up-Case');
});

test('hasUnclosedFence', () => {
  assert.equal(hasUnclosedFence('```\ncode'), true);
  assert.equal(hasUnclosedFence('```\ncode\n```'), false);
  assert.equal(hasUnclosedFence('```\ncode\n```\n'), false);
  assert.equal(hasUnclosedFence('````\n```\n'), true);
  assert.equal(hasUnclosedFence('text'), false);
  assert.equal(hasUnclosedFence('    indented code'), false);
});
