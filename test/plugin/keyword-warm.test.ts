// The plugin's keyword index across a restart: the index saved at unload is loaded at the next start
// (nothing re-indexed, answers the same), and stays loaded while the app reports every file at startup.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyVault } from '../helpers/vault.js';
import { startPlugin, unloadAll } from './harness.js';
import type { ServerDeps } from '../../src/mcp/tool.js';

after(unloadAll);

type Runtime = { runtime?: { deps: ServerDeps } };
function keyword(plugin: unknown) {
  const k = (plugin as Runtime).runtime!.deps.services.keyword;
  assert.ok(k, 'keyword search is on');
  return k as unknown as { status(): { state: string; indexed: number; pending: number }; details(): { progress: { done: number; total: number } }; ready(): Promise<void>; search(q: string): Promise<{ hits: { path: string }[] }> };
}

test('plugin: a restart loads the saved keyword index instead of rebuilding it', async () => {
  const vault = copyVault();
  const first = await startPlugin(vault, { port: 0 });
  const kw1 = keyword(first.plugin);
  await kw1.ready();
  const notes = kw1.status().indexed;
  assert.ok(notes > 5, `${notes} notes indexed`);
  const want = (await kw1.search('obsidian')).hits.map((h) => h.path);
  await first.plugin.unload();

  const second = await startPlugin(vault, { port: 0 });
  const kw2 = keyword(second.plugin);
  await kw2.ready();
  assert.equal(kw2.status().indexed, notes);
  assert.equal(kw2.details().progress.total, 0, 'nothing re-indexed after the restart');
  assert.deepEqual((await kw2.search('obsidian')).hits.map((h) => h.path), want);
  await second.plugin.unload();
});
