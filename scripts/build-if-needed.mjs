// Rebuilds main.js, server.js (+ its WASM), bridge.cjs and dist/cli.js when any source is newer than them (or they are missing).
import { statSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';

function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

export function buildIfNeeded(root) {
  const outs = ['main.js', 'server.js', 'server-zod.js', 'ort-wasm-simd.wasm.br', 'bridge.cjs', 'dist/cli.js'].map((f) => join(root, f));
  const src = Math.max(newest(join(root, 'src')), statSync(join(root, 'package.json')).mtimeMs, statSync(join(root, 'esbuild.config.mjs')).mtimeMs, ...['esbuild-chunks.mjs', 'esbuild-semantic.mjs'].map((f) => statSync(join(root, 'scripts', f)).mtimeMs));
  if (outs.every((o) => existsSync(o) && statSync(o).mtimeMs >= src)) return false;
  execFileSync(process.execPath, [join(root, 'esbuild.config.mjs')], { stdio: 'inherit', cwd: root });
  return true;
}
