// The Obsidian code path under Node: the embedding runtime bundled with the plugin's esbuild options
// (onnxruntime-node aliased to onnxruntime-web, the WASM binary shipped brotli-compressed beside it, CommonJS),
// run in a child process with fetch trapped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { builtinModules } from 'node:module';
import { execFileSync } from 'node:child_process';
import { build } from 'esbuild';
import { tempDir } from '../helpers/vault.js';
import { GLOVE, REPO_ROOT, missing } from './helpers.js';
// @ts-expect-error plain JS build helper
import { semanticBundle } from '../../scripts/esbuild-semantic.mjs';

test('bundled WASM runtime loads from the shipped compressed copy and embeds with the GloVe model', { skip: missing(GLOVE) }, async () => {
  // A fast brotli level for tests (cached separately from the release build's level 11).
  process.env.ORT_WASM_BROTLI_QUALITY ??= '4';
  const dir = tempDir('vmcp-bundle-');
  const out = join(dir, 'entry.cjs');
  const builtins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];
  await build({
    bundle: true, platform: 'node', target: 'es2022', format: 'cjs', logLevel: 'error', legalComments: 'none',
    entryPoints: [join(REPO_ROOT, 'test/semantic/fixtures/bundle-entry.ts')], outfile: out,
    external: ['obsidian', 'electron', ...builtins], ...semanticBundle({}, join(dir, 'ort-wasm-simd.wasm.br')),
  });
  const res = JSON.parse(execFileSync(process.execPath, [out, GLOVE, join(dir, 'data'), join(dir, 'ort-wasm-simd.wasm.br')], { encoding: 'utf8', cwd: dir }).trim().split('\n').pop()!);
  assert.equal(res.backend, 'wasm');
  assert.equal(res.dims, 100);
  assert.ok(res.para > res.unrelated + 0.1, JSON.stringify(res));
  assert.equal(res.wasmFile, join(dir, 'data', 'ort-wasm-simd.wasm'));
  assert.deepEqual(res.calls, []);
});
