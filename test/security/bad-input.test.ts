// Malformed JSON-RPC, oversized bodies, wrong types, huge arrays, deeply nested frontmatter and
// control characters in paths: each gets a clear error, the server keeps serving, nothing is written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, call, refusalCode, textOf } from '../helpers/server.js';
import { startSec, makeVault, snapshotOutside, INSIDE } from './helpers.js';

const H = (key: string, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...extra });

test('bad input is answered clearly, the server keeps serving and nothing is written', { timeout: 60_000 }, async () => {
  const deep = 'a:\n' + Array.from({ length: 400 }, (_, i) => `${'  '.repeat(i + 1)}k${i}:`).join('\n') + ' x\n';
  const vault = makeVault({ ...INSIDE, 'Team/Deep-frontmatter.md': `---\n${deep}---\nbody\n`, 'Team/Flow.md': '---\nx: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\n---\nbody\n' });
  const t = await startSec(vault, { maxRequestBytes: 64 * 1024, rateLimitPerMinute: 0, defaultDailyQuota: 0 });
  const before = snapshotOutside(vault, '\u0000none');
  try {
    const key = await t.key({ name: 'fuzz', scope: 'readwrite' });
    const c = await connect(t.url, key);
    const sid = (c as unknown as { _transport: { sessionId: string } })._transport.sessionId;
    const post = (body: string, headers: Record<string, string> = {}) => fetch(t.url, { method: 'POST', headers: H(key, { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18', ...headers }), body });

    // Malformed JSON and JSON-RPC
    let r = await post('{"jsonrpc": "2.0", "id": 1, "method": ');
    assert.equal(r.status, 400);
    assert.match((await r.json()).error.message, /Parse error/);
    r = await post(JSON.stringify({ jsonrpc: '1.0', id: 1, method: 'tools/list' }));
    assert.ok(r.status >= 400 && r.status < 500, `status ${r.status}`);
    r = await post(JSON.stringify({ id: 1, foo: 'bar' }));
    assert.ok(r.status >= 400 && r.status < 500, `status ${r.status}`);
    r = await post(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'no/such/method' }));
    assert.match(await r.text(), /-32601|not found/i);
    r = await post(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 42 } }));
    assert.match(await r.text(), /error/i);

    // Oversized body: 413 naming the setting
    r = await post(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'create_note', arguments: { path: 'Team/Big.md', content: 'x'.repeat(100_000) } } }));
    assert.equal(r.status, 413);
    assert.match((await r.json()).error.message, /maxRequestBytes/);

    // Wrong types, unknown arguments, huge arrays
    for (const [name, args] of [
      ['read_note', { path: 42 }], ['read_note', { path: 'Team/Plan.md', limit: 'lots' }], ['read_note', { path: 'Team/Plan.md', bogus: 1 }],
      ['list_notes', { limit: -5 }], ['read_note', { path: ['a', 'b'] }], ['read_note', { path: { toString: 'x' } }],
    ] as [string, Record<string, unknown>][]) {
      const res = await call(c, name, args);
      assert.equal(refusalCode(res), 'invalid_argument', `${name} ${JSON.stringify(args)}: ${textOf(res)}`);
      assert.match(textOf(res), /Invalid arguments for/);
    }
    const huge = Array.from({ length: 5000 }, (_, i) => `tag${i}`);
    const kw = await call(c, 'list_tasks', { tags: huge });
    assert.ok(kw.isError === undefined || ['invalid_argument', 'payload_too_large'].includes(refusalCode(kw)!), textOf(kw));

    // Control characters, NUL, traversal, hidden folders in paths
    for (const p of ['Team/Pl\u0000an.md', 'Team/\u0007bell.md', 'Team/line\nbreak.md', '../outside.md', '/etc/passwd', 'C:\\Windows\\x.md', '.obsidian/app.json', 'Team/.hidden.md', 'Team/\u007f.md']) {
      const read = await call(c, 'read_note', { path: p });
      assert.equal(refusalCode(read), 'invalid_path', `${JSON.stringify(p)}: ${textOf(read)}`);
      const write = await call(c, 'create_note', { path: p, content: 'x' });
      assert.ok(['invalid_path', 'invalid_argument'].includes(refusalCode(write)!), `${JSON.stringify(p)}: ${textOf(write)}`);
    }

    // Deeply nested / pathological frontmatter reads fine (or says why the JSON view is withheld)
    for (const p of ['Team/Deep-frontmatter.md', 'Team/Flow.md']) {
      const res = await call(c, 'read_note', { path: p });
      assert.equal(refusalCode(res), null, textOf(res));
      assert.equal(res.structuredContent!.content, 'body\n');
    }

    // Still serving, nothing written
    assert.equal(refusalCode(await call(c, 'read_note', { path: 'Team/Plan.md' })), null);
    assert.equal((await fetch(t.url.replace('/mcp', '/health'))).status, 200);
    assert.deepEqual([...snapshotOutside(vault, '\u0000none')], [...before], 'no file was written or changed');
    await c.close();
  } finally {
    await t.stop();
  }
});
