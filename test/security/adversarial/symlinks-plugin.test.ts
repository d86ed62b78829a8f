// Symlinks never lead out, in Obsidian: the built plugin (main.js + server.js) in the fake app, whose
// vault listing follows symbolic links as the desktop app does (a linked folder's files are listed
// and readable through vault.read). ObsidianHost must apply the same real-path rule as the headless
// host: the same attack (attacks.ts) through every tool family, for a whole-vault, a confined and a
// read key; then links appearing while the app runs (its watcher lists them) and the opt-in.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { symlinkSync, existsSync, readFileSync, mkdirSync } from 'node:fs';
import { connect, call, textOf } from '../../helpers/server.js';
import { KeyStore } from '../../../src/services/keyStore.js';
import { FsDataStore } from '../../../src/host/fsDataStore.js';
import { startPlugin, unloadAll } from '../../plugin/harness.js';
import { Category, report } from './report.js';
import { makeLayout, snapshot, changed, sameAsMissing, leaks } from './fixture.js';
import { attack, READ_TOOLS, WRITE_TOOLS } from './attacks.js';
import { noteUri } from '../../../src/mcp/resourceUris.js';

after(unloadAll);

const LOOSE = { port: 0, rateLimitPerMinute: 0, writeRateLimitPerMinute: 0, defaultDailyQuota: 0, maxConcurrentCallsPerKey: 1000, maxConcurrentCalls: 1000 };

async function plugin(vault: string, settings: Record<string, unknown> = {}) {
  const s = await startPlugin(vault, { ...LOOSE, ...settings });
  const keys = new KeyStore(new FsDataStore(s.dataDir));
  const url = `http://127.0.0.1:${s.plugin.runtime!.server.port}/mcp`;
  return { ...s, url, key: async (spec: Parameters<KeyStore['add']>[0]) => (await keys.add(spec)).raw };
}

test('plugin: symlinks never lead out, every tool family, whole-vault, confined and read keys', { timeout: 300_000 }, async () => {
  const { vault, outside, other } = makeLayout();
  const cat = new Category('symlinks (plugin)');
  const before = { vault: snapshot(vault), outside: snapshot(outside), other: snapshot(other) };
  const s = await plugin(vault);
  try {
    // The fake app, like the real one, lists what the links lead to: the host must be what hides it.
    cat.check('the app itself lists files behind the links', !!s.app.vault.getAbstractFileByPath('Team/outdir/secret.md') && !!s.app.vault.getAbstractFileByPath('Team/dotdir/app.json'));
    const rw = await s.key({ name: 'rw', scope: 'readwrite' });
    const team = await s.key({ name: 'team', scope: 'readwrite', root: 'Team' });
    const ro = await s.key({ name: 'ro', scope: 'read' });
    await attack(s.url, rw, cat, 'rw');
    await attack(s.url, team, cat, 'team');
    await attack(s.url, ro, cat, 'read');
    const c = await connect(s.url, rw);
    await cat.attempt('rw reads notes-link.md (real location inside the vault)', async () => {
      const r = await call(c, 'read_note', { path: 'notes-link.md' });
      assert.equal(r.isError, undefined, textOf(r));
    });
    await c.close();
  } finally { await s.plugin.unload(); }
  const after = { vault: snapshot(vault), outside: snapshot(outside), other: snapshot(other) };
  for (const where of ['outside', 'other'] as const) cat.check(`${where} folder unchanged`, changed(before[where], after[where]).length === 0, changed(before[where], after[where]).join(', '));
  const inVault = changed(before.vault, after.vault).filter((l) => !/^added \.trash\/?$|^(added|changed|removed) \.obsidian\/plugins\/vault-mcp-server\//.test(l));
  cat.check('vault unchanged (dot-folders included)', inVault.length === 0, inVault.join(', '));
  report(cat);
});

test('plugin: links that appear while the app runs are refused once the app lists them', { timeout: 120_000 }, async () => {
  const { vault, outside } = makeLayout();
  const cat = new Category('symlinks created while running (plugin)');
  const s = await plugin(vault);
  try {
    const c = await connect(s.url, await s.key({ name: 'rw', scope: 'readwrite' }));
    symlinkSync(outside, join(vault, 'Late'));
    symlinkSync(join(outside, 'secret.md'), join(vault, 'Team/late.md'));
    symlinkSync(join(vault, '.obsidian'), join(vault, 'LateDot'));
    s.app.vault.noticeDiskChanges(); // what the app's watcher does: it lists them, following the links
    cat.check('the app lists Late/secret.md', !!s.app.vault.getAbstractFileByPath('Late/secret.md'));
    for (const p of ['Late/secret.md', 'Late/sub/deep.md', 'Team/late.md', 'LateDot/app.json', 'LateDot/plugins/vault-mcp-server/keys.json']) {
      for (const [tool, arg, extra] of [...READ_TOOLS, ...WRITE_TOOLS]) {
        await cat.attempt(`${tool}(${p})`, async () => { const bad = await sameAsMissing(c, tool, extra, arg, p); assert.equal(bad, null, bad ?? ''); });
      }
    }
    for (const [tool, args] of [['list_files', { folder: '', recursive: true, limit: 500 }], ['list_folders', {}], ['keyword_search', { query: 'OUTSIDESECRETWORD OUTSIDEDEEPWORD' }]] as [string, Record<string, unknown>][]) {
      await cat.attempt(`${tool} after the links appeared`, async () => {
        const r = await call(c, tool, args);
        assert.deepEqual(leaks(r, String(args.query ?? '')), []);
        assert.ok(!/"Late|"LateDot|late\.md/.test(JSON.stringify(r.structuredContent)), JSON.stringify(r.structuredContent).slice(0, 300));
      });
    }
    for (const [tool, args] of [['create_note', { path: 'LateDot/plugins/vault-mcp-server/x.md', content: 'x' }], ['write_file', { path: 'Late/planted.bin', content: 'eA==' }], ['delete_file', { path: 'Late/image.png', permanent: true }]] as [string, Record<string, unknown>][]) {
      await cat.attempt(`${tool}(${String(args.path)})`, async () => assert.ok((await call(c, tool, args)).isError));
    }
    cat.check('outside files still there', existsSync(join(outside, 'image.png')) && existsSync(join(outside, 'secret.md')) && !existsSync(join(outside, 'planted.bin')));
    cat.check('keys.json has no planted note beside it', !existsSync(join(vault, '.obsidian/plugins/vault-mcp-server/x.md')));
    await c.close();
  } finally { await s.plugin.unload(); }
  report(cat);
});

test('plugin: opt-in folder readable through its link, read-only; others still refused', { timeout: 120_000 }, async () => {
  const { vault, outside } = makeLayout();
  const cat = new Category('symlink opt-in (plugin)');
  const before = snapshot(outside);
  const s = await plugin(vault, { symlinkAllowedFolders: [outside] });
  try {
    const c = await connect(s.url, await s.key({ name: 'rw', scope: 'readwrite' }));
    await cat.attempt('reads Team/outdir/secret.md', async () => {
      const r = await call(c, 'read_note', { path: 'Team/outdir/secret.md' });
      assert.match(JSON.stringify(r.structuredContent), /OUTSIDESECRETWORD/, textOf(r));
    });
    for (const p of ['Team/hiddendir/h.md', 'otherdir/other.md', 'Team/dotdir/app.json']) {
      await cat.attempt(`still refused: ${p}`, async () => { const bad = await sameAsMissing(c, 'read_note', {}, 'path', p); assert.equal(bad, null, bad ?? ''); });
    }
    await cat.attempt('edit in the allowed folder is refused', async () => assert.ok((await call(c, 'edit_note', { path: 'Team/outdir/secret.md', content: 'x', append: true })).isError));
    await c.close();
  } finally { await s.plugin.unload(); }
  cat.check('allowed folder unchanged', changed(before, snapshot(outside)).length === 0, changed(before, snapshot(outside)).join(', '));
  cat.check('keys.json in the layout untouched', readFileSync(join(vault, '.obsidian/plugins/vault-mcp-server/keys.json'), 'utf8').includes('"keys"'));
  report(cat);
});

// The app lists the files behind every link as soon as it starts; the host learns which links the rule
// refuses from its start-up survey (one readdir per folder). A call that arrives while the survey is
// still walking a vault with many folders must wait for it, not find the file and then refuse the read.
test('plugin: a call made while the start-up survey is still walking answers like a missing path', { timeout: 120_000 }, async () => {
  const { vault } = makeLayout();
  for (let i = 0; i < 4000; i++) mkdirSync(join(vault, `Bulk/f${String(i).padStart(4, '0')}`), { recursive: true });
  const cat = new Category('symlinks during the start-up survey (plugin)');
  const s = await plugin(vault);
  try {
    const gate = (s.plugin.runtime as unknown as { deps: { host: { gate: { surveyFinished: boolean } } } }).deps.host.gate;
    const c = await connect(s.url, await s.key({ name: 'rw', scope: 'readwrite' }));
    cat.check('the survey is still walking when the first calls go out (the premise of this test)', !gate.surveyFinished);
    // resources/read hands out notes too (metered(), not dispatch()): the same wait applies.
    const resourceError = (p: string) => c.readResource({ uri: noteUri(p) }).then(() => 'read', (e: { code?: number; message?: string }) => `${e.code} ${String(e.message).split(p).join('<P>')}`);
    await Promise.all(['otherdir/other.md', 'Team/outdir/secret.md', 'leak.md'].flatMap((p) => [
      cat.attempt(`read_note(${p}) during the survey`, async () => { const bad = await sameAsMissing(c, 'read_note', {}, 'path', p); assert.equal(bad, null, bad ?? ''); }),
      cat.attempt(`resources/read(${p}) during the survey`, async () => {
        const missing = `zz-missing-${p}`;
        assert.equal(await resourceError(p), (await resourceError(missing)).split(missing).join('<P>'));
      }),
    ]));
    await c.close();
  } finally { await s.plugin.unload(); }
  report(cat);
});
