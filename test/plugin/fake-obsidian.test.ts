// The fake app's own behaviour, so the plugin tests rest on something checked: create refuses an
// existing file, renameFile rewrites links, trashFile follows the setting, processFrontMatter.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyVault } from '../helpers/vault.js';
import * as fake from './fake-obsidian/index.js';

test('vault: create throws when the file exists; events fire before the write resolves', async () => {
  const app = new fake.App(copyVault());
  const events: string[] = [];
  app.vault.on('create', (f: fake.TAbstractFile) => events.push(`create ${f.path}`));
  await assert.rejects(app.vault.create('Welcome.md', 'x'), /already exists/);
  await assert.rejects(app.vault.create('Nope/New.md', 'x'), /ENOENT/);
  const f = await app.vault.create('New.md', '# New\n');
  assert.deepEqual(events, ['create New.md']);
  assert.equal(app.metadataCache.getFileCache(f), null, 'the cache is filled later');
  await app.metadataCache.settled();
  assert.equal(app.metadataCache.getFileCache(f)!.headings![0].heading, 'New');
  assert.equal(app.vault.getAbstractFileByPath('.obsidian'), null, 'the config folder is hidden');
});

test('fileManager.renameFile rewrites wikilinks, aliases, subpaths and markdown links elsewhere', async () => {
  const vault = copyVault();
  const app = new fake.App(vault);
  await app.vault.create('Links.md', 'A [[Website Relaunch#Timeline|plan]], ![[Website Relaunch]] and [m](Projects/Website%20Relaunch.md).\n');
  await app.metadataCache.settled();
  await app.fileManager.renameFile(app.vault.getFileByPath('Projects/Website Relaunch.md')!, 'Projects/Site Launch.md');
  assert.equal(readFileSync(join(vault, 'Links.md'), 'utf8'), 'A [[Site Launch#Timeline|plan]], ![[Site Launch]] and [m](Site%20Launch.md).\n');
  assert.match(readFileSync(join(vault, 'People/Grace Hopper.md'), 'utf8'), /\[\[Site Launch\]\]/);
  assert.match(readFileSync(join(vault, 'Welcome.md'), 'utf8'), /\[\[Site Launch\]\]/);
  app.vault.setConfig('alwaysUpdateLinks', false);
  await app.metadataCache.settled();
  await app.fileManager.renameFile(app.vault.getFileByPath('Projects/Site Launch.md')!, 'Projects/Other.md');
  assert.match(readFileSync(join(vault, 'Links.md'), 'utf8'), /\[\[Site Launch#Timeline\|plan\]\]/, 'links left alone when the setting is off');
});

test('fileManager.trashFile follows "Deleted files"; processFrontMatter edits the YAML', async () => {
  const vault = copyVault();
  const app = new fake.App(vault);
  app.vault.setConfig('trashOption', 'local');
  await app.fileManager.trashFile(app.vault.getFileByPath('Daily/2026-11-30.md')!);
  assert.ok(existsSync(join(vault, '.trash/2026-11-30.md')));
  assert.equal(app.vault.getFileByPath('Daily/2026-11-30.md'), null);
  app.vault.setConfig('trashOption', 'system');
  await app.fileManager.trashFile(app.vault.getFileByPath('People/Ada Lovelace.md')!);
  assert.ok(existsSync(join(app.vault.systemTrashDir, 'Ada Lovelace.md')));
  const w = app.vault.getFileByPath('Welcome.md')!;
  await app.fileManager.processFrontMatter(w, (fm) => { fm.status = 'done'; });
  const text = readFileSync(join(vault, 'Welcome.md'), 'utf8');
  assert.match(text, /^---\n[\s\S]*status: done\n---\n# Welcome/);
});

test('plugin lifecycle: unload runs every registered cleanup, then onunload', async () => {
  const app = new fake.App(copyVault());
  const order: string[] = [];
  class P extends fake.Plugin {
    override onload() { this.registerEvent(app.vault.on('modify', () => undefined)); this.register(() => order.push('cleanup')); }
    override onunload() { order.push('onunload'); }
  }
  const p = new P(app, { id: 'x', name: 'x', version: '0', minAppVersion: '0', description: '', author: '', dir: '.obsidian/plugins/x' });
  const before = app.vault.listenerCount('modify');
  await p.load();
  assert.equal(app.vault.listenerCount('modify'), before + 1);
  await p.saveData({ a: 1 });
  assert.deepEqual(await p.loadData(), { a: 1 });
  p.unload();
  assert.deepEqual(order, ['cleanup', 'onunload']);
  assert.equal(app.vault.listenerCount('modify'), before);
});
