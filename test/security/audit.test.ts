// The audit log: a line per call (successes and refusals), arguments summarised without contents
// or keys, rotation by size and by age, and the headless `audit` command.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { connect, call } from '../helpers/server.js';
import { AuditLog, readAllEntries, type AuditEntry } from '../../src/audit/log.js';
import { summarizeArgs } from '../../src/audit/summarize.js';
import { FsDataStore } from '../../src/host/fsDataStore.js';
import { withDefaults } from '../../src/settings.js';
import { tempDir } from '../helpers/vault.js';
import { FakeClock, startSec, makeVault, INSIDE } from './helpers.js';

test('argument summaries: contents as lengths only, keys masked, at most 200 characters', () => {
  const s = summarizeArgs({ path: 'a.md', content: 'SECRET BODY', updates: { status: 'done' }, find: 'old words', note: 'vmcp_abcdefghijklmnop' });
  assert.ok(!s.includes('SECRET') && !s.includes('done') && !s.includes('old words'), s);
  assert.match(s, /"content":"<11 chars>"/);
  assert.ok(!/vmcp_[a-z]{4,}/.test(s), s);
  assert.ok(summarizeArgs({ path: 'x'.repeat(5000) }).length <= 200);
  assert.ok(summarizeArgs({ edits: Array(1e5).fill({ find: 'a', replace: 'b' }) }).length <= 200);
});

test('e2e: successes and refusals are recorded; no line holds a raw key or file contents', async () => {
  const vault = makeVault(INSIDE);
  const t = await startSec(vault, { rateLimitPerMinute: 1, rateLimitBurst: 3 }); // refill 1/min: the 4th call is refused however slow the machine
  try {
    const raw = await t.key({ name: 'auditee', scope: 'readwrite' });
    const c = await connect(t.url, raw);
    await call(c, 'read_note', { path: 'Team/Plan.md' });
    await call(c, 'read_note', { path: 'Team/Nope.md' });
    await call(c, 'create_note', { path: 'Team/Made.md', content: 'BODY-NEVER-LOGGED' });
    await call(c, 'stats');
    await c.close();
    await t.rt.stop();
    const text = readFileSync(join(t.dataDir, 'audit.jsonl'), 'utf8');
    const lines = text.trim().split('\n').map((l) => JSON.parse(l) as AuditEntry);
    assert.deepEqual(lines.map((l) => [l.tool, l.outcome]), [['read_note', 'ok'], ['read_note', 'not_found'], ['create_note', 'ok'], ['stats', 'rate_limited']]);
    for (const l of lines) {
      assert.equal(l.key, 'auditee');
      assert.ok(l.ms >= 0 && l.bytes > 0 && l.t > 0 && l.args.length <= 200);
    }
    assert.ok(!text.includes(raw) && !text.includes(raw.slice(5, 25)), 'never the key');
    assert.ok(!text.includes('BODY-NEVER-LOGGED') && !text.includes('We plan the launch'), 'never contents');
    const usage = JSON.parse(readFileSync(join(t.dataDir, 'usage.json'), 'utf8'));
    const today = Object.values(usage.days).pop() as Record<string, { admitted: number; ok: number; refused: number }>;
    assert.deepEqual(Object.values(today).map((d) => [d.admitted, d.ok, d.refused]), [[3, 2, 2]]);
    for (const f of ['audit.jsonl', 'usage.json', 'keys.json']) assert.ok(!readFileSync(join(t.dataDir, f), 'utf8').includes(raw), f);
    const cli = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'audit', '--vault', vault, '--data-dir', t.dataDir, '--outcome', 'refused'], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(cli.status, 0, cli.stderr);
    assert.match(cli.stdout, /read_note\s+not_found/);
    assert.match(cli.stdout, /stats\s+rate_limited/);
    assert.ok(!/create_note/.test(cli.stdout));
  } finally {
    await t.host.close();
  }
});

test('rotation by size and by age; old files are deleted after the retention', async () => {
  const c = new FakeClock(new Date(2026, 0, 10, 12).getTime());
  const data = new FsDataStore(tempDir());
  const s = withDefaults({ auditMaxFileBytes: 2000, auditRetentionDays: 3 });
  const log = new AuditLog(data, () => s, c.now);
  await log.load();
  const entry = (i: number): AuditEntry => ({ t: c.now(), key: 'k', key_id: 'id', tool: 'read_note', args: `{"path":"n${i}.md"}`, ms: 1, bytes: 10, outcome: 'ok' });
  for (let i = 0; i < 40; i++) { log.record(entry(i)); await log.flush(); }
  assert.ok(log.segmentList().length >= 1, 'rotated by size');
  assert.ok(((await data.size('audit.jsonl')) ?? 0) <= 2000);
  c.advance(86_400_000);
  log.record(entry(100)); await log.flush();
  const segsAfterDay = log.segmentList().length;
  assert.equal((await readAllEntries(data)).length, 41, 'nothing lost while rotating');
  c.advance(5 * 86_400_000);
  log.record(entry(200)); await log.flush();
  assert.ok(log.segmentList().length < segsAfterDay, 'old days pruned');
  const all = await readAllEntries(data);
  assert.ok(all.every((e) => e.t >= c.now() - 4 * 86_400_000), 'only recent days kept');
  assert.ok(existsSync(join(data.dir, 'audit-index.json')));
  assert.equal(log.recent(5).length, 5);
  assert.equal(log.recent(5, { outcome: 'refused' }).length, 0);
});

test('refused calls to hidden or unknown tools are recorded too, with their outcome code', async () => {
  const vault = makeVault(INSIDE);
  const t = await startSec(vault, { readOnly: true, rateLimitPerMinute: 0, defaultDailyQuota: 0 });
  try {
    const c = await connect(t.url, await t.key({ name: 'narrow', scope: 'readwrite', disabledFamilies: ['graph'] }));
    await call(c, 'create_note', { path: 'Team/X.md', content: 'BODY-NEVER-LOGGED' }); // write tool, read-only mode
    await call(c, 'get_backlinks', { path: 'Team/Plan.md' }); // family switched off
    await call(c, 'no_such_tool', { a: 1 });
    await call(c, 'read_note', { path: 'Team/Plan.md' });
    await c.close();
    await t.rt.stop();
    const lines = (await readAllEntries(new FsDataStore(t.dataDir))).map((l) => [l.key, l.tool, l.outcome]);
    assert.deepEqual(lines, [['narrow', 'create_note', 'permission_denied'], ['narrow', 'get_backlinks', 'permission_denied'], ['narrow', 'no_such_tool', 'not_found'], ['narrow', 'read_note', 'ok']]);
    assert.ok(!readFileSync(join(t.dataDir, 'audit.jsonl'), 'utf8').includes('BODY-NEVER-LOGGED'));
  } finally {
    await t.host.close();
  }
});
