// Transfer links end to end: minted through the MCP tools over real HTTP, redeemed with a real HTTP
// client (fetch) like the page and curl do; expiry with an injected clock; single use; byte binding;
// revocation with the key; one 404 for every bad token; the token in no log line.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { copyVault } from '../helpers/vault.js';
import { connect, call, refusalCode, textOf, startCli } from '../helpers/server.js';
import { startSec, FakeClock, type SecRuntime } from '../security/helpers.js';
import { contentHash } from '../../src/core/hash.js';
import { TRANSFER_CSP } from '../../src/transfer/pages.js';

const LOOSE = { rateLimitPerMinute: 1e6, rateLimitBurst: 1e6, writeRateLimitPerMinute: 1e6, writeRateLimitBurst: 1e6, defaultDailyQuota: 0 };
const clock = new FakeClock();
let vault: string;
let t: SecRuntime;
let rwKey: string;
let rw: Client;
let ro: Client;
let base: string;

const tokenOf = (url: string) => new URL(url).hash.replace(/^#t=/, '');
const get = (path: string, token?: string) => fetch(base + path, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
const put = (token: string, body: Uint8Array, type = 'application/octet-stream') => fetch(base + '/transfer/upload', { method: 'PUT', headers: { Authorization: `Bearer ${token}`, 'Content-Type': type }, body: body as unknown as BodyInit });

before(async () => {
  vault = copyVault();
  writeFileSync(join(vault, 'Attachments', 'report.pdf'), Buffer.from('%PDF-1.4 fake report\n'));
  t = await startSec(vault, { ...LOOSE, maxWriteBytes: 4096 }, { now: clock.now });
  rwKey = await t.key({ name: 'agent', scope: 'readwrite' });
  rw = await connect(t.url, rwKey);
  ro = await connect(t.url, await t.key({ name: 'reader', scope: 'read' }));
  base = t.url.replace(/\/mcp$/, '');
});

after(async () => {
  await rw?.close(); await ro?.close();
  await t?.stop();
});

test('tools: download for every key, upload only for readwrite keys; described and annotated', async () => {
  const rwNames = (await rw.listTools()).tools.map((x) => x.name);
  const roNames = (await ro.listTools()).tools.map((x) => x.name);
  for (const n of ['request_download', 'request_upload', 'check_upload', 'import_from_url']) assert.ok(rwNames.includes(n), n);
  assert.ok(roNames.includes('request_download'));
  assert.ok(!roNames.includes('request_upload') && !roNames.includes('import_from_url'), 'read keys get no upload/import');
  const ro2 = await startSec(copyVault(), { readOnly: true });
  const c = await connect(ro2.url, await ro2.key({ name: 'w', scope: 'readwrite' }));
  const names = (await c.listTools()).tools.map((x) => x.name);
  assert.ok(names.includes('request_download') && !names.includes('request_upload') && !names.includes('import_from_url'), 'global read-only mode hides them');
  await c.close(); await ro2.stop();
});

test('download: link shape, page with strict CSP, redeem twice from a real client, token only from the header', async () => {
  const r = await call(rw, 'request_download', { path: 'Attachments/report.pdf' });
  assert.equal(r.isError, undefined, textOf(r));
  const s = r.structuredContent!;
  assert.match(s.url, /^http:\/\/127\.0\.0\.1:\d+\/transfer#t=vmt_[A-Za-z0-9_-]{43}$/);
  assert.equal(new URL(s.url).port, String(t.rt.server.port));
  const token = tokenOf(s.url);
  const bytes = readFileSync(join(vault, 'Attachments/report.pdf'));
  assert.equal(s.content_hash, contentHash(bytes));
  assert.equal(s.expires_at, new Date(clock.t + 600_000).toISOString());

  const page = await get('/transfer');
  assert.equal(page.status, 200);
  assert.equal(page.headers.get('content-security-policy'), TRANSFER_CSP);
  const html = await page.text();
  assert.ok(!/<script(?![^>]*\bsrc=)[^>]*>/i.test(html) && !/\sstyle=|\son\w+=|<style/i.test(html), 'no inline script, style or handler');
  assert.ok(!html.includes(token));
  const js = await get('/transfer/app.js');
  assert.equal(js.headers.get('content-security-policy'), TRANSFER_CSP);
  assert.match(js.headers.get('content-type') ?? '', /javascript/);
  const src = await js.text();
  assert.match(src, /location\.hash/);
  assert.doesNotThrow(() => new Function(src), 'the page script parses');
  assert.ok(!/innerHTML|eval\(|document\.write/.test(src), 'server strings are shown as text only');

  const info = await get('/transfer/info', token);
  assert.deepEqual(await info.json(), { kind: 'download', path: 'Attachments/report.pdf', name: 'report.pdf', size: bytes.length, expires_at: clock.t + 600_000 });
  for (let i = 0; i < 2; i++) {
    const d = await get('/transfer/download', token);
    assert.equal(d.status, 200);
    assert.match(d.headers.get('content-disposition') ?? '', /attachment; filename="report\.pdf"/);
    assert.deepEqual(Buffer.from(await d.arrayBuffer()), bytes);
  }
  assert.equal((await get(`/transfer/download?t=${token}`)).status, 404, 'a token in the URL is not accepted');
  assert.equal((await fetch(`${base}/transfer/download`, { headers: { Cookie: `t=${token}` } })).status, 404);
});

test('download: bound to the bytes at mint time; expiry with the injected clock', async () => {
  assert.equal((await call(rw, 'write_file', { path: 'Attachments/changing.bin', content: Buffer.from([1, 2, 3]).toString('base64') })).isError, undefined);
  const a = tokenOf((await call(rw, 'request_download', { path: 'Attachments/changing.bin' })).structuredContent!.url);
  assert.equal((await get('/transfer/download', a)).status, 200);
  writeFileSync(join(vault, 'Attachments', 'changing.bin'), Buffer.from([9, 9, 9]));
  assert.equal((await get('/transfer/download', a)).status, 404, 'changed file: link stops working');
  writeFileSync(join(vault, 'Attachments', 'changing.bin'), Buffer.from([1, 2, 3]));
  assert.equal((await get('/transfer/download', a)).status, 404, 'and stays dead');

  const e = tokenOf((await call(rw, 'request_download', { path: 'Welcome.md', expires_in: 60 })).structuredContent!.url);
  assert.equal((await get('/transfer/download', e)).status, 200);
  clock.advance(59_999);
  assert.equal((await get('/transfer/download', e)).status, 200);
  clock.advance(1);
  assert.equal((await get('/transfer/download', e)).status, 404, 'expired');
  assert.equal(refusalCode(await call(rw, 'request_download', { path: 'Welcome.md', expires_in: 59 })), 'invalid_argument');
  assert.equal(refusalCode(await call(rw, 'request_download', { path: 'Welcome.md', expires_in: 3601 })), 'invalid_argument');
  assert.equal(refusalCode(await call(rw, 'request_download', { path: 'Nope.pdf' })), 'not_found');
});

test('upload: single use, lands through the safe write path, check_upload states, only for its key', async () => {
  const r = await call(rw, 'request_upload', { path: 'Inbox/scan.pdf' });
  assert.equal(r.isError, undefined, textOf(r));
  const { upload_id, url, max_bytes } = r.structuredContent!;
  assert.equal(max_bytes, 4096);
  const token = tokenOf(url);
  assert.equal((await call(rw, 'check_upload', { upload_id })).structuredContent!.status, 'pending');
  assert.equal((await call(ro, 'check_upload', { upload_id })).structuredContent!.status, 'unknown', 'another key sees nothing');
  const info = await (await get('/transfer/info', token)).json();
  assert.deepEqual(info, { kind: 'upload', path: 'Inbox/scan.pdf', name: 'scan.pdf', overwrite: false, max_bytes: 4096, expires_at: clock.t + 600_000 });

  const body = randomBytes(1000);
  const up = await put(token, body, 'application/pdf');
  assert.equal(up.status, 201);
  const sha = contentHash(body).slice(7);
  assert.deepEqual(await up.json(), { path: 'Inbox/scan.pdf', size: 1000, sha256: sha, mime: 'application/pdf', created: true, content_hash: `sha256:${sha}` });
  assert.deepEqual(readFileSync(join(vault, 'Inbox/scan.pdf')), body);
  const done = (await call(rw, 'check_upload', { upload_id })).structuredContent!;
  assert.equal(done.status, 'completed');
  assert.equal(done.content_hash, `sha256:${sha}`);
  assert.equal(done.size, 1000);
  assert.equal(done.mime, 'application/pdf');
  assert.equal(done.path, 'Inbox/scan.pdf');
  // Indexed: the next read sees it at once.
  assert.equal((await call(rw, 'read_file', { path: 'Inbox/scan.pdf', hash_only: true })).structuredContent!.content_hash, `sha256:${sha}`);
  assert.equal((await put(token, randomBytes(10))).status, 404, 'single use');
  assert.equal((await fetch(base + '/transfer/download', { method: 'POST', headers: { Authorization: `Bearer ${token}` } })).status, 405);
  // A note uploaded this way is attributed to the key in the change feed, like write tools' writes.
  const note = await call(rw, 'request_upload', { path: 'Inbox/uploaded.md' });
  assert.equal((await put(tokenOf(note.structuredContent!.url), Buffer.from('# Uploaded\n'), 'text/markdown')).status, 201);
  const feed = await call(rw, 'get_changes', { since: 'ev:0', folder: 'Inbox' });
  const line = feed.structuredContent!.changes.find((c: { path?: string }) => c.path === 'Inbox/uploaded.md');
  assert.ok(line, textOf(feed));
  assert.equal(line.by, 'agent');
  assert.equal(line.kind, 'created');
  assert.deepEqual(readFileSync(join(vault, 'Inbox/scan.pdf')), body, 'a reused token changes nothing');
});

test('upload: no-clobber, overwrite, size cap, root confinement', async () => {
  assert.equal(refusalCode(await call(rw, 'request_upload', { path: 'Welcome.md' })), 'already_exists');
  // Destination taken after minting: refused at upload, the link stays pending with the reason.
  const r = await call(rw, 'request_upload', { path: 'Inbox/late.bin' });
  const token = tokenOf(r.structuredContent!.url);
  writeFileSync(join(vault, 'Inbox', 'late.bin'), 'someone else'); // behind the server's back (no watcher)
  const clash = await put(token, Buffer.from('mine'));
  assert.equal(clash.status, 409);
  assert.equal(readFileSync(join(vault, 'Inbox/late.bin'), 'utf8'), 'someone else');
  const st = (await call(rw, 'check_upload', { upload_id: r.structuredContent!.upload_id })).structuredContent!;
  assert.equal(st.status, 'pending');
  assert.match(st.last_error, /already exists/);

  const ow = await call(rw, 'request_upload', { path: 'Welcome.md', overwrite: true });
  assert.equal(ow.isError, undefined, textOf(ow));
  const res = await put(tokenOf(ow.structuredContent!.url), Buffer.from('# Replaced\n'), 'text/markdown');
  assert.equal(res.status, 200);
  assert.equal(readFileSync(join(vault, 'Welcome.md'), 'utf8'), '# Replaced\n');

  const big = await call(rw, 'request_upload', { path: 'Inbox/big.bin' });
  const bt = tokenOf(big.structuredContent!.url);
  assert.equal((await put(bt, randomBytes(5000))).status, 413);
  assert.ok(!existsSync(join(vault, 'Inbox/big.bin')));
  assert.equal((await put(bt, randomBytes(4096))).status, 201, 'still usable after a refused attempt, up to the cap');

  const confined = await connect(t.url, await t.key({ name: 'proj', scope: 'readwrite', root: 'Projects' }));
  assert.equal(refusalCode(await call(confined, 'request_upload', { path: 'Inbox/x.bin' })), 'permission_denied');
  assert.equal(refusalCode(await call(confined, 'request_download', { path: 'Welcome.md' })), 'not_found');
  assert.equal((await call(confined, 'request_download', { path: 'Projects/Garden Redesign.md' })).isError, undefined);
  await confined.close();
});

test('revoking the key kills its links; every bad token gets the same 404', async () => {
  const doomedKey = await t.key({ name: 'doomed', scope: 'readwrite' });
  const c = await connect(t.url, doomedKey);
  const d = tokenOf((await call(c, 'request_download', { path: 'Attachments/report.pdf' })).structuredContent!.url);
  const u = tokenOf((await call(c, 'request_upload', { path: 'Inbox/doomed.bin' })).structuredContent!.url);
  assert.equal((await get('/transfer/download', d)).status, 200);
  assert.ok(await t.rt.keys.revoke('doomed'));
  await c.close().catch(() => undefined);
  const answers: string[] = [];
  const record = async (res: Response) => { answers.push(`${res.status} ${await res.text()}`); };
  await record(await get('/transfer/download', d)); // revoked key
  await record(await put(u, Buffer.from('x'))); // revoked key, upload
  assert.ok(!existsSync(join(vault, 'Inbox/doomed.bin')));
  await record(await get('/transfer/download', 'vmt_' + randomBytes(32).toString('base64url'))); // unknown
  await record(await get('/transfer/download', 'garbage')); // malformed
  await record(await get('/transfer/download')); // none
  const exp = tokenOf((await call(rw, 'request_download', { path: 'Attachments/report.pdf', expires_in: 60 })).structuredContent!.url);
  clock.advance(61_000);
  await record(await get('/transfer/download', exp)); // expired
  const used = await call(rw, 'request_upload', { path: 'Inbox/once.bin' });
  const ut = tokenOf(used.structuredContent!.url);
  assert.equal((await put(ut, Buffer.from('1'))).status, 201);
  await record(await put(ut, Buffer.from('2'))); // used
  await record(await get('/transfer/info', ut));
  const up = tokenOf((await call(rw, 'request_upload', { path: 'Inbox/kind.bin' })).structuredContent!.url);
  await record(await get('/transfer/download', up)); // an upload token used for a download
  assert.equal(new Set(answers).size, 1, answers.join('\n'));
  assert.match(answers[0], /^404 /);
});

test('no token in any log line: audit log, CLI output', async () => {
  const tok = tokenOf((await call(rw, 'request_download', { path: 'Attachments/report.pdf' })).structuredContent!.url);
  assert.equal((await get('/transfer/download', tok)).status, 200);
  await (t.rt.deps.services.audit as { flush(): Promise<void> }).flush();
  const files = readdirSync(t.dataDir, { recursive: true }).map(String);
  assert.ok(files.some((f) => f.includes('audit')), 'an audit log exists');
  for (const f of files) {
    const p = join(t.dataDir, f);
    try { assert.ok(!readFileSync(p, 'utf8').includes(tok), `token in ${f}`); } catch (e) { if ((e as NodeJS.ErrnoException).code !== 'EISDIR') throw e; }
  }

  const key = `vmcp_cli_${randomBytes(8).toString('hex')}`;
  const cli = await startCli(copyVault(), { env: { VAULT_MCP_TOKEN: key } });
  try {
    const c = await connect(cli.url, key);
    const r = await call(c, 'request_download', { path: 'Welcome.md' });
    const ct = tokenOf(r.structuredContent!.url);
    assert.equal(new URL(r.structuredContent!.url).port, String(cli.port));
    const res = await fetch(cli.url.replace(/\/mcp$/, '/transfer/download'), { headers: { Authorization: `Bearer ${ct}` } });
    assert.equal(res.status, 200);
    await res.arrayBuffer();
    const up = await call(c, 'request_upload', { path: 'Inbox/cli.txt' });
    const put2 = await fetch(cli.url.replace(/\/mcp$/, '/transfer/upload'), { method: 'PUT', headers: { Authorization: `Bearer ${tokenOf(up.structuredContent!.url)}` }, body: 'hi' });
    assert.equal(put2.status, 201);
    await c.close();
    await cli.stop();
    assert.ok(!cli.output().includes(ct) && !cli.output().includes(tokenOf(up.structuredContent!.url)), 'no token on stdout/stderr');
  } finally {
    await cli.stop();
  }
});

test('the page script, run against the server: reads the fragment, strips it, uploads the picked file with the header', async () => {
  const { runInNewContext } = await import('node:vm');
  const { PAGE_JS } = await import('../../src/transfer/pages.js');
  const r = await call(rw, 'request_upload', { path: 'Inbox/from-page.txt' });
  const token = tokenOf(r.structuredContent!.url);
  const els = new Map<string, Record<string, any>>();
  const el = (id: string) => {
    if (!els.has(id)) els.set(id, { id, hidden: true, disabled: false, textContent: '', className: '', files: [] as Blob[], handlers: {} as Record<string, () => void>, addEventListener(ev: string, fn: () => void) { this.handlers[ev] = fn; } });
    return els.get(id)!;
  };
  const seen: { url: string; auth: string | null }[] = [];
  const storage = new Map<string, string>();
  let replaced = '';
  const ctx = {
    location: { hash: `#t=${token}`, pathname: '/transfer' },
    history: { replaceState: (_a: unknown, _b: unknown, u: string) => { replaced = u; } },
    sessionStorage: { getItem: (k: string) => storage.get(k) ?? null, setItem: (k: string, v: string) => storage.set(k, v), removeItem: (k: string) => storage.delete(k) },
    document: { getElementById: el, createElement: () => ({ click() {}, remove() {} }), body: { appendChild() {} } },
    URLSearchParams, URL, setTimeout, Date,
    fetch: (u: string, init: RequestInit = {}) => { seen.push({ url: u, auth: new Headers(init.headers).get('authorization') }); return fetch(base + u, init); },
  };
  runInNewContext(PAGE_JS, ctx);
  const until = async (f: () => boolean) => { for (let i = 0; i < 500 && !f(); i++) await new Promise((res) => setTimeout(res, 10)); };
  await until(() => el('upload').hidden === false);
  assert.equal(replaced, '/transfer', 'the token is removed from the address bar');
  assert.equal(el('u-path').textContent, 'Inbox/from-page.txt');
  el('u-file').files = [new Blob(['picked by a person\n'], { type: 'text/plain' })];
  el('u-file').handlers.change();
  assert.equal(el('u-go').disabled, false);
  el('u-go').handlers.click();
  await until(() => /Uploaded/.test(el('result').textContent));
  assert.match(el('result').textContent, /^Uploaded 19 bytes to Inbox\/from-page\.txt/);
  assert.equal(readFileSync(join(vault, 'Inbox/from-page.txt'), 'utf8'), 'picked by a person\n');
  assert.deepEqual(seen.map((s) => [s.url, s.auth]), [['/transfer/info', `Bearer ${token}`], ['/transfer/upload', `Bearer ${token}`]]);
  assert.equal((await call(rw, 'check_upload', { upload_id: r.structuredContent!.upload_id })).structuredContent!.mime, 'text/plain');
});

test('the Host/Origin guard lets the page\'s same-origin calls through and refuses foreign origins', async () => {
  const r = await call(rw, 'request_upload', { path: 'Inbox/origin.txt' });
  const token = tokenOf(r.structuredContent!.url);
  const foreign = await fetch(base + '/transfer/upload', { method: 'PUT', headers: { Authorization: `Bearer ${token}`, Origin: 'http://evil.example' }, body: 'x' });
  assert.equal(foreign.status, 403);
  const same = await fetch(base + '/transfer/upload', { method: 'PUT', headers: { Authorization: `Bearer ${token}`, Origin: base }, body: 'ok' });
  assert.equal(same.status, 201, 'a foreign attempt did not use up the link');
  const page = await fetch(base + '/transfer', { headers: { Origin: base } });
  assert.equal(page.status, 200);
});
