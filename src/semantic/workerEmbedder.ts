// The main-thread side of the inference worker (embedWorker.ts): an Embedder whose embed() posts the
// texts to the worker and awaits the vectors, so a 0.1–0.5 s WASM inference never runs on Obsidian's
// UI thread. The model folder is read here with async fs (the worker has no Node) and its bytes are
// transferred to the worker once.
import { promises as fsp } from 'node:fs';
import { basename, join } from 'node:path';
import { estimateTokens } from '../core/chunk.js';
import { ModelUnavailable, modelFileName, modelProblem, resolveModelFolder, type Embedder, type EmbedderOptions } from './embedder.js';

/** The transport to one worker: a Web Worker in Obsidian, worker_threads under Node. */
export interface WorkerChannel {
  postMessage(msg: unknown, transfer?: ArrayBuffer[]): void;
  onMessage(cb: (msg: unknown) => void): void;
  onError(cb: (e: Error) => void): void;
  terminate(): Promise<void> | void;
  /** How the worker gets the onnxruntime WASM binary: a path it can read itself (Node), or the bytes (Web Worker, turned into a Blob URL there). */
  wasmAs: 'path' | 'bytes';
}

const MODEL_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'special_tokens_map.json'];

type Answer = { id: number; ok: boolean; error?: string; info?: { dims: number; maxTokens: number }; vectors?: Float32Array; count?: number };

export async function workerEmbedder(opts: EmbedderOptions, spawn: () => WorkerChannel | Promise<WorkerChannel>): Promise<Embedder> {
  const folder = resolveModelFolder(opts.model, opts.modelsDir);
  const problem = modelProblem(folder);
  if (problem) throw new ModelUnavailable(problem);
  const modelFile = modelFileName(folder)!;
  const files: Record<string, Uint8Array> = {};
  for (const f of [...MODEL_FILES, modelFile]) {
    try { files[f] = new Uint8Array(await fsp.readFile(join(folder, f))); } catch { /* optional file */ }
  }
  const wasm: { path?: string; bytes?: Uint8Array } = {};
  const ch = await spawn();
  if (opts.wasmFile) {
    if (ch.wasmAs === 'path') wasm.path = opts.wasmFile;
    else wasm.bytes = new Uint8Array(await fsp.readFile(opts.wasmFile));
  }
  let seq = 0;
  let dead: Error | null = null;
  const waiting = new Map<number, { resolve(a: Answer): void; reject(e: Error): void }>();
  const fail = (e: Error) => { dead = e; for (const w of waiting.values()) w.reject(e); waiting.clear(); };
  ch.onError(fail);
  ch.onMessage((m) => {
    const a = m as Answer;
    const w = waiting.get(a.id);
    if (!w) return;
    waiting.delete(a.id);
    if (a.ok) w.resolve(a); else w.reject(new Error(a.error ?? 'the inference worker failed'));
  });
  const ask = (msg: Record<string, unknown>, transfer?: ArrayBuffer[]): Promise<Answer> => {
    if (dead) return Promise.reject(dead);
    const id = ++seq;
    return new Promise<Answer>((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      ch.postMessage({ ...msg, id }, transfer);
    });
  };
  const name = basename(folder);
  const transfer = [...Object.values(files), ...(wasm.bytes ? [wasm.bytes] : [])].map((b) => b.buffer as ArrayBuffer);
  let info: { dims: number; maxTokens: number };
  try {
    info = (await ask({ op: 'load', name, files, quantized: modelFile === 'onnx/model_quantized.onnx', wasm }, transfer)).info!;
  } catch (e) {
    await ch.terminate();
    throw new ModelUnavailable(`the model in ${folder} could not be loaded in the inference worker: ${(e as Error).message}`);
  }
  return {
    modelId: opts.model,
    folder,
    dims: info.dims,
    backend: 'wasm',
    maxTokens: info.maxTokens,
    inWorker: true,
    async embed(texts: string[]): Promise<Float32Array> {
      if (!texts.length) return new Float32Array(0);
      const a = await ask({ op: 'embed', texts });
      return a.vectors instanceof Float32Array ? a.vectors : new Float32Array(a.vectors as unknown as ArrayBuffer);
    },
    /** The chunker's estimate (the real tokenizer lives in the worker; chunking does not call this). */
    countTokens: (text: string) => estimateTokens(text),
    async dispose() {
      await ask({ op: 'dispose' }).catch(() => undefined);
      await ch.terminate();
    },
  };
}

/** A worker_threads channel running src/semantic/worker-entry.ts (or a built copy) under Node. */
export async function nodeWorkerChannel(entry: string, execArgv?: string[]): Promise<() => WorkerChannel> {
  const { Worker } = await import('node:worker_threads');
  return () => {
    const w = new Worker(entry, execArgv ? { execArgv } : {});
    w.unref();
    return {
      wasmAs: 'path',
      postMessage: (m, t) => w.postMessage(m, t),
      onMessage: (cb) => { w.on('message', cb); },
      onError: (cb) => { w.on('error', cb); w.on('exit', (code) => cb(new Error(`the inference worker exited (code ${code})`))); },
      terminate: async () => { await w.terminate(); },
    };
  };
}

/** A Web Worker channel from the bundled worker source (Obsidian). */
export function webWorkerChannel(source: string): () => WorkerChannel {
  return () => {
    const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
    const w = new Worker(url);
    return {
      wasmAs: 'bytes',
      postMessage: (m, t) => w.postMessage(m, t ?? []),
      onMessage: (cb) => w.addEventListener('message', (e) => cb(e.data)),
      onError: (cb) => w.addEventListener('error', (e) => cb(new Error(e.message || 'the inference worker failed to start'))),
      terminate: () => { w.terminate(); URL.revokeObjectURL(url); },
    };
  };
}

/** The Obsidian bundle's worker (the `vault-mcp:embed-worker` module: browser-bundled source text,
 *  evaluated when the first model loads). Outside the bundle the import fails, and the service then
 *  runs inference on its own thread. */
export function bundledWorkerChannel(): () => Promise<WorkerChannel> {
  return async () => {
    const m = await import('vault-mcp:embed-worker');
    return webWorkerChannel(m.default)();
  };
}
