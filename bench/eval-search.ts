// `npm run eval:search`: keyword_search relevance on Cranfield and CISI, next to SQLite FTS5 bm25
// (porter) on the same documents and queries, in one run. Each document becomes a note in a temp
// vault (file name = document title, body = its text); queries go through the real tool over HTTP
// with the SDK client. Prints MAP, nDCG@10, P@10 and R@100 (top 100 of each ranking).
// Semantic and hybrid rows use the GloVe static fixture model (../shared/fixtures/models/glove-static-100d,
// onnxruntime-node): build_embeddings over MCP (polled through get_job_result past the soft deadline),
// then semantic_search and hybrid_search over HTTP like the keyword rows. `--no-semantic` skips them.
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadCisi, loadCranfield, evaluate, type Collection, type Metrics } from './ir.js';
import { openFts5 } from './fts5.js';
import { tempDir, removeDir } from '../test/helpers/vault.js';
import { startTestRuntime } from '../test/helpers/runtime.js';
import { connect, call } from '../test/helpers/server.js';
import { SHARED } from '../test/helpers/paths.js';

function fileName(title: string, id: string): string {
  const t = title.replace(/[\\/:*?"<>|#^[\]]/g, ' ').replace(/\s+/g, ' ').replace(/^[.\s]+|[.\s]+$/g, '').slice(0, 120).trim();
  return `${id}/${t || 'untitled'}.md`;
}

async function runCollection(c: Collection) {
  const vault = join(tempDir('vmcp-eval-'), 'vault');
  const idOf = new Map<string, string>();
  for (const d of c.docs) {
    const rel = fileName(d.title, d.id);
    idOf.set(rel, d.id);
    mkdirSync(join(vault, d.id), { recursive: true });
    writeFileSync(join(vault, rel), d.text + '\n');
  }
  const semantic = SEMANTIC;
  const t = await startTestRuntime(vault, { port: 0, rateLimitPerMinute: 1e6, rateLimitBurst: 1e6, ...(semantic ? { embeddingModel: GLOVE, embeddingAutoIndex: false } : {}) });
  const client = await connect(t.url, t.readKey, 'eval');
  const started = performance.now();
  await call(client, 'keyword_search', { query: 'warmup', wait_for_pending_writes: true });
  const indexMs = performance.now() - started;
  const runTool = async (tool: string, limit: number) => {
    const ranked = new Map<string, string[]>();
    const times: number[] = [];
    for (const q of c.queries) {
      const t0 = performance.now();
      const r = await call(client, tool, { query: q.text, limit });
      times.push(performance.now() - t0);
      if (r.isError) throw new Error(`${tool} query ${q.id} failed: ${JSON.stringify(r.content)}`);
      ranked.set(q.id, (r.structuredContent!.results as { path: string }[]).map((x) => idOf.get(x.path)!));
    }
    return { ranked, times };
  };
  const kw = await runTool('keyword_search', 100);
  const ours = kw.ranked;
  const ourTimes = kw.times;
  let sem: { semantic: Metrics; hybrid: Metrics; embedMs: number; chunks: number; semP50: number; hybP50: number } | null = null;
  if (semantic) {
    const admin = await connect(t.url, t.rwKey, 'eval-admin');
    const t0 = performance.now();
    let r = (await call(admin, 'build_embeddings', {})).structuredContent!;
    while (r.status === 'working') {
      const p = (await call(admin, 'get_job_result', { job_id: r.job_id, wait_s: 20 })).structuredContent!;
      if (p.status === 'failed') throw new Error(`build_embeddings failed: ${JSON.stringify(p.error)}`);
      r = p.status === 'completed' ? p.result as Record<string, unknown> : { status: 'working', job_id: r.job_id };
    }
    const embedMs = performance.now() - t0;
    const st = (await call(admin, 'stats')).structuredContent!.semantic;
    await admin.close();
    if (st.embedded !== c.docs.length) throw new Error(`embedded ${st.embedded} of ${c.docs.length} documents: ${JSON.stringify(st)}`);
    const s = await runTool('semantic_search', 100);
    const h = await runTool('hybrid_search', 100);
    sem = { semantic: evaluate(s.ranked, c.qrels), hybrid: evaluate(h.ranked, c.qrels), embedMs, chunks: st.chunks as number, semP50: median(s.times), hybP50: median(h.times) };
  }
  await client.close();
  await t.stop();

  const fts = openFts5();
  fts.add(c.docs.map((d) => ({ id: d.id, title: d.title, body: d.text })));
  const theirs = new Map<string, string[]>();
  for (const q of c.queries) theirs.set(q.id, fts.search(q.text, 100));
  fts.close();
  removeDir(join(vault, '..'));
  return { ours: evaluate(ours, c.qrels), fts: evaluate(theirs, c.qrels), indexMs, queryP50: median(ourTimes), sem };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const f = (x: number) => x.toFixed(3);
function row(name: string, m: Metrics): string {
  return `| ${name.padEnd(34)} | ${f(m.ndcg10)} | ${f(m.map)} | ${f(m.p10)} | ${f(m.r100)} |`;
}

const irDir = join(SHARED, 'fixtures/ir');
if (!existsSync(irDir)) {
  console.log(`skipped: ${irDir} is not present (fresh clone without the shared folder)`);
  process.exit(0);
}
const GLOVE = join(SHARED, 'fixtures/models/glove-static-100d');
const SEMANTIC = !process.argv.includes('--no-semantic') && existsSync(GLOVE);
if (!SEMANTIC) console.log(`semantic and hybrid rows skipped (${process.argv.includes('--no-semantic') ? '--no-semantic' : `${GLOVE} is not present`})`);
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const collections = [
  () => loadCranfield(join(irDir, 'cranfield')),
  () => loadCisi(join(irDir, 'cisi')),
];
let failed = false;
for (const load of collections) {
  const c = load();
  if (only.length && !only.includes(c.name)) continue;
  const r = await runCollection(c);
  console.log(`\n${c.name}: ${c.docs.length} docs, ${r.ours.queries} judged queries (index ${Math.round(r.indexMs)} ms, keyword_search over HTTP p50 ${r.queryP50.toFixed(1)} ms incl. snippets)`);
  console.log('| ranker                             | nDCG@10 | MAP   | P@10  | R@100 |');
  console.log('| ---------------------------------- | ----- | ----- | ----- | ----- |');
  console.log(row('keyword_search (MiniSearch)', r.ours));
  console.log(row('SQLite FTS5 bm25, porter', r.fts));
  if (r.sem) {
    console.log(row('semantic_search (GloVe 100d)', r.sem.semantic));
    console.log(row('hybrid_search (RRF k=60, GloVe)', r.sem.hybrid));
    console.log(`(build_embeddings over MCP: ${r.sem.chunks} chunks in ${(r.sem.embedMs / 1000).toFixed(1)} s; semantic_search p50 ${r.sem.semP50.toFixed(1)} ms, hybrid_search p50 ${r.sem.hybP50.toFixed(1)} ms over HTTP)`);
  }
  const win = r.ours.ndcg10 >= r.fts.ndcg10 && r.ours.map >= r.fts.map;
  console.log(win ? 'target met: nDCG@10 and MAP at or above FTS5' : 'TARGET MISSED: nDCG@10 or MAP below FTS5');
  if (!win) failed = true;
}
process.exit(failed ? 1 : 0);
