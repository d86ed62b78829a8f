// Types of modules that exist only in the plugin bundle (resolved by scripts/esbuild-semantic.mjs) or
// ship without declarations. Under tsx/Node the bundle-only imports fail and callers fall back.
declare module 'vault-mcp:ort-wasm' {
  /** sha256 hex of the uncompressed ort-wasm-simd.wasm whose brotli copy ships beside main.js. */
  export const sha256: string;
}

declare module 'vault-mcp:embed-worker' {
  /** The browser-bundled inference worker (src/semantic/worker-entry.ts) as source text. */
  const source: string;
  export default source;
}

declare module '@xenova/transformers/src/backends/onnx.js' {
  export const executionProviders: string[];
}
