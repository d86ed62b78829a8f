// Floods and slow clients against the real CLI server (a child process, so its memory is its own):
// thousands of sessions opened and never closed, many of them holding an idle event stream, and
// clients that trickle their headers or body. Sessions stay capped per key and in all (the oldest
// idle ones are closed, their streams ended), a calm key keeps working through the flood, slow
// clients are cut off (HTTP 408) while others are served, and the server's memory stays bounded:
// the figures are printed (RSS before/after; the bound is the session cap, not a timing).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mkdirSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { connect as netConnect, type Socket } from 'node:net';
import { spawnSync } from 'node:child_process';
import { REPO } from '../../helpers/paths.js';
import { connect, call, startCli } from '../../helpers/server.js';
import { tempDir } from '../../helpers/vault.js';
import { KeyStore } from '../../../src/services/keyStore.js';
import { FsDataStore } from '../../../src/host/fsDataStore.js';
import { LIMIT_DEFAULTS } from '../../../src/limits/settings.js';
import { Category, report } from './report.js';

const H = (key: string, sid?: string) => ({
  authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18', ...(sid ? { 'mcp-session-id': sid } : {}),
});
const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'flood', version: '1' } } });

function rssMb(pid: number): number | null {
  const f = `/proc/${pid}/status`;
  if (!existsSync(f)) return null;
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(f, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : null;
}

async function setup(keyCount: number) {
  const root = tempDir('vmcp-flood-');
  const vault = join(root, 'vault');
  mkdirSync(vault, { recursive: true });
  writeFileSync(join(vault, 'Note.md'), '# Note\n\nbody\n');
  const data = join(root, 'data');
  const store = new KeyStore(new FsDataStore(data));
  const keys: string[] = [];
  for (let i = 0; i < keyCount; i++) keys.push((await store.add({ name: `k${i}`, scope: 'read' })).raw);
  return { vault, data, keys };
}

async function openSession(url: string, key: string): Promise<string | null> {
  const r = await fetch(url, { method: 'POST', headers: H(key), body: INIT });
  await r.text();
  return r.status === 200 ? r.headers.get('mcp-session-id') : null;
}

async function inBatches<T>(n: number, width: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < n; i += width) out.push(...await Promise.all(Array.from({ length: Math.min(width, n - i) }, (_, j) => fn(i + j))));
  return out;
}

test('a flood of sessions and idle event streams stays capped; a calm key keeps working; memory bounded', { timeout: 600_000 }, async () => {
  const perKey = LIMIT_DEFAULTS.maxSessionsPerKey;
  const total = LIMIT_DEFAULTS.maxSessions;
  const { vault, data, keys } = await setup(12);
  const calmKey = keys.pop()!;
  const cat = new Category('session flood');
  const streams = new Category('idle event streams');
  const srv = await startCli(vault, { dataDir: data, args: ['--rate-limit', '0', '--default-quota', '0'] });
  const health = async () => (await (await fetch(srv.url.replace('/mcp', '/health'))).json()) as { sessions: number; sessions_evicted: number };
  try {
    const calm = await connect(srv.url, calmKey);
    await call(calm, 'stats');
    const rssBefore = rssMb(srv.child.pid!);
    // 100 sessions of one key, each holding an idle event stream (GET /mcp, never read).
    const held: { sid: string; ended: Promise<boolean> }[] = [];
    for (let i = 0; i < 100; i++) {
      const sid = await openSession(srv.url, keys[0]);
      if (!sid) { streams.check(`stream session ${i} opened`, false); continue; }
      await (await fetch(srv.url, { method: 'POST', headers: H(keys[0], sid), body: '{"jsonrpc":"2.0","method":"notifications/initialized"}' })).text();
      const res = await fetch(srv.url, { method: 'GET', headers: { ...H(keys[0], sid), accept: 'text/event-stream' } });
      const reader = res.body!.getReader();
      held.push({ sid, ended: (async () => { try { for (;;) { const { done } = await reader.read(); if (done) return true; } } catch { return true; } })() });
    }
    streams.check('one key never holds more than its cap', (await health()).sessions <= perKey + 1, `sessions ${(await health()).sessions}`);
    // The flood: 3,000 sessions over 10 keys, never closed.
    const opened = await inBatches(3000, 30, (i) => openSession(srv.url, keys[i % 10]));
    cat.check('every initialize was answered', opened.length === 3000);
    cat.check('the flood was admitted (oldest idle closed to make room)', opened.filter(Boolean).length === 3000, `${opened.filter(Boolean).length} admitted`);
    const h = await health();
    cat.check(`open sessions ≤ ${total}`, h.sessions <= total, `open ${h.sessions}`);
    cat.check('sessions were evicted', h.sessions_evicted >= 3000 + 100 - total, `evicted ${h.sessions_evicted}`);
    // Every held stream belonged to a session closed to make room: each one has ended.
    const ended = await Promise.all(held.map((x) => x.ended));
    streams.check('every evicted session\'s event stream was ended', ended.every(Boolean), `${ended.filter(Boolean).length}/${held.length} ended`);
    for (const x of held.slice(0, 10)) {
      const r = await fetch(srv.url, { method: 'POST', headers: H(keys[0], x.sid), body: '{"jsonrpc":"2.0","id":5,"method":"ping"}' });
      await r.text();
      streams.check('an evicted session answers 404 (start a new one)', r.status === 404, `status ${r.status}`);
    }
    // The calm key's session was used least recently of all and is gone too (the cap in all), but the key still works.
    await cat.attempt('the calm key opens a new session and calls a tool during the flood', async () => {
      const c2 = await connect(srv.url, calmKey);
      assert.equal((await call(c2, 'read_note', { path: 'Note.md' })).isError, undefined);
      await c2.close();
    });
    await calm.close().catch(() => undefined);
    const rss1 = rssMb(srv.child.pid!);
    if (rssBefore !== null && rss1 !== null) {
      console.log(`# session flood (CLI server): ${h.sessions} sessions open after 3,100 initialize calls (100 holding an idle event stream; caps ${perKey} per key, ${total} in all; ${h.sessions_evicted} evicted). Server RSS ${rssBefore} MB before, ${rss1} MB after (RSS keeps freed heap; the live heap is measured below)`);
    }
    cat.check('the server is still up', srv.child.exitCode === null);
  } finally { await srv.stop(); }
  report(cat, streams);
});

test('memory under a session flood: the live heap stops growing at the cap', { timeout: 600_000 }, () => {
  const cat = new Category('session flood memory');
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', join(REPO, 'test/security/adversarial/flood-child.ts')], { cwd: REPO, encoding: 'utf8', timeout: 500_000 });
  assert.equal(r.status, 0, r.stderr);
  const rows = [...r.stdout.matchAll(/round (\d) heap ([\d.]+) sessions (\d+)/g)].map((m) => ({ round: Number(m[1]), heap: Number(m[2]), sessions: Number(m[3]) }));
  assert.equal(rows.length, 3, r.stdout);
  console.log(`# session flood memory (live heap after GC, in-process server, 10 keys): ${rows.map((x) => `${x.round * 3000} sessions opened: ${x.heap} MB, ${x.sessions} open`).join('; ')}`);
  for (const x of rows.slice(1)) cat.check(`${x.round * 3000} opened: ≤ ${LIMIT_DEFAULTS.maxSessions} open`, x.sessions <= LIMIT_DEFAULTS.maxSessions, `${x.sessions}`);
  // Each uncapped session held about 28 KB: 3,000 more would add about 80 MB. Capped, the heap stays put.
  cat.check('the heap does not grow from 3,000 to 6,000 sessions opened', rows[2].heap - rows[1].heap < 10, `${rows[1].heap} → ${rows[2].heap} MB`);
  report(cat);
});

test('slow clients are cut off (408) while others are served', { timeout: 180_000 }, async () => {
  const { vault, data, keys } = await setup(1);
  const cat = new Category('slow clients');
  const srv = await startCli(vault, { dataDir: data, args: ['--headers-timeout-s', '2', '--request-timeout-s', '4'] });
  const port = srv.port;
  const open = (first: string, drip: string, everyMs: number) => {
    const s: Socket = netConnect(port, '127.0.0.1', () => s.write(first));
    let got = '';
    s.on('data', (d) => { got += d; });
    const timer = setInterval(() => { if (s.writable) s.write(drip); }, everyMs);
    const closed = new Promise<string>((r) => s.on('close', () => { clearInterval(timer); r(got); }));
    s.on('error', () => undefined);
    return closed;
  };
  try {
    // 100 clients trickling headers (slowloris), 50 trickling a body that never completes.
    const loris = Array.from({ length: 100 }, () => open('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n', 'X-Drip: 1\r\n', 500));
    const body = Array.from({ length: 50 }, () => open(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${keys[0]}\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{`, ' ', 300));
    await cat.attempt('a normal client is served meanwhile', async () => {
      const c = await connect(srv.url, keys[0]);
      assert.equal((await call(c, 'read_note', { path: 'Note.md' })).isError, undefined);
      await c.close();
    });
    for (const [i, p] of loris.entries()) {
      const got = await p;
      cat.check(`header trickler ${i} cut off with 408`, got.startsWith('HTTP/1.1 408'), JSON.stringify(got.slice(0, 40)));
    }
    for (const [i, p] of body.entries()) {
      const got = await p;
      cat.check(`body trickler ${i} cut off with 408`, got.startsWith('HTTP/1.1 408'), JSON.stringify(got.slice(0, 40)));
    }
    await cat.attempt('/health answers after', async () => assert.equal((await fetch(srv.url.replace('/mcp', '/health'))).status, 200));
  } finally { await srv.stop(); }
  report(cat);
});
