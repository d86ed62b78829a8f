// The service on the onnxruntime-web WASM backend (one thread) under Node, end to end over MCP.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestRuntime } from '../helpers/runtime.js';
import { connect, call, textOf } from '../helpers/server.js';
import { tempDir } from '../helpers/vault.js';
import { GLOVE, missing, ortWasmFromNodeModules } from './helpers.js';

test('WASM backend: build and search over MCP with the GloVe model, WASM unpacked into the data folder', { skip: missing(GLOVE), timeout: 60_000 }, async () => {
  const vault = join(tempDir('vmcp-wasm-vault-'), 'vault');
  mkdirSync(join(vault, 'k'), { recursive: true });
  writeFileSync(join(vault, 'k/Bread.md'), '# Bread\n## Method\nKnead the dough and bake the loaf in a hot oven.\n');
  writeFileSync(join(vault, 'k/Markets.md'), '# Markets\nStocks and bonds fell as interest rates rose.\n');
  const t = await startTestRuntime(vault, { embeddingModel: GLOVE, embeddingBackend: 'wasm', embeddingAutoIndex: false }, { services: { ortWasmSource: () => ortWasmFromNodeModules(1) } });
  const client = await connect(t.url, t.rwKey);
  try {
    assert.equal((await call(client, 'build_embeddings', {})).structuredContent!.status, 'done');
    const st = (await call(client, 'stats')).structuredContent!.semantic;
    assert.match(st.model, /WASM, 1 thread/);
    const r = await call(client, 'semantic_search', { query: 'homemade loaf recipe' });
    assert.equal(r.structuredContent!.results[0].path, 'k/Bread.md', textOf(r));
    assert.equal(r.structuredContent!.results[0].section, '#2 Method');
  } finally { await client.close(); await t.stop(); }
});
