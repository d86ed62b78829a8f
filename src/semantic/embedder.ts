// The embedding runtime: @xenova/transformers feature extraction (mean pooling + L2 normalisation)
// over a model folder on local disk only. Remote model loading is switched off here and stays off;
// the one way a model gets onto the disk is the explicit download in download.ts.
// Backends: onnxruntime-node (headless, tests) or onnxruntime-web WASM single-threaded (Obsidian, and
// selectable under Node so that path is tested too). In the plugin bundle esbuild aliases
// onnxruntime-node to onnxruntime-web, so only the WASM backend exists there.
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { modelFileName, modelProblem, resolveModelFolder } from './modelFolder.js';
import { meanPoolNormalize } from './pooling.js';

export type Backend = 'node' | 'wasm';

export interface EmbedderOptions {
  /** An absolute folder, or a model id (e.g. "Xenova/all-MiniLM-L6-v2") looked up under `modelsDir`. */
  model: string;
  modelsDir: string;
  backend: Backend;
  /** For the WASM backend: absolute path of ort-wasm-simd.wasm (else onnxruntime-web's own dist copy). */
  wasmFile?: string;
}

export interface Embedder {
  /** The model as configured (folder name or id); part of the fingerprint. */
  readonly modelId: string;
  readonly folder: string;
  readonly dims: number;
  readonly backend: Backend;
  /** Inference runs in a worker (Obsidian: a Web Worker), off the UI thread. */
  readonly inWorker?: boolean;
  /** Token budget the model accepts (tokenizer model_max_length, capped at 512). */
  readonly maxTokens: number;
  /** One row of `dims` floats per text, each L2-normalised. */
  embed(texts: string[]): Promise<Float32Array>;
  countTokens(text: string): number;
  dispose(): Promise<void>;
}

export class ModelUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelUnavailable';
  }
}

export { modelFileName, modelProblem, resolveModelFolder };

type Transformers = typeof import('@xenova/transformers');
let loading: Promise<unknown> = Promise.resolve();

/** Loads sequentially: transformers' env and execution-provider list are process-wide. */
function serial<T>(fn: () => Promise<T>): Promise<T> {
  const p = loading.then(fn, fn);
  loading = p.catch(() => undefined);
  return p;
}

export async function loadEmbedder(opts: EmbedderOptions): Promise<Embedder> {
  const folder = resolveModelFolder(opts.model, opts.modelsDir);
  const problem = modelProblem(folder);
  if (problem) throw new ModelUnavailable(problem);
  return serial(async () => {
    const tf: Transformers = await import('@xenova/transformers');
    const onnx = await import('@xenova/transformers/src/backends/onnx.js');
    const env = tf.env;
    env.allowRemoteModels = false;
    env.allowLocalModels = true;
    env.localModelPath = dirname(folder) + '/';
    env.useBrowserCache = false;
    env.useFSCache = false;
    const wasm = env.backends.onnx.wasm as { numThreads: number; simd: boolean; proxy: boolean; wasmPaths?: unknown };
    if (opts.backend === 'wasm') {
      wasm.numThreads = 1;
      wasm.simd = true;
      wasm.proxy = false;
      if (opts.wasmFile) wasm.wasmPaths = { 'ort-wasm-simd.wasm': opts.wasmFile, 'ort-wasm.wasm': opts.wasmFile };
    }
    onnx.executionProviders.splice(0, onnx.executionProviders.length, ...(opts.backend === 'wasm' ? ['wasm'] : ['cpu', 'wasm']));
    const quantized = modelFileName(folder) === 'onnx/model_quantized.onnx';
    let extractor: Awaited<ReturnType<Transformers['pipeline']>>;
    try {
      extractor = await tf.pipeline('feature-extraction', basename(folder), { quantized });
    } catch (e) {
      throw new ModelUnavailable(`the model in ${folder} could not be loaded: ${(e as Error).message}`);
    }
    const cfg = JSON.parse(readFileSync(join(folder, 'config.json'), 'utf8')) as { hidden_size?: number; dim?: number; max_position_embeddings?: number };
    const tokenizer = (extractor as unknown as { tokenizer: { encode(t: string): number[]; model_max_length?: number } }).tokenizer;
    const maxTokens = Math.min(512, tokenizer.model_max_length ?? 512, cfg.max_position_embeddings ?? 512);
    // Truncation in the pipeline uses model_max_length: never let a long chunk overrun the positions.
    tokenizer.model_max_length = maxTokens;
    // The feature-extraction pipeline's own steps (tokenizer with padding + truncation, model), then
    // mean pooling and L2 normalisation here: transformers' mean_pooling converts every mask element
    // from BigInt one by one, which cost ~35% of throughput at MiniLM size (bench/semantic.ts).
    type T = { data: ArrayLike<number | bigint>; dims: number[] };
    const call = extractor as unknown as { tokenizer: (t: string[], o: object) => { attention_mask: T } & Record<string, T>; model: (i: object) => Promise<Record<string, T>> };
    const run = async (texts: string[]): Promise<{ data: Float32Array; dims: number[] }> => {
      const inputs = call.tokenizer(texts, { padding: true, truncation: true });
      const outputs = await call.model(inputs);
      const h = outputs.last_hidden_state ?? outputs.logits ?? outputs.token_embeddings;
      return { data: meanPoolNormalize(h.data as Float32Array, h.dims, inputs.attention_mask.data), dims: [h.dims[0], h.dims[2]] };
    };
    const probe = await run(['probe']);
    const dims = probe.dims[probe.dims.length - 1] ?? cfg.hidden_size ?? cfg.dim ?? 0;
    const session = (extractor as unknown as { model: { session: { handler?: object } } }).model.session;
    const backend: Backend = session.handler?.constructor?.name === 'OnnxruntimeSessionHandler' ? 'node' : 'wasm';
    if (backend !== opts.backend) throw new ModelUnavailable(`asked for the ${opts.backend} onnxruntime backend but the session runs on ${backend}`);
    return {
      modelId: opts.model,
      folder,
      dims,
      backend,
      maxTokens,
      async embed(texts: string[]): Promise<Float32Array> {
        if (!texts.length) return new Float32Array(0);
        const out = await run(texts);
        return out.data instanceof Float32Array ? out.data : Float32Array.from(out.data);
      },
      countTokens(text: string): number {
        return tokenizer.encode(text).length;
      },
      async dispose() {
        await (extractor as unknown as { dispose?: () => Promise<void> }).dispose?.();
      },
    };
  });
}

export { meanPoolNormalize } from './pooling.js';
