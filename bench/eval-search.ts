// `npm run eval:search`: keyword_search relevance on Cranfield and CISI, next to SQLite FTS5 bm25
// (porter) on the same documents and queries, in one run. Each document becomes a note in a temp
// vault (file name = document title, body = its text); queries go through the real tool over HTTP
// with the SDK client. Prints MAP, nDCG@10, P@10 and R@100 (top 100 of each ranking).
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
  const t = await startTestRuntime(vault, { port: 0 });
  const client = await connect(t.url, t.readKey, 'eval');
  const started = performance.now();
  await call(client, 'keyword_search', { query: 'warmup', wait_for_pending_writes: true });
  const indexMs = performance.now() - started;
  const ours = new Map<string, string[]>();
  const ourTimes: number[] = [];
  for (const q of c.queries) {
    const t0 = performance.now();
    const r = await call(client, 'keyword_search', { query: q.text, limit: 100 });
    ourTimes.push(performance.now() - t0);
    if (r.isError) throw new Error(`query ${q.id} failed: ${JSON.stringify(r.content)}`);
    ours.set(q.id, (r.structuredContent!.results as { path: string }[]).map((x) => idOf.get(x.path)!));
  }
  await client.close();
  await t.stop();

  const fts = openFts5();
  fts.add(c.docs.map((d) => ({ id: d.id, title: d.title, body: d.text })));
  const theirs = new Map<string, string[]>();
  for (const q of c.queries) theirs.set(q.id, fts.search(q.text, 100));
  fts.close();
  removeDir(join(vault, '..'));
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return { ours: evaluate(ours, c.qrels), fts: evaluate(theirs, c.qrels), indexMs, queryP50: median(ourTimes) };
}

const f = (x: number) => x.toFixed(3);
function row(name: string, m: Metrics): string {
  return `| ${name.padEnd(34)} | ${f(m.ndcg10)} | ${f(m.map)} | ${f(m.p10)} | ${f(m.r100)} |`;
}

const irDir = join(SHARED, 'fixtures/ir');
if (!existsSync(irDir)) {
  console.log(`skipped: ${irDir} is not present (fresh clone without the shared folder)`);
  process.exit(0);
}
const only = process.argv.slice(2);
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
  const win = r.ours.ndcg10 >= r.fts.ndcg10 && r.ours.map >= r.fts.map;
  console.log(win ? 'target met: nDCG@10 and MAP at or above FTS5' : 'TARGET MISSED: nDCG@10 or MAP below FTS5');
  if (!win) failed = true;
}
process.exit(failed ? 1 : 0);
