// Developer aid (not run by npm scripts): the eight cells of `npm run eval:search` (Cranfield and CISI
// in the four vault layouts) in-process, without HTTP, for trying ranking changes quickly. Uses the same
// document building and ranking code as keyword_search; the published figures come from eval-search.ts.
//   node --import tsx bench/tune-keyword.ts [layout…]
// A JSON object as the last argument overrides RANKING values for the run, e.g. '{"k1":1.5,"fieldB":[0.3,0.3,0.3,0.3,0.75]}';
// a JSON array of such objects runs each in turn.
import { join } from 'node:path';
import { loadCisi, loadCranfield, evaluate } from './ir.js';
import { LAYOUTS, noteFor } from './layouts.js';
import { openFts5 } from './fts5.js';
import { createAnalyzer } from '../src/search/analyzer.js';
import { InvertedIndex } from '../src/search/invertedIndex.js';
import { runQuery } from '../src/search/rank.js';
import { parseQuery } from '../src/search/query.js';
import { buildDoc } from '../src/search/document.js';
import { parseMarkdown } from '../src/core/markdown/parse.js';
import { RANKING } from '../src/search/scoring.js';
import { SHARED } from '../test/helpers/paths.js';

const ir = join(SHARED, 'fixtures/ir');
const cols = [loadCranfield(join(ir, 'cranfield')), loadCisi(join(ir, 'cisi'))];
const analyzer = createAnalyzer({ stemming: ['english'], stopWords: true });
const f = (x: number) => x.toFixed(3);
const args = process.argv.slice(2);
const last = args[args.length - 1];
const variants = (last?.startsWith('{') || last?.startsWith('[') ? [JSON.parse(args.pop()!) as Record<string, unknown>].flat() : [{}]) as Record<string, unknown>[];
const base = JSON.parse(JSON.stringify(RANKING)) as typeof RANKING;
const ref = new Map<string, { ndcg10: number; map: number }>();
for (const c of cols) {
  const fts = openFts5();
  fts.add(c.docs.map((d) => ({ id: d.id, title: d.title, body: d.text })));
  const m = evaluate(new Map(c.queries.map((q) => [q.id, fts.search(q.text, 100)])), c.qrels);
  fts.close();
  ref.set(c.name, m);
  console.log(`FTS5 ${c.name} ${f(m.ndcg10)} / ${f(m.map)}`);
}
// The indexes do not depend on RANKING: built once, scored per variant.
const cells: { c: (typeof cols)[number]; layout: string; ix: InvertedIndex; idOf: Map<string, string> }[] = [];
for (const c of cols) {
  for (const layout of LAYOUTS) {
    if (args.length && !args.includes(layout)) continue;
    const ix = new InvertedIndex();
    const idOf = new Map<string, string>();
    for (const d of c.docs) {
      const n = noteFor(d, layout);
      idOf.set(n.path, d.id);
      ix.add(buildDoc(n.path, n.text, parseMarkdown(n.text)), analyzer);
    }
    cells.push({ c, layout, ix, idOf });
  }
}
for (const v of variants) {
  Object.assign(RANKING, JSON.parse(JSON.stringify(base)), v);
  const out: string[] = [];
  let worst = Infinity;
  const mean = { cranfield: [0, 0], cisi: [0, 0] } as Record<string, number[]>;
  for (const { c, layout, ix, idOf } of cells) {
    const runs = new Map<string, string[]>();
    for (const q of c.queries) runs.set(q.id, (await runQuery(ix, parseQuery(q.text, analyzer), analyzer, {})).slice(0, 100).map((h) => idOf.get(h.path)!));
    const m = evaluate(runs, c.qrels);
    const r = ref.get(c.name)!;
    const dn = m.ndcg10 - r.ndcg10;
    const dm = m.map - r.map;
    worst = Math.min(worst, dn, dm);
    mean[c.name][0] += m.ndcg10 / 4;
    mean[c.name][1] += m.map / 4;
    out.push(`${c.name.padEnd(10)} ${layout.padEnd(15)} ${f(m.ndcg10)} / ${f(m.map)}  (${dn >= 0 ? '+' : ''}${f(dn)} / ${dm >= 0 ? '+' : ''}${f(dm)})${dn < -0.005 || dm < -0.005 ? '  BELOW' : ''}`);
  }
  if (variants.length > 1) console.log(`${JSON.stringify(v)}  cranfield ${mean.cranfield.map(f).join(' / ')}  cisi ${mean.cisi.map(f).join(' / ')}  worst margin ${f(worst)}`);
  else console.log(out.join('\n'));
}
