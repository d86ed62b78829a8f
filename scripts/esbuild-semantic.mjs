// esbuild pieces for semantic search in the Obsidian bundle (used by esbuild.config.mjs):
// - onnxruntime-web's ort-wasm-simd.wasm is written brotli-compressed beside the bundle
//   (ort-wasm-simd.wasm.br: never parsed as JavaScript, unpacked on first use), cached in
//   node_modules/.cache because brotli at quality 11 takes ~30 s; `vault-mcp:ort-wasm` exports its sha256;
// - onnxruntime-node is aliased to onnxruntime-web (transformers.js picks the "node" package under
//   Electron), and sharp (image pipelines only) to a stub.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));

function compressedWasm() {
  const src = join(dirname(require.resolve('onnxruntime-web')), 'ort-wasm-simd.wasm');
  const raw = readFileSync(src);
  const sha256 = createHash('sha256').update(raw).digest('hex');
  const cacheDir = join(root, 'node_modules/.cache/vault-mcp');
  const quality = Number(process.env.ORT_WASM_BROTLI_QUALITY ?? 11);
  const cached = join(cacheDir, `ort-wasm-simd.${sha256.slice(0, 16)}.q${quality}.wasm.br`);
  if (!existsSync(cached)) {
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(cached, brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_LGWIN]: 24, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }));
  }
  return { cached, sha256 };
}

/** @param {{embed: boolean, wasmOut?: string}} opts embed=false marks the module (and the worker's) external
 *  (the CLI never uses WASM); otherwise the compressed WASM is copied to `wasmOut`. */
export function ortWasmPlugin(opts = { embed: true }) {
  return {
    name: 'vault-mcp-ort-wasm',
    setup(build) {
      build.onResolve({ filter: /^vault-mcp:ort-wasm$/ }, (args) => (opts.embed ? { path: args.path, namespace: 'vault-mcp-ort-wasm' } : { path: args.path, external: true }));
      // The headless build has no Web Worker either (onnxruntime-node runs there).
      if (!opts.embed) build.onResolve({ filter: /^vault-mcp:embed-worker$/ }, (args) => ({ path: args.path, external: true }));
      build.onLoad({ filter: /.*/, namespace: 'vault-mcp-ort-wasm' }, () => {
        const { cached, sha256 } = compressedWasm();
        if (opts.wasmOut) { mkdirSync(dirname(opts.wasmOut), { recursive: true }); copyFileSync(cached, opts.wasmOut); }
        return { contents: `export const sha256 = ${JSON.stringify(sha256)};\n`, loader: 'js', resolveDir: root };
      });
    },
  };
}

export const semanticAlias = {
  'onnxruntime-node': 'onnxruntime-web',
  sharp: join(root, 'src/semantic/shims/sharp.ts'),
};

/** What the Obsidian (CommonJS) build adds: aliases, the WASM plugin, and `import.meta.url`, which
 *  transformers.js reads at load time and CommonJS lacks. */
export function semanticBundle(define = {}, wasmOut = undefined) {
  return {
    alias: semanticAlias,
    plugins: [ortWasmPlugin({ embed: true, wasmOut }), embedWorkerPlugin()],
    define: { ...define, 'import.meta.url': '__vmcp_import_meta_url' },
    inject: [join(root, 'scripts/esbuild-import-meta.mjs')],
  };
}

/** esbuild options for the inference worker (src/semantic/worker-entry.ts): `browser` is what the plugin
 *  embeds as source text and starts as a Web Worker (no Node there); `node` is the same code for a
 *  worker_threads Worker in tests and benchmarks. */
export function embedWorkerBuild(platform = 'browser') {
  return {
    entryPoints: [join(root, 'src/semantic/worker-entry.ts')],
    bundle: true, platform, target: 'es2022', format: platform === 'browser' ? 'iife' : 'cjs',
    logLevel: 'error', legalComments: 'none',
    alias: semanticAlias,
    external: platform === 'browser' ? ['node:worker_threads'] : [],
    // transformers.js reads import.meta.url at load time (only to default folders the worker never uses).
    define: { 'import.meta.url': JSON.stringify('file:///vault-mcp-server/embed-worker.js') },
  };
}

/** `vault-mcp:embed-worker`: the browser-bundled worker as a string (the plugin makes a Blob URL of it). */
export function embedWorkerPlugin() {
  return {
    name: 'vault-mcp-embed-worker',
    setup(build) {
      build.onResolve({ filter: /^vault-mcp:embed-worker$/ }, (args) => ({ path: args.path, namespace: 'vault-mcp-embed-worker' }));
      build.onLoad({ filter: /.*/, namespace: 'vault-mcp-embed-worker' }, async () => {
        const { build: esbuild } = await import('esbuild');
        const out = await esbuild({ ...embedWorkerBuild('browser'), write: false, minify: true });
        return { contents: `export default ${JSON.stringify(out.outputFiles[0].text)};\n`, loader: 'js' };
      });
    },
  };
}
