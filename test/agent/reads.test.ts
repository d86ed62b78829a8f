// Reads that aim (issue 16), over real HTTP with the MCP SDK client: read_note(match=…) gives the
// matching lines with context and their section ordinals; read_note(lines="a-b") a line range; pages
// of a long note end on line boundaries and never inside a wikilink (also for one huge line, checked
// property-style over random caps); names resolve like wikilinks. On the Hub vault (skipped without
// ../shared): "dataview" in the 75 KB "Plugins seeking help" note.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { copyVault, extractArchive } from '../helpers/vault.js';
import { startTestRuntime, type TestRuntime } from '../helpers/runtime.js';
import { connect, call, refusalCode, textOf, type ToolResult } from '../helpers/server.js';
import { sharedFixture } from '../helpers/paths.js';
import { pageEnd, parseLineRange, lineStarts, matchBlocks } from '../../src/core/readSlices.js';

let rt: TestRuntime;
let c: Client;
let vault: string;
const ok = (r: ToolResult, what: string) => { assert.ok(!r.isError, `${what}: ${textOf(r)}`); return r.structuredContent!; };

// 62 lines under three headings; "needle" on lines 5, 6 and 42.
const manual = ['---', 'kind: manual', '---', '# Intro', 'a needle here', 'and a NEEDLE there', ...Array.from({ length: 12 }, (_, i) => `intro ${i}`), '## Setup', ...Array.from({ length: 20 }, (_, i) => `setup ${i}`), '## Usage', 'use 0', 'one more needle', ...Array.from({ length: 20 }, (_, i) => `use ${i + 1}`)].join('\n') + '\n';
// One 30,000-character line of wikilinks and embeds (no line break to cut at).
const linky = Array.from({ length: 1500 }, (_, i) => (i % 7 === 0 ? `![[Image ${i}.png]]` : `[[Note number ${i}|shown ${i}]]`)).join(' ') + '\n';

before(async () => {
  vault = copyVault();
  writeFileSync(join(vault, 'Manual.md'), manual);
  writeFileSync(join(vault, 'Linky.md'), linky);
  rt = await startTestRuntime(vault);
  c = await connect(rt.url, rt.readKey);
});

after(async () => {
  await c?.close().catch(() => undefined);
  await rt?.stop();
});

test('read_note(match=…): matching lines with context, merged blocks, section ordinals, whole-file line numbers', async () => {
  const r = ok(await call(c, 'read_note', { path: 'Manual', match: 'needle', context: 1 }), 'match');
  assert.equal(r.total_matches, 3);
  assert.deepEqual(r.matches.map((m: { lines: string; section?: string }) => [m.lines, m.section]), [['4-7', '#1 Intro'], ['41-43', '#3 Usage']]);
  // The section label is what read_note(section=…) takes back.
  assert.match(ok(await call(c, 'read_note', { path: 'Manual', section: r.matches[1].section }), 'label as section').content, /needle/);
  assert.equal(r.matches[0].text, '# Intro\na needle here\nand a NEEDLE there\nintro 0');
  assert.equal(r.content, undefined, 'no body on a match read');
  assert.equal(r.frontmatter, undefined, 'no frontmatter on a match read');
  // Restricted to a section, or to a line range.
  const inUsage = ok(await call(c, 'read_note', { path: 'Manual', match: 'needle', section: 'Usage', context: 0 }), 'section');
  assert.deepEqual(inUsage.matches.map((m: { lines: string }) => m.lines), ['42-42']);
  const ranged = ok(await call(c, 'read_note', { path: 'Manual', match: 'needle', lines: '1-10', context: 0 }), 'lines');
  assert.deepEqual(ranged.matches.map((m: { lines: string }) => m.lines), ['5-6']);
  const none = ok(await call(c, 'read_note', { path: 'Manual', match: 'absent words' }), 'none');
  assert.deepEqual([none.total_matches, none.matches], [0, []]);
  // A small cap shows the first blocks and says where the rest starts.
  const capped = ok(await call(c, 'read_note', { path: 'Manual', match: 'needle', context: 1, limit: 60 }), 'capped');
  assert.equal(capped.matches.length, 1);
  assert.match(capped.hint, /2 of 3 matching lines shown; for the rest pass lines="41-62" with the same match/);
  assert.equal(refusalCode(await call(c, 'read_note', { path: 'Manual', match: '' })), 'invalid_argument');
  assert.equal(refusalCode(await call(c, 'read_note', { path: 'Manual', match: 'x', offset: 5 })), 'invalid_argument');
});

test('read_note(lines=…): a range of file lines, cut on a line boundary at the cap', async () => {
  const r = ok(await call(c, 'read_note', { path: 'Manual', lines: '19-21' }), 'lines');
  assert.deepEqual([r.lines, r.content], ['19-21 of 62', '## Setup\nsetup 0\nsetup 1']);
  const toEnd = ok(await call(c, 'read_note', { path: 'Manual', lines: '60-' }), 'to end');
  assert.deepEqual([toEnd.lines, toEnd.content], ['60-62 of 62', 'use 18\nuse 19\nuse 20']);
  const cut = ok(await call(c, 'read_note', { path: 'Manual', lines: '19-40', limit: 30 }), 'cut');
  assert.equal(cut.lines, '19-21 of 62');
  assert.match(cut.hint, /go on with lines="22-40"/);
  for (const bad of ['abc', '10-5', '0-3', '900-901']) assert.equal(refusalCode(await call(c, 'read_note', { path: 'Manual', lines: bad })), 'invalid_argument', bad);
  assert.equal(refusalCode(await call(c, 'read_note', { path: 'Manual', lines: '1-2', section: 'Usage' })), 'invalid_argument');
});

test('pages end on line boundaries; one huge line is cut before a wikilink, never inside one; pages reassemble the body', async () => {
  const first = ok(await call(c, 'read_note', { path: 'Manual', limit: 100 }), 'p1');
  assert.ok(first.content.endsWith('\n') && first.next_offset <= 100);
  assert.equal(first.lines, '4-13 of 62');
  assert.match(first.hint, /offset=\d+/);
  assert.ok(first.outline.every((o: string) => /^#\d+ .+ \(L[1-9]\d*, \d+ chars\)$/.test(o)), JSON.stringify(first.outline));
  let body = '';
  let next: number | undefined = 0;
  while (next !== undefined) {
    const p = ok(await call(c, 'read_note', { path: 'Linky', offset: next, limit: 997 }), 'linky');
    const open = p.content.lastIndexOf('[[');
    assert.ok(open < 0 || p.content.indexOf(']]', open) > open || p.next_offset === undefined, `page ends inside a wikilink: …${p.content.slice(-40)}`);
    assert.ok(!p.content.endsWith('!') && !p.content.endsWith('['), 'no half opener at the cut');
    body += p.content;
    next = p.next_offset;
  }
  assert.equal(body, linky);
});

test('pageEnd never cuts inside [[…]] or a surrogate pair (property)', () => {
  const piece = fc.constantFrom('[[A|b]]', '![[img.png]]', 'word ', '😀', '\n', 'x', '[x](y) ');
  fc.assert(fc.property(fc.array(piece, { minLength: 1, maxLength: 80 }), fc.integer({ min: 1, max: 60 }), (parts, cap) => {
    const text = parts.join('');
    let at = 0;
    let out = '';
    while (at < text.length) {
      const end = pageEnd(text, at, cap);
      assert.ok(end > at && end - at <= Math.max(cap, 1), 'progress within the cap');
      const page = text.slice(at, end);
      if (end < text.length) {
        const before = text.slice(0, end);
        const open = before.lastIndexOf('[[');
        const insideLink = open >= 0 && before.indexOf(']]', open) < 0 && open >= at;
        const fits = text.indexOf(']]', open) + 2 - at <= cap; // a link longer than the room may not fit any page
        assert.ok(!insideLink || !fits || open === at, `cut inside a link: ${JSON.stringify(page)}`);
        assert.ok(!/[\uD800-\uDBFF]$/.test(page) || end - at === 1, 'no split surrogate pair');
      }
      out += page;
      at = end;
    }
    assert.equal(out, text);
  }));
});

test('line helpers: ranges and blocks', () => {
  assert.deepEqual(parseLineRange('3-5', 10), [3, 5]);
  assert.deepEqual(parseLineRange('8-', 10), [8, 10]);
  assert.deepEqual(parseLineRange('-2', 10), [1, 2]);
  assert.deepEqual(parseLineRange('4', 10), [4, 4]);
  assert.deepEqual(parseLineRange('4-99', 10), [4, 10]);
  const t = 'a\nb x\nc\nd\ne x\nf\n';
  const { blocks, matches } = matchBlocks(t, lineStarts(t), 'X', 1, 1, 6);
  assert.equal(matches, 2);
  assert.deepEqual(blocks.map((b) => [b.first, b.last, b.hits]), [[1, 6, [2, 5]]]);
});

const hub = sharedFixture('fixtures/vaults/obsidian-hub.tar.gz');

test('Hub vault: "dataview" in the 75 KB "Plugins seeking help" note, by match, and a name that resolves', { skip: hub.path ? false : hub.reason, timeout: 180_000 }, async () => {
  const dir = join(extractArchive(hub.path!), 'obsidian-hub');
  const h = await startTestRuntime(dir);
  const hc = await connect(h.url, h.readKey);
  try {
    const path = '01 - Community/Contributing to the Community/Plugins seeking help.md';
    const r = await call(hc, 'read_note', { path, match: 'dataview' });
    const s = ok(r, 'hub match');
    const bytes = Buffer.byteLength(JSON.stringify(s));
    assert.ok(bytes < 8000, `a match read is small: ${bytes} bytes (the whole note is 75 KB)`);
    const doc = s.matches.find((m: { lines: string }) => m.lines.startsWith('415'));
    assert.ok(doc, JSON.stringify(s.matches.map((m: { lines: string }) => m.lines)));
    assert.match(doc.section, /^#\d+ Documentation$/);
    assert.match(doc.text, /Minor Text Update add-metadata page/);
    const lines = ok(await call(hc, 'read_note', { path, lines: '410-445' }), 'hub lines');
    assert.equal(lines.content.split('\n').length, 36);
    // Names and aliases resolve like wikilinks.
    assert.equal(ok(await call(hc, 'read_note', { path: 'dataview', lines: '1-3' }), 'name').path, '02 - Community Expansions/02.05 All Community Expansions/Plugins/dataview.md');
    assert.equal(ok(await call(hc, 'read_note', { path: 'Excalidraw', lines: '1-3' }), 'alias').path, '02 - Community Expansions/02.05 All Community Expansions/Plugins/obsidian-excalidraw-plugin.md');
  } finally {
    await hc.close();
    await h.stop();
  }
});
