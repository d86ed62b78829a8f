// The file-name glob of list_files and the semantic skip list: same answers as the RegExp it replaced
// (property test), and no pattern can make a match take more than name × pattern steps, so a
// hostile pattern such as "********************x" answers instead of blocking the event loop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compileGlob } from '../../src/core/glob.js';

/** The RegExp translation used before (kept here as the reference for ordinary patterns). */
function referenceRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '[') {
      const j = glob.indexOf(']', i + 1);
      if (j > i + 1) {
        const body = glob.slice(i + 1, j).replace(/\\/g, '\\\\').replace(/^!/, '^');
        re += `[${body}]`;
        i = j;
      } else re += '\\[';
    } else re += c.replace(/[.+^${}()|\\/\]]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 'iu');
}

const nameChar = fc.constantFrom('a', 'b', 'A', 'B', 'x', '.', '-', ' ', 'é', 'É', '1', '[', ']', '/');
const patternPiece = fc.oneof(
  nameChar.filter((c) => c !== '[' && c !== ']'),
  fc.constant('*'), fc.constant('**'), fc.constant('?'),
  fc.constantFrom('[ab]', '[!a]', '[^b]', '[a-c]', '[A-B1]', '[é]', '[-a]', '[a-]', '[]', '[', ']', '[x.]'),
);

test('glob: same answers as the RegExp translation on ordinary patterns (property)', () => {
  fc.assert(fc.property(fc.array(patternPiece, { maxLength: 8 }), fc.array(nameChar, { maxLength: 12 }), (pieces, chars) => {
    const glob = pieces.join('');
    const name = chars.join('');
    const mine = compileGlob(glob).test(name);
    let ref: RegExp;
    try { ref = referenceRegExp(glob); } catch { return; } // the old translation threw here (e.g. "[a-[ab]"); ours answers
    assert.equal(mine, ref.test(name), `glob ${JSON.stringify(glob)} on ${JSON.stringify(name)}`);
  }), { numRuns: 10_000 });
});

test('glob: matching a name that fits the pattern by construction (property)', () => {
  // Each star is replaced by random text: the result must match.
  fc.assert(fc.property(fc.array(fc.oneof(fc.constant('*'), fc.stringMatching(/^[a-z.]{1,4}$/)), { maxLength: 8 }), fc.array(fc.stringMatching(/^[a-z*?]{0,5}$/), { minLength: 8, maxLength: 8 }), (pieces, fills) => {
    const glob = pieces.join('');
    const name = pieces.map((p, i) => (p === '*' ? fills[i] : p)).join('');
    assert.ok(compileGlob(glob).test(name), `${glob} on ${name}`);
  }), { numRuns: 5_000 });
});

test('glob: hostile patterns answer (the old RegExp backtracked exponentially)', () => {
  const longName = 'a'.repeat(250);
  for (const stars of [8, 20, 100]) {
    const glob = `${'*'.repeat(stars)}x`;
    assert.equal(compileGlob(glob).test(longName), false);
    assert.equal(compileGlob(glob).test(longName + 'x'), true);
    const spaced = `${'*a'.repeat(stars)}x`; // stars that cannot collapse
    assert.equal(compileGlob(spaced).test(longName), false);
    assert.equal(compileGlob(spaced).test(longName + 'x'), stars <= 250);
  }
  assert.equal(compileGlob('[z-a]').test('m'), false); // out-of-order range: no match, no exception
  assert.equal(compileGlob('*.PNG').test('photo.png'), true);
});
