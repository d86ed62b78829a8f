// get_history and get_diff over a temp repository this test builds (fixed dates and authors), and
// their absence outside git.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { tempDir, copyVault } from '../helpers/vault.js';
import { startTestRuntime, type TestRuntime } from '../helpers/runtime.js';
import { connect, call, refusalCode, textOf } from '../helpers/server.js';
import { parseLog, parseNumstat } from '../../src/git/history.js';

let repo: string;
let t: TestRuntime;
let rw: Client;
const sha: string[] = [];
const DATES = ['2026-01-10T09:00:00Z', '2026-02-10T09:00:00Z', '2026-03-10T09:00:00Z'];
const BIN1 = Buffer.from([0, 1, 2, 3, 0, 255]);
const BIN2 = Buffer.from([0, 1, 2, 3, 0, 255, 7, 7]);

function git(args: string[], date?: string): string {
  return execFileSync('git', ['-C', repo, ...args], {
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 'Ada Lovelace', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_COMMITTER_NAME: 'Ada Lovelace', GIT_COMMITTER_EMAIL: 'ada@example.com', GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', ...(date ? { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } : {}) },
  });
}
function write(p: string, data: string | Buffer) {
  mkdirSync(join(repo, p, '..'), { recursive: true });
  writeFileSync(join(repo, p), data);
}
const blob = (text: string) => execFileSync('git', ['hash-object', '--stdin'], { input: text, encoding: 'utf8' }).trim();

before(async () => {
  repo = join(tempDir('vmcp-git-'), 'vault');
  mkdirSync(repo, { recursive: true });
  git(['init', '-q', '-b', 'main']);
  write('Notes/a.md', 'line one\nline two\n');
  write('.obsidian/app.json', '{}');
  write('Attachments/pic.bin', BIN1);
  git(['add', '-A']); git(['commit', '-q', '-m', 'First notes\n\nWith a body line.'], DATES[0]);
  sha.push(git(['rev-parse', 'HEAD']).trim());
  write('Notes/a.md', 'line one\nline two\nline three\n');
  write('Attachments/pic.bin', BIN2);
  write('.obsidian/app.json', '{"x":1}');
  git(['add', '-A']); git(['commit', '-q', '-m', 'Add line three'], DATES[1]);
  sha.push(git(['rev-parse', 'HEAD']).trim());
  git(['mv', 'Notes/a.md', 'Notes/b.md']);
  write('Other/c.md', 'other\n');
  git(['add', '-A']); git(['commit', '-q', '-m', 'Rename a to b; add c'], DATES[2]);
  sha.push(git(['rev-parse', 'HEAD']).trim());
  write('Notes/b.md', 'line one\nline 2\nline three\n'); // uncommitted edit
  t = await startTestRuntime(repo, { rateLimitPerMinute: 1e6, rateLimitBurst: 1e6 });
  rw = await connect(t.url, t.rwKey);
});

after(async () => {
  await rw?.close();
  await t?.stop();
});

const c1 = () => ({ sha: sha[0], date: '2026-01-10T09:00:00.000Z', author: 'Ada Lovelace', message: 'First notes\n\nWith a body line.' });
const c2 = () => ({ sha: sha[1], date: '2026-02-10T09:00:00.000Z', author: 'Ada Lovelace', message: 'Add line three' });
const c3 = () => ({ sha: sha[2], date: '2026-03-10T09:00:00.000Z', author: 'Ada Lovelace', message: 'Rename a to b; add c' });

test('parsers: log records with renames, numstat with binaries', () => {
  const out = `\x1eabc\x1fp1 p2\x1f2026-01-01T00:00:00+00:00\x1fA\x1fa@x\x1f2026-01-01T00:00:00+00:00\x1fmsg\n\x1f\0\nR100\0old.md\0new.md\0M\0x.md\0`;
  assert.deepEqual(parseLog(out), [{ sha: 'abc', parents: ['p1', 'p2'], date: '2026-01-01T00:00:00+00:00', author: 'A', email: 'a@x', committed: '2026-01-01T00:00:00+00:00', message: 'msg', files: [{ path: 'new.md', status: 'renamed', from: 'old.md' }, { path: 'x.md', status: 'modified' }] }]);
  assert.deepEqual(parseNumstat('-\t-\tpic.bin\0' + '3\t1\tnote.md\0'), [{ path: 'pic.bin', binary: true, added: 0, deleted: 0 }, { path: 'note.md', binary: false, added: 3, deleted: 1 }]);
});

test('tools are listed in a git work tree and absent outside one', async () => {
  const names = (await rw.listTools()).tools.map((x) => x.name);
  assert.ok(names.includes('get_history') && names.includes('get_diff'));
  const plain = await startTestRuntime(copyVault());
  try {
    const c = await connect(plain.url, plain.rwKey);
    const n2 = (await c.listTools()).tools.map((x) => x.name);
    assert.ok(!n2.includes('get_history') && !n2.includes('get_diff'));
    assert.equal(refusalCode(await call(c, 'get_history', {})), 'permission_denied');
    await c.close();
  } finally { await plain.stop(); }
  const noGit = await startTestRuntime(repo, {}, { services: { gitBinary: '/nonexistent/git' } });
  try {
    const c = await connect(noGit.url, noGit.rwKey);
    assert.ok(!(await c.listTools()).tools.some((x) => x.name === 'get_history'), 'no git binary: not listed');
    await c.close();
  } finally { await noGit.stop(); }
});

test('get_history: whole vault, exact commits, dot-folders left out', async () => {
  const r = await call(rw, 'get_history', {});
  assert.equal(r.isError, undefined, textOf(r));
  assert.deepEqual(r.structuredContent, {
    path: '',
    commits: [
      { ...c3(), files: ['renamed Notes/a.md → Notes/b.md', 'added Other/c.md'] },
      { ...c2(), files: ['modified Attachments/pic.bin', 'modified Notes/a.md'] },
      { ...c1(), files: ['added Attachments/pic.bin', 'added Notes/a.md'] },
    ],
  });
});

test('get_history: a note followed across its rename, a folder, paging, since', async () => {
  const note = await call(rw, 'get_history', { path: 'Notes/b.md' });
  assert.deepEqual(note.structuredContent!.commits, [
    { ...c3(), files: ['renamed Notes/a.md → Notes/b.md'] },
    { ...c2(), files: ['modified Notes/a.md'] },
    { ...c1(), files: ['added Notes/a.md'] },
  ]);
  const folder = await call(rw, 'get_history', { path: 'Other' });
  assert.deepEqual(folder.structuredContent!.commits, [{ ...c3(), files: ['added Other/c.md'] }]);
  const p1 = await call(rw, 'get_history', { limit: 2 });
  assert.deepEqual(p1.structuredContent!.commits.map((c: { sha: string }) => c.sha), [sha[2], sha[1]]);
  const p2 = await call(rw, 'get_history', { limit: 2, cursor: p1.structuredContent!.next_cursor });
  assert.deepEqual(p2.structuredContent!.commits.map((c: { sha: string }) => c.sha), [sha[0]]);
  assert.equal(p2.structuredContent!.next_cursor, undefined);
  assert.match(p1.structuredContent!.hint, /next_cursor/);
  assert.equal(p2.structuredContent!.hint, undefined);
  const since = await call(rw, 'get_history', { since: '2026-02-01' });
  assert.deepEqual(since.structuredContent!.commits.map((c: { sha: string }) => c.sha), [sha[2], sha[1]]);
  assert.equal(refusalCode(await call(rw, 'get_history', { path: '.obsidian' })), 'invalid_path');
});

test('get_diff: since a commit to the working tree, exact unified diff', async () => {
  const r = await call(rw, 'get_diff', { path: 'Notes/b.md', since_sha: sha[2].slice(0, 10) });
  assert.equal(r.isError, undefined, textOf(r));
  const s = r.structuredContent!;
  assert.equal(s.base, sha[2]);
  assert.equal(s.hint, undefined, 'nothing cut');
  const d = s.diffs[0];
  const expected = `diff --git a/Notes/b.md b/Notes/b.md\nindex ${blob('line one\nline two\nline three\n').slice(0, 7)}..${blob('line one\nline 2\nline three\n').slice(0, 7)} 100644\n--- a/Notes/b.md\n+++ b/Notes/b.md\n@@ -1,3 +1,3 @@\n line one\n-line two\n+line 2\n line three\n`;
  assert.equal(d.diff, expected);
  assert.deepEqual({ binary: d.binary, added: d.added_lines, deleted: d.deleted_lines }, { binary: undefined, added: 1, deleted: 1 });
  assert.equal(s.total_chars, expected.length);
  // since_timestamp: the base is the last commit at or before that time.
  const ts = await call(rw, 'get_diff', { path: 'Notes/b.md', since_timestamp: '2026-03-01T00:00:00Z' });
  assert.equal(ts.structuredContent!.base, sha[1]);
  // no base given: the uncommitted changes (same as since HEAD)
  assert.equal((await call(rw, 'get_diff', { path: 'Notes/b.md' })).structuredContent!.diffs[0].diff, expected);
  assert.equal(refusalCode(await call(rw, 'get_diff', { path: 'Notes/b.md', since_sha: 'deadbeef' })), 'not_found');
  assert.equal(refusalCode(await call(rw, 'get_diff', { path: 'Notes/b.md', since_sha: 'HEAD~1' })), 'not_found', 'only hex shas');
  assert.equal(refusalCode(await call(rw, 'get_diff', { path: 'Notes/b.md', since_sha: sha[0], since_timestamp: '2026-01-01' })), 'invalid_argument');
});

test('get_diff: one diff per commit across the rename; binary files as a size summary', async () => {
  const r = await call(rw, 'get_diff', { path: 'Notes/b.md', per_commit: true });
  const rows = r.structuredContent!.diffs;
  assert.deepEqual(rows.map((x: { sha: string; path: string }) => [x.sha, x.path]), [[sha[2], 'Notes/b.md'], [sha[1], 'Notes/a.md'], [sha[0], 'Notes/a.md']]);
  assert.equal(rows[1].diff, `diff --git a/Notes/a.md b/Notes/a.md\nindex ${blob('line one\nline two\n').slice(0, 7)}..${blob('line one\nline two\nline three\n').slice(0, 7)} 100644\n--- a/Notes/a.md\n+++ b/Notes/a.md\n@@ -1,2 +1,3 @@\n line one\n line two\n+line three\n`);
  assert.match(rows[0].diff, /^diff --git a\/Notes\/a\.md b\/Notes\/b\.md\nsimilarity index 100%\nrename from Notes\/a\.md\nrename to Notes\/b\.md\n$/);
  assert.equal(rows[2].message, 'First notes\n\nWith a body line.');
  const since = await call(rw, 'get_diff', { path: 'Notes/b.md', per_commit: true, since_sha: sha[0] });
  assert.deepEqual(since.structuredContent!.diffs.map((x: { sha: string }) => x.sha), [sha[2], sha[1]]);
  const lim = await call(rw, 'get_diff', { path: 'Notes/b.md', per_commit: true, limit: 1 });
  assert.equal(lim.structuredContent!.diffs.length, 1);
  assert.match(lim.structuredContent!.hint, /More commits changed this file/);

  const bin = await call(rw, 'get_diff', { path: 'Attachments/pic.bin', per_commit: true });
  assert.deepEqual(bin.structuredContent!.diffs.map((x: { diff: string; binary: boolean }) => [x.diff, x.binary]), [
    [`Binary file Attachments/pic.bin changed: ${BIN1.length} bytes → ${BIN2.length} bytes`, true],
    [`Binary file Attachments/pic.bin added (${BIN1.length} bytes)`, true],
  ]);
});

test('get_diff: capped in size with the truncation stated', async () => {
  const big = Array.from({ length: 400 }, (_, i) => `line ${i} ${'x'.repeat(40)}`).join('\n') + '\n';
  write('Notes/big.md', big);
  git(['add', '-A']); git(['commit', '-q', '-m', 'big'], '2026-04-01T00:00:00Z');
  const small = await startTestRuntime(repo, { readCapChars: 500 });
  try {
    const c = await connect(small.url, small.rwKey);
    const r = await call(c, 'get_diff', { path: 'Notes/big.md', per_commit: true });
    const s = r.structuredContent!;
    assert.ok(s.total_chars > 500);
    assert.equal(s.diffs[0].diff.length, 500);
    assert.equal(s.diffs[0].truncated, true);
    assert.match(s.hint, /Diffs cut at the read cap \(500 of \d+ characters/);
    assert.ok(textOf(r).endsWith(s.hint));
    await c.close();
  } finally { await small.stop(); }
});

test('root-confined keys see only history inside their root', async () => {
  const raw = (await t.rt.keys.add({ name: 'other-only', scope: 'read', root: 'Other' })).raw;
  const c = await connect(t.url, raw);
  try {
    const r = await call(c, 'get_history', {});
    assert.deepEqual(r.structuredContent!.commits, [{ ...c3(), files: ['added Other/c.md'] }]);
    assert.equal(refusalCode(await call(c, 'get_history', { path: 'Notes/b.md' })), 'not_found');
    assert.equal(refusalCode(await call(c, 'get_diff', { path: 'Notes/b.md' })), 'not_found');
  } finally { await c.close(); }
});
