// What evaluating the built server costs, chunk by chunk (scripts/esbuild-chunks.mjs): main-thread CPU
// time (Linux scheduler statistics, so time the OS gave other processes is not counted) of compiling and
// of running each eager chunk and server.js, in load order, each run in a fresh process; medians.
// The target is under 50 ms per chunk (the browser's long-task line). `node bench/server-chunks.mjs [runs]`
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EAGER_CHUNK_FILES } from '../scripts/esbuild-chunks.mjs';

const root = join(fileURLToPath(import.meta.url), '../..');
const runs = Number(process.argv[2] ?? 5);
// A folder without "type": "module" above it, as the plugin folder in a vault.
const dir = mkdtempSync(join(tmpdir(), 'vmcp-chunks-'));
for (const f of readdirSync(root)) if (/^server(-[a-z0-9]+)?\.js$/.test(f)) copyFileSync(join(root, f), join(dir, f));
writeFileSync(join(dir, 'package.json'), '{"type":"commonjs"}');
writeFileSync(join(dir, 'sample.cjs'), `
const fs = require('fs'), vm = require('vm'), path = require('path'), Module = require('module');
let fd = null; try { fd = fs.openSync('/proc/thread-self/schedstat', 'r'); } catch {}
const buf = Buffer.alloc(64);
const cpu = () => fd === null ? process.cpuUsage().user / 1000 : Number(buf.toString('latin1', 0, fs.readSync(fd, buf, 0, 64, 0)).split(' ')[0]) / 1e6;
// The app's renderer has fetch/Request/Response built in; Node loads them at first touch (40–55 ms).
void [globalThis.fetch, globalThis.Request, globalThis.Response, globalThis.Headers];
const out = {};
for (const f of [...${JSON.stringify(EAGER_CHUNK_FILES)}, 'server.js']) {
  const file = path.join(__dirname, f);
  const src = fs.readFileSync(file, 'utf8');
  const c0 = cpu();
  const fn = vm.compileFunction(src, ['exports', 'require', 'module', '__filename', '__dirname'], { filename: file });
  const c1 = cpu();
  const m = new Module(file, module); m.filename = file; m.paths = Module._nodeModulePaths(__dirname);
  Module._cache[file] = m;
  fn.call(m.exports, m.exports, (id) => require(id.startsWith('./') ? path.join(__dirname, id) : id), m, file, __dirname);
  m.loaded = true;
  out[f] = [c1 - c0, cpu() - c1, src.length];
}
console.log(JSON.stringify(out));
`);
const samples = [];
for (let i = 0; i < runs; i++) samples.push(JSON.parse(execFileSync(process.execPath, [join(dir, 'sample.cjs')], { encoding: 'utf8' })));
rmSync(dir, { recursive: true, force: true });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`server chunks, main-thread CPU, medians of ${runs} fresh processes (machine load ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]})`);
console.log('| file | size | compile | run | total |');
console.log('| --- | --- | --- | --- | --- |');
let worst = 0;
for (const f of Object.keys(samples[0])) {
  const c = median(samples.map((s) => s[f][0]));
  const r = median(samples.map((s) => s[f][1]));
  const t = median(samples.map((s) => s[f][0] + s[f][1]));
  worst = Math.max(worst, t);
  console.log(`| ${f} | ${(samples[0][f][2] / 1024).toFixed(0)} KB | ${c.toFixed(1)} ms | ${r.toFixed(1)} ms | ${t.toFixed(1)} ms |`);
}
console.log(`largest chunk: ${worst.toFixed(1)} ms (target < 50 ms: ${worst < 50 ? 'met' : 'MISSED'})`);
