// Semantic search in the plugin runs inference only in a Web Worker. Under the fake there is no Web
// Worker (Node has none), which is exactly the case of a worker that cannot start: semantic search is
// off with the reason in stats (semantic and indexes), keyword search still works, and the main-thread
// WASM path never runs (its emscripten glue would install a process 'unhandledRejection' handler that
// throws, and can call process.exit, inside the app).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { copyVault } from '../helpers/vault.js';
import { connect, call, textOf } from '../helpers/server.js';
import { GLOVE, missing } from '../semantic/helpers.js';
import { openTab, startPlugin, unloadAll } from './harness.js';
import * as fake from './fake-obsidian/index.js';

after(unloadAll);

test('no inference worker: semantic search is off with the reason, never on the main thread', { skip: missing(GLOVE), timeout: 120_000 }, async () => {
  const handlers = process.listenerCount('unhandledRejection');
  const { app, plugin } = await startPlugin(copyVault(), { port: 0, embeddingModel: GLOVE, embeddingAutoIndex: false });
  assert.equal(plugin.state.kind, 'on');
  const tab = await openTab(app);
  const create = tab.containerEl.settings().find((s) => s.name === 'Create key')!;
  await create.component(fake.TextComponent).change('sem');
  await create.button('Create').click();
  const client = await connect(`http://127.0.0.1:${plugin.runtime!.server.port}/mcp`, plugin.lastCreatedKey!.raw);
  try {
    const r = await call(client, 'semantic_search', { query: 'bread' });
    assert.equal(r.isError, true);
    assert.match(textOf(r), /inference worker could not start.*never runs on Obsidian's UI thread/s);
    const st = (await call(client, 'stats')).structuredContent!.semantic;
    assert.equal(st.state, 'unavailable');
    assert.match(st.reason, /inference worker could not start/);
    assert.match(st.model, /off: worker failed/);
    const idx = JSON.stringify((await call(client, 'stats')).structuredContent);
    assert.match(idx, /inference worker could not start/, 'the index status names the reason too');
    assert.ok(!(await call(client, 'keyword_search', { query: 'Welcome' })).isError, 'keyword search still answers');
    assert.equal(process.listenerCount('unhandledRejection'), handlers, 'onnxruntime-web never initialised on this thread');
    // The WASM was unpacked into the vault's cache folder outside the vault, not into the plugin folder.
    assert.ok(!existsSync(join(app.vault.basePath, '.obsidian/plugins/vault-mcp-server/ort-wasm-simd.wasm')));
  } finally { await client.close(); await plugin.unload(); }
});
