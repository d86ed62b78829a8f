// Plugin path (built main.js in the fake app, caches from the fake metadataCache) and headless NodeHost
// over the same fixture vault: every graph, task and time tool must answer alike. Fields that depend
// on the host's stat source or on when a line was seen (created, time, gap window) are left out.
// Needs `npm run build` first (like test/plugin/).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { copyVault } from '../helpers/vault.js';
import { REPO } from '../helpers/paths.js';
import { startTestRuntime } from '../helpers/runtime.js';
import { connect, call, textOf } from '../helpers/server.js';
import { addGraphFixtures } from './fixtures.js';

const VOLATILE = new Set(['created', 'time', 'gap_from', 'gap_until']);
function strip(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(strip);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(([k]) => !VOLATILE.has(k)).map(([k, x]) => [k, strip(x)]));
  return v;
}

test('graph, task and time tools answer alike through the plugin and headless', async (t) => {
  if (!existsSync(join(REPO, 'main.js'))) { const why = 'main.js is missing: run `npm run build` first'; console.log(`# skipped: ${why}`); t.skip(why); return; }
  const { startPlugin } = await import('../plugin/harness.js');
  const vault = copyVault();
  addGraphFixtures(vault);
  const { plugin } = await startPlugin(vault, { port: 0 });
  const pluginKey = await (plugin as unknown as { createKey(n: string, s: string): Promise<string> }).createKey('consistency', 'read');
  const headless = await startTestRuntime(vault);
  const viaPlugin = await connect(`http://127.0.0.1:${plugin.runtime!.server.port}/mcp`, pluginKey);
  const viaNode = await connect(headless.url, headless.readKey);
  try {
    let calls = 0;
    const both = async (name: string, args: Record<string, unknown> = {}) => {
      const [a, b] = await Promise.all([call(viaPlugin, name, args), call(viaNode, name, args)]);
      assert.ok(!a.isError, `plugin ${name}: ${textOf(a)}`);
      assert.ok(!b.isError, `headless ${name}: ${textOf(b)}`);
      assert.deepEqual(strip(a.structuredContent), strip(b.structuredContent), `${name} ${JSON.stringify(args)}`);
      calls++;
      return a.structuredContent!;
    };
    const notes = (await both('get_recent', { limit: 500 })).notes.map((n: { path: string }) => n.path);
    assert.ok(notes.length >= 12);
    for (const path of notes) {
      await both('get_backlinks', { path, limit: 200 });
      await both('get_links', { path, limit: 1000 });
      await both('get_neighborhood', { path, depth: 2, limit: 200 });
      await both('get_toc', { path });
      await both('get_context', { path });
    }
    await both('get_backlinks', { path: 'Attachments/logo.png' });
    for (const folder of [undefined, '', 'Projects', 'Daily']) {
      const f = folder === undefined ? {} : { folder };
      await both('get_broken_links', { ...f, limit: 500 });
      await both('find_orphans', { ...f, limit: 500 });
      await both('list_tasks', { ...f, status: 'any', limit: 500 });
      await both('get_recent', { ...f, limit: 500, order_by: 'content_changed' });
    }
    await both('get_toc', { path: '', limit: 200 });
    await both('get_most_linked', { limit: 200 });
    await both('get_most_linked', { limit: 200, include_attachments: true });
    for (const s of ['open', 'done', 'cancelled', 'in_progress', '>']) await both('list_tasks', { status: s });
    await both('list_tasks', { due_by: '2026-12-31', tags: ['garden'] });
    for (const [source, target] of [['People/Grace Hopper', 'Daily/2026-11-30'], ['Orphan', 'Welcome'], ['Projects/Links', 'Reference/Obsidian syntax']]) {
      await both('get_connection_path', { source, target });
      await both('get_connection_path', { source, target, direction: 'forward' });
    }
    const feed = await both('get_changes', { since: 'ev:0' });
    assert.equal(feed.changes[0].kind, 'reset');
    console.log(`# ${calls} tool calls compared`);
  } finally {
    await viaPlugin.close().catch(() => undefined);
    await viaNode.close().catch(() => undefined);
    await headless.stop();
    await plugin.unload();
  }
});
