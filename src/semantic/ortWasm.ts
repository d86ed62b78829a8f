// onnxruntime-web's WASM binary without a CDN: the plugin bundle carries a brotli-compressed copy
// (scripts/esbuild-semantic.mjs), which is unpacked into the plugin's data folder the first time
// semantic search is used, checked against its sha256, and then reused. Nothing is fetched.
import { existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { brotliDecompressSync } from 'node:zlib';
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
  const bytes = new Uint8Array(brotliDecompressSync(embedded.compressed));
  if (sha256(bytes) !== embedded.sha256) throw new Error('the embedded onnxruntime WASM does not match its checksum; reinstall the plugin');
  await data.write(WASM_FILE, bytes);
  return file;
}

/** The bundle's embedded copy (only present in the Obsidian build). */
export async function bundledOrtWasm(): Promise<EmbeddedWasm> {
  // Resolved by the esbuild plugin; under tsx/Node this import fails and the caller falls back.
  const mod = (await import('vault-mcp:ort-wasm' as string)) as { default: Uint8Array; sha256: string };
  return { compressed: mod.default, sha256: mod.sha256 };
}
