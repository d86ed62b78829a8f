// The same tool calls through the plugin (built main.js in the fake app) and the headless NodeHost
// (runtime in-process) over the same fixture vault must answer alike: the core cannot tell the
// hosts apart. `created` is left out: the hosts may take ctime from different stat fields.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyVault } from '../helpers/vault.js';
import { startTestRuntime } from '../helpers/runtime.js';
import { connect, call, textOf } from '../helpers/server.js';
import { startPlugin, unloadAll } from './harness.js';

after(unloadAll);

function stripCreated(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripCreated);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(([k]) => k !== 'created').map(([k, x]) => [k, stripCreated(x)]));
  return v;
}

test('plugin and headless hosts give the same answers', async () => {
  const vault = copyVault();
  const { app, plugin } = await startPlugin(vault, { port: 0 });
  const pluginKey = await (plugin as unknown as { createKey(n: string, s: string): Promise<string> }).createKey('consistency', 'read');
  const headless = await startTestRuntime(vault);
  const viaPlugin = await connect(`http://127.0.0.1:${plugin.runtime!.server.port}/mcp`, pluginKey);
  const viaNode = await connect(headless.url, headless.readKey);
  try {
    const both = async (name: string, args: Record<string, unknown> = {}) => {
      const [a, b] = await Promise.all([call(viaPlugin, name, args), call(viaNode, name, args)]);
      assert.ok(!a.isError, `plugin ${name}: ${textOf(a)}`);
      assert.ok(!b.isError, `headless ${name}: ${textOf(b)}`);
      assert.deepEqual(stripCreated(a.structuredContent), stripCreated(b.structuredContent), `${name} ${JSON.stringify(args)}`);
      return a;
    };
    const list = await both('list_notes', { order_by: 'path', limit: 500 });
    const paths = list.structuredContent!.notes.map((n: { path: string }) => n.path);
    assert.equal(paths.length, app.vault.getMarkdownFiles().length);
    for (const path of paths) await both('read_note', { path });
    await both('list_folders');
    const tags = await both('get_tags', { limit: 1000 });
    assert.ok(tags.structuredContent!.tags.length > 0, 'the fixture has tags');
    await both('list_files', { recursive: true, limit: 1000 });
    await both('read_file', { path: 'Attachments/logo.png', hash_only: true });
    await both('read_file', { path: 'Reference/people.csv' });
  } finally {
    await viaPlugin.close().catch(() => undefined);
    await viaNode.close().catch(() => undefined);
    await headless.stop();
    await plugin.unload();
  }
});
