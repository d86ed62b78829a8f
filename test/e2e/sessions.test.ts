// Sessions expire when idle (clients rarely send DELETE) and are bound to the key that opened them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyVault } from '../helpers/vault.js';
import { startTestRuntime } from '../helpers/runtime.js';
import { connect, call } from '../helpers/server.js';

test('idle sessions are closed by the sweep; active ones stay', async () => {
  const t = await startTestRuntime(copyVault(), { sessionIdleMinutes: 1 });
  try {
    const idle = await connect(t.url, t.readKey);
    const busy = await connect(t.url, t.readKey);
    assert.equal(t.rt.sessions.size, 2);
    const realNow = t.rt.deps.now;
    const offset = 61_000;
    (t.rt.deps as { now: () => number }).now = () => realNow() + offset;
    await call(busy, 'stats'); // refreshes lastSeen in the shifted clock
    // The session table reads the same clock through deps.now at construction; sweep with a shifted limit.
    (t.rt.sessions as unknown as { now: () => number }).now = () => realNow() + offset;
    t.rt.sessions.sweep();
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(t.rt.sessions.size, 1);
    await assert.rejects(call(idle, 'stats'), /Session not found|404/);
    assert.equal((await call(busy, 'stats')).isError, undefined);
    await busy.close();
    await idle.close().catch(() => undefined);
  } finally {
    await t.stop();
  }
});

test('a session id used with another key is refused', async () => {
  const t = await startTestRuntime(copyVault());
  try {
    const a = await connect(t.url, t.readKey);
    const sid = (a as unknown as { _transport: { sessionId: string } })._transport.sessionId;
    const res = await fetch(t.url, { method: 'POST', headers: { authorization: `Bearer ${t.rwKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' }, body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/list' }) });
    assert.equal(res.status, 404);
    await a.close();
  } finally {
    await t.stop();
  }
});
