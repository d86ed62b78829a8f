// ObsidianHost (from src, unbundled) over the fake app: events, pending counts, Unicode spellings,
// links, and listeners that die with the plugin.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyVault } from '../helpers/vault.js';
import * as fake from './fake-obsidian/index.js';
import { ObsidianHost } from '../../src/host/obsidian/obsidianHost.js';
import type { LinkRowMap, VaultEvent } from '../../src/host/port.js';
import type { App } from 'obsidian';

function hostOn(vault: string, opts: fake.AppOptions = {}) {
  const app = new fake.App(vault, opts);
  const owner = new fake.Component();
  void owner.load();
  const host = new ObsidianHost({
    app: app as unknown as App,
    manifest: { id: 'vault-mcp-server', dir: '.obsidian/plugins/vault-mcp-server' },
    register: (ref) => owner.registerEvent(ref as unknown as fake.EventRef),
    classes: { TFile: fake.TFile as never, TFolder: fake.TFolder as never },
  });
  return { app, host, owner };
}

test('files, folders and stats come from the vault; dot-folders stay hidden', async () => {
  const vault = copyVault();
  mkdirSync(join(vault, '.git'), { recursive: true });
  writeFileSync(join(vault, '.git/HEAD'), 'ref: x\n');
  const { host, app } = hostOn(vault);
  await host.ready();
  assert.equal(host.kind, 'obsidian');
  assert.equal(host.basePath, vault);
  assert.equal(host.data.dir, join(vault, '.obsidian/plugins/vault-mcp-server'));
  assert.deepEqual(host.files().map((f) => f.path).sort(), app.vault.getFiles().map((f) => f.path).sort());
  assert.ok(!host.files().some((f) => f.path.startsWith('.')));
  assert.ok(host.folders().includes('Projects') && host.isFolder('Projects') && host.isFolder(''));
  assert.equal(host.stat('Projects'), null, 'a folder has no file stat');
  assert.equal(host.stat('Welcome.md')!.size, app.vault.getFileByPath('Welcome.md')!.stat.size);
  assert.equal(host.metadata('Attachments/logo.png'), null);
  assert.equal(host.metadata('Welcome.md')!.headings![0].heading, 'Welcome');
});

test('a vault change: modify event at once, metadata and resolved later; pending until then', async () => {
  const { app, host } = hostOn(copyVault(), { delayMs: 30 });
  await host.ready();
  const seen: VaultEvent['type'][] = [];
  host.subscribe((e) => seen.push(e.type));
  assert.equal(host.pendingCount(), 0);
  await app.vault.modify(app.vault.getFileByPath('Welcome.md')!, '# Changed\n\n[[Grace Hopper]]\n');
  assert.deepEqual(seen, ['modify']);
  assert.equal(host.pendingCount(), 1, 'changed but not parsed yet');
  assert.equal(await host.readText('Welcome.md'), '# Changed\n\n[[Grace Hopper]]\n', 'reads see the new bytes before the cache does');
  await app.metadataCache.settled();
  assert.deepEqual(seen, ['modify', 'metadata', 'resolved']);
  assert.equal(host.pendingCount(), 0);
  assert.equal(host.metadata('Welcome.md')!.headings![0].heading, 'Changed');
  assert.deepEqual(host.resolvedLinks()['Welcome.md'], { 'People/Grace Hopper.md': 1 });
  await app.vault.rename(app.vault.getFileByPath('People/Ada Lovelace.md')!, 'People/Ada.md');
  assert.equal(seen.at(-1), 'rename');
  await app.vault.delete(app.vault.getFileByPath('People/Ada.md')!);
  assert.equal(seen.at(-1), 'delete');
});

test('an app still parsing at startup: pending > 0 and ready() waits for resolved', async () => {
  const { app, host } = hostOn(copyVault(), { initialParse: 'async', delayMs: 50 });
  const notes = app.vault.getMarkdownFiles().length;
  // Before ready()'s first pass has looked (it runs in slices), pending is not yet counted but is > 0.
  assert.ok(host.pendingCount() > 0);
  const waiting = host.ready();
  // Once the pass has started (a turn later), every note not yet looked at or found uncached counts.
  for (let i = 0; i < 40 && host.pendingCount() !== notes; i++) await new Promise((r) => setTimeout(r, 1));
  assert.equal(host.pendingCount(), notes, 'every uncached note counts');
  await waiting;
  assert.equal(host.pendingCount(), 0);
  assert.ok(host.metadata('Welcome.md'));
});

test('NFD file names on disk are served under NFC paths', async () => {
  const vault = copyVault();
  const nfd = 'Café'.normalize('NFD');
  mkdirSync(join(vault, nfd));
  writeFileSync(join(vault, nfd, `${nfd} menu.md`), '# Menu\n\nSee [[Welcome]].\n');
  const { host } = hostOn(vault);
  const nfc = 'Café/Café menu.md'.normalize('NFC');
  assert.ok(host.files().some((f) => f.path === nfc), 'listed as NFC');
  assert.ok(host.folders().includes('Café'.normalize('NFC')));
  assert.ok(host.stat(nfc) && host.isFolder('Café'.normalize('NFC')));
  assert.equal(await host.readText(nfc), '# Menu\n\nSee [[Welcome]].\n');
  assert.equal(host.metadata(nfc)!.headings![0].heading, 'Menu');
  assert.equal(host.resolveLink('Welcome', nfc), 'Welcome.md');
  assert.ok(Object.keys(host.resolvedLinks()).includes(nfc), 'resolvedLinks keys are NFC');
});

test('links and unresolved links mirror the metadata cache', async () => {
  const { host } = hostOn(copyVault());
  await host.ready();
  assert.equal(host.resolveLink('Garden Redesign', 'Welcome.md'), 'Projects/Garden Redesign.md');
  assert.equal(host.resolveLink('Nowhere', 'Welcome.md'), null);
  assert.equal(host.resolvedLinks()['Welcome.md']['Attachments/logo.png'], 1);
  assert.equal(host.unresolvedLinks()['Welcome.md']['Someday Maybe'], 1);
});

/** The app's two link maps behind proxies that count every enumeration of their keys. */
function countEnumerations(app: fake.App): { count: () => number } {
  let n = 0;
  const wrap = (m: Record<string, Record<string, number>>) => new Proxy(m, { ownKeys: (t) => { n++; return Reflect.ownKeys(t); } });
  app.metadataCache.resolvedLinks = wrap(app.metadataCache.resolvedLinks);
  app.metadataCache.unresolvedLinks = wrap(app.metadataCache.unresolvedLinks);
  return { count: () => n };
}

test('link rows are listed by looking up the kept file list, not by enumerating the app\'s maps (one 22 ms step at 100k notes)', async () => {
  const { app, host } = hostOn(copyVault());
  await host.ready();
  const want = { resolved: structuredClone(app.metadataCache.resolvedLinks), unresolved: structuredClone(app.metadataCache.unresolvedLinks) };
  const seen = countEnumerations(app);
  app.metadataCache.trigger('resolve', app.vault.getFileByPath('Welcome.md')); // drops any kept copy
  const rows = host.linkRows!();
  const asRecord = (m: LinkRowMap) => Object.fromEntries([...m.keys()].map((k) => [k, m.get(k)]));
  const got = { resolved: asRecord(rows.resolved), unresolved: asRecord(rows.unresolved) };
  assert.equal(seen.count(), 0, 'no enumeration of the app\'s keys');
  assert.deepEqual(got, want);
});

test('link rows read while the file list still waits for a folder move\'s update name the app\'s new paths', async () => {
  const { app, host } = hostOn(copyVault());
  await host.ready();
  host.linkRows!();
  // A folder move's list update waits for a slice (eventSlices.ts): the list still has the old paths
  // when the app has already re-keyed its maps (the fake does it after a delay: here at once).
  await app.vault.rename(app.vault.getFolderByPath('People')!, 'Contacts');
  (app.metadataCache as unknown as { computeLinks(): void }).computeLinks();
  const rows = host.linkRows!();
  const asRecord = (m: LinkRowMap) => Object.fromEntries([...m.keys()].map((k) => [k, m.get(k)]));
  assert.ok(Object.keys(app.metadataCache.resolvedLinks).some((k) => k.startsWith('Contacts/')), 'the app has rows under the new folder');
  assert.deepEqual(asRecord(rows.resolved), app.metadataCache.resolvedLinks);
  assert.deepEqual(asRecord(rows.unresolved), app.metadataCache.unresolvedLinks);
});

test('a vault with a path the app spells otherwise than NFC enumerates the app\'s maps: the list\'s NFC keys would miss its rows', async () => {
  const vault = copyVault();
  const nfd = 'Café'.normalize('NFD');
  mkdirSync(join(vault, nfd));
  writeFileSync(join(vault, nfd, 'Menu.md'), '# Menu\n\nSee [[Welcome]] and [[Nowhere]].\n');
  const { app, host } = hostOn(vault);
  await host.ready();
  const seen = countEnumerations(app);
  app.metadataCache.trigger('resolve', app.vault.getFileByPath('Welcome.md'));
  const rows = host.linkRows!();
  const menu = 'Café/Menu.md'.normalize('NFC');
  assert.ok([...rows.resolved.keys()].includes(menu), 'listed under its NFC spelling');
  assert.ok(seen.count() > 0, 'enumerated');
  assert.deepEqual(rows.resolved.get(menu), { 'Welcome.md': 1 });
  assert.deepEqual(rows.unresolved.get(menu), { Nowhere: 1 });
});

test('listeners are registered through the plugin and die with it', async () => {
  const { app, host, owner } = hostOn(copyVault());
  const base = app.vault.listenerCount(); // the fake cache's own vault listeners + ours
  assert.ok(app.metadataCache.listenerCount() > 0);
  owner.unload();
  assert.equal(app.metadataCache.listenerCount(), 0);
  assert.equal(app.vault.listenerCount(), base - 4, 'create, modify, delete, rename');
  await host.close();
});

