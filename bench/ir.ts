// IR test collections (SMART format) and the metrics the evaluation reports.
// Cranfield: 1,400 documents, 225 queries numbered 1–225 by position (cran.qry's own ids skip numbers);
// judgments graded 1 (complete answer) … 4 (minimal interest) count as relevant, −1 as not relevant, and
// relevance is binary (graded gains 4..1 give FTS5 0.351 nDCG@10; the reference figure 0.377 is binary).
// CISI: 1,460 documents, 112 queries of which 76 are judged (only those are averaged); a query is its
// .W text (the title/author/source lines some queries carry are not part of the question).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Doc { id: string; title: string; text: string }
export interface Collection {
  name: string;
  docs: Doc[];
  queries: { id: string; text: string }[];
  /** query id → doc id → gain (> 0 relevant) */
  qrels: Map<string, Map<string, number>>;
}

function smart(text: string): Record<string, string>[] {
  const out: Record<string, string>[] = [];
  let cur: Record<string, string> | null = null;
  let field = '';
  for (const line of text.split(/\r?\n/)) {
    const m = /^\.([A-Z])\s*(.*)$/.exec(line);
    if (m) {
      if (m[1] === 'I') { cur = { I: m[2].trim() }; out.push(cur); field = ''; continue; }
      field = m[1];
      if (cur) cur[field] = (cur[field] ?? '') + (m[2] ? m[2] + '\n' : '');
      continue;
    }
    if (cur && field) cur[field] = (cur[field] ?? '') + line + '\n';
  }
  return out;
}

export function loadCranfield(dir: string): Collection {
  const docs = smart(readFileSync(join(dir, 'cran.all.1400'), 'latin1')).map((r) => ({ id: String(Number(r.I)), title: (r.T ?? '').replace(/\s+/g, ' ').trim(), text: (r.W ?? '').trim() }));
  // Queries are numbered 1..225 by position in the judgments (cran.qry ids skip numbers).
  const queries = smart(readFileSync(join(dir, 'cran.qry'), 'latin1')).map((r, i) => ({ id: String(i + 1), text: (r.W ?? '').replace(/\s+/g, ' ').trim() }));
  const qrels = new Map<string, Map<string, number>>();
  for (const line of readFileSync(join(dir, 'cranqrel'), 'latin1').split('\n')) {
    const [q, d, g] = line.trim().split(/\s+/).map(Number);
    if (!q || !d) continue;
    if (!qrels.has(String(q))) qrels.set(String(q), new Map());
    qrels.get(String(q))!.set(String(d), g >= 1 && g <= 4 ? 1 : 0);
  }
  return { name: 'cranfield', docs, queries, qrels };
}

export function loadCisi(dir: string): Collection {
  const docs = smart(readFileSync(join(dir, 'CISI.ALL'), 'latin1')).map((r) => ({ id: String(Number(r.I)), title: (r.T ?? '').replace(/\s+/g, ' ').trim(), text: (r.W ?? '').trim() }));
  const queries = smart(readFileSync(join(dir, 'CISI.QRY'), 'latin1')).map((r) => ({ id: String(Number(r.I)), text: (r.W ?? '').replace(/\s+/g, ' ').trim() }));
  const qrels = new Map<string, Map<string, number>>();
  for (const line of readFileSync(join(dir, 'CISI.REL'), 'latin1').split('\n')) {
    const [q, d] = line.trim().split(/\s+/).map(Number);
    if (!q || !d) continue;
    if (!qrels.has(String(q))) qrels.set(String(q), new Map());
    qrels.get(String(q))!.set(String(d), 1);
  }
  return { name: 'cisi', docs, queries, qrels };
}

export interface Metrics { map: number; ndcg10: number; p10: number; r100: number; queries: number }

export function evaluate(runs: Map<string, string[]>, qrels: Map<string, Map<string, number>>): Metrics {
  let map = 0, ndcg = 0, p10 = 0, r100 = 0, n = 0;
  for (const [q, rel] of qrels) {
    const relevant = [...rel.values()].filter((g) => g > 0).length;
    if (!relevant) continue;
    n++;
    const ranked = (runs.get(q) ?? []).slice(0, 100);
    let hits = 0, ap = 0;
    ranked.forEach((d, i) => { if ((rel.get(d) ?? 0) > 0) { hits++; ap += hits / (i + 1); } });
    map += ap / relevant;
    r100 += hits / relevant;
    p10 += ranked.slice(0, 10).filter((d) => (rel.get(d) ?? 0) > 0).length / 10;
    const dcg = ranked.slice(0, 10).reduce((s, d, i) => s + ((2 ** (rel.get(d) ?? 0)) - 1) / Math.log2(i + 2), 0);
    const ideal = [...rel.values()].filter((g) => g > 0).sort((a, b) => b - a).slice(0, 10).reduce((s, g, i) => s + ((2 ** g) - 1) / Math.log2(i + 2), 0);
    ndcg += ideal ? dcg / ideal : 0;
  }
  return { map: map / n, ndcg10: ndcg / n, p10: p10 / n, r100: r100 / n, queries: n };
}
