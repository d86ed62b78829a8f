// import_from_url and its outbound deny policy. A loopback HTTP server plays the remote; it is
// reachable only through the test-only allowance (deps.services.testOnlyNetAllow, an exact
// address:port set passed programmatically), which no setting or CLI flag reaches. A second loopback
// server ("the victim") counts hits: redirects into forbidden ranges must never reach it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { copyVault } from '../helpers/vault.js';
import { startTestRuntime, type TestRuntime } from '../helpers/runtime.js';
import { connect, call, refusalCode, textOf } from '../helpers/server.js';
import { classifyAddress } from '../../src/net/addressPolicy.js';
import { safeFetch, FetchError, type SafeFetchOptions } from '../../src/net/safeFetch.js';
import { settingFlags } from '../../src/cli/flags.js';

let remote: Server;
let victim: Server;
let P: number; // remote port
let V: number; // victim port
let victimHits = 0;
const seenHosts: string[] = [];
let remoteHits = 0;
const BODY = Buffer.from('remote file body\n'.repeat(10));

function route(req: IncomingMessage, res: ServerResponse) {
  remoteHits++;
  seenHosts.push(String(req.headers.host));
  const u = new URL(req.url ?? '/', 'http://x');
  const to = u.searchParams.get('to');
  if (u.pathname === '/file.txt') { res.setHeader('Content-Type', 'text/plain; charset=utf-8'); res.end(BODY); return; }
  if (u.pathname === '/redirect' && to) { res.statusCode = 302; res.setHeader('Location', to); res.end(); return; }
  if (u.pathname.startsWith('/hop/')) {
    const n = Number(u.pathname.slice(5));
    res.statusCode = 301;
    res.setHeader('Location', n > 0 ? `/hop/${n - 1}` : '/file.txt');
    res.end();
    return;
  }
  if (u.pathname === '/big-declared') { res.setHeader('Content-Length', '100000'); res.end(Buffer.alloc(100000)); return; }
  if (u.pathname === '/big-chunked') { res.write(Buffer.alloc(3000)); res.write(Buffer.alloc(3000)); res.end(Buffer.alloc(3000)); return; }
  if (u.pathname === '/hang') return; // never answers
  if (u.pathname === '/missing') { res.statusCode = 404; res.end('no'); return; }
  res.statusCode = 500;
  res.end();
}

const listen = (s: Server) => new Promise<number>((r) => s.listen(0, '127.0.0.1', () => r((s.address() as AddressInfo).port)));

let t: TestRuntime;
let rw: Client;
let ro: Client;
let vault: string;
let allow: Set<string>;

before(async () => {
  remote = createServer(route);
  victim = createServer((_q, s) => { victimHits++; s.end('secret'); });
  P = await listen(remote);
  V = await listen(victim);
  allow = new Set([`127.0.0.1:${P}`]);
  vault = copyVault();
  t = await startTestRuntime(vault, { importAllowHttp: true, maxWriteBytes: 5000 }, { services: { testOnlyNetAllow: { allow } } });
  rw = await connect(t.url, t.rwKey);
  ro = await connect(t.url, t.readKey);
});

after(async () => {
  await rw?.close(); await ro?.close();
  await t?.stop();
  remote?.closeAllConnections(); victim?.closeAllConnections();
  await new Promise((r) => remote.close(r));
  await new Promise((r) => victim.close(r));
});

const opts = (o: Partial<SafeFetchOptions> = {}): SafeFetchOptions => ({ maxBytes: 5000, timeoutMs: 20_000, allowHttp: true, testAllow: allow, ...o });
async function reason(p: Promise<unknown>): Promise<string> {
  try { await p; return 'ok'; } catch (e) { if (e instanceof FetchError) return e.reason; throw e; }
}

test('address classification: every non-public range and spelling is refused, public passes', () => {
  const refused = [
    '127.0.0.1', '127.255.255.254', '2130706433', '0x7f000001', '0177.0.0.1', '0x7f.1', '127.1', '017700000001', '0',
    '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '100.64.0.1', '100.100.100.200', '169.254.169.254', '0.0.0.0',
    '224.0.0.1', '239.255.255.250', '255.255.255.255', '240.0.0.1', '192.0.2.1', '198.18.0.1', '198.51.100.7', '203.0.113.9', '192.0.0.170',
    '::1', '[::1]', '::', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', '[::ffff:7f00:1]', '::ffff:10.0.0.1', '::ffff:169.254.169.254', '::127.0.0.1',
    '::ffff:0:127.0.0.1', '64:ff9b::127.0.0.1', '64:ff9b::a9fe:a9fe', '64:ff9b:1::1', '2002:7f00:1::', '2002:a9fe:a9fe::1', 'fe80::1', 'fe80::1%eth0',
    'fc00::1', 'fd00:ec2::254', 'ff02::1', 'fec0::1', '2001:db8::1', '2001::1', '100::1', '3fff::1', '1::1', 'zz::1',
  ];
  for (const a of refused) assert.equal(classifyAddress(a)?.allowed, false, a);
  for (const a of ['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '2a00:1450:4001::1', '::ffff:8.8.8.8', '64:ff9b::808:808', '172.32.0.1', '100.128.0.1'])
    assert.equal(classifyAddress(a)?.allowed, true, a);
  assert.equal(classifyAddress('example.com'), null, 'names are not addresses');
});

test('the loopback remote is reachable only through the test switch', async () => {
  assert.equal(await reason(safeFetch(`http://127.0.0.1:${P}/file.txt`, opts({ testAllow: undefined }))), 'forbidden_address');
  assert.equal(await reason(safeFetch(`http://127.0.0.1:${P}/file.txt`, opts({ testAllow: new Set() }))), 'forbidden_address');
  const r = await safeFetch(`http://127.0.0.1:${P}/file.txt`, opts());
  assert.deepEqual(Buffer.from(r.bytes), BODY);
  assert.equal(r.finalUrl, `http://127.0.0.1:${P}/file.txt`);
  assert.equal(r.address, '127.0.0.1');
  assert.ok(!settingFlags.some((f) => /test|loopback|allow-private/i.test(f.flag + f.key)), 'no flag reaches the switch');
});

test('direct URLs in every forbidden spelling are refused before any connection', async () => {
  const before = victimHits;
  for (const host of ['127.0.0.1', '2130706433', '0x7f000001', '0177.0.0.1', '127.1', '[::1]', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', 'localhost', '169.254.169.254', '10.0.0.1', '[fd00:ec2::254]', '0.0.0.0']) {
    assert.equal(await reason(safeFetch(`http://${host}:${V}/`, opts())), 'forbidden_address', host);
  }
  assert.equal(victimHits, before, 'the victim was never contacted');
});

test('redirects are re-checked at every hop; final URL reported; at most 5', async () => {
  const hits = victimHits;
  for (const to of [`http://127.0.0.1:${V}/`, `http://2130706433:${V}/`, `http://0x7f.0.0.1:${V}/`, `http://[::1]:${V}/`, `http://[::ffff:127.0.0.1]:${V}/`, `http://localhost:${V}/`, 'http://169.254.169.254/latest/meta-data/', 'http://10.0.0.1/', 'http://[fe80::1]/']) {
    assert.equal(await reason(safeFetch(`http://127.0.0.1:${P}/redirect?to=${encodeURIComponent(to)}`, opts())), 'forbidden_address', to);
  }
  assert.equal(victimHits, hits, 'no redirect reached a forbidden address');
  const ok = await safeFetch(`http://127.0.0.1:${P}/hop/4`, opts());
  assert.equal(ok.finalUrl, `http://127.0.0.1:${P}/file.txt`);
  assert.deepEqual(ok.redirects, [4, 3, 2, 1, 0].map((n) => `http://127.0.0.1:${P}/hop/${n}`));
  assert.equal(await reason(safeFetch(`http://127.0.0.1:${P}/hop/5`, opts())), 'too_many_redirects');
  assert.equal(await reason(safeFetch(`http://127.0.0.1:${P}/redirect?to=${encodeURIComponent('ftp://example.com/x')}`, opts())), 'invalid_url');
  assert.equal(await reason(safeFetch(`http://127.0.0.1:${P}/redirect?to=${encodeURIComponent(`http://127.0.0.1:${P}/file.txt`)}`, opts({ allowHttp: false }))), 'invalid_url', 'http off');
});

test('DNS: every resolved address must be public; the connection is pinned to the checked one with the original Host', async () => {
  const mixed = async () => [{ address: '93.184.216.34', family: 4 as const }, { address: '10.0.0.7', family: 4 as const }];
  assert.equal(await reason(safeFetch('https://mixed.example/x', opts({ resolve: mixed }))), 'forbidden_address');
  const mapped = async () => [{ address: '::ffff:169.254.169.254', family: 6 as const }];
  assert.equal(await reason(safeFetch('https://meta.example/x', opts({ resolve: mapped }))), 'forbidden_address');
  // A name that resolves (stub) to the allowed loopback remote: connects there, Host stays the name.
  const pinned = async () => [{ address: '127.0.0.1', family: 4 as const }];
  const r = await safeFetch(`http://files.example:${P}/file.txt`, opts({ resolve: pinned }));
  assert.deepEqual(Buffer.from(r.bytes), BODY);
  assert.equal(seenHosts[seenHosts.length - 1], `files.example:${P}`);
  assert.equal(await reason(safeFetch(`https://user:pw@files.example/x`, opts({ resolve: pinned }))), 'invalid_url', 'credentials refused');
});

test('size and time caps hold', async () => {
  assert.equal(await reason(safeFetch(`http://127.0.0.1:${P}/big-declared`, opts())), 'payload_too_large');
  assert.equal(await reason(safeFetch(`http://127.0.0.1:${P}/big-chunked`, opts())), 'payload_too_large');
  assert.equal(await reason(safeFetch(`http://127.0.0.1:${P}/hang`, opts({ timeoutMs: 300 }))), 'timeout');
  assert.equal(await reason(safeFetch(`http://127.0.0.1:${P}/missing`, opts())), 'upstream_error');
});

test('import_from_url: lands through the safe write path and reports final URL, size, sha256, MIME', async () => {
  const r = await call(rw, 'import_from_url', { url: `http://127.0.0.1:${P}/hop/1`, path: 'Clippings/remote.txt' });
  assert.equal(r.isError, undefined, textOf(r));
  const sha = createHash('sha256').update(BODY).digest('hex');
  assert.deepEqual(r.structuredContent, {
    path: 'Clippings/remote.txt', created: true, size: BODY.length, content_hash: `sha256:${sha}`, mime: 'text/plain',
    final_url: `http://127.0.0.1:${P}/file.txt`, redirects: [`http://127.0.0.1:${P}/hop/1`, `http://127.0.0.1:${P}/hop/0`],
  });
  assert.deepEqual(readFileSync(join(vault, 'Clippings/remote.txt')), BODY);
  assert.equal((await call(rw, 'read_file', { path: 'Clippings/remote.txt', hash_only: true })).structuredContent!.content_hash, `sha256:${sha}`);
  const hits = remoteHits;
  assert.equal(refusalCode(await call(rw, 'import_from_url', { url: `http://127.0.0.1:${P}/file.txt`, path: 'Clippings/remote.txt' })), 'already_exists');
  assert.equal(remoteHits, hits, 'no-clobber is checked before fetching');
  assert.equal((await call(rw, 'import_from_url', { url: `http://127.0.0.1:${P}/file.txt`, path: 'Clippings/remote.txt', overwrite: true })).isError, undefined);
  assert.equal(refusalCode(await call(rw, 'import_from_url', { url: `http://127.0.0.1:${P}/redirect?to=${encodeURIComponent('http://169.254.169.254/')}`, path: 'Clippings/meta.txt' })), 'forbidden_address');
  assert.equal(refusalCode(await call(rw, 'import_from_url', { url: `http://127.0.0.1:${P}/big-chunked`, path: 'Clippings/big.bin' })), 'payload_too_large');
  assert.ok(!existsSync(join(vault, 'Clippings/meta.txt')) && !existsSync(join(vault, 'Clippings/big.bin')));
  assert.equal(refusalCode(await call(rw, 'import_from_url', { url: 'not a url', path: 'Clippings/x.txt' })), 'invalid_argument');
  assert.ok(!(await ro.listTools()).tools.some((x) => x.name === 'import_from_url'), 'read keys cannot import');
});

test('a setting cannot open the loopback door: without the programmatic switch the remote is refused', async () => {
  const other = await startTestRuntime(copyVault(), { importAllowHttp: true, testOnlyNetAllow: { allow: [`127.0.0.1:${P}`] } as unknown as never });
  try {
    const c = await connect(other.url, other.rwKey);
    assert.equal(refusalCode(await call(c, 'import_from_url', { url: `http://127.0.0.1:${P}/file.txt`, path: 'x.txt' })), 'forbidden_address');
    const https = await startTestRuntime(copyVault(), {}, { services: { testOnlyNetAllow: { allow } } });
    const c2 = await connect(https.url, https.rwKey);
    assert.equal(refusalCode(await call(c2, 'import_from_url', { url: `http://127.0.0.1:${P}/file.txt`, path: 'x.txt' })), 'invalid_argument', 'plain http is off by default');
    await c2.close(); await https.stop();
    await c.close();
  } finally {
    await other.stop();
  }
});
