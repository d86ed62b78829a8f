import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildOutline, resolveSection } from '../../src/core/markdown/sections.js';
import { parseMarkdown } from '../../src/core/markdown/parse.js';
import { splitFrontmatter, parseFrontmatterYaml, frontmatterList, noteTags } from '../../src/core/markdown/frontmatter.js';
import { isRefusal } from '../../src/core/errors.js';

const NOTE = '---\ntags: [x]\n---\n# Top\nintro\n## A\na body\n### A1\ndeep\n## B\nb body\n```\n# not a heading\n```\n# Second\nend';

test('outline: ordinals, depths, paths and section bounds', () => {
  const o = buildOutline(NOTE, parseMarkdown(NOTE).headings);
  assert.deepEqual(o.map((e) => [e.ordinal, e.depth, e.text]), [['#1', 1, 'Top'], ['#2', 2, 'A'], ['#3', 3, 'A1'], ['#4', 2, 'B'], ['#5', 1, 'Second']]);
  assert.deepEqual(o[2].path, ['Top', 'A', 'A1']);
  const a = o[1];
  assert.equal(NOTE.slice(a.bodyStart, a.end), 'a body\n### A1\ndeep\n');
  const b = o[3];
  assert.equal(NOTE.slice(b.bodyStart, b.end), 'b body\n```\n# not a heading\n```\n');
  assert.equal(NOTE.slice(o[4].bodyStart, o[4].end), 'end');
});

test('resolveSection: ordinal, text, path, ambiguity and misses', () => {
  const o = buildOutline(NOTE, parseMarkdown(NOTE).headings);
  assert.equal(resolveSection(o, '#3', 'n').text, 'A1');
  assert.equal(resolveSection(o, 'B', 'n').ordinal, '#4');
  assert.equal(resolveSection(o, '## B', 'n').ordinal, '#4');
  assert.equal(resolveSection(o, 'A/A1', 'n').ordinal, '#3');
  assert.equal(resolveSection(o, 'Top/A/A1', 'n').ordinal, '#3');
  const code = (spec: string) => { try { resolveSection(o, spec, 'n'); return null; } catch (e) { return isRefusal(e) ? e.code : 'throw'; } };
  assert.equal(code('#9'), 'not_found');
  assert.equal(code('Missing'), 'not_found');
  assert.equal(code('B/A1'), 'not_found');
  const dup = '# X\n## S\n1\n# Y\n## S\n2\n';
  const od = buildOutline(dup, parseMarkdown(dup).headings);
  try { resolveSection(od, 'S', 'n'); assert.fail('ambiguous'); } catch (e) { assert.ok(isRefusal(e) && e.code === 'invalid_argument' && /#2, #4/.test(e.message)); }
  assert.equal(resolveSection(od, 'Y/S', 'n').ordinal, '#4');
});

test('a bare #N is always the ordinal, even when a heading is literally "#2"', () => {
  const t = '# #2\nx\n# Other\ny\n';
  const o = buildOutline(t, parseMarkdown(t).headings);
  assert.equal(resolveSection(o, '#2', 'n').text, 'Other');
});

test('frontmatter split keeps bytes: CRLF, BOM, unclosed, no block', () => {
  const crlf = splitFrontmatter('---\r\na: 1\r\n---\r\nbody\r\n');
  assert.equal(crlf.block, '---\r\na: 1\r\n---\r\n');
  assert.equal(crlf.yaml, 'a: 1\r\n');
  assert.equal(crlf.body, 'body\r\n');
  const bom = splitFrontmatter('\uFEFF---\na: 1\n---\nx');
  assert.equal(bom.bom, '\uFEFF');
  assert.equal(bom.body, 'x');
  assert.equal(bom.bodyStart, 1 + '---\na: 1\n---\n'.length);
  const open = splitFrontmatter('---\na: 1\nno close\n');
  assert.equal(open.unclosed, true);
  assert.equal(open.body, '---\na: 1\nno close\n');
  assert.equal(splitFrontmatter('no fm\n---\n').block, '');
  const eof = splitFrontmatter('---\na: 1\n---');
  assert.equal(eof.yaml, 'a: 1\n');
  assert.equal(eof.body, '');
  assert.equal(splitFrontmatter('---\n---\nbody').yaml, '');
});

test('frontmatter values: lists, comma strings, malformed YAML', () => {
  assert.deepEqual(frontmatterList('a, b,c'), ['a', 'b', 'c']);
  assert.deepEqual(frontmatterList(['a', null, 'b']), ['a', 'b']);
  assert.deepEqual(noteTags({ tags: 'x, #y' }, [{ tag: '#z' }, { tag: '#X' }]), ['#x', '#y', '#z']);
  assert.deepEqual(noteTags({ tags: 'one two' }, []), ['#one', '#two']);
  assert.equal(parseFrontmatterYaml('a: [1').ok, false);
  assert.equal(parseFrontmatterYaml('- a\n- b').ok, false);
  assert.deepEqual(parseFrontmatterYaml('a: 2024-01-01').data, { a: '2024-01-01' });
});
