// The MiniSearch index: one document per note, fields title / aliases / headings / tags / body with
// per-field boosts, and the query execution (AND rows first, then partial rows, exclusions, phrases).
// Pure of I/O except through the `readText` callback used to verify phrases.
import MiniSearch, { type Query, type SearchResult } from 'minisearch';
import type { Analyzer } from './analyzer.js';
import { terms, tokenize } from './text.js';
import type { Alt, ParsedQuery } from './query.js';
import { noteTitle } from '../core/paths.js';

export const FIELDS = ['title', 'aliases', 'headings', 'tags', 'body'] as const;
export type Field = (typeof FIELDS)[number];
export const BOOSTS: Record<Field, number> = { title: 1, aliases: 3, headings: 2, tags: 1.5, body: 1 };
/** BM25 (not BM25+): d = 0 keeps a short field's bonus from outweighing real term frequency. */
export const BM25 = { k: 1.2, b: 0.75, d: 0 };
/** Ranking knobs: coordination bonus per extra matched term; exponent of the query-term-frequency weight. */
export const SCORING = { coord: 0, qtf: 1, titleBonus: 8, titlePower: 3, sharpIdf: 1 };

/** Notes containing a term in any field (MiniSearch keeps no public document frequency). */
function docFreq(ms: MiniSearch<IndexedDoc>, term: string): number {
  const fieldMap = (ms as unknown as { _index: { get(t: string): Map<number, Map<number, number>> | undefined } })._index.get(term);
  if (!fieldMap) return 0;
  let n = 0;
  for (const docs of fieldMap.values()) n = Math.max(n, docs.size);
  return n;
}

/**
 * MiniSearch's idf is log(1 + (N - n + .5)/(n + .5)), which keeps common words at a sizeable weight.
 * Robertson–Spärck Jones idf log((N - n + .5)/(n + .5)) (what FTS5 uses) nearly silences words found in
 * half the notes; verbose questions depend on that. The term's weight is scaled to the sharper idf.
 */
function idfScale(ms: MiniSearch<IndexedDoc>, term: string): number {
  const N = ms.documentCount;
  const n = docFreq(ms, term);
  if (!n || !N) return 1;
  const soft = Math.log(1 + (N - n + 0.5) / (n + 0.5));
  const sharp = Math.max(0.05, Math.log((N - n + 0.5) / (n + 0.5)));
  return 1 + SCORING.sharpIdf * (sharp / soft - 1);
}

/**
 * How well a title (or alias) and the query describe each other: (share of the query's terms found in
 * the title) × (share of the title's terms found in the query). 1 when the query is the title; small
 * for a long question that shares a word or two with it. The score is multiplied by 1 + titleBonus × this,
 * so a note whose title is the query outranks long notes repeating the words.
 */
export function titleMatch(title: string, q: ParsedQuery, analyzer: Analyzer): number {
  const tt = new Set(terms(title, analyzer));
  if (!tt.size) return 0;
  const leaves = q.leaves.filter((l) => q.clauses.some((c) => c.alts.some((a) => a.terms.includes(l.term))));
  if (!leaves.length) return 0;
  let qHit = 0;
  const tHit = new Set<string>();
  for (const l of leaves) {
    let found = false;
    for (const t of tt) if (l.prefix ? t.startsWith(l.term) : t === l.term) { found = true; tHit.add(t); }
    if (found) qHit++;
  }
  return (qHit / leaves.length) * (tHit.size / tt.size);
}
const KEEP_STOP: Record<string, boolean> = { title: true, aliases: true, headings: true };

export interface IndexedDoc {
  id: string;
  title: string;
  aliases: string;
  headings: string;
  tags: string;
  body: string;
}

export interface Hit {
  path: string;
  score: number;
  matchedAll: boolean;
  fields: Field[];
  /** Index terms of the query this note contains. */
  terms: string[];
}

export interface SearchOptions {
  accept?: (path: string) => boolean;
  /** Reads a note's text, for phrase verification. */
  readText?: (path: string) => Promise<string | null>;
  /** At most this many notes are read to verify phrases; the rest count as partial matches. */
  phraseReadCap?: number;
  signal?: AbortSignal;
}

export function miniSearchOptions(analyzer: Analyzer) {
  return {
    idField: 'id',
    fields: [...FIELDS],
    storeFields: ['aliases'] as string[],
    tokenize: (text: string, field?: string) => terms(text, analyzer, !!(field && KEEP_STOP[field])),
    processTerm: (t: string) => t,
    searchOptions: { tokenize: (s: string) => [s], processTerm: (t: string) => t },
  };
}

export function createMiniSearch(analyzer: Analyzer): MiniSearch<IndexedDoc> {
  const ms = new MiniSearch<IndexedDoc>(miniSearchOptions(analyzer));
  changed.add(ms);
  return ms;
}

export function loadMiniSearch(json: string, analyzer: Analyzer): MiniSearch<IndexedDoc> {
  const ms = MiniSearch.loadJSON<IndexedDoc>(json, miniSearchOptions(analyzer));
  changed.add(ms);
  return ms;
}

const changed = new WeakSet<MiniSearch<IndexedDoc>>();

/** Call after adding, replacing or discarding documents (the next query re-derives field lengths). */
export function markChanged(ms: MiniSearch<IndexedDoc>): void {
  changed.add(ms);
}

/**
 * MiniSearch averages a field's length over every note, including notes where the field is empty, so
 * sparse fields (aliases, tags, headings) look "long" wherever they exist and their matches are
 * penalised by BM25's length normalisation. Re-derive each average over the notes that have the field.
 */
function fixAverageFieldLengths(ms: MiniSearch<IndexedDoc>): void {
  if (!changed.has(ms)) return;
  changed.delete(ms);
  const internals = ms as unknown as { _fieldLength: Map<number, number[]>; _avgFieldLength: number[]; _fieldIds: Record<string, number> };
  const sums = new Array<number>(FIELDS.length).fill(0);
  const counts = new Array<number>(FIELDS.length).fill(0);
  for (const lengths of internals._fieldLength.values()) {
    for (let f = 0; f < lengths.length; f++) { const l = lengths[f]; if (l) { sums[f] += l; counts[f]++; } }
  }
  for (const name of FIELDS) {
    const f = internals._fieldIds[name];
    if (f !== undefined && counts[f]) internals._avgFieldLength[f] = sums[f] / counts[f];
  }
}

function leafKey(term: string, prefix: boolean): string {
  return `${prefix ? 'p' : 't'}:${term}`;
}

/** Does a tokenized text contain the alt's terms as a contiguous run? */
export function containsPhrase(text: string, alt: Alt, analyzer: Analyzer): boolean {
  const seq: string[] = [];
  for (const t of tokenize(text)) if (!t.part && !analyzer.isStopWord(t.text)) seq.push(analyzer.stem(t.text));
  const want = alt.terms;
  outer: for (let i = 0; i + want.length <= seq.length; i++) {
    for (let j = 0; j < want.length; j++) if (seq[i + j] !== want[j]) continue outer;
    return true;
  }
  return false;
}

export async function runQuery(ms: MiniSearch<IndexedDoc>, q: ParsedQuery, analyzer: Analyzer, opts: SearchOptions = {}): Promise<Hit[]> {
  if (!q.clauses.length) return [];
  fixAverageFieldLengths(ms);
  const positiveLeaves = q.leaves.filter((l) => q.clauses.some((c) => c.alts.some((a) => (a.kind === 'prefix') === l.prefix && a.terms.includes(l.term))));
  const subqueries: Query[] = positiveLeaves.map((l) => {
    const w = (l.weight > 1 ? l.weight ** SCORING.qtf : 1) * (l.prefix ? 1 : idfScale(ms, l.term));
    return { queries: [l.term], prefix: l.prefix, combineWith: 'OR', ...(w !== 1 ? { boostTerm: () => w } : {}) };
  });
  const accept = opts.accept;
  const raw: SearchResult[] = ms.search({ combineWith: 'OR', queries: subqueries }, {
    boost: BOOSTS,
    bm25: BM25,
    ...(accept ? { filter: (r: SearchResult) => accept(r.id as string) } : {}),
  });
  if (!raw.length) return [];
  // Exclusions: notes containing any excluded alt.
  let excluded: Set<string> | null = null;
  if (q.excluded.length) {
    excluded = new Set();
    for (const alt of q.excluded) {
      const sub: Query = { combineWith: 'AND', queries: alt.terms.map((t) => ({ queries: [t], prefix: alt.kind === 'prefix' })) };
      for (const r of ms.search(sub, {})) excluded.add(r.id as string);
    }
  }
  const phraseAlts = q.clauses.flatMap((c) => c.alts).filter((a) => a.kind === 'phrase');
  const hits: (Hit & { phraseCheck: Alt[][] })[] = [];
  for (const r of raw) {
    const path = r.id as string;
    if (excluded?.has(path)) continue;
    // queryTerms are the leaf strings that matched; prefix and exact leaves share strings rarely enough.
    const matched = new Set<string>();
    for (const t of r.queryTerms) { matched.add(leafKey(t, false)); matched.add(leafKey(t, true)); }
    const altOk = (a: Alt) => a.terms.every((t) => matched.has(leafKey(t, a.kind === 'prefix')));
    let all = true;
    const phraseCheck: Alt[][] = [];
    for (const c of q.clauses) {
      const ok = c.alts.filter(altOk);
      if (!ok.length) { all = false; break; }
      if (ok.every((a) => a.kind === 'phrase')) phraseCheck.push(ok);
    }
    const fields = new Set<Field>();
    for (const fs of Object.values(r.match)) for (const f of fs) fields.add(f as Field);
    // MiniSearch multiplies by the number of matched query terms; keep a milder coordination factor.
    const n = r.queryTerms.length || 1;
    let score = (r.score / n) * (1 + SCORING.coord * (n - 1));
    if (fields.has('title') || fields.has('aliases')) {
      let best = fields.has('title') ? titleMatch(noteTitle(path), q, analyzer) : 0;
      if (fields.has('aliases') && typeof r.aliases === 'string') for (const a of r.aliases.split('\n')) best = Math.max(best, titleMatch(a, q, analyzer));
      score *= 1 + SCORING.titleBonus * best ** SCORING.titlePower;
    }
    hits.push({ path, score, matchedAll: all, fields: [...fields], terms: r.terms, phraseCheck: all ? phraseCheck : [] });
  }
  // Phrases: verify word adjacency on the text of the candidates that need it (bounded).
  if (phraseAlts.length && opts.readText) {
    let budget = opts.phraseReadCap ?? 200;
    const need = hits.filter((h) => h.phraseCheck.length).sort((a, b) => b.score - a.score);
    for (const h of need) {
      if (opts.signal?.aborted) break;
      if (budget-- <= 0) { h.matchedAll = false; continue; }
      const text = await opts.readText(h.path);
      if (text === null || !h.phraseCheck.every((alts) => alts.some((a) => containsPhrase(text, a, analyzer)))) h.matchedAll = false;
    }
  } else if (phraseAlts.length) {
    for (const h of hits) if (h.phraseCheck.length) h.matchedAll = false;
  }
  hits.sort((a, b) => (a.matchedAll === b.matchedAll ? b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) : a.matchedAll ? -1 : 1));
  return hits.map(({ phraseCheck: _p, ...h }) => h);
}
