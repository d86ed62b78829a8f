// Symlinks never lead out (headless host). Every symlink of the layout (files and folders; to
// outside, into dot-folders and the data folder, out of a key's root, loops, dangling), and the
// same kinds created while the server runs (seen by the real watcher), are attacked through every
// tool family: reads, lists, search, graph, downloads, writes, moves, deletes and the trash. A
// refused path must answer exactly like a missing one, leak nothing, and change nothing on disk.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { symlinkSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { connect, call, refusalCode, textOf, startCli } from '../../helpers/server.js';
import { tempDir, copyVault } from '../../helpers/vault.js';
import { KeyStore } from '../../../src/services/keyStore.js';
import { FsDataStore } from '../../../src/host/fsDataStore.js';
import { startPlugin, unloadAll, openTab, findSetting } from '../../plugin/harness.js';
import { TextAreaComponent } from '../../plugin/fake-obsidian/index.js';
import { Category, report } from './report.js';
import { makeLayout, serve, snapshot, changed, leaks, sameAsMissing } from './fixture.js';
import { attack, READ_TOOLS, WRITE_TOOLS } from './attacks.js';

after(unloadAll);

test('symlinks never lead out: every tool family, whole-vault, confined and read keys', { timeout: 240_000 }, async () => {
  const { vault, outside, other } = makeLayout();
  const cat = new Category('symlinks');
  const before = { vault: snapshot(vault), outside: snapshot(outside), other: snapshot(other) };
  const t = await serve(vault);
  try {
    const rw = await t.key({ name: 'rw', scope: 'readwrite' });
    const team = await t.key({ name: 'team', scope: 'readwrite', root: 'Team' });
    const ro = await t.key({ name: 'ro', scope: 'read' });
    await attack(t.url, rw, cat, 'rw');
    await attack(t.url, team, cat, 'team');
    await attack(t.url, ro, cat, 'read');
    // What stays allowed: a file symlink whose real location is inside the vault (and the root).
    const c = await connect(t.url, rw);
    const k = await connect(t.url, team);
    await cat.attempt('rw reads notes-link.md (real location inside the vault)', async () => {
      const r = await call(c, 'read_note', { path: 'notes-link.md' });
      assert.equal(r.isError, undefined, textOf(r));
      assert.match(r.structuredContent!.content ?? textOf(r), /Meeting notes/);
    });
    await cat.attempt('team does not see notes-link.md (outside its root)', async () => assert.equal(refusalCode(await call(k, 'read_note', { path: 'notes-link.md' })), 'not_found'));
    await cat.attempt('team reads Team/Sub/alias.md (real location inside its root)', async () => {
      const r = await call(k, 'read_note', { path: 'Team/Sub/alias.md' });
      assert.equal(r.isError, undefined, textOf(r));
    });
    await cat.attempt('rw reads Team/escape.md (inside the vault), team does not', async () => {
      assert.equal((await call(c, 'read_note', { path: 'Team/escape.md' })).isError, undefined);
      const bad = await sameAsMissing(k, 'read_note', {}, 'path', 'Team/escape.md');
      assert.equal(bad, null, bad ?? '');
      const s = await call(k, 'keyword_search', { query: 'nightjarvalue secretbodytext zanzibarquux' });
      assert.ok(!JSON.stringify(s.structuredContent).includes('escape'), 'team search finds the escaping link');
      const links = await call(k, 'get_links', { path: 'Team/Plan.md' });
      const targets = (links.structuredContent!.links as { target: string | null }[]).map((l) => l.target);
      assert.ok(!targets.some((x) => x && (x.startsWith('Private/') || x.includes('escape'))), JSON.stringify(targets));
    });
    await cat.attempt('writes never follow an in-vault file symlink either', async () => {
      const r = await call(c, 'edit_note', { path: 'notes-link.md', content: 'x', append: true });
      assert.equal(refusalCode(r), 'invalid_path', textOf(r));
    });
    await c.close();
    await k.close();
  } finally { await t.stop(); }
  // Nothing changed anywhere: not outside, not in .obsidian (keys.json), not the links themselves.
  const after = { vault: snapshot(vault), outside: snapshot(outside), other: snapshot(other) };
  for (const where of ['outside', 'other'] as const) cat.check(`${where} folder unchanged`, changed(before[where], after[where]).length === 0, changed(before[where], after[where]).join(', '));
  const inVault = changed(before.vault, after.vault).filter((l) => !/^added \.trash\/?$|^added \.obsidian\/plugins\/vault-mcp-server\//.test(l));
  cat.check('vault unchanged (dot-folders included)', inVault.length === 0, inVault.join(', '));
  report(cat);
});

test('symlinks created while the server runs are not followed by the watcher', { timeout: 120_000 }, async () => {
  const { vault, outside } = makeLayout();
  const cat = new Category('symlinks created while running');
  const t = await serve(vault, {}, { watch: true });
  try {
    const rw = await t.key({ name: 'rw', scope: 'readwrite' });
    const c = await connect(t.url, rw);
    symlinkSync(outside, join(vault, 'Late'));
    symlinkSync(join(outside, 'secret.md'), join(vault, 'Team/late.md'));
    symlinkSync(join(vault, '.obsidian'), join(vault, 'LateDot'));
    // Proof the watcher has acted on these changes: a plain note written after them becomes visible.
    writeFileSync(join(vault, 'Team/late-proof.md'), '# proof\n');
    for (let r = await call(c, 'list_notes', { folder: 'Team' }); !JSON.stringify(r.structuredContent).includes('late-proof'); r = await call(c, 'list_notes', { folder: 'Team' })) {
      await new Promise((res) => setTimeout(res, 50));
    }
    await new Promise((r) => setTimeout(r, 300)); // and a few debounce periods more for the folder rescans
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
    cat.check('keys.json untouched', readFileSync(join(vault, '.obsidian/plugins/vault-mcp-server/keys.json'), 'utf8') === '{"version":1,"keys":[]}\n');
    await c.close();
  } finally { await t.stop(); }
  report(cat);
});

test('opt-in: an allow-listed outside folder is readable through its symlink, read-only, dot-folders still hidden', { timeout: 120_000 }, async () => {
  const { vault, outside, other } = makeLayout();
  const cat = new Category('symlink opt-in');
  const before = snapshot(outside);
  const t = await serve(vault, { symlinkAllowedFolders: [outside] });
  try {
    const rw = await t.key({ name: 'rw', scope: 'readwrite' });
    const team = await t.key({ name: 'team', scope: 'readwrite', root: 'Team' });
    for (const [label, key] of [['rw', rw], ['team', team]] as const) {
      const c = await connect(t.url, key);
      await cat.attempt(`${label} reads Team/outdir/secret.md`, async () => {
        const r = await call(c, 'read_note', { path: 'Team/outdir/secret.md' });
        assert.equal(r.isError, undefined, textOf(r));
        assert.match(JSON.stringify(r.structuredContent), /OUTSIDESECRETWORD/);
      });
      await cat.attempt(`${label} reads Team/leak.md (file link into the allowed folder)`, async () => assert.equal((await call(c, 'read_note', { path: 'Team/leak.md' })).isError, undefined));
      await cat.attempt(`${label} finds it by keyword`, async () => {
        const r = await call(c, 'keyword_search', { query: 'OUTSIDEDEEPWORD' });
        assert.match(JSON.stringify(r.structuredContent), /Team\/outdir\/sub\/deep\.md/);
      });
      await cat.attempt(`${label} lists the allowed folder`, async () => {
        const r = await call(c, 'list_files', { folder: 'Team/outdir', recursive: true });
        assert.deepEqual(r.structuredContent!.files.map((f: { path: string }) => f.path).sort(), ['Team/outdir/image.png', 'Team/outdir/secret.md', 'Team/outdir/sub/deep.md']);
      });
      for (const p of ['Team/hiddendir/h.md', 'otherdir/other.md', 'Team/dotdir/app.json', 'Team/privdir/Secret.md']) {
        await cat.attempt(`${label} still refused: ${p}`, async () => { const bad = await sameAsMissing(c, 'read_note', {}, 'path', p); assert.equal(bad, null, bad ?? ''); });
      }
      for (const [tool, args] of [['edit_note', { path: 'Team/outdir/secret.md', content: 'x', append: true }], ['create_note', { path: 'Team/outdir/new.md', content: 'x' }],
        ['delete_note', { path: 'Team/outdir/secret.md', permanent: true }], ['delete_file', { path: 'Team/outdir/image.png' }], ['move_note', { from_path: 'Team/outdir/secret.md', to_path: 'Team/got.md' }],
        ['write_file', { path: 'Team/outdir/image.png', content: 'eA==', overwrite: true }]] as [string, Record<string, unknown>][]) {
        await cat.attempt(`${label} ${tool} in the allowed folder is refused (read-only)`, async () => {
          const r = await call(c, tool, args);
          assert.equal(refusalCode(r), 'invalid_path', textOf(r));
        });
      }
      await c.close();
    }
  } finally { await t.stop(); }
  cat.check('allowed folder unchanged', changed(before, snapshot(outside)).length === 0, changed(before, snapshot(outside)).join(', '));
  void other;
  report(cat);
});

test('opt-in from the CLI: --symlink-allow prints its one-line warning; without it the same link is refused', { timeout: 120_000 }, async () => {
  const { vault, outside } = makeLayout();
  const cat = new Category('symlink opt-in (CLI and settings tab)');
  for (const allow of [false, true]) {
    const data = join(tempDir('vmcp-optin-'), 'data');
    const { raw } = await new KeyStore(new FsDataStore(data)).add({ name: 'rw', scope: 'readwrite' });
    const srv = await startCli(vault, { dataDir: data, args: allow ? ['--symlink-allow', outside] : [] });
    try {
      const c = await connect(srv.url, raw);
      const warned = /warning: Symlinks in the vault may lead into this folder outside it/.test(srv.output());
      cat.check(`${allow ? 'with' : 'without'} the flag: warning ${allow ? 'printed' : 'absent'}`, warned === allow, srv.output().slice(0, 400));
      const r = await call(c, 'read_note', { path: 'Team/outdir/secret.md' });
      cat.check(`${allow ? 'with' : 'without'} the flag: Team/outdir/secret.md ${allow ? 'read' : 'missing'}`, allow ? !r.isError : refusalCode(r) === 'not_found', textOf(r).slice(0, 200));
      cat.check(`${allow ? 'with' : 'without'} the flag: otherdir/other.md missing`, refusalCode(await call(c, 'read_note', { path: 'otherdir/other.md' })) === 'not_found');
      await c.close();
    } finally { await srv.stop(); }
  }
  // The settings tab: the field, off by default, and the warning once a folder is named.
  const s = await startPlugin(copyVault(), { port: 0 });
  try {
    const tab = await openTab(s.app);
    const field = findSetting(tab, 'Outside folders symlinks may lead into');
    cat.check('settings tab: empty by default, no warning', (s.plugin.settings.symlinkAllowedFolders ?? []).length === 0 && !tab.containerEl.textContent.includes('Symlinks in the vault may lead'));
    await field.component(TextAreaComponent).change(`${outside}\nrelative/ignored\n`);
    cat.check('settings tab: the absolute folder is saved, the relative one dropped', JSON.stringify(s.plugin.settings.symlinkAllowedFolders) === JSON.stringify([outside]), JSON.stringify(s.plugin.settings.symlinkAllowedFolders));
    cat.check('settings tab: the one-line warning shows', tab.containerEl.textContent.includes(`Symlinks in the vault may lead into this folder outside it`));
  } finally { await s.plugin.unload(); }
  report(cat);
});
