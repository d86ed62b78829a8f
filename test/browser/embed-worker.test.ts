// The inference worker in real Chromium, started by the BUILT plugin exactly as in Obsidian: main.js
// (loaded with the fake obsidian) makes `new Worker(blobUrl)` from its bundled worker source and posts the
// model and WASM bytes; workerBridge.ts runs that worker in a Chromium page served with an app-like CSP
// (no network: connect-src blob: only; WASM allowed, eval not). Then build_embeddings and
// semantic_search over MCP, and every vector the worker returned is compared with the Node path
// (@xenova/transformers on onnxruntime-node) for the same texts, on both fixture models.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { loadEmbedder } from '../../src/semantic/embedder.js';
import { GLOVE, TINY, missing } from '../semantic/helpers.js';
import { connect, call, textOf } from '../helpers/server.js';
import { tempDir } from '../helpers/vault.js';
import { startPlugin, unloadAll } from '../plugin/harness.js';
import { chromiumMissing, launchChromium, servePage, type Chromium } from './chromium.js';
import { installChromiumWorker, type BridgeHandle } from './workerBridge.js';

/** Like an Electron app's renderer policy, without network: workers only from blob:, fetch only of
 *  blob: (the WASM binary the worker makes from the bytes it is given), WebAssembly compile allowed,
 *  eval not (the worker needs neither eval nor new Function). */
export const APP_CSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; worker-src blob:; connect-src blob:; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:";

const skip = chromiumMissing() ?? missing(GLOVE, TINY);
let chromium: Chromium | null = null;
let page: Page;
let served: Awaited<ReturnType<typeof servePage>>;
const violations: string[] = [];

before(async () => {
  if (skip) return;
  chromium = await launchChromium();
  served = await servePage({ html: '<!doctype html><title>worker host</title><p>inference worker host</p>', csp: APP_CSP });
  page = await chromium.browser.newPage();
  page.on('console', (m) => { if (/Content Security Policy|Refused/.test(m.text())) violations.push(m.text()); });
  await page.goto(served.url);
});
after(async () => {
  await unloadAll();
  await served?.close();
  await chromium?.close();
});

function notes(): string {
  const vault = join(tempDir('vmcp-chromium-vault-'), 'vault');
  mkdirSync(join(vault, 'k'), { recursive: true });
  writeFileSync(join(vault, 'k/Bread.md'), '# Bread\n## Method\nKnead the dough and bake the loaf in a hot oven until the crust is brown.\n');
  writeFileSync(join(vault, 'k/Markets.md'), '# Markets\nStocks and bonds fell as interest rates rose on monday.\n');
  writeFileSync(join(vault, 'k/Garden.md'), '# Garden\nWater the tomatoes in the evening and pull the weeds between the rows.\n');
  // Sections of very different lengths in one batch (padding and the attention mask matter), one longer
  // than the model's window (truncation), and a few words the vocabularies lack.
  const words = 'the river flows past old mills where farmers once ground wheat into flour for the town bakery and its ovens'.split(' ');
  const long = Array.from({ length: 700 }, (_, i) => words[(i * 7) % words.length]).join(' ');
  writeFileSync(join(vault, 'k/Long.md'), `# Long\n${long}\n## Short\nOk.\n## Odd\nZyxxq qwpl 42 ünïcödé — ✓\n`);
  return vault;
}

async function runModel(model: string, query: string): Promise<{ bridge: BridgeHandle; results: string[]; provider: string }> {
  const bridge = await installChromiumWorker(page);
  try {
    const vault = notes();
    const { plugin } = await startPlugin(vault, { port: 0, embeddingModel: model, embeddingAutoIndex: false });
    assert.equal(plugin.state.kind, 'on', JSON.stringify(plugin.state));
    const key = await (plugin as unknown as { createKey(n: string, s: string): Promise<string> }).createKey('chromium', 'read');
    const client = await connect(plugin.runtime!.server.url, key);
    try {
      const built = await call(client, 'build_embeddings', {});
      assert.equal(built.structuredContent!.status, 'done', textOf(built));
      const st = (await call(client, 'stats')).structuredContent!.semantic;
      const r = await call(client, 'semantic_search', { query });
      return { bridge, results: (r.structuredContent!.results as { path: string }[]).map((x) => x.path), provider: String(st.model) };
    } finally {
      await client.close();
      await plugin.unload();
    }
  } finally { bridge.restore(); }
}

/** Largest |a-b| over every vector the Chromium worker returned, against onnxruntime-node on the same texts. */
async function compareWithNode(model: string, bridge: BridgeHandle): Promise<{ batches: number; vectors: number; maxDiff: number }> {
  const node = await loadEmbedder({ model, modelsDir: '/nonexistent', backend: 'node' });
  try {
    assert.equal(node.backend, 'node');
    let maxDiff = 0;
    let vectors = 0;
    const batches = bridge.exchanges.filter((e) => e.op === 'embed');
    for (const ex of batches) {
      assert.equal(ex.ok, true, `embed in the worker failed: ${ex.error}`);
      const want = await node.embed(ex.texts!);
      assert.equal(ex.vectors!.length, want.length, 'same number of components');
      for (let i = 0; i < want.length; i++) maxDiff = Math.max(maxDiff, Math.abs(ex.vectors![i] - want[i]));
      vectors += ex.texts!.length;
    }
    return { batches: batches.length, vectors, maxDiff };
  } finally { await node.dispose(); }
}

test('Chromium: the worker main.js builds (Blob URL, WASM as bytes, fetch refused) embeds under an app-like CSP, with the Node path\'s vectors (GloVe)', { skip, timeout: 120_000 }, async () => {
  const scope = await installChromiumWorker(page).then(async (b) => { try { return await b.workerScope(); } finally { b.restore(); } });
  // A Blob-URL worker in Chromium: a real WorkerGlobalScope, no Node (unlike a worker_threads Worker).
  assert.deepEqual(scope, ['function', 'undefined', 'undefined', 'DedicatedWorkerGlobalScope']);
  const { bridge, results, provider } = await runModel(GLOVE, 'homemade loaf recipe');
  assert.equal(bridge.started, 1, 'one worker, from a Blob URL');
  assert.deepEqual(bridge.errors, []);
  const load = bridge.exchanges.find((e) => e.op === 'load');
  assert.equal(load?.ok, true, `model load in Chromium failed: ${load?.error}`);
  assert.match(provider, /in a worker/);
  assert.equal(results[0], 'k/Bread.md');
  const cmp = await compareWithNode(GLOVE, bridge);
  console.log(`# GloVe in Chromium: ${cmp.vectors} vectors in ${cmp.batches} batches, max |Chromium - Node| = ${cmp.maxDiff.toExponential(2)}`);
  assert.ok(cmp.batches >= 2, 'notes and the query were embedded in the worker');
  assert.ok(cmp.maxDiff < 1e-5, `max difference ${cmp.maxDiff}`);
  // Nothing reached the page's server but the page itself, and the CSP refused nothing the worker needs.
  assert.deepEqual(served.requests.filter((r) => r !== '/favicon.ico'), ['/']);
  assert.deepEqual(violations, []);
});

test('Chromium: a transformer (tiny BERT) in the same worker gives the Node path\'s vectors', { skip, timeout: 120_000 }, async () => {
  const { bridge } = await runModel(TINY, 'bread');
  assert.deepEqual(bridge.errors, []);
  const cmp = await compareWithNode(TINY, bridge);
  console.log(`# tiny BERT in Chromium: ${cmp.vectors} vectors in ${cmp.batches} batches, max |Chromium - Node| = ${cmp.maxDiff.toExponential(2)}`);
  assert.ok(cmp.batches >= 2);
  // Attention and layer norms in WASM float32 vs native kernels: equal to about 1e-6.
  assert.ok(cmp.maxDiff < 1e-4, `max difference ${cmp.maxDiff}`);
  assert.deepEqual(violations, []);
});
