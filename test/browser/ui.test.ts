// The plugin's settings tab, key dialog, status bar and MCP activity view rendered in real Chromium
// (test/browser/ui/: the real UI modules on a DOM implementation of the Obsidian helpers, the app's theme
// variables and styles.css), from a real plugin run's data. Asserts elements, not pixels: the markup the
// app's CSS expects, that typing and clicking run the plugin's own handlers, that the chart is real SVG
// with laid-out bars, and that every CSS variable styles.css uses is defined in both themes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../helpers/paths.js';
import { unloadAll } from '../plugin/harness.js';
import { chromiumMissing, launchChromium, type Chromium } from './chromium.js';
import { recordPluginRun, type Recorded } from './ui/record.js';
import { mount, openUiPage, type UiPage } from './ui/render.js';
import { statusText } from '../../src/plugin/statusBar.js';

const skip = chromiumMissing();
let chromium: Chromium | null = null;
let rec: Recorded;

before(async () => {
  if (skip) return;
  rec = await recordPluginRun();
  await unloadAll();
  chromium = await launchChromium();
});
after(async () => { await unloadAll(); await chromium?.close(); });

/** Runs `fn` in the page and returns its JSON result (the page's DOM, queried in Chromium). */
const inPage = <T>(p: UiPage, fn: string): Promise<T> => p.page.evaluate(fn) as Promise<T>;

test('settings tab in Chromium: app markup, real key creation by typing and clicking, per-key limits from the real run', { skip, timeout: 60_000 }, async () => {
  const p = await openUiPage(chromium!, 'light');
  try {
    const m = await mount(p, 'settings', rec.snapshot, { createKey: { name: 'cursor', scope: 'readwrite' } });
    assert.deepEqual(p.errors, []);
    assert.deepEqual(m.calls, ['createKey(cursor, readwrite)']);
    const dom = await inPage<{ headings: string[]; toggleOn: boolean; keys: string[]; revokes: number; raw: string[]; limits: string[]; families: { on: number; off: string[] }; meter: string | null; width: string; size: string }>(p, `(() => {
      const tab = document.querySelector('.modal.mod-settings .vertical-tab-content');
      const name = (s) => s.querySelector(':scope > .setting-item-info > .setting-item-name').textContent;
      const items = [...tab.querySelectorAll('.setting-item')];
      const serve = items.find((s) => name(s) === 'Serve this vault over MCP');
      const keyRows = [...tab.querySelectorAll('.vmcp-keys > .setting-item')].filter((s) => s.querySelector('button.mod-warning'));
      const ra = tab.querySelector('.vmcp-key-limits[data-key="research-agent"]');
      const fam = [...ra.querySelectorAll('.setting-item')].find((s) => name(s) === 'Tool families');
      const toggles = [...fam.querySelectorAll('.checkbox-container')];
      const meter = ra.querySelector('[role=meter]');
      return {
        headings: [...tab.querySelectorAll('.setting-item-heading')].filter((h) => !h.closest('.vmcp-key-limits')).map(name),
        toggleOn: serve.querySelector('.setting-item-control > .checkbox-container').classList.contains('is-enabled'),
        keys: keyRows.map(name),
        revokes: keyRows.length,
        raw: [...tab.querySelectorAll('.vmcp-new-key pre.vmcp-copy-text')].map((e) => e.textContent),
        limits: [...tab.querySelectorAll('.vmcp-key-limits')].map((e) => e.dataset.key),
        families: { on: toggles.filter((t) => t.classList.contains('is-enabled')).length, off: toggles.filter((t) => !t.classList.contains('is-enabled')).map((t) => t.getAttribute('aria-label')) },
        meter: meter && meter.getAttribute('aria-valuenow'),
        width: meter && getComputedStyle(meter.firstChild).width,
        size: ra.querySelector('.setting-item-description').textContent,
      };
    })()`);
    assert.deepEqual(dom.headings, ['Server', 'API keys', 'Key restrictions', 'Limits', 'Semantic search', 'Summaries (language model)', 'Keyword search', 'Import from the web', 'Symbolic links']);
    assert.equal(dom.toggleOn, true, 'the server toggle shows the running server');
    assert.deepEqual(dom.keys, ['claude-code', 'research-agent', 'cursor'], 'each key a row with a Revoke (mod-warning) button, the new one included');
    // The key box: the raw key (made by the real KeyStore.add in the page), then the two connect snippets with it.
    assert.equal(dom.raw.length, 3);
    assert.match(dom.raw[0], /^vmcp_[A-Za-z0-9_-]{43}$/);
    assert.ok(dom.raw[1].startsWith('claude mcp add --transport http vault http://127.0.0.1:') && dom.raw[1].includes(`Bearer ${dom.raw[0]}`), dom.raw[1]);
    const desktop = JSON.parse(dom.raw[2]).mcpServers.vault as { command: string; args: string[]; env: Record<string, string> };
    assert.deepEqual(desktop, { command: 'node', args: [`${rec.snapshot.dataDir}/bridge.cjs`, '--url', desktop.args[2]], env: { VAULT_MCP_KEY: dom.raw[0] } });
    assert.deepEqual(dom.limits, ['claude-code', 'research-agent', 'cursor']);
    // research-agent: 9 families, "transfer" switched off in the real run; its quota meter counts its real calls.
    assert.deepEqual(dom.families.off, ['transfer']);
    assert.equal(dom.families.on, 8);
    const made = rec.calls.filter((c) => c.key === 'research-agent').length;
    assert.equal(dom.meter, String(made));
    assert.ok(parseFloat(dom.width) > 0, `the meter fill is laid out (${dom.width})`);
    const listed = rec.snapshot.tools['research-agent'];
    const bytes = new TextEncoder().encode(JSON.stringify({ tools: listed })).length;
    assert.ok(dom.size.includes(`tools/list: ${listed.length} tools, ${bytes.toLocaleString('en-US')} bytes`), dom.size);
  } finally { await p.close(); }
});

test('activity view in Chromium: SVG chart with laid-out bars per key, the run\'s calls as rows, filters that re-render', { skip, timeout: 60_000 }, async () => {
  const p = await openUiPage(chromium!, 'dark', 560);
  try {
    await mount(p, 'activity', rec.snapshot);
    assert.deepEqual(p.errors, []);
    const read = () => inPage<{ ns: string; bars: { key: string; h: number }[]; refused: number; rows: number; refusedRows: number; title: string; selects: number }>(p, `(() => {
      const svg = document.querySelector('.view-content svg.vmcp-chart-svg');
      return {
        ns: svg.namespaceURI,
        bars: [...svg.querySelectorAll('rect.vmcp-bar')].map((r) => ({ key: r.dataset.key, h: r.getBoundingClientRect().height })),
        refused: svg.querySelectorAll('rect.vmcp-bar-refused').length,
        rows: document.querySelectorAll('table.vmcp-calls tr.vmcp-ok, table.vmcp-calls tr.vmcp-refused').length,
        refusedRows: document.querySelectorAll('table.vmcp-calls tr.vmcp-refused').length,
        title: document.querySelector('.view-header-title').textContent,
        selects: document.querySelectorAll('.vmcp-filters select.dropdown').length,
      };
    })()`);
    const all = await read();
    assert.equal(all.ns, 'http://www.w3.org/2000/svg', 'createSvg made SVG elements, not HTML ones');
    assert.equal(all.title, 'MCP activity');
    assert.deepEqual(all.bars.map((b) => b.key).sort(), ['claude-code', 'research-agent'], "today's bar: one segment per key");
    assert.ok(all.bars.every((b) => b.h > 0), `bars have height: ${JSON.stringify(all.bars)}`);
    assert.equal(all.refused, 1, 'refusals drawn apart on top of the day');
    assert.equal(all.rows, rec.calls.length);
    assert.equal(all.refusedRows, rec.calls.filter((c) => c.refused).length);
    assert.equal(all.selects, 3);
    // Choosing a key in the filter (a real change event) re-renders the table with that key's calls only.
    await p.page.select('.vmcp-filters select[aria-label="Key"]', 'research-agent');
    const one = await read();
    assert.equal(one.rows, rec.calls.filter((c) => c.key === 'research-agent').length);
  } finally { await p.close(); }
});

test('status bar in Chromium: the plugin item beside the app\'s, with text and tooltip per state', { skip, timeout: 60_000 }, async () => {
  const p = await openUiPage(chromium!, 'light', 640);
  try {
    const port = rec.snapshot.state.kind === 'on' ? rec.snapshot.state.port : 0;
    await mount(p, 'statusBar', rec.snapshot, [{ state: rec.snapshot.state }, { state: { kind: 'port-busy', port: 27200 } }]);
    const items = await inPage<{ text: string; tip: string | null; visible: boolean }[]>(p, `[...document.querySelectorAll('.status-bar > .status-bar-item.plugin-vault-mcp-server')].map((e) => ({ text: e.textContent, tip: e.getAttribute('aria-label'), visible: e.getBoundingClientRect().width > 0 }))`);
    assert.equal(items.length, 2);
    // The run's real index statuses (the semantic index has notes pending: auto-indexing was off).
    assert.equal(items[0].text, statusText(rec.snapshot.state, rec.snapshot.statuses));
    assert.ok(items[0].text.startsWith(`MCP: on :${port}`), items[0].text);
    assert.match(items[0].tip!, new RegExp(`listening on port ${port}\\.\\nmetadata: ready`));
    assert.equal(items[1].text, 'MCP: port 27200 busy');
    assert.ok(items.every((i) => i.visible));
  } finally { await p.close(); }
});

test('every CSS variable styles.css uses is defined by the app theme, light and dark', { skip, timeout: 60_000 }, async () => {
  const used = [...new Set([...readFileSync(join(REPO, 'styles.css'), 'utf8').matchAll(/var\((--[a-z0-9-]+)/g)].map((m) => m[1]))];
  assert.ok(used.length > 10);
  for (const theme of ['light', 'dark'] as const) {
    const p = await openUiPage(chromium!, theme);
    try {
      const missing = await inPage<string[]>(p, `${JSON.stringify(used)}.filter((v) => getComputedStyle(document.body).getPropertyValue(v).trim() === '')`);
      assert.deepEqual(missing, [], `${theme}: undefined variables`);
    } finally { await p.close(); }
  }
});
