// Semantic search benchmark (standalone: `node --import tsx bench/semantic.ts`; also run by `npm run bench`).
//  1. embedding throughput of our pipeline (transformers.js tokenizer + session + mean pooling +
//     normalisation, batched as the indexer does) against raw onnxruntime session.run on the same
//     model and the same pre-tokenised inputs, on onnxruntime-node and onnxruntime-web (WASM, 1 thread);
//  2. top-k latency over 100k chunks × 384 dims (the contiguous Float32Array scan);
//  3. vector file save/load time and size; 4. RSS.
// The model is a random-weight network of exactly all-MiniLM-L6-v2's shape, built once into
// bench/.cache/models with ../shared/tools/build-embedding-fixtures.py (Debian python3-onnx + numpy).
// Flags: --quick (fewer texts), --no-wasm, --rows N.
import { existsSync, mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import { loadEmbedder, type Backend } from '../src/semantic/embedder.js';
import { nodeWorkerChannel, workerEmbedder } from '../src/semantic/workerEmbedder.js';
import { VectorStore } from '../src/semantic/store.js';
import { FsDataStore } from '../src/host/fsDataStore.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SHARED = resolve(ROOT, '../shared');
const CACHE = join(ROOT, 'bench/.cache');
const argv = process.argv.slice(2);
const QUICK = argv.includes('--quick');
const NO_WASM = argv.includes('--no-wasm');
const ROWS = Number(argv[argv.indexOf('--rows') + 1]) || 100_000;

const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const mb = (b: number) => `${(b / 1048576).toFixed(1)} MB`;
const rss = () => process.memoryUsage().rss;

function minilmModel(): { path: string; label: string } | null {
  const dir = join(CACHE, 'models/minilm-shape-random');
  if (existsSync(join(dir, 'onnx/model_quantized.onnx'))) return { path: dir, label: 'minilm-shape-random (all-MiniLM-L6-v2 shape, random weights)' };
  const tool = join(SHARED, 'tools/build-embedding-fixtures.py');
  const vocab = join(SHARED, 'fixtures/models/glove-static-100d/vocab.txt');
  if (!existsSync(tool) || !existsSync(vocab)) return null;
  try {
    mkdirSync(CACHE, { recursive: true });
    const words = readFileSync(vocab, 'utf8').split('\n').filter(Boolean);
    writeFileSync(join(CACHE, 'words.json'), JSON.stringify({ words }));
    execFileSync('/usr/bin/python3', [tool, join(CACHE, 'models'), join(CACHE, 'words.json')], { env: { ...process.env, MINILM_SHAPE: '1' }, stdio: 'inherit' });
    return { path: dir, label: 'minilm-shape-random (all-MiniLM-L6-v2 shape, random weights)' };
  } catch (e) {
    console.log(`could not build the MiniLM-shaped model (${(e as Error).message}); install python3-onnx python3-numpy`);
    return null;
  }
}

/** Deterministic chunk-like texts of 40..250 words from the GloVe vocabulary (or a small built-in list). */
function texts(n: number): string[] {
  const vocabFile = join(SHARED, 'fixtures/models/glove-static-100d/vocab.txt');
  const words = existsSync(vocabFile) ? readFileSync(vocabFile, 'utf8').split('\n').slice(1000, 11000).filter((w) => /^[a-z]+$/.test(w)) : 'the garden plan needs water light soil seeds time and care every week'.split(' ');
  let s = 12345;
  const rnd = () => { s = (s * 1103515245 + 12345) % 2 ** 31; return s / 2 ** 31; };
  return Array.from({ length: n }, (_, i) => `Note ${i} > Section\n\n` + Array.from({ length: 40 + Math.floor(rnd() * 210) }, () => words[Math.floor(rnd() * words.length)]).join(' '));
}

interface Tok { input_ids: { data: BigInt64Array; dims: number[] }; attention_mask: { data: BigInt64Array; dims: number[] }; token_type_ids?: { data: BigInt64Array; dims: number[] } }

/** The inference worker as Obsidian uses it (src/semantic/worker-entry.ts), bundled for a worker_threads Worker. */
async function workerSpawn() {
  const { build } = await import('esbuild');
  // @ts-expect-error plain JS build helper
  const { embedWorkerBuild } = await import('../scripts/esbuild-semantic.mjs');
  const outfile = join(CACHE, 'embed-worker.cjs');
  await build({ ...embedWorkerBuild('node'), outfile });
  return nodeWorkerChannel(outfile);
}

async function throughput(model: string, backend: Backend, inputs: string[], batch: number, reps: number, viaWorker = false) {
  const wasmFile = join(dirname(createRequire(import.meta.url).resolve('onnxruntime-web')), 'ort-wasm-simd.wasm');
  const e = viaWorker ? await workerEmbedder({ model, modelsDir: '/nonexistent', backend, wasmFile }, await workerSpawn()) : await loadEmbedder({ model, modelsDir: '/nonexistent', backend });
  const order = inputs.map((_, i) => i).sort((a, b) => inputs[a].length - inputs[b].length);
  const batches: string[][] = [];
  for (let i = 0; i < order.length; i += batch) batches.push(order.slice(i, i + batch).map((k) => inputs[k]));
  // Pre-tokenised tensors for the raw run (same padding/truncation as the pipeline).
  const tf = await import('@xenova/transformers');
  const tok = await tf.AutoTokenizer.from_pretrained(model.split('/').pop()!);
  (tok as unknown as { model_max_length: number }).model_max_length = e.maxTokens;
  const ort = backend === 'node' ? (await import('onnxruntime-node')) : (await import('onnxruntime-web' as string));
  const O = (ort as { default?: typeof import('onnxruntime-node') }).default ?? (ort as typeof import('onnxruntime-node'));
  const session = await O.InferenceSession.create(new Uint8Array(readFileSync(join(model, 'onnx/model_quantized.onnx'))), { executionProviders: [backend === 'node' ? 'cpu' : 'wasm'] });
  const feeds = batches.map((b) => {
    const t = (tok as unknown as (x: string[], o: object) => Tok)(b, { padding: true, truncation: true });
    const f: Record<string, InstanceType<typeof O.Tensor>> = {
      input_ids: new O.Tensor('int64', t.input_ids.data, t.input_ids.dims),
      attention_mask: new O.Tensor('int64', t.attention_mask.data, t.attention_mask.dims),
    };
    if (session.inputNames.includes('token_type_ids')) f.token_type_ids = new O.Tensor('int64', t.token_type_ids?.data ?? new BigInt64Array(t.input_ids.data.length), t.input_ids.dims);
    return f;
  });
  const tokens = feeds.reduce((s, f) => s + Number((f.attention_mask.data as BigInt64Array).reduce((a, b) => a + b, 0n)), 0);
  await e.embed(batches[0]);
  await session.run(feeds[0]);
  const ours: number[] = [];
  const raw: number[] = [];
  for (let r = 0; r < reps; r++) {
    let t = performance.now();
    for (const b of batches) await e.embed(b);
    ours.push(performance.now() - t);
    t = performance.now();
    for (const f of feeds) await session.run(f);
    raw.push(performance.now() - t);
  }
  await e.dispose();
  const o = median(ours), w = median(raw);
  return { backend: viaWorker ? `${backend}-worker` : backend, texts: inputs.length, tokens, batch, ours_ms: Math.round(o), raw_ms: Math.round(w), ours_chunks_per_s: +(inputs.length / (o / 1000)).toFixed(1), raw_chunks_per_s: +(inputs.length / (w / 1000)).toFixed(1), overhead_pct: +((o / w - 1) * 100).toFixed(1), dims: e.dims };
}

function randomStore(rows: number, dims: number, perNote: number): VectorStore {
  const s = new VectorStore({ model: 'bench', dims, chunking: 'bench' }, rows);
  let seed = 7;
  const rnd = () => { seed = (seed * 1664525 + 1013904223) >>> 0; return seed / 2 ** 32 - 0.5; };
  const v = new Float32Array(perNote * dims);
  for (let n = 0; n * perNote < rows; n++) {
    for (let r = 0; r < perNote; r++) {
      let norm = 0;
      for (let i = 0; i < dims; i++) { const x = rnd(); v[r * dims + i] = x; norm += x * x; }
      norm = Math.sqrt(norm);
      for (let i = 0; i < dims; i++) v[r * dims + i] /= norm;
    }
    s.upsert({ path: `notes/n${n}.md`, hash: `sha256:${n}`, mtime: n, size: n, chunks: Array.from({ length: perNote }, (_, r) => ({ ordinal: `#${r + 1}`, heading: `H${r}`, start: r * 100, end: r * 100 + 99 })) }, v);
  }
  return s;
}

async function main() {
  const rss0 = rss();
  const out: Record<string, unknown> = {};
  console.log(`semantic bench (node ${process.version}${QUICK ? ', quick' : ''})`);

  // 2. top-k
  const dims = 384;
  const store = randomStore(ROWS, dims, 4);
  const rssStore = rss();
  const queries = Array.from({ length: 21 }, (_, i) => { const q = new Float32Array(dims); for (let d = 0; d < dims; d++) q[d] = Math.sin(i * 31 + d); const n = Math.hypot(...q); return q.map((x) => x / n); });
  const tRows: number[] = [];
  const tNotes: number[] = [];
  const tFiltered: number[] = [];
  for (const q of queries) { const t = performance.now(); store.searchRows(q, 50); tRows.push(performance.now() - t); }
  for (const q of queries) { const t = performance.now(); store.searchNotes(q, 15); tNotes.push(performance.now() - t); }
  for (const q of queries) { const t = performance.now(); store.searchNotes(q, 15, (p) => p.charCodeAt(p.length - 4) % 2 === 0); tFiltered.push(performance.now() - t); }
  out.topk = { rows: store.chunkCount, notes: store.notes.size, dims, rows_top50_p50_ms: +median(tRows.slice(1)).toFixed(2), notes_top15_p50_ms: +median(tNotes.slice(1)).toFixed(2), notes_top15_filtered_p50_ms: +median(tFiltered.slice(1)).toFixed(2), target_ms: 20 };
  console.log(`top-k over ${store.chunkCount}×${dims}: rows top-50 p50 ${median(tRows.slice(1)).toFixed(2)} ms; notes top-15 p50 ${median(tNotes.slice(1)).toFixed(2)} ms (filtered ${median(tFiltered.slice(1)).toFixed(2)} ms); target < 20 ms`);

  // 3. vector file
  const dir = join(CACHE, `vectors-${process.pid}`);
  const data = new FsDataStore(dir);
  let t = performance.now();
  const bytes = store.serialize();
  const tSer = performance.now() - t;
  t = performance.now();
  await data.write('semantic-index.bin', bytes);
  const tWrite = performance.now() - t;
  const loads: number[] = [];
  for (let i = 0; i < 5; i++) { t = performance.now(); VectorStore.deserialize((await data.read('semantic-index.bin'))!); loads.push(performance.now() - t); }
  await data.remove('semantic-index.bin');
  execFileSync('rm', ['-rf', dir]);
  out.file = { bytes: bytes.length, serialize_ms: Math.round(tSer), atomic_write_ms: Math.round(tWrite), load_p50_ms: Math.round(median(loads)) };
  console.log(`vector file ${mb(bytes.length)}: serialize ${tSer.toFixed(0)} ms, atomic write ${tWrite.toFixed(0)} ms, read+parse p50 ${median(loads).toFixed(0)} ms`);
  out.rss = { baseline: rss0, with_100k_store: rssStore };

  // 1. throughput
  const m = minilmModel();
  const model = m?.path ?? join(SHARED, 'fixtures/models/tiny-bert-random');
  if (!existsSync(model)) { console.log('no model available: skipping throughput'); }
  else {
    console.log(`throughput model: ${m?.label ?? 'tiny-bert-random (MiniLM-shaped model unavailable)'}`);
    const inputs = texts(QUICK ? 32 : 128);
    const res = [await throughput(model, 'node', inputs, 16, QUICK ? 2 : 3)];
    console.log(`  onnxruntime-node: ours ${res[0].ours_chunks_per_s} chunks/s vs raw ${res[0].raw_chunks_per_s} chunks/s → overhead ${res[0].overhead_pct}% (${res[0].tokens} tokens, medians of ${QUICK ? 2 : 3})`);
    out.rss_after_model = rss();
    if (!NO_WASM) {
      const w = await throughput(model, 'wasm', inputs.slice(0, QUICK ? 16 : 32), 8, 2);
      res.push(w);
      console.log(`  onnxruntime-web WASM 1 thread: ours ${w.ours_chunks_per_s} chunks/s vs raw ${w.raw_chunks_per_s} chunks/s → overhead ${w.overhead_pct}% (${w.tokens} tokens)`);
      // Obsidian's path: the same pipeline in the inference worker (texts and vectors cross a message port).
      const ww = await throughput(model, 'wasm', inputs.slice(0, QUICK ? 16 : 32), 8, 2, true);
      res.push(ww);
      console.log(`  onnxruntime-web WASM 1 thread in the inference worker: ours ${ww.ours_chunks_per_s} chunks/s vs raw (main thread) ${ww.raw_chunks_per_s} chunks/s → overhead ${ww.overhead_pct}%`);
    }
    out.throughput = res;
  }
  out.rss_end = rss();
  console.log(`RSS: baseline ${mb(rss0)}, with ${store.chunkCount}-row store ${mb(rssStore)}, end ${mb(rss())}`);
  console.log(JSON.stringify({ bench: 'semantic', ...out }));
}

await main();
