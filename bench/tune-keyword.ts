// Developer aid (not run by npm scripts): in-process grid over ranking knobs on Cranfield and CISI,
// using the same index code as keyword_search but without HTTP. `node --import tsx bench/tune-keyword.ts`
import { join } from 'node:path';
import { loadCisi, loadCranfield, evaluate } from './ir.js';
import { createAnalyzer } from '../src/search/analyzer.js';
import { createMiniSearch, runQuery, BOOSTS, BM25, SCORING } from '../src/search/keywordIndex.js';
import { parseQuery } from '../src/search/query.js';
import { buildDoc } from '../src/search/document.js';
import { SHARED } from '../test/helpers/paths.js';

const ir = join(SHARED, 'fixtures/ir');
const cols = [loadCranfield(join(ir, 'cranfield')), loadCisi(join(ir, 'cisi'))];
const analyzer = createAnalyzer({ stemming: ['english'], stopWords: true });
import { openFts5 } from './fts5.js';
for (const c of cols) {
  const fts = openFts5();
  fts.add(c.docs.map((d) => ({ id: d.id, title: d.title, body: d.text })));
  const m = evaluate(new Map(c.queries.map((q) => [q.id, fts.search(q.text, 100)])), c.qrels);
  console.log(`FTS5 ${c.name} ndcg ${m.ndcg10.toFixed(3)} map ${m.map.toFixed(3)}`);
}
const grid = JSON.parse(process.argv[2] ?? '[{}]') as Record<string, number>[];
for (const g of grid) {
  Object.assign(BM25, { k: g.k ?? 1.2, b: g.b ?? 0.75, d: g.d ?? 0 });
  Object.assign(BOOSTS, { title: g.title ?? 1 });
  Object.assign(SCORING, { coord: g.coord ?? 0, qtf: g.qtf ?? 1, titleBonus: g.tb ?? 8, titlePower: g.tp ?? 3, sharpIdf: g.si ?? 1 });
  const out: string[] = [];
  for (const c of cols) {
    const ms = createMiniSearch(analyzer);
    ms.addAll(c.docs.map((d) => buildDoc(`${d.id}/${d.title.replace(/[\\/]/g, ' ').slice(0, 120)}.md`, d.text, null)));
    const runs = new Map<string, string[]>();
    for (const q of c.queries) {
      const hits = await runQuery(ms, parseQuery(q.text, analyzer), analyzer, {});
      runs.set(q.id, hits.slice(0, 100).map((h) => h.path.split('/')[0]));
    }
    const m = evaluate(runs, c.qrels);
    out.push(`${c.name} ndcg ${m.ndcg10.toFixed(3)} map ${m.map.toFixed(3)}`);
  }
  console.log(JSON.stringify(g), out.join(' | '));
}
