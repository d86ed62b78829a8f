// `npm run bench launch`: what the plugin costs Obsidian at launch, beside a bare plugin (one status
// bar item and one command) measured the same way in the same run. Each sample is a fresh process
// (bench/launch-sample.ts): main.js read, parsed + evaluated as CommonJS, then onload; the server
// start after layout-ready (which evaluates server.js) is reported apart: it is not launch cost.
// Targets (issue 15): onload <= 30 ms, main.js parse+evaluate <= 60 ms.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../test/helpers/paths.js';

const RUNS = Number(process.env.LAUNCH_RUNS ?? 9);
type Sample = { kind: string; bytes: number; readMs: number; evalMs: number; onloadMs: number; serverStartMs: number | null };
const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

function sample(kind: 'plugin' | 'bare'): Sample {
  const out = execFileSync(process.execPath, ['--import', 'tsx', join(REPO, 'bench/launch-sample.ts'), kind], { cwd: REPO, encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop()!) as Sample;
}

const runs: Record<'plugin' | 'bare', Sample[]> = { plugin: [], bare: [] };
for (let i = 0; i < RUNS; i++) for (const k of ['bare', 'plugin'] as const) runs[k].push(sample(k)); // interleaved: load drifts hit both
const row = (k: 'plugin' | 'bare') => {
  const s = runs[k];
  return { evalMs: median(s.map((x) => x.evalMs)), onloadMs: median(s.map((x) => x.onloadMs)), serverStartMs: k === 'plugin' ? median(s.map((x) => x.serverStartMs ?? 0)) : null, bytes: s[0].bytes };
};
const p = row('plugin');
const b = row('bare');
const size = (f: string) => { try { return statSync(join(REPO, f)).size; } catch { return 0; } };
console.log(`launch: ${RUNS} fresh processes each, medians (machine shared: figures are upper bounds)`);
console.log(`| | main.js bytes | parse+evaluate ms | onload ms | server start after layout-ready ms |`);
console.log(`| --- | --- | --- | --- | --- |`);
console.log(`| bare plugin | ${b.bytes} | ${b.evalMs.toFixed(1)} | ${b.onloadMs.toFixed(1)} | – |`);
console.log(`| Vault MCP Server | ${p.bytes} | ${p.evalMs.toFixed(1)} | ${p.onloadMs.toFixed(1)} | ${p.serverStartMs!.toFixed(0)} |`);
console.log(`| ratio | ${(p.bytes / b.bytes).toFixed(0)}× | ${(p.evalMs / b.evalMs).toFixed(1)}× | ${(p.onloadMs / b.onloadMs).toFixed(1)}× | |`);
const chunks = readdirSync(REPO).filter((f) => /^server(-[a-z0-9]+)?\.js$/.test(f));
console.log(`server.js and its chunks: ${chunks.length} files, ${chunks.reduce((n, f) => n + size(f), 0)} bytes; ort-wasm-simd.wasm.br ${size('ort-wasm-simd.wasm.br')} bytes (none is read at launch)`);
console.log(`targets: onload <= 30 ms ${p.onloadMs <= 30 ? 'met' : 'MISSED'}; parse+evaluate <= 60 ms ${p.evalMs <= 60 ? 'met' : 'MISSED'}`);
