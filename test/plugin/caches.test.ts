// Rebuildable caches live outside the vault (a per-vault folder in Obsidian's data folder or the OS
// cache folder), keys and settings stay in the plugin folder; a setting keeps them inside; switching
// moves them instead of rebuilding; the CLI computes the same folder.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyVault, tempDir } from '../helpers/vault.js';
import { cacheBase, moveCaches, obsidianUserDataGuess, osCacheDir, vaultCacheDir, vaultCacheKey } from '../../src/host/cacheDir.js';
import { PLUGIN_DIR, startPlugin, unloadAll } from './harness.js';

after(unloadAll);

test('cache folders by platform, keyed by the vault path', () => {
  assert.equal(obsidianUserDataGuess('darwin', {}, '/Users/a'), '/Users/a/Library/Application Support/obsidian');
  assert.equal(obsidianUserDataGuess('linux', {}, '/home/a'), '/home/a/.config/obsidian');
  assert.equal(obsidianUserDataGuess('linux', { XDG_CONFIG_HOME: '/x' }, '/home/a'), '/x/obsidian');
  assert.match(obsidianUserDataGuess('win32', { APPDATA: 'C:\\Users\\a\\AppData\\Roaming' }, 'C:\\Users\\a'), /Roaming.obsidian$/);
  assert.equal(osCacheDir('darwin', {}, '/Users/a'), '/Users/a/Library/Caches');
  assert.equal(osCacheDir('linux', { XDG_CACHE_HOME: '/c' }, '/home/a'), '/c');
  assert.equal(cacheBase('/app/userData'), '/app/userData', 'Electron\'s userData when the plugin reaches it');
  const a = vaultCacheKey('/tmp/My Vault');
  assert.match(a, /^My_Vault-[0-9a-f]{12}$/);
  assert.notEqual(vaultCacheKey('/tmp/other/My Vault'), a, 'two vaults with one name get two folders');
  assert.equal(vaultCacheDir('/tmp/My Vault', '/ud'), join('/ud', 'vault-mcp-server', a));
});

test('moveCaches moves what an older version left, keeps what is already there', async () => {
  const from = tempDir('vmcp-cache-from-');
  const to = join(tempDir('vmcp-cache-to-'), 'c');
  writeFileSync(join(from, 'keyword-index.bin'), 'old index');
  mkdirSync(join(from, 'models/Xenova/m'), { recursive: true });
  writeFileSync(join(from, 'models/Xenova/m/config.json'), '{}');
  writeFileSync(join(from, 'keys.json'), '{}');
  assert.deepEqual(await moveCaches(from, to), ['keyword-index.bin', 'models']);
  assert.ok(existsSync(join(to, 'models/Xenova/m/config.json')) && !existsSync(join(from, 'models')));
  assert.ok(existsSync(join(from, 'keys.json')) && !existsSync(join(to, 'keys.json')), 'keys are not a cache');
  writeFileSync(join(from, 'keyword-index.bin'), 'stale');
  assert.deepEqual(await moveCaches(from, to), [], 'an index already in place wins');
});

test('plugin: the keyword index goes to the per-vault cache folder outside the vault; keys stay in the plugin folder', async () => {
  const vault = copyVault();
  mkdirSync(join(vault, PLUGIN_DIR), { recursive: true });
  writeFileSync(join(vault, PLUGIN_DIR, 'keyword-index.bin'), 'left by an older version');
  const { plugin, dataDir } = await startPlugin(vault, { port: 0 });
  const cacheDir = (plugin as unknown as { cacheDir: string }).cacheDir;
  assert.ok(!cacheDir.startsWith(vault), `${cacheDir} is outside the vault`);
  assert.equal(cacheDir, vaultCacheDir(vault, null), 'the folder the CLI computes too');
  assert.ok(!existsSync(join(dataDir, 'keyword-index.bin')), 'the old index was moved out of the vault');
  await plugin.unload();
  assert.ok(existsSync(join(cacheDir, 'keyword-index.bin')));
  assert.ok(existsSync(join(dataDir, 'data.json')) && !existsSync(join(cacheDir, 'data.json')));

  // "Keep caches in the vault": they move back into the plugin folder.
  const inside = await startPlugin(vault, { port: 0, cacheInVault: true });
  assert.equal((inside.plugin as unknown as { cacheDir: string }).cacheDir, dataDir);
  assert.ok(existsSync(join(dataDir, 'keyword-index.bin')) && !existsSync(join(cacheDir, 'keyword-index.bin')));
  await inside.plugin.unload();
});
