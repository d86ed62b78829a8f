// The fake app's link resolver answers from an index of file names (so the fake can hold the 100k-note
// benchmark vault); it must answer exactly as the plain walk over every file does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { appResolve, FileIndex } from './fake-obsidian/linkResolver.js';

const names = ['Note', 'note', 'Ünï', 'a b', 'Index', 'x.y', 'README'];
const folders = ['', 'A', 'A/B', 'a', 'B/C/D', 'Ünï Folder'];
const exts = ['.md', '.md', '.png', '.pdf', ''];

test('FileIndex lookups equal the plain walk (fast-check: random vaults, links and sources)', () => {
  const file = fc.tuple(fc.constantFrom(...folders), fc.constantFrom(...names), fc.constantFrom(...exts)).map(([d, n, e]) => (d ? `${d}/${n}${e}` : `${n}${e}`));
  const link = fc.tuple(fc.constantFrom('', './', '../', '/', 'A/', 'B/C/', 'a/B/', 'Ünï Folder/'), fc.constantFrom(...names, 'missing'), fc.constantFrom('', '.md', '.png', '.MD'))
    .map(([p, n, e]) => `${p}${n}${e}`);
  fc.assert(fc.property(fc.uniqueArray(file, { minLength: 1, maxLength: 40 }), fc.array(link, { minLength: 1, maxLength: 20 }), fc.nat(), (files, links, k) => {
    const index = new FileIndex(files);
    const source = files[k % files.length];
    for (const lp of links) assert.equal(appResolve(lp, source, index), appResolve(lp, source, files), `${lp} from ${source} in ${JSON.stringify(files)}`);
  }), { numRuns: 400 });
});
