// The BUILT plugin (main.js) inside a fake Obsidian over a copy of examples/vault: a key made in the
// settings tab, a real SDK client over HTTP, a vault change seen by the next read, and a clean
// unload that frees the port and the lock. Run: npm run build && node --import tsx --test test/plugin/plugin.test.ts
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { copyVault } from '../helpers/vault.js';
import { connect, call, textOf } from '../helpers/server.js';
import * as fake from './fake-obsidian/index.js';
import { clipboard, findSetting, holdPort, openTab, portIsFree, startPlugin, unloadAll, waitFor } from './harness.js';

after(unloadAll);

const lastNotice = () => fake.notices.at(-1)?.message ?? '';

test('plugin serves the vault: key from the settings tab, tools over HTTP, fresh reads, clean unload', async () => {
  const vault = copyVault();
  const { app, plugin, dataDir } = await startPlugin(vault, { port: 0 });
  assert.equal(plugin.state.kind, 'on', JSON.stringify(plugin.state));
  const port = plugin.runtime!.server.port;
  assert.ok(port > 0, 'port 0 binds a real port, recorded on the runtime');
  // Right after start the bar may show index progress ("· indexing N notes" / "· indexing 300/312"); it settles once indexes are done.
  assert.match(app.statusBar.children[0].text, new RegExp(`^MCP: on :${port}( · indexing (\\d+ notes?|\\d+/\\d+))?$`));
  for (let i = 0; i < 100 && app.statusBar.children[0].text !== `MCP: on :${port}`; i++) await new Promise((r) => setTimeout(r, 100));
  assert.equal(app.statusBar.children[0].text, `MCP: on :${port}`);
  const lock = JSON.parse(readFileSync(join(dataDir, 'server.lock'), 'utf8'));
  assert.equal(lock.pid, process.pid);
  assert.equal(lock.host, 'obsidian');

  // Create a key the way a user does.
  const tab = await openTab(app);
  assert.ok(findSetting(tab, 'Semantic search').heading, 'feature sections render in the same tab');
  const create = findSetting(tab, 'Create key');
  await create.component(fake.TextComponent).change('claude-code');
  await create.component(fake.DropdownComponent).change('readwrite');
  await create.button('Create').click();
  await (tab as unknown as { rendered: Promise<void> }).rendered;
  const shown = tab.containerEl.findAll((el) => el.hasClass('vmcp-copy-text')).map((el) => el.text);
  assert.equal(shown.length, 3, 'key, Claude Code command, Claude Desktop JSON');
  const [key, cmd, desktop] = shown;
  assert.match(key, /^\S{20,}$/);
  assert.equal(cmd, `claude mcp add --transport http vault http://127.0.0.1:${port}/mcp --header "Authorization: Bearer ${key}"`);
  // The Claude Desktop JSON works as pasted: Node runs the bridge.cjs installed beside main.js.
  const cfg = JSON.parse(desktop).mcpServers.vault as { command: string; args: string[]; env: Record<string, string> };
  assert.deepEqual(cfg, { command: 'node', args: [join(dataDir, 'bridge.cjs'), '--url', `http://127.0.0.1:${port}/mcp`], env: { VAULT_MCP_KEY: key } });
  const desktopClient = new Client({ name: 'claude-desktop-stand-in', version: '1.0.0' });
  await desktopClient.connect(new StdioClientTransport({ command: process.execPath, args: cfg.args, env: { PATH: process.env.PATH ?? '', ...cfg.env } }));
  assert.ok((await desktopClient.listTools()).tools.some((t) => t.name === 'read_note'));
  await desktopClient.close();
  await findSetting(tab, 'Claude Code').button('Copy').click();
  assert.equal(clipboard.at(-1), cmd);
  assert.ok(!readFileSync(join(dataDir, 'keys.json'), 'utf8').includes(key), 'only the hash is stored');
  assert.match(findSetting(tab, 'claude-code').desc, /Read and write · created .* · last used never/);

  const client = await connect(`http://127.0.0.1:${port}/mcp`, key);
  const tools = (await client.listTools()).tools.map((t) => t.name);
  for (const t of ['read_note', 'list_notes', 'get_vault_guide', 'read_file']) assert.ok(tools.includes(t), `${t} listed`);

  const note = await call(client, 'read_note', { path: 'Welcome' });
  assert.ok(!note.isError, textOf(note));
  assert.equal(note.structuredContent!.path, 'Welcome.md');
  assert.match(note.structuredContent!.content_hash, /^sha256:[0-9a-f]{64}$/);

  const list = await call(client, 'list_notes', { order_by: 'path', limit: 500 });
  assert.equal(list.structuredContent!.total, app.vault.getMarkdownFiles().length);
  assert.deepEqual(list.structuredContent!.notes.map((n: { path: string }) => n.path), app.vault.getMarkdownFiles().map((f) => f.path).sort());

  const guide = await call(client, 'get_vault_guide');
  assert.equal(guide.structuredContent!.guide_path, 'CLAUDE.md');
  assert.equal(guide.structuredContent!.guide, readFileSync(join(vault, 'CLAUDE.md'), 'utf8'));

  const png = await call(client, 'read_file', { path: 'Attachments/logo.png' });
  assert.ok(!png.isError, textOf(png));
  const image = (png.content as { type: string; data?: string; mimeType?: string }[]).find((c) => c.type === 'image');
  assert.equal(image?.mimeType, 'image/png');
  assert.equal(image?.data, readFileSync(join(vault, 'Attachments/logo.png')).toString('base64'));

  // A change made through the app's vault is visible to the very next read (before the cache settles).
  const file = app.vault.getFileByPath('Welcome.md')!;
  const marker = `\n\nEdited in the app at ${Date.now()}.\n`;
  await app.vault.modify(file, (await app.vault.read(file)) + marker);
  const after = await call(client, 'read_note', { path: 'Welcome.md' });
  assert.ok(after.structuredContent!.content.endsWith(marker));
  assert.notEqual(after.structuredContent!.content_hash, note.structuredContent!.content_hash);
  await app.metadataCache.settled();

  // The connect command uses the key created in this session.
  const shownBefore = fake.notices.length;
  app.commands.executeCommandById('vault-mcp-server:copy-connect');
  await waitFor(() => fake.notices.length > shownBefore, 'the copy Notice');
  assert.equal(clipboard.at(-1), cmd);
  assert.equal(lastNotice(), 'Copied the Claude Code command.');

  await client.close();
  await plugin.unload();
  assert.equal(await portIsFree(port), true, 'the port is free after unload');
  assert.equal(existsSync(join(dataDir, 'server.lock')), false, 'the lock file is gone');
  assert.equal(plugin.registeredCount, 0, 'every event, interval and command was unregistered');
  assert.equal(app.metadataCache.listenerCount(), 0, 'no metadata listeners left');
  assert.equal(app.statusBar.children.length, 0, 'status bar item removed');
  assert.deepEqual(Object.keys(app.commands.commands), []);
});

test('revoking a key in the settings tab cuts off its open session', async () => {
  const { app, plugin } = await startPlugin(copyVault(), { port: 0 });
  const tab = await openTab(app);
  const create = findSetting(tab, 'Create key');
  await create.component(fake.TextComponent).change('temp');
  await create.button('Create').click();
  const key = plugin.lastCreatedKey!.raw;
  const client = await connect(`http://127.0.0.1:${plugin.runtime!.server.port}/mcp`, key);
  assert.ok(!(await call(client, 'stats')).isError);
  assert.equal((await call(client, 'stats')).structuredContent!.writes, false, 'the default scope is read only');
  await (tab as unknown as { rendered: Promise<void> }).rendered;
  const revoke = findSetting(tab, 'temp').button('Revoke');
  await revoke.click();
  assert.equal(revoke.text, 'Click again to revoke', 'first click only arms the button');
  await revoke.click();
  assert.match(lastNotice(), /Revoked key "temp"/);
  await assert.rejects(call(client, 'stats'));
  await client.close().catch(() => undefined);
  await plugin.unload();
});

test('a busy port the user chose shows a Notice naming the port and how to change it; the lock is released', async () => {
  const held = await holdPort();
  // portAuto off: the user applied this port, so it is reported, not moved.
  const { app, plugin, dataDir } = await startPlugin(copyVault(), { port: held.port, portAuto: false });
  assert.equal(plugin.state.kind, 'port-busy');
  assert.match(lastNotice(), new RegExp(`port ${held.port} .*already in use.*Settings → Vault MCP Server → Port`));
  assert.equal(app.statusBar.children[0].text, `MCP: port ${held.port} busy`);
  assert.equal(existsSync(join(dataDir, 'server.lock')), false);
  // Fix it in the settings tab: a free port, Apply, and the server restarts.
  const tab = await openTab(app);
  await findSetting(tab, 'Port').component(fake.TextComponent).change('0');
  await findSetting(tab, 'Apply port and address').button('Apply').click();
  assert.equal(plugin.state.kind, 'on');
  await plugin.unload();
  await held.close();
});

test('two vaults on one port: the second moves to the next free port, keeps it, and shows it', async () => {
  // Both vaults' settings name the same port (as two fresh installs share the default).
  const probe = await holdPort();
  const port = probe.port;
  await probe.close();
  const first = await startPlugin(copyVault(), { port });
  assert.equal(first.plugin.runtime!.server.port, port);
  const vault = copyVault();
  const { app, plugin, dataDir } = await startPlugin(vault, { port });
  assert.equal(plugin.state.kind, 'on', JSON.stringify(plugin.state));
  const moved = plugin.runtime!.server.port;
  assert.ok(moved > port && moved <= port + 50, `moved to ${moved}`);
  assert.match(lastNotice(), new RegExp(`port ${port} is taken.*now uses port ${moved}`));
  assert.ok(app.statusBar.children[0].text.startsWith(`MCP: on :${moved}`), app.statusBar.children[0].text);
  const saved = JSON.parse(readFileSync(join(dataDir, 'data.json'), 'utf8')).settings;
  assert.equal(saved.port, moved, 'remembered in this vault\'s data.json');
  const tab = await openTab(app);
  assert.equal(findSetting(tab, 'Port').component(fake.TextComponent).getValue(), String(moved), 'the settings tab shows it');
  await plugin.unload();
  // Next launch, the first vault still running: the remembered port is used directly, with no Notice.
  const before = fake.notices.length;
  const again = await startPlugin(vault, saved);
  assert.equal(again.plugin.runtime!.server.port, moved);
  assert.equal(fake.notices.length, before, 'no port Notice at the next launch');
  await again.plugin.unload();
  await first.plugin.unload();
});

test('a vault served by the headless CLI: Notice says so and how to stop it', async () => {
  const vault = copyVault();
  const dir = join(vault, '.obsidian/plugins/vault-mcp-server');
  mkdirSync(dir, { recursive: true });
  // The parent process is alive and is not us: the lock is held.
  writeFileSync(join(dir, 'server.lock'), JSON.stringify({ pid: process.ppid, host: 'node', url: 'http://127.0.0.1:27999/mcp', since: Date.now() }));
  const { app, plugin } = await startPlugin(vault, { port: 0 });
  assert.equal(plugin.state.kind, 'locked');
  assert.match(lastNotice(), /headless server/);
  assert.match(lastNotice(), /Ctrl\+C/);
  assert.equal(app.statusBar.children[0].text, 'MCP: served by CLI');
  assert.ok(existsSync(join(dir, 'server.lock')), 'the other server keeps its lock');
  await plugin.unload();
});

test('server off: no port, status "MCP: off"; the toggle starts it, the Stop command frees the port', async () => {
  const { app, plugin } = await startPlugin(copyVault(), { port: 0, serverEnabled: false });
  assert.equal(plugin.state.kind, 'off');
  assert.equal(app.statusBar.children[0].text, 'MCP: off');
  const tab = await openTab(app);
  await findSetting(tab, 'Serve this vault over MCP').component(fake.ToggleComponent).change(true);
  assert.equal(plugin.state.kind, 'on');
  const port = plugin.runtime!.server.port;
  assert.equal(JSON.parse(readFileSync(join(app.vault.basePath, '.obsidian/plugins/vault-mcp-server/data.json'), 'utf8')).settings.serverEnabled, true);
  app.commands.executeCommandById('vault-mcp-server:stop-server');
  await waitFor(() => plugin.state.kind === 'off', 'the server to stop');
  assert.equal(await portIsFree(port), true);
  // Without a key created in this session the copied command carries a placeholder and says why.
  const shownBefore = fake.notices.length;
  app.commands.executeCommandById('vault-mcp-server:copy-connect');
  await waitFor(() => fake.notices.length > shownBefore, 'the copy Notice');
  assert.match(clipboard.at(-1)!, /Bearer <your key>"$/);
  assert.match(lastNotice(), /shown only when created/);
  await plugin.unload();
});

test('a non-loopback bind address shows a warning in the settings tab', async () => {
  const { app, plugin } = await startPlugin(copyVault(), { serverEnabled: false });
  const tab = await openTab(app);
  const warn = () => tab.containerEl.findAll((el) => el.hasClass('vmcp-warning'))[0].text;
  assert.equal(warn(), '');
  await findSetting(tab, 'Bind address').component(fake.TextComponent).change('0.0.0.0');
  assert.match(warn(), /other devices on your network/);
  await plugin.unload();
});
