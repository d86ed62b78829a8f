// Revocation is immediate: once `keys revoke` (another process writing keys.json) has returned,
// the very next request with that key is refused: a new MCP request in an open session, a new
// session, and the /transfer routes of links the key minted. Attempted with the real CLI against
// the real CLI server, and in a tight loop with a second KeyStore standing in for the CLI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { mkdirSync, writeFileSync } from 'node:fs';
import { connect, call, startCli } from '../../helpers/server.js';
import { CLI } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/vault.js';
import { KeyStore } from '../../../src/services/keyStore.js';
import { FsDataStore } from '../../../src/host/fsDataStore.js';
import { Category, report } from './report.js';

const H = (key: string, sid?: string) => ({
  authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18', ...(sid ? { 'mcp-session-id': sid } : {}),
});
const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'revoke-probe', version: '1' } } });
const LIST = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });

function vaultWithNotes(): { vault: string; data: string } {
  const vault = join(tempDir('vmcp-revoke-'), 'vault');
  mkdirSync(vault, { recursive: true });
  writeFileSync(join(vault, 'Note.md'), '# Note\n\nbody\n');
  return { vault, data: join(vault, '..', 'data') };
}

test('a key revoked by the CLI is refused by the next request: open session, new session, transfer link', { timeout: 180_000 }, async () => {
  const { vault, data } = vaultWithNotes();
  const cli = (...a: string[]) => spawnSync(process.execPath, [CLI, 'keys', ...a, '--vault', vault, '--data-dir', data], { encoding: 'utf8', timeout: 60_000 });
  const cat = new Category('revocation (CLI)');
  const names = Array.from({ length: 6 }, (_, i) => `k${i}`);
  const raws = new Map<string, string>();
  for (const n of names) {
    const r = cli('add', '--name', n, '--scope', 'readwrite');
    assert.equal(r.status, 0, r.stderr);
    raws.set(n, r.stdout.match(/vmcp_[A-Za-z0-9_-]{43}/)![0]);
  }
  const srv = await startCli(vault, { dataDir: data });
  try {
    for (const n of names) {
      const raw = raws.get(n)!;
      const c = await connect(srv.url, raw);
      const sid = (c as unknown as { _transport: { sessionId: string } })._transport.sessionId;
      const link = (await call(c, 'request_download', { path: 'Note.md' })).structuredContent!.url as string;
      const token = /#t=(\S+)$/.exec(link)![1];
      cat.check(`${n} works before`, (await fetch(srv.url, { method: 'POST', headers: H(raw, sid), body: LIST })).status === 200);
      const r = cli('revoke', '--name', n);
      assert.equal(r.status, 0, r.stderr);
      // No waiting: these run right after the CLI returned.
      const inSession = await fetch(srv.url, { method: 'POST', headers: H(raw, sid), body: LIST });
      cat.check(`${n} open session refused at once`, inSession.status === 401, `status ${inSession.status}`);
      const fresh = await fetch(srv.url, { method: 'POST', headers: H(raw), body: INIT });
      cat.check(`${n} new session refused at once`, fresh.status === 401, `status ${fresh.status}`);
      const dl = await fetch(new URL('/transfer/download', srv.url), { headers: { authorization: `Bearer ${token}` } });
      cat.check(`${n} transfer link dead at once`, dl.status === 404, `status ${dl.status}`);
      await c.close().catch(() => undefined);
    }
  } finally { await srv.stop(); }
  report(cat);
});

test('revocation race: 200 keys revoked by another KeyStore, each refused by the next request', { timeout: 180_000 }, async () => {
  const { vault, data } = vaultWithNotes();
  const other = new KeyStore(new FsDataStore(data)); // what `keys revoke` runs, in this process for speed
  const raws: [string, string][] = [];
  for (let i = 0; i < 200; i++) raws.push([`r${i}`, (await other.add({ name: `r${i}`, scope: 'read' })).raw]);
  const cat = new Category('revocation (tight loop)');
  // Every refused key counts against the address's failed-sign-in budget: raise it for this loop.
  const srv = await startCli(vault, { dataDir: data, args: ['--auth-failures', '100000'] });
  try {
    for (const [name, raw] of raws) {
      const ok = await fetch(srv.url, { method: 'POST', headers: H(raw), body: INIT });
      await ok.body?.cancel();
      if (ok.status !== 200) { cat.check(`${name} usable before`, false, `status ${ok.status}`); continue; }
      await other.revoke(name);
      const after = await fetch(srv.url, { method: 'POST', headers: H(raw), body: INIT });
      await after.body?.cancel();
      cat.check(`${name} refused right after revoke`, after.status === 401, `status ${after.status}`);
    }
  } finally { await srv.stop(); }
  report(cat);
});

test('a last-use flush racing `keys revoke` never writes the revoked key back', { timeout: 60_000 }, async () => {
  const { data } = vaultWithNotes();
  const cat = new Category('revocation vs last-use flush');
  for (let round = 0; round < 20; round++) {
    const cli = new KeyStore(new FsDataStore(data));
    const { raw } = await cli.add({ name: `f${round}`, scope: 'read' });
    // The server's store writes slowly: its flush has read keys.json and is still writing when the CLI revokes.
    const slow = new FsDataStore(data);
    const write = slow.write.bind(slow);
    let writing: () => void = () => undefined;
    const started = new Promise<void>((r) => { writing = r; });
    slow.write = async (name, bytes) => { writing(); await new Promise((r) => setTimeout(r, 30)); return write(name, bytes); };
    const server = new KeyStore(slow);
    await server.load();
    const rec = await server.authenticate(raw);
    assert.ok(rec);
    server.touch(rec);
    const flushing = server.flush();
    await Promise.race([started, new Promise((r) => setTimeout(r, 200))]);
    await cli.revoke(`f${round}`);
    await flushing;
    const fresh = new KeyStore(new FsDataStore(data));
    await fresh.load();
    cat.check(`round ${round}: revoked key stays revoked`, !fresh.list().some((k) => k.name === `f${round}`));
    cat.check(`round ${round}: the server refuses it`, (await server.authenticate(raw)) === null);
  }
  report(cat);
});
