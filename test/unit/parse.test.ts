// parseMarkdown: Obsidian CachedMetadata semantics for the headless host.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parse as parseYaml } from 'yaml';
import { parseMarkdown, hasUnclosedFence, __simpleYamlForTests as simpleYaml } from '../../src/core/markdown/parse.js';
import type { Pos } from '../../src/core/markdown/metadata.js';

const tags = (t: string) => (parseMarkdown(t).tags ?? []).map((x) => x.tag);
const links = (t: string) => (parseMarkdown(t).links ?? []).map((x) => x.link);
const heads = (t: string) => (parseMarkdown(t).headings ?? []).map((h) => `${h.level}:${h.heading}`);
const slice = (t: string, p: Pos) => t.slice(p.start.offset, p.end.offset);

// ---------------------------------------------------------------- frontmatter

test('frontmatter: parsed, positioned, not body text; tags stay in frontmatter', () => {
  const t = '---\ntags: [a, b]\ntitle: "Hi #x"\n---\nbody #inline\n';
  const m = parseMarkdown(t);
  assert.deepEqual(m.frontmatter, { tags: ['a', 'b'], title: 'Hi #x' });
  assert.deepEqual(m.frontmatterPosition, { start: { line: 0, col: 0, offset: 0 }, end: { line: 3, col: 3, offset: 35 } });
  assert.equal(slice(t, m.frontmatterPosition!), '---\ntags: [a, b]\ntitle: "Hi #x"\n---');
  assert.deepEqual(tags(t), ['#inline']);
  assert.equal(m.sections![0].type, 'yaml');
});

test('frontmatter: tags as list and as comma string are left as written', () => {
  assert.deepEqual(parseMarkdown('---\ntags:\n  - one\n  - two/three\n---\n').frontmatter, { tags: ['one', 'two/three'] });
  assert.deepEqual(parseMarkdown('---\ntags: one, two\n---\n').frontmatter, { tags: 'one, two' });
  assert.equal(parseMarkdown('---\ntags: [one]\n---\n').tags, undefined);
});

test('frontmatter: CRLF and BOM', () => {
  const t = '\uFEFF---\r\na: 1\r\n---\r\n# H #t\r\n';
  const m = parseMarkdown(t);
  assert.deepEqual(m.frontmatter, { a: 1 });
  assert.equal(m.frontmatterPosition!.end.line, 2);
  assert.equal(slice(t, m.frontmatterPosition!), '\uFEFF---\r\na: 1\r\n---');
  assert.deepEqual(heads(t), ['1:H #t']);
  assert.equal(slice(t, m.headings![0].position), '# H #t');
  assert.equal(slice(t, m.tags![0].position), '#t');
  assert.deepEqual(m.tags![0].position.start, { line: 3, col: 4, offset: 21 });
});

test('frontmatter: malformed YAML keeps the position but gives no frontmatter', () => {
  const m = parseMarkdown('---\na: [unclosed\n b: : :\n---\ntext #t');
  assert.equal(m.frontmatter, undefined);
  assert.ok(m.frontmatterPosition);
  assert.deepEqual(tags('---\na: [unclosed\n---\ntext #t'), ['#t']);
});

test('frontmatter: only `---` closes, only at line 0; empty block is {}', () => {
  assert.equal(parseMarkdown('---\na: 1\n...\nmore').frontmatter, undefined);
  assert.equal(parseMarkdown('\n---\na: 1\n---\n').frontmatter, undefined);
  assert.deepEqual(parseMarkdown('---\n---\nx').frontmatter, {});
  assert.equal(parseMarkdown('---\na: 1\nno close #t').frontmatter, undefined);
  assert.deepEqual(tags('---\na: 1\nno close #t'), ['#t']);
});

test('frontmatter links', () => {
  const m = parseMarkdown('---\nup: "[[Parent|P]]"\nrel:\n  - "[[A]]"\n  - plain\n---\n');
  assert.deepEqual(m.frontmatterLinks, [
    { key: 'up', link: 'Parent', original: '[[Parent|P]]', displayText: 'P' },
    { key: 'rel.0', link: 'A', original: '[[A]]', displayText: 'A' },
  ]);
});

test('simple-YAML fast path agrees with the yaml package', () => {
  const cases = [
    'a: 1\nb: true\nc: ~\nd:\ne: hello world\nf: "q s"\ng: \'x\'\n',
    'aliases:\n- \ntags:\n- seedling\npublish: true\n',
    'tags: [a, b, c]\nx: 2024-01-02\ny: 0x1F\nz: 1.5\nw: 007\nv: -3\nu: +4\n',
    'list:\n  - a\n  - b\nnext: z\n',
    'k: a: b\n', 'k: "a\\"b"\n', 'k: [a, [b]]\n', 'k:\n  nested: 1\n', 'k: v # comment\n', 'a: 1\na: 2\n',
    'k: .inf\n', 'k: 1e3\n', 'k: TRUE\n', 'k: Null\n', 'k: -\n', 'k: [a,]\n', 'k: []\n', 'k: |\n  block\n',
  ];
  for (const y of cases) {
    const fast = simpleYaml(y);
    if (fast) assert.deepEqual(fast, parseYaml(y, { uniqueKeys: false }) ?? {}, y);
  }
  assert.ok(simpleYaml(cases[0]) && simpleYaml(cases[1]) && simpleYaml(cases[3]), 'common shapes take the fast path');
  // Random small documents built from YAML-ish pieces.
  const piece = fc.constantFrom('a', 'b', 'Key', '1', '0', '-1', 'true', 'null', '~', '"s"', "'t'", 'x y', '2024-01-01', '0x10', '1.5', '', '#c', '[a, b]', '[]', 'é', ': ', ' #', '-', 'a:b');
  fc.assert(fc.property(fc.array(fc.tuple(fc.constantFrom('k', 'tags', 'a b', 'k2'), piece, fc.boolean(), fc.array(piece, { maxLength: 3 })), { maxLength: 5 }), (entries) => {
    const y = entries.map(([k, v, asList, items]) => asList ? `${k}:\n${items.map((i) => `  - ${i}`).join('\n')}` : `${k}: ${v}`).join('\n') + '\n';
    const fast = simpleYaml(y);
    if (!fast) return;
    let ref: unknown;
    try { ref = parseYaml(y, { uniqueKeys: false }) ?? {}; } catch { assert.fail(`fast path accepted invalid YAML ${JSON.stringify(y)}`); }
    assert.deepEqual(fast, ref, JSON.stringify(y));
  }), { numRuns: 3000 });
});

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

test('speed: linear on pathological lines', () => {
  const big = '['.repeat(50_000) + ' ' + '[['.repeat(20_000) + ' ' + '`'.repeat(5_000) + ' ' + '$'.repeat(5_000) + ' #a'.repeat(20_000);
  const t0 = performance.now();
  parseMarkdown(big);
  parseMarkdown(Array.from({ length: 50_000 }, (_, i) => `- [ ] task ${i} #t [[n${i}]]`).join('\n'));
  assert.ok(performance.now() - t0 < 5000, 'parses in well under 5 s');
});
