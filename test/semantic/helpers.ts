// Shared bits for the semantic tests: fixture paths (skipping with a reason when ../shared is absent),
// a fetch trap proving nothing touches the network, and ATX headings for pure chunker tests.
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HeadingCache } from '../../src/core/markdown/metadata.js';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const MODELS = resolve(REPO_ROOT, '../shared/fixtures/models');
export const GLOVE = resolve(MODELS, 'glove-static-100d');
export const TINY = resolve(MODELS, 'tiny-bert-random');

/** undefined when present, else a skip reason (node:test prints it). */
export function missing(...paths: string[]): string | undefined {
  const gone = paths.filter((p) => !existsSync(p));
  return gone.length ? `fixture not present (fresh clone without ../shared): ${gone.join(', ')}` : undefined;
}

/** Replaces fetch with a trap; returns the URLs anything tried to fetch. */
export function trapNetwork(): { calls: string[]; restore(): void } {
  const calls: string[] = [];
  const orig = globalThis.fetch;
  globalThis.fetch = (async (u: unknown) => {
    calls.push(String(u instanceof Request ? u.url : u));
    throw new Error('network access is disabled in this test');
  }) as typeof fetch;
  return { calls, restore: () => { globalThis.fetch = orig; } };
}

/** ATX headings with offsets, enough for chunker tests that must not depend on the full parser. */
export function atxHeadings(text: string): HeadingCache[] {
  const out: HeadingCache[] = [];
  let offset = 0;
  let line = 0;
  let fence = false;
  for (const raw of text.split('\n')) {
    if (/^(```|~~~)/.test(raw)) fence = !fence;
    const m = !fence && /^(#{1,6})[ \t]+(.*?)[ \t#]*$/.exec(raw.replace(/\r$/, ''));
    if (m) out.push({ heading: m[2], level: m[1].length, position: { start: { line, col: 0, offset }, end: { line, col: raw.length, offset: offset + raw.replace(/\r$/, '').length } } });
    offset += raw.length + 1;
    line++;
  }
  return out;
}

/** The compressed-WASM source the plugin bundle embeds, made from onnxruntime-web's dist file. */
export async function ortWasmFromNodeModules(quality = 1): Promise<import('../../src/semantic/ortWasm.js').EmbeddedWasm> {
  const { createRequire } = await import('node:module');
  const { brotliCompressSync, constants } = await import('node:zlib');
  const { readFileSync } = await import('node:fs');
  const { createHash } = await import('node:crypto');
  const req = createRequire(import.meta.url);
  const raw = readFileSync(resolve(dirname(req.resolve('onnxruntime-web')), 'ort-wasm-simd.wasm'));
  return { compressed: new Uint8Array(brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: quality } })), sha256: createHash('sha256').update(raw).digest('hex') };
}
