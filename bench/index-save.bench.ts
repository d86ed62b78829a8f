// `npm run bench index-save`: what one save of the keyword index costs the app's thread at 100k notes,
// written a megabyte at a time through one reused buffer (core/pieceWriter.ts, what the service does)
// next to the reference in the same run: the same writer with one buffer the size of the file, which is
// what a save allocated before (the file built whole; the old path also built the note records and
// the encoded text apart, so the reference understates it). Per save: wall time, the longest block,
// the peak of ArrayBuffer memory above the start, and the major collections during the save.
// Flags: --notes N (default 100000), --saves K per mode (default 5).
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { constants, PerformanceObserver, performance } from 'node:perf_hooks';
import { InvertedIndex } from '../src/search/invertedIndex.js';
import { buildDoc } from '../src/search/document.js';
import { createAnalyzer } from '../src/search/analyzer.js';
import { indexWriter, slicePause } from '../src/search/persist.js';
import { FsDataStore } from '../src/host/fsDataStore.js';
import { tempDir } from '../test/helpers/vault.js';
import { LoopProbe } from './loop-probe.js';

const argv = process.argv.slice(2);
const arg = (n: string) => { const i = argv.indexOf(n); return i >= 0 ? Number(argv[i + 1]) : undefined; };
const N = arg('--notes') ?? 100_000;
const SAVES = arg('--saves') ?? 5;
const gc = (globalThis as { gc?: () => void }).gc;
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mb = (b: number) => b / 2 ** 20;

/** Notes of Zipf-distributed words from a 30k-word made-up vocabulary (a real vault's term count, not 60 words). */
function build(): InvertedIndex {
  let seed = 11;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const syll = ['ka', 'ro', 'mi', 'ten', 'sa', 'lu', 've', 'dor', 'an', 'qui', 'bel', 'zo', 'ri', 'mon', 'ta', 'fe'];
  const vocab = Array.from({ length: 30_000 }, (_, i) => { let w = ''; for (let k = i; ; k = Math.floor(k / 16)) { w += syll[k % 16]; if (k < 16) break; } return w; });
  const text = (k: number) => Array.from({ length: k }, () => vocab[Math.floor(Math.pow(rnd(), 3) * vocab.length)]).join(' ');
  const analyzer = createAnalyzer({ stemming: ['english'], stopWords: true });
  const ix = new InvertedIndex();
  for (let i = 0; i < N; i++) {
    const path = `Notes/F${i % 100}/Note ${i}.md`;
    const body = `---\ntags: [t${i % 50}]\naliases: [n${i}]\n---\n# Note ${i} ${text(3)}\n\n${text(80)}\n\n## Details\n${text(60)}\n`;
    ix.add(buildDoc(path, body, null), analyzer);
    ix.record(path, 1_700_000_000_000 + i, body.length, createHash('sha256').update(body).digest('hex'));
  }
  return ix;
}

interface Run { ms: number; blockCpu: number; blockLessGc: number; peakExtMb: number; majors: number; gcMs: number; sha: string }

async function saveOnce(store: FsDataStore, file: string, ix: InvertedIndex, whole: boolean, fileBytes: number): Promise<Run> {
  gc?.();
  const base = process.memoryUsage().arrayBuffers;
  let peak = base;
  const sample = () => { const e = process.memoryUsage().arrayBuffers; if (e > peak) peak = e; };
  const timer = setInterval(sample, 2);
  let majors = 0;
  let gcMs = 0;
  const obs = new PerformanceObserver((l) => { for (const e of l.getEntries()) { gcMs += e.duration; if ((e as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) majors++; } });
  obs.observe({ entryTypes: ['gc'] });
  const probe = new LoopProbe();
  probe.begin(whole ? 'whole' : 'pieces');
  const t = performance.now();
  const write = indexWriter({ schema: 1, skipped: new Map() }, ix, slicePause(12), whole ? fileBytes : undefined);
  await store.write(file, (put) => write(async (p) => { sample(); await put(p); }));
  const ms = performance.now() - t;
  const s = probe.end();
  clearInterval(timer);
  sample();
  await new Promise((r) => setTimeout(r, 50)); // the observer's entries arrive a task later
  obs.disconnect();
  const sha = createHash('sha256').update(readFileSync(join(store.dir, file))).digest('hex');
  return { ms, blockCpu: s.longestCpuMs, blockLessGc: s.longestCpuLessGcMs, peakExtMb: mb(peak - base), majors, gcMs, sha };
}

async function main(): Promise<void> {
  if (!gc) throw new Error('run with node --expose-gc (npm run bench does)');
  const t = performance.now();
  const ix = build();
  console.log(`index of ${N} notes built in ${((performance.now() - t) / 1000).toFixed(1)} s: ${ix.lexicon.ids.size} terms`);
  const dir = tempDir('vmcp-index-save-');
  const store = new FsDataStore(dir);
  const file = 'keyword-index.bin';
  // The file's size, for the reference's one buffer (and a warm-up of both paths).
  await saveOnce(store, file, ix, false, 0);
  const fileBytes = readFileSync(join(dir, file)).length;
  await saveOnce(store, file, ix, true, fileBytes);
  const runs: Record<'pieces' | 'whole', Run[]> = { pieces: [], whole: [] };
  for (let k = 0; k < SAVES; k++) for (const mode of ['whole', 'pieces'] as const) runs[mode].push(await saveOnce(store, file, ix, mode === 'whole', fileBytes));
  const shas = new Set([...runs.pieces, ...runs.whole].map((r) => r.sha));
  if (shas.size !== 1) throw new Error('the two ways wrote different files');
  console.log(`file ${mb(fileBytes).toFixed(1)} MB, the same bytes both ways; ${SAVES} saves each, alternating; medians:`);
  console.log('| way | save (wall) | longest block, CPU (without GC) | peak ArrayBuffer memory above start | major collections (all GC ms) |');
  console.log('| --- | --- | --- | --- | --- |');
  const row = (name: string, r: Run[]) => `| ${name} | ${med(r.map((x) => x.ms)).toFixed(0)} ms | ${med(r.map((x) => x.blockCpu)).toFixed(1)} ms (${med(r.map((x) => x.blockLessGc)).toFixed(1)}) | ${med(r.map((x) => x.peakExtMb)).toFixed(1)} MB | ${med(r.map((x) => x.majors))} (${med(r.map((x) => x.gcMs)).toFixed(0)} ms) |`;
  console.log(row('pieces (1 MB buffer, the service)', runs.pieces));
  console.log(row('reference: the file in one buffer', runs.whole));
  const ratio = (f: (x: Run) => number) => (med(runs.pieces.map(f)) / Math.max(1e-9, med(runs.whole.map(f)))).toFixed(2);
  console.log(`ratios pieces / reference: wall ${ratio((x) => x.ms)}, longest block ${ratio((x) => x.blockCpu)}, peak ArrayBuffer memory ${ratio((x) => x.peakExtMb)}, GC ms ${ratio((x) => x.gcMs)}`);
  rmSync(dir, { recursive: true, force: true });
}

await main();
