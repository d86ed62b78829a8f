// One line's tags, wikilinks, markdown links and embeds (src/core/markdown/inline.ts via parseMarkdown).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseMarkdown } from '../../../src/core/markdown/parse.js';
import type { Pos } from '../../../src/core/markdown/metadata.js';

const tags = (t: string) => (parseMarkdown(t).tags ?? []).map((x) => x.tag);
const links = (t: string) => (parseMarkdown(t).links ?? []).map((x) => x.link);
const slice = (t: string, p: Pos) => t.slice(p.start.offset, p.end.offset);

// ---------------------------------------------------------------- tags

test('tags: basic, nested, unicode, digits', () => {
  assert.deepEqual(tags('#a #b/c/d #日本語 #café #x_y-z #🎉party'), ['#a', '#b/c/d', '#日本語', '#café', '#x_y-z', '#🎉party']);
  assert.deepEqual(tags('#2024 #1984 #y1984 #1984y #2024/01 #0'), ['#y1984', '#1984y', '#2024/01']);
  assert.deepEqual(tags('#tag. #tag2, (#no) a#no #tag3! #tag4:x #q?'), ['#tag', '#tag2', '#tag3', '#tag4', '#q']);
  assert.deepEqual(tags('#a#b'), ['#a', '#b']);
  assert.deepEqual(tags("#it's"), ['#it']);
});

test('tags: need start of line, whitespace or emphasis before', () => {
  assert.deepEqual(tags('foo#bar (#paren) [#brack] "#q"'), []);
  assert.deepEqual(tags('**#bold** *#em* ==#hl== ~~#del~~ _#under_'), ['#bold', '#em', '#hl', '#del', '#under_']); // '_' is a tag character
  assert.deepEqual(tags('x**#no**'), []);
  assert.deepEqual(tags('x\t#tab\u00a0#nbsp'), ['#tab', '#nbsp']);
  assert.deepEqual(tags('\\#escaped #real'), ['#real']);
});

test('tags: not in code, comments, math, URLs, links', () => {
  assert.deepEqual(tags('`#code` ``#two `x` #three`` #yes'), ['#yes']);
  assert.deepEqual(tags('```\n#fenced\n```\n#after'), ['#after']);
  assert.deepEqual(tags('````md\n```\n#inner\n```\n````\n#after'), ['#after']);
  assert.deepEqual(tags('~~~\n#tilde\n```\n#still\n~~~\n#out'), ['#out']);
  assert.deepEqual(tags('<!-- #c --> #a <!--\n#b\n--> #d'), ['#a', '#d']);
  assert.deepEqual(tags('%% #c %% #a %%\n#b\n%% #d'), ['#a', '#d']);
  assert.deepEqual(tags('$$\n#m\n$$\n$#inline$ #x $$#y$$'), ['#x']);
  assert.deepEqual(tags('costs $5 #budget and $6'), ['#budget']);
  assert.deepEqual(tags('see http://x.com/#anchor https://y.org/a#b <https://z.io/#q>'), []);
  assert.deepEqual(tags('[[a#b]] [[#heading]] ![[img.png#x]] [t](n.md#sec) #ok'), ['#ok']);
  assert.deepEqual(tags('    #indented-code\n\npara #p'), ['#p']);
  assert.deepEqual(tags('<div>\n#html\n</div>\n\n#after'), ['#after']);
});

test('tags: in headings, lists, quotes and callouts; positions', () => {
  const t = '# Title #h\n- item #l\n> quote #q\n> [!note] #c\n| #t | x |';
  assert.deepEqual(tags(t), ['#h', '#l', '#q', '#c', '#t']);
  for (const tg of parseMarkdown(t).tags!) assert.equal(slice(t, tg.position), tg.tag);
  const m = parseMarkdown('a\n  b #x');
  assert.deepEqual(m.tags![0].position, { start: { line: 1, col: 4, offset: 6 }, end: { line: 1, col: 6, offset: 8 } });
});


// ---------------------------------------------------------------- links and embeds

test('wikilinks: alias, heading, block, display text, positions', () => {
  const t = 'See [[Note]], [[Note|Alias]], [[Note#Heading]], [[Note#^blk|b]], [[folder/Note]] and [[ spaced ]].';
  const m = parseMarkdown(t);
  assert.deepEqual(m.links!.map((l) => [l.link, l.displayText, l.original]), [
    ['Note', 'Note', '[[Note]]'],
    ['Note', 'Alias', '[[Note|Alias]]'],
    ['Note#Heading', 'Note#Heading', '[[Note#Heading]]'],
    ['Note#^blk', 'b', '[[Note#^blk|b]]'],
    ['folder/Note', 'folder/Note', '[[folder/Note]]'],
    ['spaced', 'spaced', '[[ spaced ]]'],
  ]);
  for (const l of m.links!) assert.equal(slice(t, l.position), l.original);
  assert.deepEqual(m.links![0].position, { start: { line: 0, col: 4, offset: 4 }, end: { line: 0, col: 12, offset: 12 } });
});

test('wikilinks: escaped pipe in tables, empty, unclosed, nested opener', () => {
  const t = '| a | [[Note\\|Alias]] |\n|---|---|\n| [[B]] | x |';
  const m = parseMarkdown(t);
  assert.deepEqual(m.links!.map((l) => [l.link, l.displayText]), [['Note', 'Alias'], ['B', 'B']]);
  assert.equal(m.sections![0].type, 'table');
  assert.deepEqual(links('[[]] [[  ]] [[unclosed'), []);
  assert.deepEqual(links('[[a [[b]]'), ['b']);
  assert.deepEqual(links('[[a|b|c]]'), ['a']);
  assert.equal(parseMarkdown('[[a|b|c]]').links![0].displayText, 'b|c');
});

test('markdown links: decoding, angle brackets, titles, externals skipped', () => {
  const t = '[t](a.md) [sp](<a b.md>) [pc](a%20b.md) [h](Note.md#Sec) [ti](x.md "Title") [ext](https://x.com) [m](mailto:a@b.c) [obs](obsidian://open) [](empty.md) [self](#Heading) [bad](a%zz.md) [p](f(1).md)';
  const m = parseMarkdown(t);
  assert.deepEqual(m.links!.map((l) => [l.link, l.displayText]), [
    ['a.md', 't'], ['a b.md', 'sp'], ['a b.md', 'pc'], ['Note.md#Sec', 'h'], ['x.md', 'ti'], ['empty.md', ''], ['#Heading', 'self'], ['a%zz.md', 'bad'], ['f(1).md', 'p'],
  ]);
  for (const l of m.links!) assert.equal(slice(t, l.position), l.original);
  assert.equal(m.links![1].original, '[sp](<a b.md>)');
  assert.deepEqual(links('[not a link] [x] (y.md) [x]\n(z.md)'), []);
});

test('embeds: wiki and markdown, local only, not links', () => {
  const t = '![[img.png]] ![[Note#Sec|300]] ![alt](pic%201.png) ![remote](https://x/y.png) [[plain]]';
  const m = parseMarkdown(t);
  assert.deepEqual(m.embeds!.map((e) => [e.link, e.displayText, e.original]), [
    ['img.png', 'img.png', '![[img.png]]'],
    ['Note#Sec', '300', '![[Note#Sec|300]]'],
    ['pic 1.png', 'alt', '![alt](pic%201.png)'],
  ]);
  assert.deepEqual(links(t), ['plain']);
  for (const e of m.embeds!) assert.equal(slice(t, e.position), e.original);
});

test('links: not inside code, comments or math', () => {
  assert.deepEqual(links('`[[a]]`\n```\n[[b]]\n```\n%% [[c]] %% <!-- [t](d.md) --> $[[e]]$ [[f]]'), ['f']);
  assert.deepEqual(links('~~~\n[x](y.md)\n~~~'), []);
  assert.deepEqual(links('- item\n  ```\n  [[inlist]]\n  ```\n- [[after]]'), ['after']);
  assert.deepEqual(links('> ```\n> [[quoted]]\n> ```\n> [[out]]'), ['out']);
});

test('links: CRLF positions', () => {
  const t = 'a\r\n[[B]] x\r\n[c](d.md)';
  const m = parseMarkdown(t);
  assert.deepEqual(m.links!.map((l) => [l.position.start.line, l.position.start.col, slice(t, l.position)]), [[1, 0, '[[B]]'], [2, 0, '[c](d.md)']]);
});
