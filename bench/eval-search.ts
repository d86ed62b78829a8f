// `npm run eval:search`: keyword_search relevance on Cranfield and CISI, each written into a vault in
// the four layouts of issue 14, next to SQLite FTS5 on the same documents and queries, in one run.
//
// 1. The reference first: FTS5 as the issue states it (bench/fts5.ts) must reproduce the issue's
//    figures within 0.003 (Cranfield nDCG@10 0.377 / MAP 0.295, CISI 0.314 / 0.127), or the eval fails
//    before measuring anything. A stronger FTS5 (repeated query words kept) is printed beside it.
// 2. Eight cells (2 collections × 4 layouts): every document is a note in a temp vault, the server runs
//    on it (real HTTP, the SDK client) and each query goes through keyword_search (limit 100). A cell
//    passes when keyword_search is at or above FTS5 on nDCG@10 and MAP, with 0.005 slack.
// 3. With the GloVe fixture model (../shared/fixtures/models/glove-static-100d, onnxruntime-node):
//    build_embeddings over MCP, then semantic_search and hybrid_search over HTTP per cell. A hybrid row
//    passes when it is no more than 0.01 below the better arm on nDCG@10 and MAP.
// Exit status: non-zero when the reference drifts or any cell fails.
// Options: collection names (cranfield, cisi), --layout=<name> (repeatable), --no-semantic.
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { loadCisi, loadCranfield, evaluate, type Collection, type Metrics } from './ir.js';
import { openFts5 } from './fts5.js';
import { LAYOUTS, LAYOUT_LABEL, noteFor, type Layout } from './layouts.js';
import { tempDir, removeDir } from '../test/helpers/vault.js';
import { startTestRuntime } from '../test/helpers/runtime.js';
import { connect, call } from '../test/helpers/server.js';
import { SHARED } from '../test/helpers/paths.js';

/** The figures issue 14 quotes for the stated FTS5 setup. */
const REFERENCE: Record<string, { ndcg10: number; map: number }> = {
  cranfield: { ndcg10: 0.377, map: 0.295 },
  cisi: { ndcg10: 0.314, map: 0.127 },
};
const DRIFT = 0.003;
const CELL_SLACK = 0.005;
const HYBRID_SLACK = 0.01;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const f = (x: number) => x.toFixed(3);

function fts5Run(c: Collection, keepRepeats: boolean): Metrics {
  const fts = openFts5(':memory:', { keepRepeats });
  fts.add(c.docs.map((d) => ({ id: d.id, title: d.title, body: d.text })));
  const runs = new Map<string, string[]>();
  for (const q of c.queries) runs.set(q.id, fts.search(q.text, 100));
  fts.close();
  return evaluate(runs, c.qrels);
}

interface CellResult {
  keyword: Metrics;
  semantic?: Metrics;
  hybrid?: Metrics;
  indexMs: number;
  keywordP50: number;
  embedMs?: number;
}

async function runCell(c: Collection, layout: Layout, semantic: boolean): Promise<CellResult> {
  const vault = join(tempDir('vmcp-eval-'), 'vault');
  const idOf = new Map<string, string>();
  for (const d of c.docs) {
    const n = noteFor(d, layout);
    if (idOf.has(n.path)) throw new Error(`${layout}: two documents map to ${n.path}`);
    idOf.set(n.path, d.id);
    mkdirSync(dirname(join(vault, n.path)), { recursive: true });
    writeFileSync(join(vault, n.path), n.text);
  }
  const t = await startTestRuntime(vault, { port: 0, rateLimitPerMinute: 1e6, rateLimitBurst: 1e6, ...(semantic ? { embeddingModel: GLOVE, embeddingAutoIndex: false } : {}) });
  try {
    const client = await connect(t.url, t.readKey, 'eval');
    const started = performance.now();
    await call(client, 'keyword_search', { query: 'warmup', wait_for_pending_writes: true });
    const indexMs = performance.now() - started;
    const runTool = async (tool: string) => {
      const ranked = new Map<string, string[]>();
      const times: number[] = [];
      for (const q of c.queries) {
        const t0 = performance.now();
        const r = await call(client, tool, { query: q.text, limit: 100 });
        times.push(performance.now() - t0);
        if (r.isError) throw new Error(`${tool} query ${q.id} failed: ${JSON.stringify(r.content)}`);
        ranked.set(q.id, (r.structuredContent!.results as { path: string }[]).map((x) => idOf.get(x.path)!));
      }
      return { metrics: evaluate(ranked, c.qrels), p50: median(times) };
    };
    const kw = await runTool('keyword_search');
    const out: CellResult = { keyword: kw.metrics, indexMs, keywordP50: kw.p50 };
    if (semantic) {
      const admin = await connect(t.url, t.rwKey, 'eval-admin');
      const t0 = performance.now();
      let r = (await call(admin, 'build_embeddings', {})).structuredContent!;
      while (r.status === 'working') {
        const p = (await call(admin, 'get_job_result', { job_id: r.job_id, wait_s: 20 })).structuredContent!;
        if (p.status === 'failed') throw new Error(`build_embeddings failed: ${JSON.stringify(p.error)}`);
        r = p.status === 'completed' ? p.result as Record<string, unknown> : { status: 'working', job_id: r.job_id };
      }
      out.embedMs = performance.now() - t0;
      const st = (await call(admin, 'stats')).structuredContent!.semantic;
      await admin.close();
      if (st.embedded !== c.docs.length) throw new Error(`embedded ${st.embedded} of ${c.docs.length} documents: ${JSON.stringify(st)}`);
      out.semantic = (await runTool('semantic_search')).metrics;
      out.hybrid = (await runTool('hybrid_search')).metrics;
    }
    await client.close();
    return out;
  } finally {
    await t.stop();
    removeDir(join(vault, '..'));
  }
}

const irDir = join(SHARED, 'fixtures/ir');
if (!existsSync(irDir)) {
  console.log(`skipped: ${irDir} is not present (fresh clone without the shared folder)`);
  process.exit(0);
}
const GLOVE = join(SHARED, 'fixtures/models/glove-static-100d');
const args = process.argv.slice(2);
const SEMANTIC = !args.includes('--no-semantic') && existsSync(GLOVE);
if (!SEMANTIC) console.log(`semantic and hybrid rows skipped (${args.includes('--no-semantic') ? '--no-semantic' : `${GLOVE} is not present`})`);
const onlyCollections = args.filter((a) => !a.startsWith('--'));
const onlyLayouts = args.filter((a) => a.startsWith('--layout=')).map((a) => a.slice('--layout='.length));
for (const l of onlyLayouts) if (!(LAYOUTS as readonly string[]).includes(l)) { console.error(`unknown layout ${l}; have ${LAYOUTS.join(', ')}`); process.exit(2); }
const collections = [loadCranfield(join(irDir, 'cranfield')), loadCisi(join(irDir, 'cisi'))].filter((c) => !onlyCollections.length || onlyCollections.includes(c.name));

// 1. The reference.
console.log('Reference: SQLite FTS5 fts5(title, body, porter unicode61), bm25(t, 1.0, 1.0), distinct query words quoted and OR-ed, top 100');
console.log('| collection | judged queries | FTS5 nDCG@10 / MAP | issue 14 figure | drift | FTS5, repeated query words kept |');
console.log('| --- | --- | --- | --- | --- | --- |');
const fts = new Map<string, Metrics>();
let drifted = false;
for (const c of collections) {
  const m = fts5Run(c, false);
  const strong = fts5Run(c, true);
  fts.set(c.name, m);
  const ref = REFERENCE[c.name];
  const drift = Math.max(Math.abs(m.ndcg10 - ref.ndcg10), Math.abs(m.map - ref.map));
  if (drift > DRIFT) drifted = true;
  console.log(`| ${c.name} | ${m.queries} | ${f(m.ndcg10)} / ${f(m.map)} | ${f(ref.ndcg10)} / ${f(ref.map)} | ${drift.toFixed(4)} ${drift > DRIFT ? 'DRIFTED' : 'ok'} | ${f(strong.ndcg10)} / ${f(strong.map)} |`);
}
if (drifted) {
  console.log(`REFERENCE DRIFTED by more than ${DRIFT}: fix the reference (documents, queries, judgments, FTS5 setup) before comparing anything.`);
  process.exit(1);
}

// 2–3. The cells.
const rows: string[] = [];
let failures = 0;
for (const c of collections) {
  const ref = fts.get(c.name)!;
  for (const layout of LAYOUTS) {
    if (onlyLayouts.length && !onlyLayouts.includes(layout)) continue;
    const r = await runCell(c, layout, SEMANTIC);
    const ok = r.keyword.ndcg10 >= ref.ndcg10 - CELL_SLACK && r.keyword.map >= ref.map - CELL_SLACK;
    if (!ok) failures++;
    const label = `${c.name}, ${LAYOUT_LABEL[layout]}`;
    console.log(`\n${label}: index ${Math.round(r.indexMs)} ms, keyword_search p50 ${r.keywordP50.toFixed(1)} ms over HTTP${r.embedMs ? `, build_embeddings ${(r.embedMs / 1000).toFixed(1)} s` : ''}`);
    console.log(`  keyword_search ${f(r.keyword.ndcg10)} / ${f(r.keyword.map)} vs FTS5 ${f(ref.ndcg10)} / ${f(ref.map)}: ${ok ? 'PASS' : 'FAIL'}`);
    rows.push(`| ${label} | keyword_search | ${f(r.keyword.ndcg10)} / ${f(r.keyword.map)} | ${f(ref.ndcg10)} / ${f(ref.map)} | ${ok ? 'PASS' : 'FAIL'} |`);
    if (r.semantic && r.hybrid) {
      const better = { ndcg10: Math.max(r.keyword.ndcg10, r.semantic.ndcg10), map: Math.max(r.keyword.map, r.semantic.map) };
      const hok = r.hybrid.ndcg10 >= better.ndcg10 - HYBRID_SLACK && r.hybrid.map >= better.map - HYBRID_SLACK;
      if (!hok) failures++;
      console.log(`  semantic_search ${f(r.semantic.ndcg10)} / ${f(r.semantic.map)}; hybrid_search ${f(r.hybrid.ndcg10)} / ${f(r.hybrid.map)} vs better arm ${f(better.ndcg10)} / ${f(better.map)}: ${hok ? 'PASS' : 'FAIL'}`);
      rows.push(`| ${label} | semantic_search (GloVe) | ${f(r.semantic.ndcg10)} / ${f(r.semantic.map)} | | |`);
      rows.push(`| ${label} | hybrid_search | ${f(r.hybrid.ndcg10)} / ${f(r.hybrid.map)} | better arm ${f(better.ndcg10)} / ${f(better.map)} | ${hok ? 'PASS' : 'FAIL'} |`);
    }
  }
}
console.log('\n| collection, layout | ranker | nDCG@10 / MAP | FTS5 nDCG@10 / MAP (hybrid: better arm) | |');
console.log('| --- | --- | --- | --- | --- |');
for (const r of rows) console.log(r);
console.log(failures ? `\n${failures} FAILED (keyword cells: at or above FTS5 − ${CELL_SLACK}; hybrid: at most ${HYBRID_SLACK} below the better arm)` : '\nall PASS');
process.exit(failures ? 1 : 0);
