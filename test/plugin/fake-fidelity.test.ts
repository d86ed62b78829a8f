// Where the fake app used to differ from the real one (issue 15), each with the plugin behaviour the
// difference hid: no 'changed' on rename or for unchanged content, 'create' for every file at startup,
// notes the app never caches, links resolved by the app (a table) rather than by the plugin's own code,
// link formats in renameFile, onLayoutReady running at once, getRightLeaf returning null, paths
// normalised by the app (normalizePath) when it creates a file, requestUrl without abort or CORS.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { App } from 'obsidian';
import { copyVault } from '../helpers/vault.js';
import * as fake from './fake-obsidian/index.js';
import { ObsidianHost } from '../../src/host/obsidian/obsidianHost.js';
import type { VaultEvent } from '../../src/host/port.js';
import { installPlugin, loadPluginClass, PLUGIN_DIR, startPlugin, unloadAll, waitFor } from './harness.js';
import { ObsidianWriter } from '../../src/host/obsidian/obsidianWriter.js';
import { connect, call, textOf } from '../helpers/server.js';
import { startFakeLlm } from '../llm/fakeLlm.js';
import { requestUrlTransport } from '../../src/llm/transport.js';
import { withDefaults } from '../../src/settings.js';
import { NodeHost } from '../../src/host/node/nodeHost.js';
import { KeyStore } from '../../src/services/keyStore.js';
import { startRuntime } from '../../src/runtime.js';
import { tempDir } from '../helpers/vault.js';

after(unloadAll);

function hostOn(vault: string, opts: fake.AppOptions = {}, hostOpts: { readyBoundMs?: number; now?: () => number } = {}) {
  const app = new fake.App(vault, opts);
  const owner = new fake.Component();
  void owner.load();
  const host = new ObsidianHost({
    app: app as unknown as App,
    manifest: { id: 'vault-mcp-server', dir: PLUGIN_DIR },
    register: (ref) => owner.registerEvent(ref as unknown as fake.EventRef),
    classes: { TFile: fake.TFile as never, TFolder: fake.TFolder as never },
    ...hostOpts,
  });
  return { app, host, owner };
}

/** Fails instead of hanging when a promise never settles. */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms))]);
}

test('rename: the cache moves without a re-parse (no "changed"), and the renamed note is not left pending', async () => {
  const { app, host } = hostOn(copyVault());
  await host.ready();
  const seen: VaultEvent['type'][] = [];
  host.subscribe((e) => seen.push(e.type));
  const changed: string[] = [];
  app.metadataCache.on('changed', (f: fake.TFile) => changed.push(f.path));
  await app.vault.rename(app.vault.getFileByPath('People/Ada Lovelace.md')!, 'People/Ada.md');
  // The event may wait for the host's next 8 ms slice (eventSlices.ts) when this turn has already run
  // longer, as on a loaded machine: one timer turn lets that slice run. Before the fix the host marked
  // the note pending and waited ~5 s for a 'changed' that never comes.
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(host.pendingCount(), 0, 'a renamed note keeps its cache, so nothing is pending');
  await app.metadataCache.settled();
  assert.deepEqual(changed, [], 'the app does not re-parse a renamed note');
  assert.deepEqual(seen, ['rename', 'resolved']);
  assert.equal(host.metadata('People/Ada.md')!.headings![0].heading, 'Ada Lovelace');
});

test('a write of identical content is not re-parsed: no "changed"; the note counts as done after the grace period', async () => {
  let now = 1_000_000;
  const { app, host } = hostOn(copyVault(), {}, { now: () => now });
  await host.ready();
  const changed: string[] = [];
  app.metadataCache.on('changed', (f: fake.TFile) => changed.push(f.path));
  const f = app.vault.getFileByPath('Welcome.md')!;
  await app.vault.modify(f, readFileSync(join(app.vault.basePath, 'Welcome.md'), 'utf8'));
  await app.metadataCache.settled();
  assert.deepEqual(changed, [], 'same bytes: the app fires nothing');
  assert.equal(host.pendingCount(), 1, 'within the grace period the host cannot tell');
  now += 6000;
  assert.equal(host.pendingCount(), 0, 'a cached note with no event for 5 s counts as done');
});

test('startup: the vault reports every existing file with "create" before the layout is ready; the plugin listens only after', async () => {
  const vault = copyVault();
  const app = new fake.App(vault, { layoutReady: false });
  const creates: string[] = [];
  let readyAt = -1;
  app.vault.on('create', (f: fake.TAbstractFile) => creates.push(f.path));
  app.workspace.onLayoutReady(() => { readyAt = creates.length; });
  const dir = installPlugin(vault, { port: 0 });
  const Cls = loadPluginClass(dir);
  const plugin = new Cls(app, { ...JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')), dir: PLUGIN_DIR });
  const base = app.vault.listenerCount('create');
  await plugin.load();
  assert.equal(app.vault.listenerCount('create'), base, 'no vault listener registered in onload (it would get every startup create)');
  app.finishStartup();
  assert.equal(creates.length, app.vault.getAllLoadedFiles().length - 1, 'one create per file and folder');
  assert.equal(readyAt, creates.length, 'all of them before layout-ready');
  await plugin.ready;
  assert.equal(plugin.state.kind, 'on');
  await plugin.unload();
});

test('notes the app never caches: ready() proceeds after its bound and reports them as pending (stale)', async () => {
  const { host } = hostOn(copyVault(), { uncached: ['Projects/Garden Redesign.md', 'Daily/2026-11-30.md'] }, { readyBoundMs: 300 });
  // Before the bound existed this never settled: one uncached note kept every index loading forever.
  await within(host.ready(), 5000, 'host.ready()');
  assert.equal(host.pendingCount(), 2, 'the uncached notes stay counted, so answers say they are stale');
  assert.equal(host.metadata('Projects/Garden Redesign.md'), null);
  assert.ok(host.metadata('Welcome.md'));
});

test('links: the host answers what the app resolves (a table), not what the plugin\'s own resolver would', async () => {
  // Pinned: the app opens Projects/Garden Redesign.md for [[Grace Hopper]] from Welcome.md; the
  // plugin's resolver (and the fake's own) would pick People/Grace Hopper.md.
  const linkTable = { 'Welcome.md': { 'Grace Hopper': 'Projects/Garden Redesign.md', 'Ada Lovelace': null } };
  const { host } = hostOn(copyVault(), { linkTable });
  await host.ready();
  assert.equal(host.resolveLink('Grace Hopper', 'Welcome.md'), 'Projects/Garden Redesign.md');
  assert.equal(host.resolveLink('Ada Lovelace', 'Welcome.md'), null);
  assert.equal(host.resolveLink('Grace Hopper', 'Projects/Garden Redesign.md'), 'People/Grace Hopper.md', 'rows not in the table: the fake\'s own resolver');
  const row = host.resolvedLinks()['Welcome.md'];
  assert.equal(row['People/Grace Hopper.md'], undefined);
  assert.ok(row['Projects/Garden Redesign.md'] >= 1);
  assert.ok(host.unresolvedLinks()['Welcome.md']['Ada Lovelace'] >= 1);
});

test('renameFile writes links in the vault\'s "New link format": absolute and relative as well as shortest', async () => {
  const vault = copyVault();
  const app = new fake.App(vault);
  await app.vault.create('Daily/Log.md', 'See [[Website Relaunch]] and [m](../Projects/Website%20Relaunch.md).\n');
  await app.metadataCache.settled();
  app.vault.setConfig('newLinkFormat', 'absolute');
  await app.fileManager.renameFile(app.vault.getFileByPath('Projects/Website Relaunch.md')!, 'Projects/Site.md');
  assert.equal(readFileSync(join(vault, 'Daily/Log.md'), 'utf8'), 'See [[Projects/Site]] and [m](Projects/Site.md).\n');
  await app.metadataCache.settled();
  app.vault.setConfig('newLinkFormat', 'relative');
  await app.fileManager.renameFile(app.vault.getFileByPath('Projects/Site.md')!, 'Projects/Launch.md');
  assert.equal(readFileSync(join(vault, 'Daily/Log.md'), 'utf8'), 'See [[../Projects/Launch]] and [m](../Projects/Launch.md).\n');
});

test('onLayoutReady runs at once when the layout is ready, and the plugin still evaluates server.js only after onload', async () => {
  const app = new fake.App(copyVault(), { layoutReady: true });
  let ran = false;
  app.workspace.onLayoutReady(() => { ran = true; });
  assert.equal(ran, true, 'synchronously, as obsidian.d.ts says');
  const vault = app.vault.basePath;
  const dir = installPlugin(vault, { port: 0 });
  const Cls = loadPluginClass(dir);
  const plugin = new Cls(app, { ...JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')), dir: PLUGIN_DIR }) as ReturnType<typeof Object> & { server: unknown; load(): Promise<void>; ready: Promise<void>; state: { kind: string }; unload(): unknown; unloaded: Promise<void> };
  await plugin.load();
  assert.equal(plugin.server, null, 'enabling the plugin in a running app: onload returns before the server module loads');
  await plugin.ready;
  assert.equal(plugin.state.kind, 'on');
  plugin.unload();
  await plugin.unloaded;
});

test('getRightLeaf may return null: opening the activity view says so instead of doing nothing', async () => {
  const { app } = await startPlugin(copyVault(), { port: 0 });
  app.workspace.rightSplitAvailable = false;
  const before = fake.notices.length;
  assert.equal(app.commands.executeCommandById('vault-mcp-server:open-activity'), true);
  await waitFor(() => fake.notices.length > before, 'a Notice');
  assert.match(fake.notices.at(-1)!.message, /right sidebar cannot open/);
  assert.equal(app.workspace.leaves.length, 0);
});

test('normalizePath: the app creates "a\u00A0b.md" as "a b.md"; the write waits for that file\'s cache, not forever', { timeout: 30_000 }, async () => {
  const vault = copyVault();
  const app = new fake.App(vault);
  assert.equal(fake.normalizePath('Inbox//a\u00A0b\u202Fc.md/'), 'Inbox/a b c.md');
  // A writer that would wait a minute for a 'changed' that never comes for the spelling it was given.
  const writer = new ObsidianWriter({ app: app as unknown as App, basePath: vault, classes: { TFile: fake.TFile as never, TFolder: fake.TFolder as never }, cacheWaitMs: 60_000 });
  const st = await within(writer.create('Inbox/a\u00A0b.md', 'hello\n'), 20_000, 'create');
  assert.equal(st.path, 'Inbox/a b.md');
  assert.ok(app.vault.getFileByPath('Inbox/a b.md'));
  await assert.rejects(writer.create('Inbox/a b.md', 'again\n'), /already exists/);
  await assert.rejects(writer.create('Inbox/a\u202Fb.md', 'again\n'), /already exists/);
});

test('normalizePath through the plugin: the path an agent created with is the path it reads back', async () => {
  const { plugin } = await startPlugin(copyVault(), { port: 0 });
  const key = await (plugin as unknown as { createKey(n: string, s: string): Promise<string> }).createKey('t', 'readwrite');
  const c = await connect(plugin.runtime!.server.url, key);
  try {
    const made = await call(c, 'create_note', { path: 'Inbox/Tea\u00A0time.md', content: 'oolong\n' });
    assert.equal(made.isError, undefined, textOf(made));
    assert.equal((made.structuredContent as { path: string }).path, 'Inbox/Tea time.md', 'the answer names the file the app made');
    for (const path of ['Inbox/Tea\u00A0time.md', 'Inbox/Tea time.md']) {
      const r = await call(c, 'read_note', { path });
      assert.equal(r.isError, undefined, `${JSON.stringify(path)}: ${textOf(r)}`);
      assert.equal((r.structuredContent as { content: string }).content, 'oolong\n');
    }
  } finally { await c.close(); }
});

test('requestUrl as the app has it: no AbortSignal, no CORS; summarize still gives up at its time limit', { timeout: 60_000 }, async () => {
  const llm = await startFakeLlm();
  try {
    // The app's requestUrl takes no signal: one passed anyway changes nothing.
    const ac = new AbortController();
    ac.abort();
    const r = await fake.requestUrl({ url: `${llm.url}/chat/completions`, method: 'POST', contentType: 'application/json', body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x' }] }), signal: ac.signal } as fake.RequestUrlParam);
    assert.equal(r.status, 200);
    assert.equal(llm.calls.at(-1)!.headers.origin, undefined, 'no Origin header: CORS plays no part');
    // A slow endpoint: the plugin's summarize refuses at its time limit although the request cannot be aborted.
    llm.delayMs = 8000;
    const vault = copyVault();
    const settings = withDefaults({ port: 0, llmUrl: llm.url, llmModel: 'm', llmTimeoutS: 1 });
    const host = new NodeHost(vault, { dataDir: join(tempDir('vmcp-requrl-'), 'data'), watch: false });
    await host.ready();
    const keys = new KeyStore(host.data);
    keys.addEphemeral('vmcp_requrl_key_0123456789abcdef', 'client', 'read');
    const rt = await startRuntime({ host, settings: () => settings, keys, services: { llmTransport: requestUrlTransport(fake.requestUrl as never) } });
    const c = await connect(rt.server.url, 'vmcp_requrl_key_0123456789abcdef');
    try {
      const res = await call(c, 'summarize', { paths: ['Welcome.md'] });
      assert.equal(res.isError, true);
      assert.match(textOf(res), /summarize_timeout|time limit|took longer/i);
    } finally { await c.close(); await rt.stop(); await host.close(); }
  } finally { await llm.close(); }
});
