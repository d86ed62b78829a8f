// Background saves that the disk refuses (keys' last use, the audit log, usage counters, the keyword
// index, the change feed) never take the server down: against the real CLI server, the data folder
// becomes unusable (replaced by a file: every write fails; a full tmpfs: ENOSPC, where this machine
// lets us mount one; an unwritable folder: EACCES, when not running as root). The server keeps
// answering, /health says which files cannot be saved and why (no path, no errno), and once the
// disk works again the saves are retried and land, the audit log missing none of the calls.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mkdirSync, writeFileSync, readFileSync, rmSync, renameSync, chmodSync, symlinkSync, existsSync, openSync, writeSync, closeSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { connect, call, startCli, type CliServer } from '../../helpers/server.js';
import { tempDir } from '../../helpers/vault.js';
import { KeyStore } from '../../../src/services/keyStore.js';
import { FsDataStore } from '../../../src/host/fsDataStore.js';
import { Category, report } from './report.js';
import { copyVault } from '../../helpers/vault.js';
import { startPlugin, unloadAll } from '../../plugin/harness.js';

after(unloadAll);

interface Health { status: string; saves: { ok: boolean; failing: { file: string; cause: string }[] } }

async function health(srv: CliServer): Promise<Health> {
  return (await (await fetch(srv.url.replace('/mcp', '/health'))).json()) as Health;
}

/** Polls /health until `cond` holds; the test's own timeout bounds the wait. */
async function until(srv: CliServer, cond: (h: Health) => boolean): Promise<Health> {
  for (;;) {
    const h = await health(srv);
    if (cond(h)) return h;
    if (srv.child.exitCode !== null) throw new Error(`the server exited (${srv.child.exitCode}):\n${srv.output().slice(-800)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

function vault(): string {
  const v = join(tempDir('vmcp-saves-'), 'vault');
  mkdirSync(v, { recursive: true });
  for (let i = 0; i < 20; i++) writeFileSync(join(v, `Note ${i}.md`), `# Note ${i}\n\nplan ${i}\n`);
  return v;
}

/**
 * Starts the CLI on `data`, makes calls, breaks the data folder with `breakIt`, makes calls for as
 * long as it takes every background saver to fail at least once, checks the server is up and
 * reports it, repairs with `repair`, and checks everything was saved.
 */
async function attack(cat: Category, data: string, breakIt: () => void, repair: () => void, cause: RegExp): Promise<void> {
  const v = vault();
  const { raw } = await new KeyStore(new FsDataStore(data)).add({ name: 'k', scope: 'readwrite' });
  const srv = await startCli(v, { dataDir: data });
  let calls = 0;
  try {
    const c = await connect(srv.url, raw);
    const work = async () => {
      await call(c, 'read_note', { path: 'Note 1.md' });
      await call(c, 'edit_note', { path: `Note ${calls % 20}.md`, content: `line ${calls}`, append: true });
      calls += 2;
    };
    await work();
    await call(c, 'keyword_search', { query: 'plan' });
    breakIt();
    // Keep calling until keys.json (last use, flushed after 5 s), the audit log and the index have all failed once.
    const want = ['keys.json', 'audit.jsonl', 'keyword-index.bin'];
    let h: Health;
    for (;;) {
      await work();
      h = await health(srv);
      if (want.every((f) => h.saves.failing.some((x) => x.file === f))) break;
      if (srv.child.exitCode !== null) break;
      await new Promise((r) => setTimeout(r, 300));
    }
    cat.check('the server is still up after the saves failed', srv.child.exitCode === null, srv.output().slice(-500));
    cat.check('/health says degraded', h.status === 'degraded', JSON.stringify(h).slice(0, 300));
    for (const f of want) cat.check(`/health names ${f} with its cause`, h.saves.failing.some((x) => x.file === f && cause.test(x.cause)), JSON.stringify(h.saves));
    cat.check('/health shows no path and no errno', !/\/|\\|E[A-Z]{3,}/.test(JSON.stringify(h.saves)), JSON.stringify(h.saves));
    await cat.attempt('calls still answer', async () => { await work(); assert.equal((await call(c, 'read_note', { path: 'Note 2.md' })).isError, undefined); });
    repair();
    const ok = await until(srv, (x) => x.saves.ok);
    cat.check('the saves land once the disk works again', ok.status === 'ok');
    await c.close();
  } finally {
    const code = await srv.stop();
    cat.check('clean stop', code === 0, `exit ${code}`);
  }
  const audit = readFileSync(join(data, 'audit.jsonl'), 'utf8').split('\n').filter(Boolean);
  cat.check('no audited call was lost', audit.length >= calls, `${audit.length} lines for ${calls}+ calls`);
  const keys = JSON.parse(readFileSync(join(data, 'keys.json'), 'utf8')) as { keys: { lastUsed: number | null }[] };
  cat.check('the key\'s last use was written', typeof keys.keys[0]?.lastUsed === 'number');
  cat.check('the keyword index was written', existsSync(join(data, 'keyword-index.bin')));
}

test('background saves: a data folder that stops being a folder', { timeout: 240_000 }, async () => {
  const cat = new Category('background saves (data folder replaced by a file)');
  // The data path is a link to the real folder, so a file takes its place and the link comes back
  // in one rename each (a rename replaces a link whole). Moving the folder itself away and back took
  // two steps, and the server, writing all the while from its own process, could make a fresh
  // folder in between (CI saw the move back refused: ENOTEMPTY).
  const root = tempDir('vmcp-saves-data-');
  const real = join(root, 'real');
  const data = join(root, 'data');
  mkdirSync(real);
  symlinkSync(real, data);
  const replaceWith = (make: (path: string) => void) => { const next = join(root, 'next'); make(next); renameSync(next, data); };
  await attack(cat, data, () => replaceWith((p) => writeFileSync(p, 'in the way')), () => replaceWith((p) => symlinkSync(real, p)), /not a folder|in the way/);
  report(cat);
});

test('background saves: a full disk (ENOSPC on a small tmpfs)', { timeout: 240_000 }, async (t) => {
  const mnt = join(tempDir('vmcp-saves-mnt-'), 'mnt');
  mkdirSync(mnt);
  const m = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mnt], { encoding: 'utf8' });
  if (m.status !== 0) { t.skip(`cannot mount a tmpfs here (${(m.stderr || m.error?.message || '').trim() || 'not permitted'}); the replaced-folder test covers the same code`); return; }
  const cat = new Category('background saves (full disk)');
  const data = join(mnt, 'data');
  const filler = join(mnt, 'filler');
  const fill = () => {
    const fd = openSync(filler, 'w');
    const block = Buffer.alloc(4096, 1);
    try { for (;;) writeSync(fd, block); } catch { /* ENOSPC: full */ } finally { closeSync(fd); }
  };
  try {
    await attack(cat, data, fill, () => rmSync(filler), /disk is full/);
  } finally { spawnSync('umount', ['-l', mnt]); }
  report(cat);
});

test('background saves: an unwritable data folder (EACCES)', { timeout: 240_000 }, async (t) => {
  if (process.getuid?.() === 0) { t.skip('running as root: permissions do not stop root; the other two tests cover the same code'); return; }
  const cat = new Category('background saves (unwritable folder)');
  const data = join(tempDir('vmcp-saves-ro-'), 'data');
  await attack(cat, data, () => chmodSync(data, 0o500), () => chmodSync(data, 0o700), /permission/);
  report(cat);
});

test('background saves in the app: the status bar says so, and clears once the saves land', { timeout: 180_000 }, async () => {
  const cat = new Category('background saves (plugin status bar)');
  const s = await startPlugin(copyVault(), { port: 0, rateLimitPerMinute: 0, defaultDailyQuota: 0 });
  const port = s.plugin.runtime!.server.port;
  const bar = () => String(s.app.statusBar.children[0]?.text ?? '');
  const waitBar = async (re: RegExp) => { while (!re.test(bar())) await new Promise((r) => setTimeout(r, 100)); };
  try {
    const key = (await new KeyStore(new FsDataStore(s.dataDir)).add({ name: 'k', scope: 'read' })).raw;
    const c = await connect(`http://127.0.0.1:${port}/mcp`, key);
    await call(c, 'stats');
    renameSync(s.dataDir, `${s.dataDir}.aside`);
    writeFileSync(s.dataDir, 'in the way');
    await call(c, 'read_note', { path: 'Welcome.md' }); // its audit line cannot be written
    await waitBar(/saves failing/);
    cat.check('status bar: saves failing', bar() === `MCP: on :${port} · saves failing`, bar());
    const tip = (s.app.statusBar.children[0] as unknown as { attrs: Record<string, string> }).attrs['aria-label'] ?? '';
    cat.check('its tooltip names the file and the cause', /Could not save audit\.jsonl \((a file is in the way|the data folder is not a folder)/.test(tip), tip);
    cat.check('the server still answers', (await call(c, 'stats')).isError === undefined);
    rmSync(s.dataDir);
    renameSync(`${s.dataDir}.aside`, s.dataDir);
    await waitBar(new RegExp(`^MCP: on :${port}$`));
    cat.check('status bar back to normal once the saves landed', bar() === `MCP: on :${port}`, bar());
    await c.close();
  } finally { await s.plugin.unload(); }
  report(cat);
});
