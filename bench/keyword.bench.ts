// `npm run bench keyword`: the keyword index next to SQLite FTS5 (bm25, porter) doing the same work in
// the same process, on the Obsidian Hub vault and on a generated vault (KW_BENCH_NOTES, default 100k):
// cold index, warm start (load + reconcile), RSS, and query latency p50/p95/p99 over a fixed query set.
// KW_BENCH_HUB=0 measures only the generated vault.
// Query latency is the index call for a 20-row page (every match scored and counted, AND rows before
// partial rows, only the page selected), not HTTP or snippets.
import { mkdirSync, writeFileSync, readFileSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { NodeHost } from '../src/host/node/nodeHost.js';
import { withDefaults } from '../src/settings.js';
import { KeywordService, INDEX_FILE } from '../src/search/service.js';
import { noteTitle } from '../src/core/paths.js';
import { openFts5 } from './fts5.js';
import { extractArchive, tempDir, removeDir } from '../test/helpers/vault.js';
import { SHARED } from '../test/helpers/paths.js';
import { LoopProbe, type BlockStats } from './loop-probe.js';

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const rssMb = () => { gc(); return Math.round(process.memoryUsage().rss / 2 ** 20); };
/** Live JS heap plus ArrayBuffers after a full collection: what the index holds, unlike RSS (freed pages go back to the OS late). */
const liveMb = () => { gc(); const m = process.memoryUsage(); return Math.round((m.heapUsed + m.external) / 2 ** 20); };
const pct = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(s.length * p))]; };

function rng(seed: number) {
  return () => { seed = (seed * 1664525 + 1013904223) >>> 0; return seed / 2 ** 32; };
}

/** A fixed query set: note titles, single words and two-word pairs drawn from the notes. */
function querySet(titles: string[], vocab: string[], n = 300): string[] {
  const r = rng(42);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const kind = i % 3;
    if (kind === 0) out.push(titles[Math.floor(r() * titles.length)]);
    else if (kind === 1) out.push(vocab[Math.floor(r() * vocab.length)]);
    else out.push(`${vocab[Math.floor(r() * vocab.length)]} ${vocab[Math.floor(r() * vocab.length)]}`);
  }
  return out;
}

interface Row { name: string; ours: string; fts: string; ratio: string }

async function measure(label: string, vault: string): Promise<Row[]> {
  const data = join(tempDir('vmcp-kwb-data-'), 'data');
  const settings = () => withDefaults({});
  const host = new NodeHost(vault, { dataDir: data, watch: false });
  await host.ready();
  const notes = host.files().filter((f) => f.path.endsWith('.md'));
  const rss0 = rssMb();
  const live0 = liveMb();
  // Cold index (ours): build + first save, with the event loop's longest block measured (bench/loop-probe.ts).
  const probe = new LoopProbe();
  const blocks: BlockStats[] = [];
  probe.begin('cold index');
  let t = performance.now();
  let svc: KeywordService | null = new KeywordService({ host, settings });
  await svc.ready();
  const coldMs = performance.now() - t;
  blocks.push(probe.end());
  probe.begin('save');
  t = performance.now();
  await svc.save();
  const saveMs = performance.now() - t;
  blocks.push(probe.end());
  const rssOurs = rssMb() - rss0;
  const liveOurs = liveMb() - live0;
  const fileMb = statSync(join(data, INDEX_FILE)).size / 2 ** 20;
  // Queries.
  const titles = notes.map((f) => noteTitle(f.path));
  const vocab = new Set<string>();
  for (const f of notes.slice(0, 2000)) for (const w of (await host.readText(f.path)).toLowerCase().match(/\p{L}{4,}/gu) ?? []) vocab.add(w);
  const queries = querySet(titles, [...vocab].sort());
  const ours: number[] = [];
  for (const q of queries.slice(0, 30)) await svc.rank(q, { limit: 20 }); // warm-up
  for (const q of queries) { const s = performance.now(); await svc.rank(q, { limit: 20 }); ours.push(performance.now() - s); }
  await svc.stop();
  svc = null; // its index is garbage now: a warm start is a fresh process's load, not one beside a second index
  liveMb();
  // Warm start: a new service over the same host loads the file and reconciles.
  probe.begin('warm start');
  t = performance.now();
  const warm = new KeywordService({ host, settings });
  await warm.ready();
  const warmMs = performance.now() - t;
  blocks.push(probe.end());
  const rssWarm = rssMb() - rss0;
  const liveWarm = liveMb() - live0;
  await warm.stop();
  await host.close();

  // FTS5: same notes read from disk, into an on-disk database; same queries.
  const dbFile = join(data, 'fts.db');
  const rssF0 = rssMb();
  t = performance.now();
  const fts = openFts5(dbFile);
  const batch: { id: string; title: string; body: string }[] = [];
  for (const f of notes) {
    batch.push({ id: f.path, title: noteTitle(f.path), body: readFileSync(join(vault, f.path), 'utf8') });
    if (batch.length >= 1000) fts.add(batch.splice(0));
  }
  fts.add(batch);
  const ftsColdMs = performance.now() - t;
  const rssFts = rssMb() - rssF0;
  fts.close();
  t = performance.now();
  const fts2 = openFts5(dbFile);
  fts2.search('warmup', 1);
  const ftsWarmMs = performance.now() - t;
  const theirs: number[] = [];
  for (const q of queries.slice(0, 30)) fts2.search(q, 20);
  for (const q of queries) { const s = performance.now(); fts2.search(q, 20); theirs.push(performance.now() - s); }
  fts2.close();
  removeDir(data);

  const f1 = (x: number) => x.toFixed(1);
  const fmt = (a: number, b: number, unit: string, d = 1) => ({ ours: `${a.toFixed(d)} ${unit}`, fts: `${b.toFixed(d)} ${unit}`, ratio: `${(a / b).toFixed(2)}×` });
  console.log(`\n${label}: ${notes.length} notes; index file ${fileMb.toFixed(1)} MB (save ${Math.round(saveMs)} ms); ${queries.length} queries`);
  return [
    { name: 'cold index (s)', ...fmt(coldMs / 1000, ftsColdMs / 1000, 's', 2) },
    { name: 'warm start: load + reconcile (s)', ...fmt(warmMs / 1000, ftsWarmMs / 1000, 's', 3) },
    { name: 'RSS growth after cold index (MB)', ours: `${rssOurs} MB`, fts: `${rssFts} MB`, ratio: rssFts > 0 ? `${(rssOurs / rssFts).toFixed(1)}×` : '–' },
    { name: 'RSS growth after warm start (MB)', ours: `${rssWarm} MB`, fts: '–', ratio: '–' },
    { name: 'live heap + ArrayBuffers held, after cold index / warm start (MB)', ours: `${liveOurs} / ${liveWarm} MB`, fts: '–', ratio: '–' },
    ...blocks.map((b) => ({ name: `longest main-thread block, ${b.label} (ms; CPU-only in brackets)`, ours: `${b.longestMs.toFixed(0)} (${b.longestCpuMs.toFixed(0)}) ms`, fts: '–', ratio: '–' })),
    { name: 'query p50 (ms)', ...fmt(pct(ours, 0.5), pct(theirs, 0.5), 'ms', 2) },
    { name: 'query p95 (ms)', ...fmt(pct(ours, 0.95), pct(theirs, 0.95), 'ms', 2) },
    { name: 'query p99 (ms)', ...fmt(pct(ours, 0.99), pct(theirs, 0.99), 'ms', 2) },
  ].map((r) => ({ ...r, name: r.name, ours: r.ours, fts: r.fts, ratio: r.ratio ?? f1(0) }));
}

function table(rows: Row[]) {
  console.log('| measure | keyword index | SQLite FTS5 | ratio |');
  console.log('| --- | --- | --- | --- |');
  for (const r of rows) console.log(`| ${r.name} | ${r.ours} | ${r.fts} | ${r.ratio} |`);
}

/** A generated vault: notes of Zipf-distributed words from the Hub vault's vocabulary, in 100 folders. */
function generate(dir: string, n: number, vocab: string[]): void {
  const r = rng(7);
  const zipf = () => vocab[Math.min(vocab.length - 1, Math.floor(vocab.length ** r()) - 1)];
  for (let i = 0; i < n; i++) {
    const folder = `f${i % 100}`;
    if (i < 100) mkdirSync(join(dir, folder), { recursive: true });
    const words = 60 + Math.floor(r() * 240);
    const parts: string[] = [`---\ntags: [t${i % 50}]\n---\n# ${zipf()} ${zipf()}\n`];
    for (let w = 0; w < words; w++) parts.push(w % 40 === 39 ? `${zipf()}\n\n## ${zipf()}\n` : zipf());
    writeFileSync(join(dir, folder, `Note ${i} ${zipf()}.md`), parts.join(' '));
  }
}

const hub = join(SHARED, 'fixtures/vaults/obsidian-hub.tar.gz');
if (!existsSync(hub)) {
  console.log(`skipped: ${hub} is not present (fresh clone without the shared folder)`);
  process.exit(0);
}
const root = extractArchive(hub);
const hubVault = existsSync(join(root, 'obsidian-hub')) ? join(root, 'obsidian-hub') : root;
// KW_BENCH_HUB=0 skips the Hub vault's own measurement (its vocabulary still seeds the generated vault).
if (process.env.KW_BENCH_HUB !== '0') table(await measure('Obsidian Hub vault', hubVault));

const N = Number(process.env.KW_BENCH_NOTES ?? 100_000);
if (N > 0) {
  const vocabHost = new NodeHost(hubVault, { watch: false, dataDir: tempDir() });
  await vocabHost.ready();
  const counts = new Map<string, number>();
  for (const f of vocabHost.files().filter((x) => x.path.endsWith('.md')).slice(0, 3000)) {
    for (const w of (await vocabHost.readText(f.path)).toLowerCase().match(/\p{L}{3,}/gu) ?? []) counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  await vocabHost.close();
  const vocab = [...counts].sort((a, b) => b[1] - a[1]).map(([w]) => w);
  const gen = join(tempDir('vmcp-kwb-gen-'), 'vault');
  const t = performance.now();
  generate(gen, N, vocab);
  console.log(`\ngenerated ${N} notes in ${Math.round(performance.now() - t)} ms`);
  table(await measure(`generated vault`, gen));
  removeDir(join(gen, '..'));
}
