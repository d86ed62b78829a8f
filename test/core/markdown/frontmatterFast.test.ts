// Frontmatter as the parser reads it (position, YAML, links) and the simple-YAML fast path
// (src/core/markdown/frontmatterFast.ts), which must agree with the yaml package.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parse as parseYaml } from 'yaml';
import { parseMarkdown, __simpleYamlForTests as simpleYaml } from '../../../src/core/markdown/parse.js';
import type { Pos } from '../../../src/core/markdown/metadata.js';

const tags = (t: string) => (parseMarkdown(t).tags ?? []).map((x) => x.tag);
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
