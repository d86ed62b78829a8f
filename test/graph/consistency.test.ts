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
    // Argument variants: windows, orderings, scheduled_by, heading depth, folder-scoped hubs, feed filters.
    await both('get_recent', { limit: 5, order_by: 'modified' });
    await both('get_recent', { since: '2000-01-01', until: '2100-01-01', limit: 500 });
    await both('list_tasks', { scheduled_by: '2026-11-30', status: 'any' });
    await both('list_tasks', { folder: 'Projects', status: 'open', limit: 1 });
    await both('get_toc', { path: 'Reference/Obsidian syntax', max_level: 2 });
    await both('get_toc', { path: 'Projects', max_level: 1, limit: 1 });
    await both('get_most_linked', { folder: 'People', limit: 5 });
    await both('get_neighborhood', { path: 'Welcome', depth: 5, limit: 3, include_attachments: true });
    await both('get_connection_path', { source: 'Welcome', target: 'Orphan' });
    for (const by of ['me', 'agents', 'human']) await both('get_changes', { since: 'ev:0', by });
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

test('writes are attributed alike in the change feed through the plugin and headless', async (t) => {
  if (!existsSync(join(REPO, 'main.js'))) { const why = 'main.js is missing: run `npm run build` first'; console.log(`# skipped: ${why}`); t.skip(why); return; }
  const { startPlugin } = await import('../plugin/harness.js');
  // Two copies of one vault: the same writes through each host, then the same feed.
  const vp = copyVault();
  const vn = copyVault();
  addGraphFixtures(vp);
  addGraphFixtures(vn);
  const { plugin } = await startPlugin(vp, { port: 0 });
  const pluginKey = await (plugin as unknown as { createKey(n: string, s: string): Promise<string> }).createKey('test-rw', 'readwrite');
  const headless = await startTestRuntime(vn);
  const viaPlugin = await connect(`http://127.0.0.1:${plugin.runtime!.server.port}/mcp`, pluginKey);
  const viaNode = await connect(headless.url, headless.rwKey); // also named "test-rw"
  try {
    const both = async (name: string, args: Record<string, unknown> = {}) => {
      const [a, b] = await Promise.all([call(viaPlugin, name, args), call(viaNode, name, args)]);
      assert.equal(!!a.isError, !!b.isError, `${name}: plugin ${textOf(a)} / headless ${textOf(b)}`);
      return [a, b] as const;
    };
    await both('get_changes', { since: 'ev:0' }); // both feeds started
    await both('create_note', { path: 'Inbox.md', content: '# Inbox\n\nSee [[Welcome]].\n' });
    await both('edit_note', { path: 'Inbox.md', content: 'more', append: true });
    await both('set_frontmatter', { path: 'People/Ada Lovelace.md', updates: { reviewed: true } });
    // Renamed so links by name break: Obsidian rewrites them itself on the plugin path, the server
    // does headless; either way the rewrites are the key's.
    await both('move_note', { from_path: 'People/Grace Hopper.md', to_path: 'Archive/Grace B Hopper.md', rewrite_links: true });
    const [stale] = await both('edit_note', { path: 'Welcome.md', content: 'x', expected_hash: `sha256:${'0'.repeat(64)}` });
    assert.ok(stale.isError);
    await both('delete_note', { path: 'Orphan.md' });
    const rows = async (c: typeof viaPlugin, by: string) => ((await call(c, 'get_changes', { since: 'ev:1', by, limit: 200 })).structuredContent!.changes as { kind: string; path?: string; by: string; from?: string }[])
      .map((x) => [x.kind, x.path ?? null, x.by, x.from ?? null].join(' ')).sort();
    for (const by of ['any', 'me', 'agents', 'human']) {
      const [p, n] = [await rows(viaPlugin, by), await rows(viaNode, by)];
      assert.deepEqual(p, n, `get_changes by=${by}`);
      if (by === 'me') {
        assert.ok(p.includes('moved Archive/Grace B Hopper.md test-rw People/Grace Hopper.md'), p.join('\n'));
        assert.ok(p.includes('modified Welcome.md test-rw '), 'the link rewrite is the key\'s');
        assert.ok(p.some((x) => x.startsWith('deleted Orphan.md test-rw')));
      }
      if (by === 'human') assert.deepEqual(p, []);
    }
  } finally {
    await viaPlugin.close().catch(() => undefined);
    await viaNode.close().catch(() => undefined);
    await headless.stop();
    await plugin.unload();
  }
});
