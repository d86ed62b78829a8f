import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { normalizeFilePath, normalizeFolderPath, inFolder, withinRoot, noteTitle } from '../../src/core/paths.js';
import { isRefusal } from '../../src/core/errors.js';

function refused(fn: () => unknown): string | null {
  try { fn(); return null; } catch (e) { if (isRefusal(e)) return e.code; throw e; }
}

test('file paths: normalised, relative, no traversal, no hidden components', () => {
  assert.equal(normalizeFilePath('a/b.md'), 'a/b.md');
  assert.equal(normalizeFilePath('a\\b.md'), 'a/b.md');
  assert.equal(normalizeFilePath('./a//b.md/'), 'a/b.md');
  assert.equal(normalizeFilePath('Cafe\u0301.md'), 'Caf\u00e9.md');
  for (const bad of ['', '/', '/etc/passwd', '\\\\server\\share', 'C:\\x', 'c:/x', '../x', 'a/../../x', 'a/..', '.obsidian/x', 'a/.git/config', '.trash/x.md', 'a/\u0000', 'a\nb', 'a/ /b']) {
    assert.equal(refused(() => normalizeFilePath(bad)), 'invalid_path', JSON.stringify(bad));
  }
});

test('folders: "a", "a/", "/a/" and "a\\\\" name the same folder; "" is the root', () => {
  for (const f of ['a', 'a/', '/a/', 'a\\']) assert.equal(normalizeFolderPath(f), 'a');
  assert.equal(normalizeFolderPath(''), '');
  assert.equal(normalizeFolderPath('/'), '');
  assert.equal(refused(() => normalizeFolderPath('../a')), 'invalid_path');
});

test('folder filter semantics', () => {
  assert.equal(inFolder('x.md', undefined), true);
  assert.equal(inFolder('x.md', ''), true);
  assert.equal(inFolder('a/x.md', ''), false);
  assert.equal(inFolder('a/x.md', 'a'), true);
  assert.equal(inFolder('a/b/x.md', 'a'), true);
  assert.equal(inFolder('ab/x.md', 'a'), false);
  assert.equal(withinRoot('a/b.md', 'a'), true);
  assert.equal(withinRoot('ab/b.md', 'a'), false);
  assert.equal(noteTitle('a/My Note.md'), 'My Note');
});

// Property: whatever string comes in, the result (if any) stays inside the vault and never names a
// dot-component; refusals are always invalid_path, never another exception.
const segment = fc.oneof(
  fc.constantFrom('..', '.', '', '.obsidian', '.git', '.trash', 'a', 'b.md', ' ', '...', '..a', 'a..', 'C:', '~', '\u0000', 'é', 'e\u0301', '%2e%2e'),
  fc.string({ maxLength: 6 }),
);
const pathLike = fc.tuple(fc.array(segment, { maxLength: 6 }), fc.constantFrom('/', '\\'), fc.constantFrom('', '/', '\\', './')).map(([parts, sep, lead]) => lead + parts.join(sep));

test('property: no path input escapes the vault or reaches a dot-folder', () => {
  fc.assert(fc.property(fc.oneof(pathLike, fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 20 })), (input) => {
    for (const fn of [normalizeFilePath, normalizeFolderPath]) {
      let out: string;
      try { out = fn(input); } catch (e) { assert.ok(isRefusal(e) && e.code === 'invalid_path', String(e)); continue; }
      const parts = out.split('/');
      assert.ok(!out.startsWith('/'), out);
      assert.ok(!/^[a-zA-Z]:/.test(out), out);
      for (const p of parts) {
        if (out === '') continue;
        assert.notEqual(p, '..');
        assert.ok(!p.startsWith('.'), `dot component in ${out}`);
        assert.ok(p.length > 0);
        assert.ok(!/[\u0000-\u001f]/.test(p));
      }
      assert.equal(out, out.normalize('NFC'));
      // Idempotent: normalising again changes nothing.
      if (out !== '') assert.equal(fn(out), out);
    }
  }), { numRuns: 3000 });
});
