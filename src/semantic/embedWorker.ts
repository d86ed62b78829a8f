// The inference worker: runs transformers.js + onnxruntime-web (WASM, one thread) off the UI thread.
// In Obsidian it is a plain Web Worker made from a Blob URL (scripts/esbuild-semantic.mjs bundles
// src/semantic/worker-entry.ts for the browser); a Web Worker there has no Node integration, so this
// file imports nothing from node:* — the main thread reads the model folder and hands the bytes over
// (workerEmbedder.ts), and transformers.js reads them from an in-memory cache (env.customCache) with
// local and remote model loading switched off. Under Node the same code runs in a worker_threads
// Worker (tests, bench), which is how the protocol is tested.
//
// Protocol (one request at a time per id, answers carry the id):
//   {id, op: 'load', name, files: {relPath: bytes}, quantized, wasm: {path?: string, bytes?: Uint8Array}}
//     → {id, ok: true, info: {dims, maxTokens}}
//   {id, op: 'embed', texts} → {id, ok: true, vectors: Float32Array (transferred)}
//   {id, op: 'count', text} → {id, ok: true, count}
//   {id, op: 'dispose'} → {id, ok: true}
//   any failure → {id, ok: false, error}
import { meanPoolNormalize } from './pooling.js';

export interface WorkerPortLike {
  postMessage(msg: unknown, transfer?: Transferable[] | ArrayBuffer[]): void;
  onMessage(cb: (msg: unknown) => void): void;
}

export interface LoadRequest {
  id: number; op: 'load'; name: string; files: Record<string, Uint8Array>; quantized: boolean;
  wasm: { path?: string; bytes?: Uint8Array };
}
export type WorkerRequest = LoadRequest
  | { id: number; op: 'embed'; texts: string[] }
  | { id: number; op: 'count'; text: string }
  | { id: number; op: 'dispose' };

interface Loaded {
  embed(texts: string[]): Promise<Float32Array>;
  count(text: string): number;
  dims: number;
  maxTokens: number;
  dispose(): Promise<void>;
}

type T = { data: ArrayLike<number | bigint>; dims: number[] };

/** An in-memory stand-in for the Web Cache API: transformers.js asks it for `<root>/<name>/<file>`. */
function memoryCache(name: string, files: Record<string, Uint8Array>) {
  return {
    async match(key: string | { url: string }): Promise<Response | undefined> {
      const k = typeof key === 'string' ? key : key.url;
      const at = k.lastIndexOf(`${name}/`);
      const rel = at >= 0 ? k.slice(at + name.length + 1) : null;
      const bytes = rel !== null ? files[rel] : undefined;
      if (!bytes) return undefined;
      return new Response(bytes as Uint8Array<ArrayBuffer>, { status: 200, headers: { 'content-length': String(bytes.byteLength) } });
    },
    async put(): Promise<void> { /* nothing is ever fetched, so nothing is stored */ },
  };
}

async function load(req: LoadRequest): Promise<Loaded> {
  const tf = await import('@xenova/transformers');
  const onnx = await import('@xenova/transformers/src/backends/onnx.js');
  const env = tf.env;
  // Nothing leaves the worker: the only fetch it may make is of the Blob URL holding the WASM binary.
  const realFetch = globalThis.fetch;
  globalThis.fetch = ((u: unknown, init?: RequestInit) => {
    const url = String(u instanceof Request ? u.url : u);
    if (url.startsWith('blob:')) return realFetch(u as RequestInfo, init);
    return Promise.reject(new Error(`the inference worker makes no requests (${url})`));
  });
  env.allowRemoteModels = false;
  // "Local" here means the in-memory cache below (transformers.js refuses both sources off); a file
  // it does not hold is looked up by fetch, which is refused above, and treated as absent.
  env.allowLocalModels = true;
  env.localModelPath = '/vault-mcp-model/';
  env.useBrowserCache = false;
  env.useFSCache = false;
  env.useCustomCache = true;
  env.customCache = memoryCache(req.name, req.files);
  const wasm = env.backends.onnx.wasm as { numThreads: number; simd: boolean; proxy: boolean; wasmPaths?: unknown };
  wasm.numThreads = 1;
  wasm.simd = true;
  wasm.proxy = false;
  let url = req.wasm.path;
  if (!url && req.wasm.bytes) url = URL.createObjectURL(new Blob([req.wasm.bytes as Uint8Array<ArrayBuffer>], { type: 'application/wasm' }));
  if (url) wasm.wasmPaths = { 'ort-wasm-simd.wasm': url, 'ort-wasm.wasm': url };
  onnx.executionProviders.splice(0, onnx.executionProviders.length, 'wasm');
  const extractor = await tf.pipeline('feature-extraction', req.name, { quantized: req.quantized });
  const call = extractor as unknown as { tokenizer: ((t: string[], o: object) => { attention_mask: T } & Record<string, T>) & { encode(t: string): number[]; model_max_length?: number }; model: (i: object) => Promise<Record<string, T>> };
  const cfg = JSON.parse(new TextDecoder().decode(req.files['config.json'])) as { max_position_embeddings?: number };
  const maxTokens = Math.min(512, call.tokenizer.model_max_length ?? 512, cfg.max_position_embeddings ?? 512);
  call.tokenizer.model_max_length = maxTokens;
  const run = async (texts: string[]) => {
    const inputs = call.tokenizer(texts, { padding: true, truncation: true });
    const outputs = await call.model(inputs);
    const h = outputs.last_hidden_state ?? outputs.logits ?? outputs.token_embeddings;
    return { data: meanPoolNormalize(h.data as Float32Array, h.dims, inputs.attention_mask.data), dims: h.dims[2] };
  };
  const probe = await run(['probe']);
  return {
    dims: probe.dims,
    maxTokens,
    embed: async (texts) => (texts.length ? (await run(texts)).data : new Float32Array(0)),
    count: (text) => call.tokenizer.encode(text).length,
    dispose: async () => { await (extractor as unknown as { dispose?: () => Promise<void> }).dispose?.(); },
  };
}

/** Answers requests on `port` until disposed. */
export function serveEmbedWorker(port: WorkerPortLike): void {
  let model: Promise<Loaded> | null = null;
  // Requests run in order: one onnxruntime session, one inference at a time.
  let queue: Promise<unknown> = Promise.resolve();
  port.onMessage((raw) => {
    const req = raw as WorkerRequest;
    queue = queue.then(async () => {
      try {
        if (req.op === 'load') {
          model = load(req);
          const m = await model;
          port.postMessage({ id: req.id, ok: true, info: { dims: m.dims, maxTokens: m.maxTokens } });
        } else {
          if (!model) throw new Error('no model loaded in the inference worker');
          const m = await model;
          if (req.op === 'embed') {
            const v = await m.embed(req.texts);
            const out = v.byteOffset === 0 && v.byteLength === v.buffer.byteLength ? v : v.slice();
            port.postMessage({ id: req.id, ok: true, vectors: out }, [out.buffer as ArrayBuffer]);
          } else if (req.op === 'count') port.postMessage({ id: req.id, ok: true, count: m.count(req.text) });
          else { await m.dispose(); model = null; port.postMessage({ id: req.id, ok: true }); }
        }
      } catch (e) {
        port.postMessage({ id: req.id, ok: false, error: (e as Error)?.message ?? String(e) });
      }
    });
  });
}
