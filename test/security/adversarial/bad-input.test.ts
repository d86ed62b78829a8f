// Bad input never hangs or crashes the server, and refusals show no machine detail: hostile globs
// (the old RegExp matcher blocked the event loop for good on "********************x"), arguments
// nested thousands deep, names over the file-system limit, JSON-RPC batches and malformed bodies,
// unknown tools; every answer arrives, names the cause, shows no absolute path or errno text, and
// /health keeps answering. Also: the audit log never holds a configured secret, whatever its
// shape and wherever it is sent (tool name, argument names and values), and summarize without a
// model says what to configure.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { connect, call, refusalCode, textOf, type ToolResult } from '../../helpers/server.js';
import { startTestRuntime } from '../../helpers/runtime.js';
import { tempDir } from '../../helpers/vault.js';
import { Category, report } from './report.js';

const ERRNO = /\b(ENOENT|EACCES|EPERM|ENAMETOOLONG|ENOTDIR|EISDIR|ELOOP|EINVAL|EEXIST|errno)\b|Maximum call stack/;

function vaultWithLongNames(): string {
  const vault = join(tempDir('vmcp-bad-'), 'vault');
  mkdirSync(join(vault, 'Files'), { recursive: true });
  writeFileSync(join(vault, 'Welcome.md'), '---\ntitle: w\n---\n# Welcome\n\nplan\n');
  // Long names that almost match the hostile globs: what made the old matcher backtrack.
  for (let i = 0; i < 40; i++) writeFileSync(join(vault, 'Files', `${'a'.repeat(200)}-${i}.png`), 'x');
  return vault;
}

/** A raw MCP session (fetch), for bodies the SDK client cannot build. */
async function rawSession(url: string, key: string): Promise<{ call(tool: string, argsJson: string): Promise<ToolResult> }> {
  const init = await fetch(url, { method: 'POST', headers: H(key), body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }) });
  const sid = init.headers.get('mcp-session-id')!;
  await init.text();
  await (await fetch(url, { method: 'POST', headers: H(key, sid), body: '{"jsonrpc":"2.0","method":"notifications/initialized"}' })).text();
  let id = 100;
  return {
    async call(tool, argsJson) {
      const r = await fetch(url, { method: 'POST', headers: H(key, sid), body: `{"jsonrpc":"2.0","id":${++id},"method":"tools/call","params":{"name":${JSON.stringify(tool)},"arguments":${argsJson}}}` });
      const text = await r.text();
      const data = text.split('\n').find((l) => l.startsWith('data: '));
      const msg = JSON.parse(data ? data.slice(6) : text) as { result?: ToolResult; error?: { message: string } };
      if (!msg.result) throw new Error(`HTTP ${r.status}: ${text.slice(0, 200)}`);
      return msg.result;
    },
  };
}

const H = (key: string, sid?: string) => ({
  authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18', ...(sid ? { 'mcp-session-id': sid } : {}),
});

test('bad input: hostile globs, deep nesting, long names, malformed JSON-RPC; every answer clean', { timeout: 300_000 }, async () => {
  const vault = vaultWithLongNames();
  const t = await startTestRuntime(vault, { rateLimitPerMinute: 0, writeRateLimitPerMinute: 0, defaultDailyQuota: 0 });
  const globs = new Category('bad input: globs');
  const nesting = new Category('bad input: deep nesting');
  const names = new Category('bad input: long names');
  const bodies = new Category('bad input: JSON-RPC batches and malformed bodies');
  const health = async () => (await fetch(t.url.replace('/mcp', '/health'))).status === 200;
  const clean = (r: ToolResult) => !ERRNO.test(textOf(r)) && !textOf(r).includes(vault) && !textOf(r).includes(t.host.data.dir);
  try {
    const c = await connect(t.url, t.rwKey);
    for (const stars of [8, 20, 64, 200]) {
      for (const p of [`${'*'.repeat(stars)}x`, `${'*a'.repeat(stars)}x`, `${'?*'.repeat(stars)}z`, `[a]*${'*[!b]'.repeat(stars)}q`]) {
        if (p.length > 256) {
          await globs.attempt(`pattern of ${p.length} characters is refused`, async () => assert.equal(refusalCode(await call(c, 'list_files', { folder: 'Files', pattern: p })), 'invalid_argument'));
          continue;
        }
        await globs.attempt(`list_files(pattern=${p.slice(0, 24)}…${p.length})`, async () => {
          const r = await call(c, 'list_files', { folder: 'Files', pattern: p });
          assert.equal(r.isError, undefined, textOf(r));
          assert.equal(r.structuredContent!.files.length, 0);
          assert.ok(await health());
        });
      }
    }
    await globs.attempt('a matching star pattern still matches', async () => assert.equal((await call(c, 'list_files', { folder: 'Files', pattern: '*-3?.png' })).structuredContent!.files.length, 10));
    // Sent as raw JSON-RPC: the SDK client itself cannot serialise values this deep.
    const session = await rawSession(t.url, t.rwKey);
    for (const depth of [65, 500, 5_000, 50_000]) {
      const obj = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
      const arr = `${'['.repeat(depth)}1${']'.repeat(depth)}`;
      for (const [tool, args] of [
        ['set_frontmatter', `{"path":"Welcome.md","updates":{"x":${obj}}}`], ['set_frontmatter', `{"path":"Welcome.md","updates":{"x":${arr}}}`],
        ['create_note', `{"path":"deep.md","content":"x","frontmatter":${obj}}`], ['keyword_search', `{"query":"plan","frontmatter":{"x":${obj}}}`],
        ['list_tasks', `{"tags":[${arr}]}`], ['no_such_tool', `{"x":${obj}}`],
      ] as [string, string][]) {
        await nesting.attempt(`${tool} nested ${depth} deep`, async () => {
          const r = await session.call(tool, args);
          assert.ok(r.isError, textOf(r).slice(0, 200));
          assert.ok(['invalid_argument', 'not_found'].includes(refusalCode(r)!), textOf(r).slice(0, 300));
          assert.ok(clean(r), textOf(r).slice(0, 300));
        });
      }
    }
    await nesting.attempt('64 levels are still accepted', async () => {
      let ok: unknown = 'v';
      for (let i = 0; i < 60; i++) ok = { a: ok };
      assert.equal((await call(c, 'set_frontmatter', { path: 'Welcome.md', updates: { nested: ok } })).isError, undefined);
    });
    const long = ['n'.repeat(256) + '.md', `Files/${'é'.repeat(128)}.md`, `${'d'.repeat(300)}/x.md`, `${`${'s'.repeat(250)}/`.repeat(20)}x.md`, 'x'.repeat(5000)];
    for (const p of long) {
      for (const [tool, args] of [['create_note', { path: p, content: 'x' }], ['write_file', { path: p, content: 'eA==' }], ['read_note', { path: p }], ['read_file', { path: p }],
        ['move_note', { from_path: 'Welcome.md', to_path: p }], ['request_upload', { path: p }], ['list_files', { folder: p }], ['delete_file', { path: p }]] as [string, Record<string, unknown>][]) {
        await names.attempt(`${tool}(${p.length}-char path)`, async () => {
          const r = await call(c, tool, args);
          assert.ok(r.isError, `${tool} accepted a ${p.length}-character path`);
          assert.ok(['invalid_path', 'not_found'].includes(refusalCode(r)!), textOf(r).slice(0, 300));
          assert.ok(clean(r), textOf(r).slice(0, 300));
        });
      }
    }
    await c.close();
    // Raw JSON-RPC: batches, malformed and odd bodies. Never a 5xx, never a hang, the server goes on.
    const init = await fetch(t.url, { method: 'POST', headers: H(t.rwKey), body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }) });
    const sid = init.headers.get('mcp-session-id')!;
    await init.text();
    await (await fetch(t.url, { method: 'POST', headers: H(t.rwKey, sid), body: '{"jsonrpc":"2.0","method":"notifications/initialized"}' })).text();
    const call1 = (id: number, name: unknown, args: unknown = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
    const raw: [string, string][] = [
      ['empty', ''], ['null', 'null'], ['number', '42'], ['string', '"x"'], ['truncated', '{"jsonrpc":"2.0","id":1,'], ['empty batch', '[]'],
      ['batch of 2', JSON.stringify([call1(2, 'stats'), { jsonrpc: '2.0', id: 3, method: 'ping' }])],
      ['batch of 200', JSON.stringify(Array.from({ length: 200 }, (_, i) => call1(100 + i, 'list_files', { pattern: `${'*'.repeat(30)}x` })))],
      ['batch with garbage', JSON.stringify([1, null, 'x', { id: 1 }, call1(4, 'stats')])], ['no method', '{"jsonrpc":"2.0","id":5}'],
      ['object id', '{"jsonrpc":"2.0","id":{},"method":"tools/list"}'], ['name is an object', JSON.stringify(call1(6, { x: 1 }))],
      ['arguments is a string', JSON.stringify(call1(7, 'stats', 'x'))], ['arguments is an array', JSON.stringify(call1(8, 'read_note', ['Welcome.md']))],
      ['unknown method', '{"jsonrpc":"2.0","id":9,"method":"vault/destroy"}'], ['proto pollution', '{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"stats","arguments":{"__proto__":{"admin":true}}}}'],
      ['wrong version', '{"jsonrpc":"1.0","id":11,"method":"tools/list"}'], ['huge id', `{"jsonrpc":"2.0","id":${'9'.repeat(400)},"method":"ping"}`],
      ['deep body', `{"jsonrpc":"2.0","id":12,"method":"ping","params":${'['.repeat(100_000)}${']'.repeat(100_000)}}`],
      ['control characters in name', JSON.stringify(call1(13, 'stats\u0000\u001b[2J'))], ['NUL in body', '{"jsonrpc":"2.0","id":14,"method":"ping"}\u0000'],
    ];
    for (const [label, body] of raw) {
      await bodies.attempt(label, async () => {
        const r = await fetch(t.url, { method: 'POST', headers: H(t.rwKey, sid), body });
        const text = await r.text();
        assert.ok(r.status < 500, `HTTP ${r.status}: ${text.slice(0, 200)}`);
        assert.ok(!ERRNO.test(text) && !text.includes(vault), text.slice(0, 300));
        assert.ok(await health(), '/health after');
      });
    }
    await bodies.attempt('wrong content type', async () => {
      const r = await fetch(t.url, { method: 'POST', headers: { ...H(t.rwKey, sid), 'content-type': 'text/plain' }, body: JSON.stringify(call1(15, 'stats')) });
      await r.text();
      assert.ok(r.status < 500);
    });
  } finally { await t.stop(); }
  report(globs, nesting, names, bodies);
});

test('audit: no configured secret reaches audit.jsonl, whatever its shape and wherever it is sent', { timeout: 120_000 }, async () => {
  const cat = new Category('audit masking');
  const envKey = `plain-${randomBytes(12).toString('hex')}`; // an env key not shaped vmcp_…
  const llmKey = `sk-${randomBytes(16).toString('hex')}`;
  const vault = vaultWithLongNames();
  const t = await startTestRuntime(vault, { rateLimitPerMinute: 0, writeRateLimitPerMinute: 0, defaultDailyQuota: 0 }, { services: { llmKey: () => llmKey } });
  t.rt.keys.addEphemeral(envKey, 'env:VAULT_MCP_TOKEN', 'readwrite');
  const persisted = (await t.rt.keys.add({ name: 'persisted', scope: 'readwrite' })).raw;
  const secrets = [envKey, llmKey, persisted, t.rwKey];
  try {
    const c = await connect(t.url, envKey);
    for (const s of secrets) {
      const placements: [string, Record<string, unknown>][] = [
        [s, {}], [`${s}-suffix`, {}], ['x'.repeat(50) + s, {}], ['read_note', { path: s }], ['read_note', { path: `Notes/${s}.md` }],
        ['keyword_search', { query: `find ${s} please` }], ['keyword_search', { query: 'q'.repeat(250) + s }], ['list_files', { folder: s, pattern: s }],
        ['read_note', { [s]: 1 }], ['set_frontmatter', { path: 'Welcome.md', updates: { k: s } }], ['create_note', { path: `${s}.md`, content: s }],
        ['list_tasks', { tags: [s, s] }], ['keyword_search', { query: 'plan', frontmatter: { [s]: s } }],
      ];
      for (const [tool, args] of placements) {
        await cat.attempt(`${s.slice(0, 6)}… as ${tool === s ? 'the tool name' : `${tool} ${Object.keys(args).join(',').slice(0, 12)}`}`, async () => { await call(c, tool, args); });
      }
    }
    await c.close();
    await t.rt.deps.services.audit!.flush();
    const log = readFileSync(join(t.host.data.dir, 'audit.jsonl'), 'utf8');
    cat.check('the calls were recorded', log.split('\n').filter(Boolean).length >= secrets.length * 13, `${log.split('\n').length} lines`);
    for (const s of secrets) {
      // The whole secret, and any 12-character piece of it, is absent.
      const pieces = Array.from({ length: s.length - 11 }, (_, i) => s.slice(i, i + 12));
      const hit = pieces.find((p) => log.includes(p));
      cat.check(`no piece of ${s.slice(0, 6)}… in audit.jsonl`, !hit, hit ? `found "${hit}"` : '');
    }
  } finally { await t.stop(); }
  report(cat);
});

test('summarize without a model names what is missing and where to set it', { timeout: 60_000 }, async () => {
  const cat = new Category('messages');
  const t = await startTestRuntime(vaultWithLongNames());
  try {
    const c = await connect(t.url, t.rwKey);
    await cat.attempt('summarize', async () => {
      const r = await call(c, 'summarize', { paths: ['Welcome.md'] });
      assert.equal(refusalCode(r), 'permission_denied');
      assert.match(textOf(r), /no language model endpoint is configured/);
      assert.match(textOf(r), /--llm-url/);
      assert.doesNotMatch(textOf(r), /read-only scope/);
    });
    const ro = await connect(t.url, t.readKey);
    await cat.attempt('a write tool with a read key says the key is read-only', async () => {
      const r = await call(ro, 'create_note', { path: 'x.md', content: 'x' });
      assert.match(textOf(r), /read-only scope/);
    });
    await c.close();
    await ro.close();
  } finally { await t.stop(); }
  report(cat);
});
