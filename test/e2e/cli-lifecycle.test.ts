// The CLI as users drive it: keys add/list/revoke, the first-run key, the serve lock, a busy port,
// and a clean stop that closes open event streams and frees the port.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { readFileSync, existsSync } from 'node:fs';
import { CLI, REPO } from '../helpers/paths.js';
import { copyVault, tempDir } from '../helpers/vault.js';
import { startCli, connect, call } from '../helpers/server.js';

const cli = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });

test('keys add prints the raw key once; list shows metadata only; revoke refuses the key', async () => {
  const vault = copyVault();
  const add = cli('keys', 'add', '--vault', vault, '--name', 'claude', '--scope', 'readwrite');
  assert.equal(add.status, 0, add.stderr);
  const raw = /(vmcp_\S+)/.exec(add.stdout)![1];
  const dataDir = join(vault, '.obsidian/plugins/vault-mcp-server');
  assert.ok(!readFileSync(join(dataDir, 'keys.json'), 'utf8').includes(raw));
  const list = cli('keys', 'list', '--vault', vault);
  assert.match(list.stdout, /^claude\treadwrite/m);
  assert.ok(!list.stdout.includes(raw));
  assert.equal(cli('keys', 'add', '--vault', vault, '--name', 'x', '--scope', 'admin').status, 2);
  const srv = await startCli(vault, { dataDir });
  const client = await connect(srv.url, raw);
  assert.equal((await call(client, 'stats')).structuredContent!.vault, 'vault');
  assert.equal(cli('keys', 'revoke', '--vault', vault, '--name', 'claude').status, 0);
  await new Promise((r) => setTimeout(r, 2200)); // the server re-reads keys.json every 2 s
  await assert.rejects(call(client, 'stats'), /401|Unauthorized/, 'revocation applies to an open session');
  await client.close().catch(() => undefined);
  await srv.stop();
  assert.equal(cli('keys', 'revoke', '--vault', vault, '--name', 'claude').status, 2, 'revoking an unknown key fails');
});

test('--create-key makes a key on the first run only; a second server on the same vault is refused', async () => {
  const vault = copyVault();
  const dataDir = join(tempDir(), 'data');
  const first = await startCli(vault, { dataDir, args: ['--create-key', 'sample'] });
  const raw = /(vmcp_\S+)/.exec(first.output())![1];
  assert.match(first.output(), /claude mcp add --transport http vault http:\/\/127\.0\.0\.1:\d+\/mcp --header "Authorization: Bearer vmcp_/);
  const c = await connect(first.url, raw);
  assert.equal((await call(c, 'stats')).isError, undefined);
  await c.close();
  const second = spawnSync(process.execPath, [CLI, 'serve', '--vault', vault, '--data-dir', dataDir, '--port', '0'], { encoding: 'utf8', timeout: 20_000 });
  assert.equal(second.status, 2);
  assert.match(second.stderr, /already being served/);
  assert.ok(existsSync(join(dataDir, 'server.lock')));
  assert.equal(await first.stop(), 0);
  assert.ok(!existsSync(join(dataDir, 'server.lock')), 'lock released on stop');
  const again = await startCli(vault, { dataDir, args: ['--create-key', 'sample'] });
  assert.ok(!/vmcp_/.test(again.output()), 'no new key when one exists');
  // …and says how to make another, since the first one was shown only once.
  assert.match(again.output(), /This vault already has keys \("sample"\); a key is shown only once, when it is created\. To create another:\n {2}node dist\/cli\.js keys add --vault \S+ --name NAME --scope readwrite/);
  await again.stop();
});

test('npm start passes extra arguments to serve: `npm start -- --port N` serves on N', async () => {
  const dir = tempDir();
  const free = createServer();
  await new Promise<void>((r) => free.listen(0, '127.0.0.1', () => r()));
  const port = (free.address() as { port: number }).port;
  await new Promise((r) => free.close(r));
  const child = spawn(process.execPath, [join(REPO, 'scripts/start.mjs'), '--port', String(port), '--data-dir', join(dir, 'data'), '--cache-dir', join(dir, 'cache'), '--models-dir', join(dir, 'models'), '--no-watch'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => { out += d; });
  child.stderr!.on('data', (d) => { out += d; });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', () => { if (/listening on/.test(out)) resolve(); });
    child.on('exit', (code) => reject(new Error(`npm start exited with ${code}: ${out}`)));
  });
  try {
    assert.match(out, new RegExp(`listening on http://127\\.0\\.0\\.1:${port}/mcp`));
    assert.match(out, /Created key "sample" \(shown only this once\)/);
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
});

test('a busy port gives a clear message', async () => {
  const blocker = createServer();
  await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
  const port = (blocker.address() as { port: number }).port;
  const r = spawnSync(process.execPath, [CLI, 'serve', '--vault', copyVault(), '--data-dir', join(tempDir(), 'd'), '--port', String(port), '--no-watch'], { encoding: 'utf8', timeout: 20_000 });
  blocker.close();
  assert.equal(r.status, 2);
  assert.match(r.stderr, new RegExp(`Port ${port} .*already in use.*--port`));
});

test('stopping closes open event streams and frees the port', async () => {
  const vault = copyVault();
  const key = 'vmcp_lifecycle_key_abcdef0123456789';
  const srv = await startCli(vault, { env: { VAULT_MCP_TOKEN: key } });
  const client = await connect(srv.url, key);
  // The SDK client opens the standalone GET event stream after initialize; also open one by hand.
  const sessionRes = await fetch(srv.url, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }) });
  const sid = sessionRes.headers.get('mcp-session-id')!;
  await sessionRes.body?.cancel();
  await fetch(srv.url, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  const stream = await fetch(srv.url, { headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream', 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' } });
  assert.equal(stream.status, 200);
  const reader = stream.body!.getReader();
  const t0 = Date.now();
  assert.equal(await srv.stop(), 0);
  // An open event stream would otherwise hold the server until its 30-minute idle timeout; 30 s is only a bound.
  assert.ok(Date.now() - t0 < 30_000, 'stop does not wait for streams to end by themselves');
  const end = await Promise.race([reader.read().then(() => 'closed', () => 'closed'), new Promise((r) => setTimeout(() => r('open'), 3000))]);
  assert.equal(end, 'closed');
  await client.close().catch(() => undefined);
  const probe = createServer();
  await new Promise<void>((resolve, reject) => { probe.once('error', reject); probe.listen(srv.port, '127.0.0.1', () => resolve()); });
  probe.close();
});

test('bad flags and a missing vault fail with a message', () => {
  const r1 = cli('serve');
  assert.equal(r1.status, 2);
  assert.match(r1.stderr, /--vault DIR is required/);
  const r2 = cli('serve', '--vault', '/nonexistent/vault');
  assert.match(r2.stderr, /no such folder/);
  const r3 = cli('serve', '--vault', copyVault(), '--bogus');
  assert.match(r3.stderr, /bogus/);
  assert.match(execFileSync(process.execPath, [CLI, '--help'], { encoding: 'utf8' }), /keys add/);
});
