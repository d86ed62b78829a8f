// The server loaded in pieces (scripts/esbuild-chunks.mjs, src/plugin/loadServer.ts): at the server start
// the built main.js evaluates each eager chunk file in its own turn of the event loop, server.js last, and
// leaves the semantic-search chunks alone until they are needed; a missing chunk or one from another
// build stops the start with a Notice that says how to fix it, instead of a half-loaded server.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import Module from 'node:module';
import { basename, join } from 'node:path';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { copyVault } from '../helpers/vault.js';
import * as fake from './fake-obsidian/index.js';
import { installPlugin, loadPluginClass, PLUGIN_DIR, PLUGIN_FILES, startPlugin, unloadAll } from './harness.js';
import { connect, call } from '../helpers/server.js';
import { KeyStore } from '../../src/services/keyStore.js';
import { FsDataStore } from '../../src/host/fsDataStore.js';

after(unloadAll);

type Compile = (this: Module, code: string, file: string) => unknown;
const proto = Module.prototype as unknown as { _compile: Compile };

/** Records every CommonJS file compiled while `fn` runs, and whether the event loop turned since the previous one. */
async function watchCompiles<T>(fn: () => Promise<T>): Promise<{ result: T; files: { name: string; afterTurn: boolean }[] }> {
  const files: { name: string; afterTurn: boolean }[] = [];
  let turned = true;
  const original = proto._compile;
  proto._compile = function (this: Module, code: string, file: string) {
    files.push({ name: basename(file), afterTurn: turned });
    // A timer queued now runs before the loader's own turn timer (same delay, first in first out), so it
    // has run by the next compile exactly when the loader gave the loop a task boundary in between.
    // (setImmediate was flaky here: Node may run two due timers in one timers phase, before the check phase.)
    turned = false;
    setTimeout(() => { turned = true; }, 0);
    return original.call(this, code, file);
  };
  try {
    return { result: await fn(), files };
  } finally {
    proto._compile = original;
  }
}

const chunkFiles = PLUGIN_FILES.filter((f) => /^server-[a-z0-9]+\.js$/.test(f));

test('server start: every eager chunk in its own turn of the event loop, server.js last; semantic chunks not evaluated', async () => {
  assert.ok(chunkFiles.length >= 5, `the build has chunk files: ${chunkFiles.join(', ')}`);
  const { result, files } = await watchCompiles(() => startPlugin(copyVault(), { port: 0 }));
  assert.equal(result.plugin.state.kind, 'on', JSON.stringify(result.plugin.state));
  const server = files.filter((f) => /^server(-[a-z0-9]+)?\.js$/.test(f.name));
  assert.equal(server.at(-1)?.name, 'server.js', `server.js is evaluated last: ${server.map((f) => f.name).join(', ')}`);
  for (const f of server) assert.ok(f.afterTurn, `${f.name} was evaluated in the same task as the file before it`);
  const evaluated = new Set(server.map((f) => f.name));
  for (const lazy of ['server-worker.js', 'server-transformers.js']) assert.ok(!evaluated.has(lazy), `${lazy} evaluated at start`);
  // Every other chunk is evaluated (nothing is left to be loaded in one piece later).
  for (const c of chunkFiles) if (!/worker|transformers/.test(c)) assert.ok(evaluated.has(c), `${c} was not evaluated`);
  await result.plugin.unload();
});

test('zod carries English only (scripts/esbuild-zod.mjs): a small locales chunk, and a wrong argument still refused in English', async () => {
  const locales = readFileSync(join(import.meta.dirname, '../../server-zodlocales.js'), 'utf8');
  assert.ok(locales.length < 40_000, `server-zodlocales.js is ${locales.length} bytes (every language: 277 KB)`);
  assert.match(locales, /Invalid input: expected/);
  assert.doesNotMatch(locales, /Ungültige Eingabe|Entrada inválida|Nieprawidłowe dane/, 'no other language');
  const s = await startPlugin(copyVault(), { port: 0 });
  try {
    const key = (await new KeyStore(new FsDataStore(s.dataDir)).add({ name: 'k', scope: 'read' })).raw;
    const c = await connect(`http://127.0.0.1:${s.plugin.runtime!.server.port}/mcp`, key);
    const r = await call(c, 'read_note', { path: 123 });
    assert.equal(r.isError, true);
    assert.match(JSON.stringify(r.content), /expected string, received number/);
    await c.close();
  } finally { await s.plugin.unload(); }
});

test('a missing chunk file: the server does not start, and the Notice names the file and how to reinstall', async () => {
  const victim = chunkFiles.find((f) => f.includes('express')) ?? chunkFiles[0];
  // A copy by hand that left one file out.
  const { plugin } = await startWithout(copyVault(), victim);
  assert.equal(plugin.state.kind, 'error');
  const notice = fake.notices.at(-1)?.message ?? '';
  assert.match(notice, new RegExp(`${victim.replace('.', '\\.')} is missing`));
  assert.match(notice, /copy main\.js, server\.js, every server-\*\.js file/);
  await plugin.unload();
});

test('a chunk from another build: refused with a Notice, never mixed with this build', async () => {
  const vault = copyVault();
  const { plugin } = await startWithout(vault, null, (dir) => {
    const file = join(dir, chunkFiles[0]);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/__build:"[0-9a-f]+"/, '__build:"0000000000000000"'));
  });
  assert.equal(plugin.state.kind, 'error');
  assert.match(fake.notices.at(-1)?.message ?? '', new RegExp(`${chunkFiles[0].replace('.', '\\.')} comes from another build than main\\.js`));
  await plugin.unload();
});

/** Installs the plugin, removes one file (or changes the folder with `edit`), then starts it as the app does. */
async function startWithout(vault: string, missing: string | null, edit?: (dir: string) => void) {
  const dir = installPlugin(vault, { port: 0 });
  if (missing) rmSync(join(dir, missing), { force: true });
  edit?.(dir);
  const app = new fake.App(vault, { layoutReady: false });
  const manifest = { ...JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')), dir: PLUGIN_DIR } as fake.PluginManifest;
  const plugin = new (loadPluginClass(dir))(app, manifest);
  await plugin.load();
  app.finishStartup();
  await plugin.ready;
  const unload = plugin.unload.bind(plugin);
  plugin.unload = async () => { unload(); await plugin.unloaded; };
  return { app, plugin };
}
