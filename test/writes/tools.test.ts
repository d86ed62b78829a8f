// Write tools end to end: the runtime in-process over a NodeHost on a temp copy of the sample vault,
// driven by the real SDK client over HTTP. Every mode, every refusal code, byte fidelity, freshness.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, readFileSync, existsSync, mkdirSync, symlinkSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { copyVault } from '../helpers/vault.js';
import { startTestRuntime, type TestRuntime } from '../helpers/runtime.js';
import { connect, call, refusalCode, textOf } from '../helpers/server.js';
import { contentHash } from '../../src/core/hash.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

let vault: string;
let t: TestRuntime;
let rw: Client;
let ro: Client;
let strict: TestRuntime;
let strictClient: Client;
/** The limits of issue 7 would throttle a test that makes hundreds of writes in a second. */
export const LOOSE = { rateLimitPerMinute: 1e6, rateLimitBurst: 1e6, writeRateLimitPerMinute: 1e6, writeRateLimitBurst: 1e6, maxConcurrentCallsPerKey: 1000, maxConcurrentCalls: 1000, defaultDailyQuota: 0 };

const disk = (p: string) => readFileSync(join(vault, p));
const diskText = (p: string) => readFileSync(join(vault, p), 'utf8');
const hashOf = (p: string) => contentHash(disk(p));

before(async () => {
  vault = copyVault();
  writeFileSync(join(vault, 'crlf.md'), '---\r\ntitle: CRLF\r\n---\r\n# Head\r\nline one\r\n## Sub\r\nsub text\r\n# Next\r\nend\r\n');
  writeFileSync(join(vault, 'bom.md'), '\uFEFF# Bom note\nbody ünïcödé\n');
  writeFileSync(join(vault, 'nofinal.md'), '# T\nno final newline');
  writeFileSync(join(vault, 'fm.md'), '---\n# a comment\ntitle: "Quoted"  # why\ntags:\n- x\n---\nBody stays.\r\n');
  writeFileSync(join(vault, 'badfm.md'), '---\nkey: [unclosed\n---\n# H\nbody\n');
  writeFileSync(join(vault, 'fence.md'), '# H\n```js\nopen fence\n# not a heading\n');
  writeFileSync(join(vault, 'dup.md'), '# A\n## Same\none\n# B\n## Same\ntwo\n');
  writeFileSync(join(vault, '_conventions.md'), 'Root rule: titles in sentence case.\n');
  mkdirSync(join(vault, 'Projects'), { recursive: true });
  writeFileSync(join(vault, 'Projects', '_conventions.md'), 'Projects rule: add a status property.\n');
  writeFileSync(join(vault, 'Attachments', 'data.bin'), Buffer.from([0, 1, 2, 255]));
  symlinkSync(join(vault, 'Welcome.md'), join(vault, 'link.md'));
  t = await startTestRuntime(vault, LOOSE);
  rw = await connect(t.url, t.rwKey);
  ro = await connect(t.url, t.readKey);
  strict = await startTestRuntime(copyVault(), { ...LOOSE, requireHashForDestructive: true });
  strictClient = await connect(strict.url, strict.rwKey);
});

after(async () => {
  await rw?.close(); await ro?.close(); await strictClient?.close();
  await t?.stop(); await strict?.stop();
});

test('tools are listed with titles, all four hints, strict described inputs and output schemas', async () => {
  const { tools } = await rw.listTools();
  const names = ['create_note', 'edit_note', 'set_frontmatter', 'move_note', 'move_folder', 'delete_note', 'write_file', 'delete_file', 'get_conventions'];
  for (const n of names) {
    const tool = tools.find((x) => x.name === n);
    assert.ok(tool, `${n} listed`);
    assert.ok(tool.title && tool.description && tool.description.length < 4000, n);
    for (const h of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']) assert.equal(typeof (tool.annotations as Record<string, unknown>)[h], 'boolean', `${n}.${h}`);
    // Closed argument lists: the flag is left out of the lean listing, the dispatcher refuses by name.
    const unknown = await call(rw, n, { path: 'x.md', no_such_argument: 1 });
    assert.equal(refusalCode(unknown), 'invalid_argument', `${n} strict`);
    assert.match(textOf(unknown), /no_such_argument/, `${n} names the unknown argument`);
    for (const [k, v] of Object.entries(tool.inputSchema.properties ?? {})) assert.ok((v as { description?: string }).description, `${n}.${k} described`);
    assert.ok(tool.outputSchema, `${n} has an output schema`);
  }
  const roTools = (await ro.listTools()).tools.map((x) => x.name);
  assert.ok(!roTools.includes('edit_note') && roTools.includes('get_conventions'), 'write tools hidden from read keys');
});

test('create_note: .md added, parents created, conventions echoed, visible to the next read and listing', async () => {
  const r = await call(rw, 'create_note', { path: 'Projects/New/Plan', content: '# Plan\nhello\n' });
  assert.equal(r.isError, undefined, textOf(r));
  assert.equal(r.structuredContent!.path, 'Projects/New/Plan.md');
  assert.equal(r.structuredContent!.content_hash, hashOf('Projects/New/Plan.md'));
  assert.deepEqual(Object.keys(r.structuredContent!.conventions), ['_conventions.md', 'Projects/_conventions.md']);
  assert.match(r.structuredContent!.conventions['Projects/_conventions.md'], /Projects rule/);
  const read = await call(rw, 'read_note', { path: 'Projects/New/Plan.md' });
  assert.equal(read.structuredContent!.content_hash, r.structuredContent!.content_hash);
  const list = await call(rw, 'list_notes', { folder: 'Projects/New' });
  assert.deepEqual(list.structuredContent!.notes.map((n: { path: string }) => n.path), ['Projects/New/Plan.md']);
  assert.equal(refusalCode(await call(rw, 'create_note', { path: 'Projects/New/Plan.md', content: 'x' })), 'already_exists');
  assert.equal(refusalCode(await call(rw, 'create_note', { path: 'Fresh.md', content: 'x', expected_hash: 'sha256:' + 'a'.repeat(64) })), 'no_incumbent');
  assert.ok(!existsSync(join(vault, 'Fresh.md')));
  assert.equal(refusalCode(await call(rw, 'create_note', { path: 'Fresh.md', content: 'x', expected_hash: 'abc' })), 'malformed_precondition');
  assert.equal(refusalCode(await call(rw, 'create_note', { path: '../out.md', content: 'x' })), 'invalid_path');
  assert.equal(refusalCode(await call(rw, 'create_note', { path: '.obsidian/x.md', content: 'x' })), 'invalid_path');
  assert.equal(refusalCode(await call(ro, 'create_note', { path: 'x.md', content: 'x' })), 'permission_denied');
});

test('edit_note full replace keeps the frontmatter bytes; replace_frontmatter replaces the whole file', async () => {
  const h = hashOf('fm.md');
  const r = await call(rw, 'edit_note', { path: 'fm', content: 'New body\n', expected_hash: h });
  assert.equal(r.isError, undefined, textOf(r));
  assert.equal(diskText('fm.md'), '---\n# a comment\ntitle: "Quoted"  # why\ntags:\n- x\n---\nNew body\n');
  assert.equal(r.structuredContent!.content_hash, hashOf('fm.md'));
  assert.equal(r.structuredContent!.previous_hash, h);
  assert.equal(refusalCode(await call(rw, 'edit_note', { path: 'fm', content: '---\na: 1\n---\nx\n' })), 'invalid_argument');
  const w = await call(rw, 'edit_note', { path: 'fm', content: '---\na: 1\n---\nx\n', replace_frontmatter: true });
  assert.equal(w.isError, undefined, textOf(w));
  assert.equal(diskText('fm.md'), '---\na: 1\n---\nx\n');
});

test('edit_note append adds exactly one line break; CRLF, BOM and a missing final newline survive', async () => {
  await call(rw, 'edit_note', { path: 'nofinal', content: 'appended', append: true });
  assert.equal(diskText('nofinal.md'), '# T\nno final newline\nappended');
  await call(rw, 'edit_note', { path: 'crlf', content: 'tail\n', append: true });
  assert.ok(diskText('crlf.md').endsWith('end\r\ntail\r\n'));
  await call(rw, 'edit_note', { path: 'bom', content: 'more', append: true });
  const b = disk('bom.md');
  assert.deepEqual([...b.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
  assert.equal(b.toString('utf8'), '\uFEFF# Bom note\nbody ünïcödé\nmore');
});

test('edit_note find: once, replace_all, CRLF with LF text, closest-line diagnosis', async () => {
  const r = await call(rw, 'edit_note', { path: 'crlf', find: 'line one\n## Sub', content: 'line 1\n## Sub' });
  assert.equal(r.isError, undefined, textOf(r));
  assert.match(diskText('crlf.md'), /# Head\r\nline 1\r\n## Sub\r\n/);
  const miss = await call(rw, 'edit_note', { path: 'crlf', find: 'sub texx', content: 'z' });
  assert.equal(refusalCode(miss), 'not_found');
  assert.match(textOf(miss), /line 7/);
  assert.match(textOf(miss), /"x"/);
  const line = JSON.parse(textOf(miss).split('\n').pop()!.slice('MCP-REFUSAL '.length));
  assert.equal(line.closest_line, 7);
  assert.equal(line.column, 8);
  assert.equal(refusalCode(await call(rw, 'edit_note', { path: 'dup', find: '## Same', content: '## Other' })), 'invalid_argument');
  const all = await call(rw, 'edit_note', { path: 'dup', find: '## Same', content: '## Other', replace_all: true });
  assert.equal(all.structuredContent!.replaced, 2);
  assert.equal(diskText('dup.md'), '# A\n## Other\none\n# B\n## Other\ntwo\n');
  assert.equal(refusalCode(await call(rw, 'edit_note', { path: 'dup', find: 'x', section: '#1', content: 'y' })), 'invalid_argument');
});

test('edit_note section resolves like read_note, keeps the heading; refuses malformed notes', async () => {
  const before = await call(rw, 'read_note', { path: 'crlf', section: 'Head/Sub' });
  const r = await call(rw, 'edit_note', { path: 'crlf', section: 'Head/Sub', content: 'new sub' });
  assert.equal(r.isError, undefined, textOf(r));
  assert.equal(r.structuredContent!.section, before.structuredContent!.section);
  assert.match(diskText('crlf.md'), /## Sub\r\nnew sub\r\n# Next\r\n/);
  const after = await call(rw, 'read_note', { path: 'crlf', section: before.structuredContent!.section });
  assert.equal(after.structuredContent!.content, 'new sub\r\n');
  assert.equal(refusalCode(await call(rw, 'edit_note', { path: 'badfm', section: 'H', content: 'x' })), 'malformed_note');
  assert.equal(refusalCode(await call(rw, 'edit_note', { path: 'fence', section: 'H', content: 'x' })), 'malformed_note');
  assert.equal(refusalCode(await call(rw, 'edit_note', { path: 'crlf', section: 'Nope', content: 'x' })), 'not_found');
  assert.equal(refusalCode(await call(rw, 'edit_note', { path: 'dup', section: 'Other', content: 'x' })), 'invalid_argument');
});

test('edit_note dry_run returns a unified diff and writes nothing', async () => {
  const h = hashOf('Welcome.md');
  const r = await call(rw, 'edit_note', { path: 'Welcome', content: 'gone\n', dry_run: true });
  assert.equal(r.isError, undefined, textOf(r));
  assert.match(r.structuredContent!.diff, /^---.*\n\+\+\+.*\n@@/m);
  assert.match(r.structuredContent!.diff, /^\+gone$/m);
  assert.equal(hashOf('Welcome.md'), h);
});

test('stale_precondition returns the current hash; resending it succeeds', async () => {
  const stale = 'sha256:' + '0'.repeat(64);
  const r = await call(rw, 'edit_note', { path: 'Welcome', content: 'x', append: true, expected_hash: stale });
  assert.equal(refusalCode(r), 'stale_precondition');
  const cur = JSON.parse(textOf(r).split('\n').pop()!.slice('MCP-REFUSAL '.length)).current_hash;
  assert.equal(cur, hashOf('Welcome.md'));
  const ok = await call(rw, 'edit_note', { path: 'Welcome', content: 'x', append: true, expected_hash: cur });
  assert.equal(ok.isError, undefined, textOf(ok));
  for (const [tool, args] of [['delete_note', { path: 'Welcome' }], ['set_frontmatter', { path: 'Welcome', updates: { a: 1 } }], ['move_note', { from_path: 'Welcome', to_path: 'W2' }]] as const) {
    assert.equal(refusalCode(await call(rw, tool, { ...args, expected_hash: stale })), 'stale_precondition', tool);
  }
  assert.ok(existsSync(join(vault, 'Welcome.md')));
});

test('precondition_required when the setting demands a hash; append and create are exempt', async () => {
  const c = strictClient;
  assert.equal(refusalCode(await call(c, 'edit_note', { path: 'Welcome', content: 'x' })), 'precondition_required');
  assert.equal(refusalCode(await call(c, 'delete_note', { path: 'Welcome' })), 'precondition_required');
  assert.equal(refusalCode(await call(c, 'set_frontmatter', { path: 'Welcome', updates: { a: 1 } })), 'precondition_required');
  assert.equal((await call(c, 'edit_note', { path: 'Welcome', content: 'x', append: true })).isError, undefined);
  const h = (await call(c, 'read_note', { path: 'Welcome' })).structuredContent!.content_hash;
  assert.equal((await call(c, 'edit_note', { path: 'Welcome', content: 'y\n', expected_hash: h })).isError, undefined);
});

test('concurrent_write when the file changes between our read and our publish', async () => {
  writeFileSync(join(vault, 'race.md'), 'v1\n');
  await t.host.refresh('race.md');
  t.host.writer.beforePublish = (p) => { if (p === 'race.md') writeFileSync(join(vault, 'race.md'), 'outside edit\n'); };
  try {
    const r = await call(rw, 'edit_note', { path: 'race', content: 'mine\n' });
    assert.equal(refusalCode(r), 'concurrent_write');
  } finally { t.host.writer.beforePublish = null; }
  assert.equal(diskText('race.md'), 'outside edit\n');
  assert.deepEqual(readdirSync(vault).filter((n) => n.endsWith('.tmp')), []);
});

test('set_frontmatter keeps comments, key order and the body bytes; adds a block when missing', async () => {
  writeFileSync(join(vault, 'props.md'), '---\r\n# keep me\r\ntitle: Old # inline\r\nz: 1\r\ntags:\r\n  - a\r\n---\r\nBody\r\nno final');
  await t.host.refresh('props.md');
  const r = await call(rw, 'set_frontmatter', { path: 'props', updates: { title: 'New', status: 'done' }, remove: ['z'] });
  assert.equal(r.isError, undefined, textOf(r));
  assert.equal(diskText('props.md'), '---\r\n# keep me\r\ntitle: New # inline\r\ntags:\r\n  - a\r\nstatus: done\r\n---\r\nBody\r\nno final');
  assert.deepEqual(r.structuredContent!.set, ['title', 'status']);
  const read = await call(rw, 'read_note', { path: 'props' });
  assert.equal(read.structuredContent!.frontmatter.status, 'done');
  await call(rw, 'set_frontmatter', { path: 'bom', updates: { kind: 'x' } });
  assert.ok(disk('bom.md').toString('utf8').startsWith('\uFEFF---\nkind: x\n---\n# Bom note\n'));
  assert.equal(refusalCode(await call(rw, 'set_frontmatter', { path: 'badfm', updates: { a: 1 } })), 'malformed_note');
  const same = await call(rw, 'set_frontmatter', { path: 'props', updates: { title: 'New' } });
  assert.equal(same.structuredContent!.changed, false);
});

test('move_note refuses an existing destination and rewrites links (aliases, anchors, embeds, relative)', async () => {
  writeFileSync(join(vault, 'Target.md'), '# Target\nself [[Target#Target]] and [[#Target]]\n');
  mkdirSync(join(vault, 'Refs'), { recursive: true });
  writeFileSync(join(vault, 'Refs', 'a.md'), 'See [[Target]], [[Target|alias]], [[Target#Target]], ![[Target]], [md](../Target.md) and [[Target.md]].\n');
  for (const p of ['Target.md', 'Refs/a.md']) await t.host.refresh(p);
  assert.equal(refusalCode(await call(rw, 'move_note', { from_path: 'Target', to_path: 'Welcome' })), 'already_exists');
  const r = await call(rw, 'move_note', { from_path: 'Target.md', to_path: 'Archive/Renamed', rewrite_links: true });
  assert.equal(r.isError, undefined, textOf(r));
  assert.equal(r.structuredContent!.to_path, 'Archive/Renamed.md');
  assert.equal(diskText('Refs/a.md'), 'See [[Renamed]], [[Renamed|alias]], [[Renamed#Target]], ![[Renamed]], [md](../Archive/Renamed.md) and [[Renamed.md]].\n');
  assert.equal(diskText('Archive/Renamed.md'), '# Target\nself [[Renamed#Target]] and [[#Target]]\n');
  const links = t.host.resolvedLinks()['Refs/a.md'];
  assert.ok(links['Archive/Renamed.md'] >= 6, JSON.stringify(links));
  assert.equal(t.host.unresolvedLinks()['Refs/a.md'].Target, undefined);
  // Without rewrite_links only the file moves.
  const r2 = await call(rw, 'move_note', { from_path: 'Archive/Renamed', to_path: 'Archive/Again' });
  assert.equal(r2.structuredContent!.links, undefined, 'no link report without rewrite_links');
  assert.match(diskText('Refs/a.md'), /\[\[Renamed\]\]/);
});

test('move_folder: a collision refuses everything; otherwise moves and rewrites', async () => {
  mkdirSync(join(vault, 'F1', 'sub'), { recursive: true });
  mkdirSync(join(vault, 'F2'), { recursive: true });
  writeFileSync(join(vault, 'F1', 'one.md'), 'one [[two]]\n');
  writeFileSync(join(vault, 'F1', 'sub', 'two.md'), 'two [up](../one.md)\n');
  writeFileSync(join(vault, 'F2', 'one.md'), 'taken\n');
  writeFileSync(join(vault, 'linker.md'), '[[F1/one]] and [[F1/sub/two|Two]]\n');
  for (const p of ['F1', 'F2', 'linker.md']) await t.host.refresh(p);
  const bad = await call(rw, 'move_folder', { from_dir: 'F1', to_dir: 'F2' });
  assert.equal(refusalCode(bad), 'already_exists');
  assert.ok(existsSync(join(vault, 'F1', 'one.md')) && existsSync(join(vault, 'F1', 'sub', 'two.md')));
  const r = await call(rw, 'move_folder', { from_dir: 'F1/', to_dir: 'Moved/G1' });
  assert.equal(r.isError, undefined, textOf(r));
  assert.equal(r.structuredContent!.moved, 2);
  // Partial paths that no longer match are rewritten; links inside the folder still resolve untouched.
  assert.equal(diskText('linker.md'), '[[Moved/G1/one]] and [[Moved/G1/sub/two|Two]]\n');
  assert.equal(diskText('Moved/G1/sub/two.md'), 'two [up](../one.md)\n');
  assert.ok(!existsSync(join(vault, 'F1')));
  const folders = (await call(rw, 'list_folders', {})).structuredContent!.folders.map((f: { path: string }) => f.path);
  assert.ok(folders.includes('Moved/G1/sub') && !folders.includes('F1'));
  assert.equal(refusalCode(await call(rw, 'move_folder', { from_dir: 'Moved', to_dir: 'Moved/inner' })), 'invalid_argument');
  // Merge into an existing folder without collisions.
  mkdirSync(join(vault, 'F3'), { recursive: true });
  writeFileSync(join(vault, 'F3', 'three.md'), '3\n');
  await t.host.refresh('F3');
  const m = await call(rw, 'move_folder', { from_dir: 'F3', to_dir: 'F2' });
  assert.equal(m.isError, undefined, textOf(m));
  assert.ok(existsSync(join(vault, 'F2', 'three.md')) && existsSync(join(vault, 'F2', 'one.md')));
});

test('delete_note goes to .trash with a unique timestamped name; permanent unlinks', async () => {
  writeFileSync(join(vault, 'Bye.md'), 'bye 1\n');
  await t.host.refresh('Bye.md');
  const r = await call(rw, 'delete_note', { path: 'Bye', expected_hash: hashOf('Bye.md') });
  assert.equal(r.isError, undefined, textOf(r));
  assert.match(r.structuredContent!.trashed_to, /^\.trash\/\d{8}-\d{6}-Bye-[0-9a-f]{8}\.md$/);
  assert.equal(diskText(r.structuredContent!.trashed_to), 'bye 1\n');
  writeFileSync(join(vault, 'Bye.md'), 'bye 2\n');
  await t.host.refresh('Bye.md');
  const r2 = await call(rw, 'delete_note', { path: 'Bye' });
  assert.notEqual(r2.structuredContent!.trashed_to, r.structuredContent!.trashed_to);
  assert.equal(diskText(r.structuredContent!.trashed_to), 'bye 1\n', 'first trash entry intact');
  assert.equal(refusalCode(await call(rw, 'read_note', { path: 'Bye' })), 'not_found');
  writeFileSync(join(vault, 'Gone.md'), 'x');
  await t.host.refresh('Gone.md');
  const p = await call(rw, 'delete_note', { path: 'Gone', permanent: true });
  assert.equal(p.structuredContent!.trashed_to, undefined);
  assert.ok(!existsSync(join(vault, 'Gone.md')));
  assert.equal(refusalCode(await call(rw, 'delete_note', { path: 'link' })), 'invalid_path');
  assert.ok(existsSync(join(vault, 'Welcome.md')));
});

test('write_file / delete_file: binary and text, overwrite rules, refusals, size cap', async () => {
  const bytes = Buffer.from([137, 80, 78, 71, 0, 255, 10, 13]);
  const r = await call(rw, 'write_file', { path: 'Attachments/new/pic.png', content: bytes.toString('base64') });
  assert.equal(r.isError, undefined, textOf(r));
  assert.deepEqual(disk('Attachments/new/pic.png'), bytes);
  assert.equal(r.structuredContent!.content_hash, contentHash(bytes));
  assert.equal(refusalCode(await call(rw, 'write_file', { path: 'Attachments/new/pic.png', content: 'AAAA' })), 'already_exists');
  assert.equal(refusalCode(await call(rw, 'write_file', { path: 'Attachments/new/pic.png', content: 'AAAA', overwrite: true, expected_hash: 'sha256:' + '1'.repeat(64) })), 'stale_precondition');
  const ow = await call(rw, 'write_file', { path: 'Attachments/new/pic.png', content: 'AAAA', overwrite: true, expected_hash: contentHash(bytes) });
  assert.equal(ow.structuredContent!.created, false);
  assert.deepEqual(disk('Attachments/new/pic.png'), Buffer.from([0, 0, 0]));
  assert.equal(refusalCode(await call(rw, 'write_file', { path: 'x.csv', content: 'a', encoding: 'text', expected_hash: contentHash('a') })), 'no_incumbent');
  assert.equal(refusalCode(await call(rw, 'write_file', { path: 'n.md', content: 'a', encoding: 'text' })), 'invalid_argument');
  assert.equal(refusalCode(await call(rw, 'write_file', { path: 'Attachments', content: 'a', encoding: 'text' })), 'invalid_argument');
  assert.equal(refusalCode(await call(rw, 'write_file', { path: 'bad.bin', content: '!!!' })), 'invalid_argument');
  assert.equal(refusalCode(await call(rw, 'write_file', { path: 'link.md.txt', content: 'a', encoding: 'text' })), null);
  const txt = await call(rw, 'write_file', { path: 'notes.txt', content: 'héllo\r\n', encoding: 'text' });
  assert.equal(txt.isError, undefined);
  assert.equal(diskText('notes.txt'), 'héllo\r\n');
  const big = await startTestRuntime(copyVault(), { ...LOOSE, maxWriteBytes: 10 });
  try {
    const c = await connect(big.url, big.rwKey);
    assert.equal(refusalCode(await call(c, 'write_file', { path: 'b.txt', content: 'x'.repeat(11), encoding: 'text' })), 'payload_too_large');
    assert.equal(refusalCode(await call(c, 'create_note', { path: 'b.md', content: 'x'.repeat(11) })), 'payload_too_large');
    await c.close();
  } finally { await big.stop(); }
  const d = await call(rw, 'delete_file', { path: 'Attachments/data.bin', expected_hash: hashOf('Attachments/data.bin') });
  assert.equal(d.isError, undefined, textOf(d));
  assert.match(d.structuredContent!.trashed_to, /^\.trash\/\d{8}-\d{6}-data-[0-9a-f]{8}\.bin$/);
  assert.equal(refusalCode(await call(rw, 'delete_file', { path: 'Welcome.md' })), 'invalid_argument');
  assert.equal(refusalCode(await call(rw, 'delete_file', { path: 'nothing.png' })), 'not_found');
  const listed = (await call(rw, 'list_files', { folder: 'Attachments' })).structuredContent!.files.map((f: { path: string }) => f.path);
  assert.ok(!listed.includes('Attachments/data.bin'));
});

test('symlinks are never written through', async () => {
  const before = diskText('Welcome.md');
  assert.equal(refusalCode(await call(rw, 'edit_note', { path: 'link', content: 'x', append: true })), 'invalid_path');
  assert.equal(diskText('Welcome.md'), before);
});

test('get_conventions lists root first, for folders and note paths', async () => {
  const r = await call(rw, 'get_conventions', { path: 'Projects/Some note.md' });
  assert.equal(r.structuredContent!.folder, 'Projects');
  assert.deepEqual(Object.keys(r.structuredContent!.conventions), ['_conventions.md', 'Projects/_conventions.md']);
  const root = await call(rw, 'get_conventions', {});
  assert.deepEqual(Object.keys(root.structuredContent!.conventions), ['_conventions.md']);
});

test('50 concurrent appenders with expected_hash retrying on stale_precondition lose nothing', async () => {
  writeFileSync(join(vault, 'log.md'), '# Log\n');
  await t.host.refresh('log.md');
  const clients = await Promise.all(Array.from({ length: 10 }, () => connect(t.url, t.rwKey)));
  let stale = 0;
  await Promise.all(Array.from({ length: 50 }, async (_, i) => {
    const c = clients[i % clients.length];
    let hash = (await call(c, 'read_note', { path: 'log.md' })).structuredContent!.content_hash;
    for (let attempt = 0; attempt < 500; attempt++) {
      const r = await call(c, 'edit_note', { path: 'log.md', content: `line ${i}\n`, append: true, expected_hash: hash });
      if (!r.isError) return;
      assert.equal(refusalCode(r), 'stale_precondition', textOf(r));
      stale++;
      // The refusal carries the current hash, ready to resend (append needs no re-read).
      hash = JSON.parse(textOf(r).split('\n').pop()!.slice('MCP-REFUSAL '.length)).current_hash;
      await new Promise((res) => setTimeout(res, Math.random() * 20 * Math.min(attempt + 1, 8))); // jittered backoff
    }
    throw new Error(`appender ${i} never got through`);
  }));
  await Promise.all(clients.map((c) => c.close()));
  const lines = diskText('log.md').split('\n').filter((l) => l.startsWith('line '));
  assert.equal(lines.length, 50);
  assert.equal(new Set(lines).size, 50);
  assert.ok(stale > 0, 'the race was real');
});
