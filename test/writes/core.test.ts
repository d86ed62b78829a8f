// Pure write logic: edit modes, closest-line diagnosis, frontmatter edits, link rewriting, trash
// names; plus property tests of random edit sequences against a simple in-memory model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { applyEdit, diagnoseMiss, eolOf } from '../../src/core/edit.js';
import { setFrontmatter } from '../../src/core/markdown/frontmatterEdit.js';
import { replaceLinkTarget, chooseLinkpath, relativePath, rewriteLinks } from '../../src/core/markdown/linkRewrite.js';
import { LinkIndex, resolveLinkpath } from '../../src/core/markdown/links.js';
import { trashName } from '../../src/core/trash.js';
import { isRefusal } from '../../src/core/errors.js';
import { PathLocks } from '../../src/host/pathLock.js';

const code = (fn: () => unknown) => { try { fn(); return null; } catch (e) { if (isRefusal(e)) return e.code; throw e; } };

test('full replace keeps the frontmatter block bytes, BOM-less body replaced', () => {
  const t = '---\r\na: 1\r\n---\r\nold\r\n';
  assert.equal(applyEdit(t, { mode: 'replace', content: 'new\nbody\n' }).text, '---\r\na: 1\r\n---\r\nnew\r\nbody\r\n');
  assert.equal(applyEdit(t, { mode: 'replace', content: 'all\n', replaceFrontmatter: true }).text, 'all\r\n');
  assert.equal(code(() => applyEdit(t, { mode: 'replace', content: '---\nb: 2\n---\nx' })), 'invalid_argument');
  assert.equal(applyEdit('---\nunclosed\nbody', { mode: 'replace', content: 'x' }).text, 'x');
});

test('append adds exactly one line break', () => {
  assert.equal(applyEdit('a', { mode: 'append', content: 'b' }).text, 'a\nb');
  assert.equal(applyEdit('a\n', { mode: 'append', content: 'b' }).text, 'a\nb');
  assert.equal(applyEdit('a\n\n', { mode: 'append', content: 'b' }).text, 'a\n\nb');
  assert.equal(applyEdit('', { mode: 'append', content: 'b' }).text, 'b');
  assert.equal(applyEdit('a\r\nb', { mode: 'append', content: 'c\nd' }).text, 'a\r\nb\r\nc\r\nd');
});

test('find: exactly once, replace_all, CRLF-tolerant, refusals', () => {
  assert.equal(applyEdit('x y x', { mode: 'find', find: 'y', content: 'z' }).text, 'x z x');
  assert.equal(code(() => applyEdit('x y x', { mode: 'find', find: 'x', content: 'z' })), 'invalid_argument');
  assert.equal(applyEdit('x y x', { mode: 'find', find: 'x', content: 'z', replaceAll: true }).replaced, 2);
  assert.equal(applyEdit('a\r\nb\r\n', { mode: 'find', find: 'a\nb', content: 'c\nd' }).text, 'c\r\nd\r\n');
  assert.equal(code(() => applyEdit('abc', { mode: 'find', find: '', content: 'z' })), 'invalid_argument');
  assert.equal(code(() => applyEdit('abc', { mode: 'find', find: 'q', content: 'z' })), 'not_found');
});

test('closest-line diagnosis names the line, the column and both characters', () => {
  const d = diagnoseMiss('# Title\nThe quick brown fox\nlast line\n', 'The quick brawn fox');
  assert.equal(d.details.closest_line, 2);
  assert.equal(d.details.column, 13);
  assert.equal(d.details.expected, 'a');
  assert.equal(d.details.found, 'o');
  const indent = diagnoseMiss('list:\n    - item one\n', '  - item one');
  assert.equal(indent.details.closest_line, 2);
  assert.match(indent.message, /indentation/);
  const fuzzy = diagnoseMiss('alpha beta\ngamma delta epsilon\n', 'Gamma delta epsilon');
  assert.equal(fuzzy.details.closest_line, 2);
  const crlf = diagnoseMiss('one\r\ntwo\r\n', 'one\ntwo\nthree');
  assert.match(crlf.message, /CRLF/);
});

test('section: resolves like read_note, keeps the heading, next heading stays on its own line', () => {
  const t = '# A\na\n## B\nb\n# C\nc';
  assert.equal(applyEdit(t, { mode: 'section', section: 'A/B', content: 'new' }).text, '# A\na\n## B\nnew\n# C\nc');
  assert.equal(applyEdit(t, { mode: 'section', section: '#1', content: 'x\n' }).text, '# A\nx\n# C\nc');
  assert.equal(applyEdit(t, { mode: 'section', section: 'C', content: 'end' }).text, '# A\na\n## B\nb\n# C\nend');
  assert.equal(applyEdit('# Only', { mode: 'section', section: 'Only', content: 'body' }).text, '# Only\nbody');
  assert.equal(code(() => applyEdit('---\na: [\n---\n# A\n', { mode: 'section', section: 'A', content: 'x' })), 'malformed_note');
  assert.equal(code(() => applyEdit('# A\n```\ncode\n', { mode: 'section', section: 'A', content: 'x' })), 'malformed_note');
  assert.equal(code(() => applyEdit(t, { mode: 'section', section: 'Z', content: 'x' })), 'not_found');
});

test('setFrontmatter: comments, order, style and body bytes survive', () => {
  const t = '---\n# c\nb: 2 # two\na: [x, y]\n---\nbody\r\nno final';
  const r = setFrontmatter(t, { b: 3, c: { d: true } }, ['a']);
  assert.equal(r.text, '---\n# c\nb: 3 # two\nc:\n  d: true\n---\nbody\r\nno final');
  assert.equal(setFrontmatter('body', { t: 'x' }).text, '---\nt: x\n---\nbody');
  assert.equal(setFrontmatter('---\na: 1\n---\nbody', {}, ['a']).text, 'body');
  assert.equal(setFrontmatter(t, { b: 2 }).changed, false);
  assert.equal(code(() => setFrontmatter('---\na: [\n---\n', { a: 1 })), 'malformed_note');
  assert.equal(code(() => setFrontmatter('---\na: 1\n', { a: 1 })), 'malformed_note');
  assert.equal(setFrontmatter('---\ntags:\n- a\n---\n', { tags: ['a', 'b'] }).text, '---\ntags:\n- a\n- b\n---\n');
});

test('replaceLinkTarget keeps aliases, anchors, embeds, titles and angle brackets', () => {
  assert.equal(replaceLinkTarget('[[Old]]', 'New'), '[[New]]');
  assert.equal(replaceLinkTarget('![[Old#h|a]]', 'f/New'), '![[f/New#h|a]]');
  assert.equal(replaceLinkTarget('[[Old#^blk]]', 'New'), '[[New#^blk]]');
  assert.equal(replaceLinkTarget('[t [x]](Old.md#h "title")', 'a b/New.md'), '[t [x]](a%20b/New.md#h "title")');
  assert.equal(replaceLinkTarget('[t](<Old note.md>)', 'New note.md'), '[t](<New note.md>)');
  assert.equal(replaceLinkTarget('![img](pic.png)', '../img/pic.png'), '![img](../img/pic.png)');
  assert.equal(relativePath('a/b', 'a/c/N.md'), '../c/N.md');
  assert.equal(relativePath('', 'x/N.md'), 'x/N.md');
});

test('chooseLinkpath prefers the author\'s style and falls back to a path when a name is ambiguous', () => {
  const idx = new LinkIndex(['x/New.md', 'y/New.md', 'z/Other.md']);
  const res = (lp: string, src: string) => resolveLinkpath(lp, src, idx);
  assert.equal(chooseLinkpath('wiki', 'Old', 'z/Other.md', 'a.md', res), 'Other');
  assert.equal(chooseLinkpath('wiki', 'Old', 'y/New.md', 'a.md', res), 'y/New');
  assert.equal(chooseLinkpath('wiki', 'Old.md', 'z/Other.md', 'a.md', res), 'Other.md');
  assert.equal(chooseLinkpath('md', 'Old.md', 'z/Other.md', 'q/a.md', res), '../z/Other.md');
});

test('rewriteLinks rewrites only links that stopped resolving to their file', () => {
  const idx = new LinkIndex(['B/New.md', 'Keep.md']);
  const res = (lp: string, src: string) => resolveLinkpath(lp, src, idx);
  const text = '---\nrel: "[[Old]]"\n---\n[[Old|a]] [[Keep]] `[[Old]]` [x](Old.md)\n';
  const out = rewriteLinks(text, 'src.md', new Map([['Old', 'B/New.md'], ['Old.md', 'B/New.md'], ['Keep', 'Keep.md']]), res);
  assert.equal(out.text, '---\nrel: "[[New]]"\n---\n[[New|a]] [[Keep]] `[[Old]]` [x](B/New.md)\n');
  assert.equal(out.rewritten, 3);
});

test('trash names: timestamp, basename, 8 hex, extension last', () => {
  assert.equal(trashName('a/b/My note.md', Date.UTC(2024, 0, 2, 3, 4, 5), 'deadbeef'), '.trash/20240102-030405-My note-deadbeef.md');
  assert.equal(trashName('x/.hidden', 0, '00000000'), '.trash/19700101-000000-.hidden-00000000');
  assert.throws(() => trashName('a.md', 0, 'xyz'));
});

test('PathLocks serialise calls on one path and not across paths', async () => {
  const locks = new PathLocks();
  const log: string[] = [];
  const slow = (tag: string, ms: number) => locks.run([tag.split(':')[0]], async () => { log.push(`+${tag}`); await new Promise((r) => setTimeout(r, ms)); log.push(`-${tag}`); });
  await Promise.all([slow('a:1', 20), slow('a:2', 1), slow('b:1', 1)]);
  assert.ok(log.indexOf('-a:1') < log.indexOf('+a:2'));
  assert.ok(log.indexOf('+b:1') < log.indexOf('-a:1'));
});

// ---- property: random edit sequences vs an in-memory model ----

interface Doc { pre: string; sections: { h: string; body: string }[] }
const FM = '---\ntitle: model\n---\n';
const render = (d: Doc, eol: string) => (FM + d.pre + d.sections.map((s) => `## ${s.h}\n${s.body}`).join('')).replace(/\n/g, eol);

const word = fc.stringMatching(/^[a-z]{1,6}$/);
const line = fc.array(word, { minLength: 1, maxLength: 5 }).map((ws) => ws.join(' ') + '\n');
const body = fc.array(line, { maxLength: 4 }).map((ls) => ls.join(''));
const docArb = fc.record({ pre: body, sections: fc.uniqueArray(fc.record({ h: fc.stringMatching(/^S[0-9]{1,3}$/), body }), { selector: (s) => s.h, maxLength: 5 }) });

type Op = { k: 'section'; i: number; body: string } | { k: 'append'; line: string } | { k: 'find'; seed: number; repl: string } | { k: 'replace'; doc: Doc };
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ k: fc.constant('section' as const), i: fc.nat(), body }),
  fc.record({ k: fc.constant('append' as const), line }),
  fc.record({ k: fc.constant('find' as const), seed: fc.nat(), repl: fc.stringMatching(/^[A-Z]{1,5}$/) }),
  fc.record({ k: fc.constant('replace' as const), doc: docArb }),
);

test('property: random edit sequences give the model\'s text (LF and CRLF notes)', () => {
  fc.assert(fc.property(docArb, fc.array(opArb, { maxLength: 12 }), fc.boolean(), (start, ops, crlf) => {
    const eol = crlf ? '\r\n' : '\n';
    const model: Doc = structuredClone(start);
    let text = render(model, eol);
    for (const op of ops) {
      if (op.k === 'section') {
        if (!model.sections.length) continue;
        const s = model.sections[op.i % model.sections.length];
        text = applyEdit(text, { mode: 'section', section: s.h, content: op.body }).text;
        s.body = op.body;
      } else if (op.k === 'append') {
        text = applyEdit(text, { mode: 'append', content: op.line }).text;
        if (model.sections.length) model.sections[model.sections.length - 1].body += op.line; else model.pre += op.line;
      } else if (op.k === 'find') {
        // A word occurring exactly once in the note; the model replaces it where it sits.
        const words = [...new Set(render(model, '\n').match(/\b[a-z]+\b/g) ?? [])].filter((w) => !FM.includes(w) && render(model, '\n').split(new RegExp(`\\b${w}\\b`)).length === 2 && render(model, '\n').split(w).length === 2);
        if (!words.length) continue;
        const w = words[op.seed % words.length];
        text = applyEdit(text, { mode: 'find', find: w, content: op.repl }).text;
        model.pre = model.pre.replace(w, op.repl);
        for (const s of model.sections) s.body = s.body.replace(w, op.repl);
      } else {
        const d = structuredClone(op.doc);
        text = applyEdit(text, { mode: 'replace', content: render(d, '\n').slice(FM.length) }).text;
        model.pre = d.pre; model.sections = d.sections;
      }
      assert.equal(text, render(model, eol));
      assert.equal(eolOf(text), eol === '\r\n' ? '\r\n' : '\n');
    }
  }), { numRuns: 300 });
});

test('property: setFrontmatter never touches the body and round-trips the values', () => {
  const key = fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/);
  const val = fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }));
  fc.assert(fc.property(fc.dictionary(key, val, { maxKeys: 4 }), fc.dictionary(key, val, { maxKeys: 4 }), fc.string({ maxLength: 60 }), (initial, updates, bodyText) => {
    const body = bodyText.replace(/^(\uFEFF|---)/, 'x');
    const start = Object.keys(initial).length ? setFrontmatter(body, initial).text : body;
    const r = setFrontmatter(start, updates);
    assert.ok(r.text.endsWith(body));
    const m = /^---\n([\s\S]*?)---\n/.exec(r.text);
    const data = m ? (require_yaml().parse(m[1]) ?? {}) : {};
    for (const [k, v] of Object.entries(updates)) assert.deepEqual(data[k], v);
  }), { numRuns: 200 });
});

import * as YAML from 'yaml';
function require_yaml() { return YAML; }
