// The embedding runtime on both fixture models and both onnxruntime backends, with the network
// trapped. The WASM backend loads the binary the way the plugin does: unpacked from a compressed
// copy into the data folder and handed to onnxruntime-web by path (no CDN, no fetch).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { loadEmbedder, modelProblem, type Backend } from '../../src/semantic/embedder.js';
import { ensureOrtWasm, WASM_FILE } from '../../src/semantic/ortWasm.js';
import { FsDataStore } from '../../src/host/fsDataStore.js';
import { tempDir } from '../helpers/vault.js';
import { GLOVE, TINY, missing, trapNetwork, ortWasmFromNodeModules } from './helpers.js';

const skip = missing(GLOVE, TINY);
const net = trapNetwork();
test.after(() => net.restore());

function cos(v: Float32Array, d: number, a: number, b: number): number {
  let s = 0;
  for (let i = 0; i < d; i++) s += v[a * d + i] * v[b * d + i];
  return s;
}

async function check(backend: Backend, wasmFile?: string) {
  const tiny = await loadEmbedder({ model: TINY, modelsDir: '/nonexistent', backend, wasmFile });
  assert.equal(tiny.backend, backend);
  assert.equal(tiny.dims, 32);
  const tv = await tiny.embed(['hello world', 'a second text that is longer than the first one']);
  assert.equal(tv.length, 64);
  for (const r of [0, 1]) assert.ok(Math.abs(cos(tv, 32, r, r) - 1) < 1e-4, 'rows are L2-normalised');

  const glove = await loadEmbedder({ model: GLOVE, modelsDir: '/nonexistent', backend, wasmFile });
  assert.equal(glove.dims, 100);
  const v = await glove.embed([
    'how do I bake bread at home',
    'a recipe for baking your own loaf of bread',
    'the stock market fell sharply on monday',
  ]);
  const para = cos(v, 100, 0, 1);
  const unrelated = cos(v, 100, 0, 2);
  assert.ok(para > unrelated + 0.1, `paraphrase ${para.toFixed(3)} > unrelated ${unrelated.toFixed(3)}`);
  assert.ok(glove.countTokens('bread and butter') >= 3);
  await tiny.dispose();
  await glove.dispose();
}

test('onnxruntime-node: both fixture models, normalised, paraphrase above unrelated, no network', { skip }, async () => {
  await check('node');
  assert.deepEqual(net.calls, []);
});

test('onnxruntime-web WASM (1 thread) from the compressed embedded copy, no network', { skip }, async () => {
  const data = new FsDataStore(join(tempDir('vmcp-wasm-'), 'data'));
  const file = await ensureOrtWasm(data, () => ortWasmFromNodeModules(1));
  assert.ok(existsSync(file) && file.endsWith(WASM_FILE));
  assert.equal(await ensureOrtWasm(data, () => ortWasmFromNodeModules(1)), file, 'second use reuses the verified file');
  await check('wasm', file);
  assert.deepEqual(net.calls, []);
});

test('a missing or incomplete model folder says what is missing', () => {
  assert.match(modelProblem('/nonexistent/model')!, /does not exist/);
  assert.match(modelProblem(tempDir('vmcp-empty-model-'))!, /no config\.json/);
});
