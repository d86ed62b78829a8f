// onnxruntime-web's WASM binary without a CDN: the plugin ships a brotli-compressed copy beside main.js
// (ort-wasm-simd.wasm.br, scripts/esbuild-semantic.mjs), unpacked into the vault's cache folder the
// first time semantic search is used, checked against its sha256, and then reused. Nothing is fetched.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { brotliDecompress } from 'node:zlib';
import { promisify } from 'node:util';
import { join } from 'node:path';
import type { DataStore } from '../host/port.js';

export interface EmbeddedWasm {
  /** Brotli-compressed ort-wasm-simd.wasm. */
  compressed: Uint8Array;
  /** sha256 hex of the uncompressed file. */
  sha256: string;
}

export const WASM_FILE = 'ort-wasm-simd.wasm';

function sha256(b: Uint8Array): string {
  return createHash('sha256').update(b).digest('hex');
}

/** Absolute path of a verified ort-wasm-simd.wasm in the data folder, unpacking it when needed. */
export async function ensureOrtWasm(data: DataStore, source: () => Promise<EmbeddedWasm>): Promise<string> {
  const file = join(data.dir, WASM_FILE);
  const embedded = await source();
  if (existsSync(file)) {
    const have = await data.read(WASM_FILE);
    if (have && sha256(have) === embedded.sha256) return file;
  }
  // Asynchronous: 10 MB of brotli output would block the app's thread for a noticeable while.
  const bytes = new Uint8Array(await promisify(brotliDecompress)(embedded.compressed));
  if (sha256(bytes) !== embedded.sha256) throw new Error('the embedded onnxruntime WASM does not match its checksum; reinstall the plugin');
  await data.write(WASM_FILE, bytes);
  return file;
}

/** The plugin's copy: `ort-wasm-simd.wasm.br` beside main.js, checked against the sha256 server.js
 *  was built with (the `vault-mcp:ort-wasm` module; only present in the plugin build). */
export function shippedOrtWasm(file: string): () => Promise<EmbeddedWasm> {
  return async () => {
    const mod = await import('vault-mcp:ort-wasm');
    return { compressed: new Uint8Array(await readFile(file)), sha256: mod.sha256 };
  };
}
