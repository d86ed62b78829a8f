// Entry point of the inference worker (embedWorker.ts): a Web Worker in Obsidian (bundled for the
// browser by scripts/esbuild-semantic.mjs and started from a Blob URL), a worker_threads Worker under Node.
import { serveEmbedWorker } from './embedWorker.js';

type WebWorkerScope = { postMessage(m: unknown, t?: Transferable[]): void; addEventListener(t: 'message', cb: (e: { data: unknown }) => void): void };

async function main(): Promise<void> {
  const g = globalThis as unknown as { WorkerGlobalScope?: unknown; self?: WebWorkerScope };
  if (typeof g.WorkerGlobalScope !== 'undefined' && g.self) {
    const self = g.self;
    serveEmbedWorker({ postMessage: (m, t) => self.postMessage(m, t as Transferable[]), onMessage: (cb) => self.addEventListener('message', (e) => cb(e.data)) });
    return;
  }
  const { parentPort } = await import('node:worker_threads') as typeof import('node:worker_threads');
  if (!parentPort) throw new Error('worker-entry must run in a worker');
  const port = parentPort;
  // The browser bundle's onnxruntime-web reads `self` (a worker's global); give Node's worker one, so the
  // tests run the very bundle the plugin embeds.
  (globalThis as { self?: unknown }).self ??= globalThis;
  serveEmbedWorker({ postMessage: (m, t) => port.postMessage(m, t as ArrayBuffer[]), onMessage: (cb) => port.on('message', cb) });
}

void main();
