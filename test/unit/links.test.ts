// Link resolution like Obsidian's getFirstLinkpathDest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LinkIndex, resolveLinkpath, linkpathOf, splitLink } from '../../src/core/markdown/links.js';

const vault = [
  'Home.md', 'Note.md', 'a b.md', 'img.png', 'docs/Note.md', 'docs/Guide.md', 'docs/sub/Deep.md', 'docs/sub/Note.md',
  'other/Guide.md', 'other/x/Guide.md', 'en/Plugins/Canvas.md', 'de/Plugins/Canvas.md', 'en/Home.md', 'de/Start.md',
  'assets/pic.png', 'Café.md', 'Upper.md', 'upper.md', 'Note.backup.md', 'x/Report.pdf', 'deep/a/b/Leaf.md',
];
const idx = new LinkIndex(vault);
const r = (link: string, from = 'Home.md') => resolveLinkpath(link, from, idx);

test('splitLink / linkpathOf', () => {
  assert.deepEqual(splitLink('Note#Heading'), { path: 'Note', subpath: '#Heading' });
  assert.deepEqual(splitLink('Note#^blk'), { path: 'Note', subpath: '#^blk' });
  assert.deepEqual(splitLink('#Self'), { path: '', subpath: '#Self' });
  assert.deepEqual(splitLink('Note'), { path: 'Note', subpath: '' });
  assert.deepEqual(splitLink('a#b#c'), { path: 'a', subpath: '#b#c' });
  assert.equal(linkpathOf('folder/Note#H'), 'folder/Note');
  assert.equal(linkpathOf(' Note '), 'Note');
});

test('exact vault paths, with and without .md, subpaths stripped', () => {
  assert.equal(r('Note'), 'Note.md');
  assert.equal(r('Note.md'), 'Note.md');
  assert.equal(r('Note#Heading'), 'Note.md');
  assert.equal(r('Note#^blk'), 'Note.md');
  assert.equal(r('docs/Guide'), 'docs/Guide.md');
  assert.equal(r('/docs/Guide.md'), 'docs/Guide.md');
  assert.equal(r('img.png'), 'img.png');
  assert.equal(r('a b.md'), 'a b.md');
  assert.equal(r('docs\\Guide'), 'docs/Guide.md');
  assert.equal(r(''), null);
  assert.equal(r('#only'), null);
});

test('bare names prefer the linking note\'s folder; path-like links the vault root', () => {
  assert.equal(r('Note', 'docs/Guide.md'), 'docs/Note.md');
  assert.equal(r('Note', 'docs/sub/Deep.md'), 'docs/sub/Note.md');
  assert.equal(r('Note', 'other/Guide.md'), 'Note.md');
  assert.equal(r('sub/Deep', 'docs/Guide.md'), 'docs/sub/Deep.md'); // relative to the folder
  assert.equal(r('docs/Note', 'docs/sub/Deep.md'), 'docs/Note.md');
});

test('relative ./ and ../ links', () => {
  assert.equal(r('./Note', 'docs/Guide.md'), 'docs/Note.md');
  assert.equal(r('../Note', 'docs/sub/Deep.md'), 'docs/Note.md');
  assert.equal(r('../../Note.md', 'docs/sub/Deep.md'), 'Note.md');
  assert.equal(r('../Guide', 'docs/sub/Deep.md'), 'docs/Guide.md');
  assert.equal(r('../../../x', 'docs/sub/Deep.md'), null);
  assert.equal(r('./Missing', 'docs/Guide.md'), null);
});

test('by name anywhere, ignoring case, with partial paths', () => {
  assert.equal(r('Deep'), 'docs/sub/Deep.md');
  assert.equal(r('deep'), 'docs/sub/Deep.md');
  assert.equal(r('DEEP.MD'), 'docs/sub/Deep.md');
  assert.equal(r('pic.png'), 'assets/pic.png');
  assert.equal(r('sub/Deep'), 'docs/sub/Deep.md');
  assert.equal(r('b/Leaf'), 'deep/a/b/Leaf.md');
  assert.equal(r('a/b/Leaf'), 'deep/a/b/Leaf.md');
  assert.equal(r('ub/Deep'), null, 'a partial path matches whole components only');
  assert.equal(r('Report.pdf'), 'x/Report.pdf');
  assert.equal(r('Report'), null, 'a non-.md file needs its extension');
  assert.equal(r('Note.backup'), 'Note.backup.md');
  assert.equal(r('Missing'), null);
});

test('unicode: NFC/NFD links resolve to NFC paths', () => {
  assert.equal(r('Café'), 'Café.md');
  assert.equal(r('Cafe\u0301'), 'Café.md');
  assert.equal(r('café'), 'Café.md');
});

test('exact case wins between paths differing only by case', () => {
  assert.equal(r('Upper'), 'Upper.md');
  assert.equal(r('upper'), 'upper.md');
  assert.equal(r('UPPER'), 'Upper.md'); // code-point order among case-insensitive matches
});

test('tie-break: same folder, then longest common folder prefix, then shortest path, then code-point order', () => {
  assert.equal(r('Guide', 'other/x/Guide.md'), 'other/x/Guide.md');
  assert.equal(r('Guide', 'other/x/y/z.md'), 'other/x/Guide.md');
  assert.equal(r('Guide', 'other/Note.md'), 'other/Guide.md');
  assert.equal(r('Guide', 'zzz/Note.md'), 'docs/Guide.md', 'shortest path, then code-point order');
  assert.equal(r('Canvas', 'en/Home.md'), 'en/Plugins/Canvas.md');
  assert.equal(r('Canvas', 'de/Start.md'), 'de/Plugins/Canvas.md');
  assert.equal(r('Canvas', 'Home.md'), 'de/Plugins/Canvas.md');
  assert.equal(r('Plugins/Canvas', 'en/Home.md'), 'en/Plugins/Canvas.md');
});

test('add / remove keep the index current', () => {
  const i = new LinkIndex(['a/N.md', 'b/N.md']);
  assert.equal(resolveLinkpath('N', 'c.md', i), 'a/N.md');
  i.remove('a/N.md');
  assert.equal(resolveLinkpath('N', 'c.md', i), 'b/N.md');
  i.add('N.md');
  assert.equal(resolveLinkpath('N', 'c.md', i), 'N.md');
  i.add('N.md');
  i.remove('N.md');
  assert.equal(resolveLinkpath('N', 'c.md', i), 'b/N.md');
  i.remove('b/N.md');
  i.remove('b/N.md');
  assert.equal(resolveLinkpath('N', 'c.md', i), null);
  assert.equal(i.size, 0);
  assert.equal(i.has('b/N.md'), false);
});

test('property: resolution returns an indexed path whose name matches the link, and is deterministic', () => {
  const seg = fc.constantFrom('a', 'b', 'A', 'Note', 'note', 'x y', 'é');
  const path = fc.array(seg, { minLength: 1, maxLength: 4 }).map((s) => s.join('/') + '.md');
  fc.assert(fc.property(fc.uniqueArray(path, { maxLength: 12 }), fc.array(seg, { minLength: 1, maxLength: 3 }), path, (paths, linkSegs, source) => {
    const index = new LinkIndex(paths);
    const reversed = new LinkIndex([...paths].reverse());
    const link = linkSegs.join('/');
    const got = resolveLinkpath(link, source, index);
    assert.equal(got, resolveLinkpath(link, source, reversed), 'independent of insertion order');
    if (got === null) return;
    assert.ok(paths.includes(got));
    const name = got.slice(got.lastIndexOf('/') + 1, -3).toLowerCase();
    assert.equal(name, linkSegs[linkSegs.length - 1].toLowerCase());
  }), { numRuns: 2000 });
});

// No timed assertion: a resolver that scanned every path per link (1e10 steps here) would hit the
// test's timeout, while the indexed one takes a fraction of a second.
test('scale: 100k paths, 100k resolutions (a linear scan per link would time out)', { timeout: 60_000 }, () => {
  const paths = Array.from({ length: 100_000 }, (_, i) => `f${i % 100}/g${i % 7}/N${i % 5000}.md`);
  const index = new LinkIndex(paths);
  let resolved = 0;
  for (let i = 0; i < 100_000; i++) if (resolveLinkpath(`N${i % 5000}`, `f${i % 100}/x.md`, index)) resolved++;
  assert.equal(resolved, 100_000);
});
