// Token buckets, daily quotas and the failed-auth budget, driven by an injected clock; then the same
// limits end to end: refusals are normal tool results with retry_after_seconds, and HTTP 429 with
// Retry-After for an address over its failed-auth budget.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TokenBucket } from '../../src/limits/tokenBucket.js';
import { Limiter } from '../../src/limits/limiter.js';
import { UsageStore } from '../../src/limits/usage.js';
import { AuthThrottle } from '../../src/limits/authThrottle.js';
import { withDefaults } from '../../src/settings.js';
import { FsDataStore } from '../../src/host/fsDataStore.js';
import { Refusal } from '../../src/core/errors.js';
import type { Caller } from '../../src/mcp/tool.js';
import { tempDir } from '../helpers/vault.js';
import { connect, call, refusalCode, textOf } from '../helpers/server.js';
import { FakeClock, startSec, makeVault, INSIDE } from './helpers.js';

const caller = (id = 'k1', name = 'agent'): Caller => ({ keyId: id, keyName: name, scope: 'readwrite', root: '', disabledFamilies: [] });

function refusal(fn: () => unknown): Refusal {
  try { fn(); } catch (e) { if (e instanceof Refusal) return e; throw e; }
  assert.fail('expected a refusal');
}

test('token bucket: burst, refill by the injected clock, reconfigure keeps what was spent', () => {
  const c = new FakeClock();
  const b = new TokenBucket(3, 60, c.now);
  assert.ok(b.tryTake() && b.tryTake() && b.tryTake());
  assert.equal(b.tryTake(), false);
  assert.equal(b.waitSeconds(), 1);
  c.advance(999);
  assert.equal(b.tryTake(), false);
  c.advance(1);
  assert.equal(b.tryTake(), true);
  c.advance(3_600_000);
  assert.equal(Math.round(b.available()), 3, 'never above capacity');
  b.configure(1, 60);
  assert.equal(b.available(), 1);
});

test('limiter: general bucket, write bucket, concurrency, write size, all naming their setting', () => {
  const c = new FakeClock();
  const dir = tempDir();
  const s = withDefaults({ rateLimitPerMinute: 60, rateLimitBurst: 5, writeRateLimitPerMinute: 6, writeRateLimitBurst: 2, maxConcurrentCallsPerKey: 3, maxWriteBytes: 10, defaultDailyQuota: 0 });
  const lim = new Limiter(() => s, new UsageStore(new FsDataStore(dir), c.now), () => undefined, c.now);
  lim.admit(caller(), true, {}).release();
  lim.admit(caller(), true, {}).release();
  let r = refusal(() => lim.admit(caller(), true, {}));
  assert.equal(r.code, 'rate_limited');
  assert.equal(r.details.setting, 'writeRateLimitPerMinute');
  assert.equal(r.details.retry_after_seconds, 10);
  lim.admit(caller(), false, {}).release(); // reads still pass: the write bucket is separate
  lim.admit(caller(), false, {}).release();
  lim.admit(caller(), false, {}).release();
  r = refusal(() => lim.admit(caller(), false, {}));
  assert.equal(r.code, 'rate_limited');
  assert.equal(r.details.setting, 'rateLimitPerMinute');
  assert.match(r.message, /60 calls per minute.*rateLimitPerMinute/);
  assert.equal(r.details.retry_after_seconds, 1);
  lim.admit(caller('k2', 'other'), false, {}).release(); // another key has its own bucket
  c.advance(60_000);
  const held = [lim.admit(caller(), false, {}), lim.admit(caller(), false, {}), lim.admit(caller(), false, {})];
  r = refusal(() => lim.admit(caller(), false, {}));
  assert.equal(r.code, 'too_many_concurrent');
  assert.equal(r.details.setting, 'maxConcurrentCallsPerKey');
  held.forEach((h) => h.release());
  assert.equal(lim.runningFor('k1'), 0);
  r = refusal(() => lim.admit(caller(), true, { path: 'a.md', content: 'more than ten bytes' }));
  assert.equal(r.code, 'payload_too_large');
  assert.equal(r.details.setting, 'maxWriteBytes');
  // base64 content counts as the bytes it decodes to: 12 characters are 9 bytes, under the cap.
  lim.admit(caller(), true, { path: 'a.bin', content: 'AAAAAAAAAAAA', encoding: 'base64' }).release();
});

test('settings migration: an old maxFileWriteBytes folds into maxWriteBytes (the stricter one wins)', () => {
  assert.equal(withDefaults({ maxFileWriteBytes: 1000 }).maxWriteBytes, 1000);
  assert.equal(withDefaults({ maxFileWriteBytes: 1000, maxWriteBytes: 500 }).maxWriteBytes, 500);
  assert.equal(withDefaults({ maxFileWriteBytes: 1000, maxWriteBytes: 5000 }).maxWriteBytes, 1000);
  assert.equal('maxFileWriteBytes' in withDefaults({ maxFileWriteBytes: 1000 }), false);
  assert.equal(withDefaults({}).maxWriteBytes, 10 * 1024 * 1024);
});

test('daily quota: counted per key, persisted across restarts, reset at local midnight', async () => {
  const c = new FakeClock(new Date(2026, 5, 15, 23, 0, 0).getTime());
  const dir = tempDir();
  const s = withDefaults({ rateLimitPerMinute: 0, defaultDailyQuota: 5 });
  let usage = new UsageStore(new FsDataStore(dir), c.now);
  const rec = { dailyQuota: 3 as number | null | undefined };
  let lim = new Limiter(() => s, usage, () => rec as never, c.now);
  for (let i = 0; i < 2; i++) lim.admit(caller(), false, {}).release();
  await usage.flush();
  usage = new UsageStore(new FsDataStore(dir), c.now);
  await usage.load();
  assert.equal(usage.today('k1'), 2, 'persisted in usage.json');
  lim = new Limiter(() => s, usage, () => rec as never, c.now);
  lim.admit(caller(), false, {}).release();
  const r = refusal(() => lim.admit(caller(), false, {}));
  assert.equal(r.code, 'over_quota');
  assert.equal(r.details.retry_after_seconds, 3600);
  assert.equal(r.details.quota, 3);
  rec.dailyQuota = undefined; // no own quota: the default (5) applies
  lim.admit(caller(), false, {}).release();
  rec.dailyQuota = null; // unlimited
  for (let i = 0; i < 10; i++) lim.admit(caller(), false, {}).release();
  rec.dailyQuota = 3;
  c.advance(3600_000);
  lim.admit(caller(), false, {}).release(); // a new day
  assert.equal(usage.today('k1'), 1);
  assert.equal(usage.history(14).length, 14);
});

test('auth throttle: a budget per address, refilled over the window, memory bounded', () => {
  const c = new FakeClock();
  const t = new AuthThrottle(() => ({ budget: 3, windowMinutes: 5 }), c.now);
  assert.equal(t.check('1.2.3.4'), null);
  for (let i = 0; i < 3; i++) t.fail('1.2.3.4');
  assert.equal(t.check('1.2.3.4'), 100, 'one failure back every 100 s');
  assert.equal(t.check('5.6.7.8'), null, 'another address is unaffected');
  c.advance(100_000);
  assert.equal(t.check('1.2.3.4'), null);
  for (let i = 0; i < 20_000; i++) t.fail(`10.0.${i >> 8}.${i & 255}`);
  assert.ok(t.size <= 10_000, `tracked ${t.size}`);
});

test('e2e: rate_limited and over_quota are normal results with retry_after_seconds; other keys unaffected', async () => {
  const clock = new FakeClock();
  const t = await startSec(makeVault(INSIDE), { rateLimitPerMinute: 60, rateLimitBurst: 3 }, { now: clock.now });
  try {
    const hot = await connect(t.url, await t.key({ name: 'hot', scope: 'read' }));
    const calm = await connect(t.url, await t.key({ name: 'calm', scope: 'read', dailyQuota: 2 }));
    for (let i = 0; i < 3; i++) assert.equal(refusalCode(await call(hot, 'read_note', { path: 'Team/Plan.md' })), null);
    const r = await call(hot, 'read_note', { path: 'Team/Plan.md' });
    assert.equal(r.isError, true);
    assert.equal(refusalCode(r), 'rate_limited');
    assert.match(textOf(r), /"retry_after_seconds":1/);
    assert.match(textOf(r), /rateLimitPerMinute/);
    assert.equal(refusalCode(await call(calm, 'stats')), null);
    assert.equal(refusalCode(await call(calm, 'stats')), null);
    const q = await call(calm, 'stats');
    assert.equal(refusalCode(q), 'over_quota');
    assert.match(textOf(q), /retry_after_seconds/);
    clock.advance(1000);
    assert.equal(refusalCode(await call(hot, 'read_note', { path: 'Team/Plan.md' })), null, 'one token back after a second');
    await hot.close();
    await calm.close();
  } finally {
    await t.stop();
  }
});

test('e2e: failed-auth budget per address answers 429 with Retry-After before any key lookup', async () => {
  const t = await startSec(makeVault(INSIDE), { authFailureBudget: 3, authFailureWindowMinutes: 5 });
  try {
    const good = await t.key({ name: 'good', scope: 'read' });
    const post = (key: string) => fetch(t.url, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }) });
    for (let i = 0; i < 3; i++) assert.equal((await post('vmcp_wrong')).status, 401);
    const r = await post('vmcp_wrong');
    assert.equal(r.status, 429);
    assert.equal(r.headers.get('retry-after'), '100');
    assert.match((await r.json()).error.message, /Too many failed authentication attempts/);
    assert.equal((await post(good)).status, 429, 'even a valid key waits: the budget is checked before the lookup');
  } finally {
    await t.stop();
  }
});

test('e2e: a key with an empty bucket is refused before the MCP SDK parses the call, as a tool result', async () => {
  const clock = new FakeClock();
  const t = await startSec(makeVault(INSIDE), { rateLimitPerMinute: 60, rateLimitBurst: 2 }, { now: clock.now });
  try {
    const key = await t.key({ name: 'hot', scope: 'read' });
    const c = await connect(t.url, key);
    for (let i = 0; i < 2; i++) assert.equal(refusalCode(await call(c, 'stats')), null);
    const sid = (c as unknown as { _transport: { sessionId: string } })._transport.sessionId;
    // Params the SDK would reject (-32602: arguments must be an object) prove the early path answered.
    const r = await fetch(t.url, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' }, body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'read_note', arguments: 'not an object' } }) });
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /application\/json/);
    const body = await r.json() as { id: number; result: { isError: boolean; content: { text: string }[] } };
    assert.equal(body.id, 7);
    assert.equal(body.result.isError, true);
    assert.match(body.result.content[0].text, /MCP-REFUSAL \{"code":"rate_limited".*"retry_after_seconds":1/s);
    // The client's own call gets the same refusal; tools/list (not charged as a call) still works.
    assert.equal(refusalCode(await call(c, 'stats')), 'rate_limited');
    assert.ok((await c.listTools()).tools.length > 3);
    const audit = t.rt.deps.services.audit as { recent(n: number): { tool: string; outcome: string }[] };
    assert.deepEqual(audit.recent(2).map((e) => [e.tool, e.outcome]), [['stats', 'rate_limited'], ['read_note', 'rate_limited']]);
    clock.advance(1000);
    assert.equal(refusalCode(await call(c, 'stats')), null);
    await c.close();
  } finally {
    await t.stop();
  }
});

test('e2e: a changed request body limit applies from the next request, naming its setting', async () => {
  const t = await startSec(makeVault(INSIDE), { maxRequestBytes: 64 * 1024 });
  try {
    const key = await t.key({ name: 'big', scope: 'read' });
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x'.repeat(100_000), version: '1' } } });
    const post = () => fetch(t.url, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body });
    let r = await post();
    assert.equal(r.status, 413);
    assert.match((await r.json()).error.message, /maxRequestBytes/);
    t.settings.maxRequestBytes = 1024 * 1024;
    r = await post();
    assert.equal(r.status, 200);
    await r.text();
  } finally {
    await t.stop();
  }
});

test('every limit has a CLI flag and a settings-tab label', async () => {
  const { LIMIT_DEFAULTS, LIMIT_FLAGS, LIMIT_LABELS } = await import('../../src/limits/settings.js');
  const flagged = new Set(LIMIT_FLAGS.map((f) => f.key));
  for (const k of Object.keys(LIMIT_DEFAULTS)) {
    assert.ok(flagged.has(k as never), `${k} has a serve flag`);
    assert.ok(LIMIT_LABELS[k as keyof typeof LIMIT_LABELS], `${k} has a label`);
  }
});
