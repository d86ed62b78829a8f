// The settings tab's per-key rows and limits, and the "MCP activity" view, on the BUILT plugin in the
// fake Obsidian: per-key usage, quota and tools/list size; editing a limit or a key persists and
// applies; the view lists recent calls with filters and draws the 14-day chart with refusals apart.
// Run: npm run build && node --import tsx --test test/plugin/activity.test.ts
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyVault } from '../helpers/vault.js';
import { connect, call, refusalCode } from '../helpers/server.js';
import * as fake from './fake-obsidian/index.js';
import { findSetting, openTab, startPlugin, unloadAll, waitFor } from './harness.js';

after(unloadAll);

type Plugin = { createKey(name: string, scope: 'read' | 'readwrite'): Promise<string>; stopServer(): Promise<void>; startServer(): Promise<void>; runtime: { server: { port: number } } | null };
const VIEW = 'vault-mcp-activity';

test('settings tab per key and limits; activity view with filters and the 14-day chart', { timeout: 60_000 }, async () => {
  const vault = copyVault();
  const { app, plugin, dataDir } = await startPlugin(vault, { port: 0, rateLimitPerMinute: 60, rateLimitBurst: 3 });
  const p = plugin as unknown as Plugin;
  const url = `http://127.0.0.1:${p.runtime!.server.port}/mcp`;
  const alpha = await connect(url, await p.createKey('alpha', 'readwrite'));
  const beta = await connect(url, await p.createKey('beta', 'read'));
  for (let i = 0; i < 3; i++) assert.equal(refusalCode(await call(alpha, 'read_note', { path: 'Welcome' })), null);
  assert.equal(refusalCode(await call(alpha, 'read_note', { path: 'Welcome' })), 'rate_limited');
  assert.equal(refusalCode(await call(beta, 'stats')), null);
  assert.equal(refusalCode(await call(beta, 'read_note', { path: 'Nope' })), 'not_found');

  // ---- settings tab: one box per key with today's use, quota, last use and tools/list size ----
  let tab = await openTab(app);
  const box = (name: string) => tab.containerEl.findAll((el) => el.hasClass('vmcp-key-limits') && el.getAttr('data-key') === name)[0];
  assert.ok(box('alpha') && box('beta'), 'a row per key: ' + tab.containerEl.findAll((e) => e.hasClass('vmcp-warning')).map((e) => e.text).join(' / '));
  const head = (name: string) => box(name).settings()[0].desc;
  assert.match(head('alpha'), /^Today: 3 of 5000 calls, 1 refused · last used (?!never).+ · tools\/list: \d+ tools, [\d,]+ bytes \(≈[\d,]+ tokens\)$/);
  assert.match(head('beta'), /^Today: 2 of 5000 calls, 1 refused/);
  const size = (name: string) => Number(head(name).match(/([\d,]+) bytes/)![1].replace(/,/g, ''));
  assert.ok(size('beta') < size('alpha'), 'a read key pays less context than a readwrite one');
  const state = tab.containerEl.findAll((el) => el.hasClass('vmcp-server-state'))[0].text;
  assert.match(state, /^Server: Vault MCP Server listening on port \d+\. Limits apply per key/);
  assert.ok(box('alpha').findAll((el) => el.hasClass('vmcp-quota-fill')).length === 1, 'quota meter');

  // Every limit has a control; editing one persists to data.json and applies at once.
  for (const name of ['Calls per minute per key', 'Burst per key', 'Write calls per minute per key', 'Write burst per key', 'Daily quota for new keys (0 = unlimited)',
    'Failed sign-ins per address per window', 'Concurrent calls per key', 'Concurrent calls in all', 'Read cap', 'Largest file read (bytes)', 'Largest file write (bytes)',
    'Largest request body (bytes)', 'Audit file size before rotation (bytes)', 'Keep audit files (days)', 'Read-only mode']) findSetting(tab, name);
  const saved = () => JSON.parse(readFileSync(join(dataDir, 'data.json'), 'utf8')).settings;
  await findSetting(tab, 'Burst per key').component(fake.TextComponent).change('5');
  await findSetting(tab, 'Largest file write (bytes)').component(fake.TextComponent).change('2048');
  await findSetting(tab, 'Largest file write (bytes)').component(fake.TextComponent).change('12abc'); // ignored while typing
  assert.equal(saved().rateLimitBurst, 5);
  assert.equal(saved().maxWriteBytes, 2048);
  assert.equal('maxFileWriteBytes' in saved(), false);
  assert.equal(refusalCode(await call(beta, 'stats')), null);

  // Per-key controls write keys.json.
  const quota = box('beta').settings().find((s) => s.name === 'Daily quota')!;
  await quota.component(fake.TextComponent).change('2');
  const keysJson = () => JSON.parse(readFileSync(join(dataDir, 'keys.json'), 'utf8')).keys as { name: string; dailyQuota?: number; root?: string }[];
  assert.equal(keysJson().find((k) => k.name === 'beta')!.dailyQuota, 2);
  assert.equal(refusalCode(await call(beta, 'stats')), 'over_quota', 'beta used 3 of 2 calls today');
  tab = await openTab(app);
  const root = box('alpha').settings().find((s) => s.name === 'Root folder')!;
  await root.component(fake.TextComponent).change('Projects/');
  await root.button('Apply').click();
  assert.equal(keysJson().find((k) => k.name === 'alpha')!.root, 'Projects');

  // Read-only mode: persisted, and write tools vanish from the next tools/list.
  tab = await openTab(app);
  await findSetting(tab, 'Read-only mode').component(fake.ToggleComponent).change(true);
  assert.equal(saved().readOnly, true);
  assert.ok(!(await alpha.listTools()).tools.some((t) => t.name === 'create_note'));

  // ---- the activity view: command and ribbon icon open it in the right sidebar ----
  assert.ok(app.ribbon.findAll((el) => el.getAttr('aria-label') === 'Open MCP activity' && el.getAttr('data-icon') === 'activity').length === 1);
  assert.ok(app.commands.executeCommandById('vault-mcp-server:open-activity'));
  await waitFor(() => app.workspace.getLeavesOfType(VIEW).length === 1 && app.workspace.revealed.length === 1, 'the activity view to open');
  const leaf = app.workspace.getLeavesOfType(VIEW)[0];
  assert.equal(leaf.side, 'right');
  assert.ok(app.commands.executeCommandById('vault-mcp-server:open-activity'));
  await waitFor(() => app.workspace.revealed.length === 2, 'a second reveal');
  assert.equal(app.workspace.getLeavesOfType(VIEW).length, 1, 'an open view is revealed, not duplicated');
  const view = leaf.view!;
  const el = view.contentEl;
  const rows = () => el.findAll((e) => e.tagName === 'tr').slice(1).map((tr) => tr.children.map((td) => td.text));
  // Newest first: time, key, tool, outcome, ms, bytes, arguments.
  const calls = rows().map((r) => [r[1], r[2], r[3]]);
  assert.deepEqual(calls, [
    ['beta', 'stats', 'over_quota'], ['beta', 'stats', 'ok'], ['beta', 'read_note', 'not_found'], ['beta', 'stats', 'ok'],
    ['alpha', 'read_note', 'rate_limited'], ['alpha', 'read_note', 'ok'], ['alpha', 'read_note', 'ok'], ['alpha', 'read_note', 'ok'],
  ]);
  assert.match(rows()[2][6], /"path":"Nope"/);
  const select = (label: string) => el.findAll((e) => e.tagName === 'select' && e.getAttr('aria-label') === label)[0];
  const pick = async (label: string, value: string) => { const s = select(label); s.value = value; await s.onchange?.(); };
  await pick('Key', 'alpha');
  assert.deepEqual(rows().map((r) => r[1]), ['alpha', 'alpha', 'alpha', 'alpha']);
  await pick('Outcome', 'refused');
  assert.deepEqual(rows().map((r) => [r[1], r[3]]), [['alpha', 'rate_limited']]);
  await pick('Key', '');
  assert.deepEqual(rows().map((r) => r[3]), ['over_quota', 'not_found', 'rate_limited']);
  await pick('Tool', 'stats');
  assert.deepEqual(rows().map((r) => r[3]), ['over_quota']);
  await pick('Outcome', '');
  await pick('Tool', '');

  // The chart: 14 days, today's bars per key (ok calls), refusals in their own hatched segment.
  const svg = el.findAll((e) => e.tagName === 'svg')[0];
  assert.ok(svg?.svg, 'drawn as SVG');
  const dayLabels = svg.findAll((e) => e.tagName === 'text' && e.hasClass('vmcp-axis')).slice(1).map((e) => e.text);
  assert.equal(dayLabels.length, 14);
  const title = (e: fake.FakeElement) => e.children.find((c) => c.tagName === 'title')?.text ?? '';
  const bars = svg.findAll((e) => e.hasClass('vmcp-bar')).map(title);
  assert.deepEqual(bars.map((t) => t.replace(/^\S+ /, '')), ['alpha: 3 ok', 'beta: 2 ok']);
  assert.deepEqual(svg.findAll((e) => e.hasClass('vmcp-bar-refused')).map((e) => title(e).replace(/^\S+ /, '')), ['3 refused']);
  assert.match(el.findAll((e) => e.hasClass('vmcp-legend'))[0].textContent, /alpha .*beta .*refused: 3 in 14 days/);

  // The view follows the server: off, then on again.
  await p.stopServer();
  assert.match(el.textContent, /The server is off/);
  await p.startServer();
  assert.ok(el.findAll((e) => e.tagName === 'svg').length === 1, 'redrawn after the restart');
  assert.equal(rows().length, 8, 'history survives a restart (the audit log is read back)');

  await alpha.close().catch(() => undefined);
  await beta.close().catch(() => undefined);
  await plugin.unload();
  assert.equal(app.workspace.getLeavesOfType(VIEW).length, 0, 'unloading detaches the view');
});
