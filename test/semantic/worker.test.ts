// The inference worker (embedWorker.ts) under Node: the same protocol and the same fs-free worker code
// Obsidian runs in a Web Worker, here in a worker_threads Worker. The model bytes come from the main
// thread (the worker reads no files), onnxruntime-web WASM runs in the worker, and the vectors match
// the in-thread WASM embedder's. Then the whole service over MCP with inference in the worker.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';
import { loadEmbedder } from '../../src/semantic/embedder.js';
// @ts-expect-error plain JS build helper
import { embedWorkerBuild } from '../../scripts/esbuild-semantic.mjs';
import { nodeWorkerChannel, workerEmbedder, type WorkerChannel } from '../../src/semantic/workerEmbedder.js';
import { startTestRuntime } from '../helpers/runtime.js';
import { connect, call, textOf } from '../helpers/server.js';
import { tempDir } from '../helpers/vault.js';
import { GLOVE, missing, ortWasmFromNodeModules, trapNetwork } from './helpers.js';

const WASM = join(dirname(createRequire(import.meta.url).resolve('onnxruntime-web')), 'ort-wasm-simd.wasm');
let built: string | null = null;
/** The worker entry bundled like the plugin's (src/semantic/worker-entry.ts, onnxruntime-node aliased to -web), for
 *  Node: the browser flavour's onnxruntime-web dist cannot run under Node (its emscripten glue sees Node and
 *  finds the browser stubs of fs/path), so what differs from Obsidian is that dist file and the Blob URL. */
async function channel() {
  if (!built) {
    built = join(tempDir('vmcp-worker-build-'), 'embed-worker.js');
    await build({ ...embedWorkerBuild('node'), outfile: built });
  }
  return nodeWorkerChannel(built);
}

test('worker embedder: model bytes handed over, WASM inference in the worker, same vectors as in-thread, main loop free meanwhile', { skip: missing(GLOVE), timeout: 60_000 }, async () => {
  const spawn = await channel();
  let spawned = 0;
  const trap = trapNetwork();
  const e = await workerEmbedder({ model: GLOVE, modelsDir: '/nonexistent', backend: 'wasm', wasmFile: WASM }, () => { spawned++; return spawn(); }).catch((err) => { trap.restore(); throw err; });
  const local = await loadEmbedder({ model: GLOVE, modelsDir: '/nonexistent', backend: 'wasm', wasmFile: WASM });
  try {
    assert.equal(spawned, 1);
    assert.equal(e.inWorker, true);
    assert.equal(e.backend, 'wasm');
    assert.equal(e.dims, 100);
    const texts = ['how do I bake bread at home', 'a recipe for baking your own loaf of bread', 'the stock market fell sharply on monday'];
    const v = await e.embed(texts);
    const w = await local.embed(texts);
    assert.equal(v.length, 3 * 100);
    for (let i = 0; i < v.length; i++) assert.ok(Math.abs(v[i] - w[i]) < 1e-5, `component ${i}: ${v[i]} vs ${w[i]}`);
    const cos = (a: number, b: number) => { let s = 0; for (let i = 0; i < 100; i++) s += v[a * 100 + i] * v[b * 100 + i]; return s; };
    assert.ok(cos(0, 1) > cos(0, 2) + 0.1);
    // While the worker computes, this thread keeps turning its event loop (in-thread WASM would hold it).
    let ticks = 0;
    let done = false;
    const spin = () => { if (!done) { ticks++; setImmediate(spin); } };
    setImmediate(spin);
    const big = await e.embed(Array.from({ length: 64 }, (_, i) => `${texts[i % 3]} `.repeat(20)));
    done = true;
    assert.equal(big.length, 64 * 100);
    assert.ok(ticks > 0, 'the main event loop ran while the worker embedded');
    assert.deepEqual(await e.embed([]), new Float32Array(0));
  } finally { await e.dispose(); await local.dispose(); trap.restore(); }
  assert.deepEqual(trap.calls, []);
});

test('a worker that cannot load the model answers ModelUnavailable, and one that dies fails its waiting calls', { skip: missing(GLOVE), timeout: 60_000 }, async () => {
  const spawn = await channel();
  const bad = join(tempDir('vmcp-badmodel-'), 'm');
  mkdirSync(join(bad, 'onnx'), { recursive: true });
  writeFileSync(join(bad, 'config.json'), '{}');
  writeFileSync(join(bad, 'tokenizer.json'), 'not json');
  writeFileSync(join(bad, 'onnx/model_quantized.onnx'), 'not onnx');
  await assert.rejects(workerEmbedder({ model: bad, modelsDir: '/x', backend: 'wasm', wasmFile: WASM }, spawn), (err: Error) => err.name === 'ModelUnavailable' && /inference worker/.test(err.message));
  let ch!: WorkerChannel;
  const e = await workerEmbedder({ model: GLOVE, modelsDir: '/x', backend: 'wasm', wasmFile: WASM }, () => (ch = spawn()));
  const p = e.embed(['bread']);
  await ch.terminate();
  await assert.rejects(Promise.all([p, e.embed(['more bread'])]).then(() => { throw new Error('the worker was terminated; a call should have failed'); }), /exited|terminated|failed|should/);
});

test('the service on the WASM backend embeds in the worker, over MCP', { skip: missing(GLOVE), timeout: 90_000 }, async () => {
  const vault = join(tempDir('vmcp-worker-vault-'), 'vault');
  mkdirSync(join(vault, 'k'), { recursive: true });
  writeFileSync(join(vault, 'k/Bread.md'), '# Bread\n## Method\nKnead the dough and bake the loaf in a hot oven.\n');
  writeFileSync(join(vault, 'k/Markets.md'), '# Markets\nStocks and bonds fell as interest rates rose.\n');
  const t = await startTestRuntime(vault, { embeddingModel: GLOVE, embeddingBackend: 'wasm', embeddingAutoIndex: false }, { services: { ortWasmSource: () => ortWasmFromNodeModules(1), embedWorker: await channel() } });
  const client = await connect(t.url, t.rwKey);
  try {
    assert.equal((await call(client, 'build_embeddings', {})).structuredContent!.status, 'done');
    const st = (await call(client, 'stats')).structuredContent!.semantic;
    assert.match(st.model, /WASM, 1 thread, in a worker/);
    assert.equal(st.embedded, 2);
    const r = await call(client, 'semantic_search', { query: 'homemade loaf recipe' });
    assert.equal(r.structuredContent!.results[0].path, 'k/Bread.md', textOf(r));
    assert.equal(r.structuredContent!.results[0].section, '#2 Method');
  } finally { await client.close(); await t.stop(); }
});
