// Registers semantic search: deps.services.semantic (SemanticService) and an index status provider.
// Inside Obsidian the WASM runtime comes from the bundle (ortWasm.ts) and runs in a Web Worker
// (embedWorker.ts); headless it is onnxruntime-node.
import type { Feature } from '../feature.js';
import type { IndexStatus, IndexStatusProvider } from '../services/status.js';
import { SemanticService } from './service.js';
import { shippedOrtWasm } from './ortWasm.js';
import { bundledWorkerChannel } from './workerEmbedder.js';

export const semanticFeature: Feature = {
  name: 'semantic',
  async setup(deps) {
    const injected = deps.services.ortWasmSource;
    const shipped = deps.services.ortWasmFile; // the plugin's ort-wasm-simd.wasm.br
    // Inference off the UI thread: in Obsidian a Web Worker from the bundle; tests inject a worker_threads channel.
    const worker = deps.services.embedWorker ?? (deps.host.kind === 'obsidian' ? bundledWorkerChannel() : undefined);
    const svc = new SemanticService({
      host: deps.host,
      settings: deps.settings,
      now: deps.now,
      wasmSource: injected ?? (shipped ? shippedOrtWasm(shipped) : undefined),
      embedWorker: worker,
      workerOnly: deps.host.kind === 'obsidian', // never main-thread WASM inside the app
      loadEmbedder: deps.services.loadEmbedder, // tests: a stand-in model
      log: deps.services.log,
    });
    deps.services.semantic = svc;
    const provider: IndexStatusProvider = {
      status(): IndexStatus {
        const s = svc.status();
        const state: IndexStatus['state'] = s.state === 'indexing' ? 'building' : s.state === 'paused' ? 'building' : s.state;
        return { name: 'semantic', state, indexed: s.embedded, pending: s.pending, skipped: s.failed, ...(s.reason || s.paused ? { detail: s.paused ? 'paused' : s.reason! } : {}) };
      },
    };
    const list = deps.services.indexes ?? [];
    list.push(provider);
    deps.services.indexes = list;
    svc.start();
    return { stop: () => svc.stop() };
  },
};
