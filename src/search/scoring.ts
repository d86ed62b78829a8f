// How a note scores for a query: BM25F (Robertson, Zaragoza & Taylor 2004). A term's frequencies in
// the note's fields are length-normalised per field, weighted, summed into one pseudo-frequency, and
// saturated once — so a term in the title and the body counts as one strong term rather than two
// separately saturated ones, and a long field cannot pile up score. Then a title bonus: a query that
// is (most of) a note's title puts that note first. One configuration for every vault (no per-layout
// or per-collection switch); README "Keyword ranking" says how the values were chosen.
import type { Analyzer } from './types.js';
import { terms } from './text.js';
import type { ParsedQuery } from './query.js';
import { NF } from './invertedIndex.js';
import { ShardedMap } from '../core/shardedMap.js';

/**
 * The one ranking configuration. k1: saturation (how fast repeats stop adding); fieldWeight and fieldB
 * per field in FIELDS order (title, aliases, headings, tags, body): weight, and length normalisation
 * (0 = none, 1 = full; short fields are barely normalised); idfFloor: a word in most notes still orders
 * notes that otherwise tie but weighs next to nothing; titleBonus/titlePower: score × (1 + titleBonus ×
 * match^titlePower), match in 0..1 (titleMatchOf). Not a setting: bench/tune-keyword.ts overrides it
 * in-process to try values.
 */
export const RANKING = {
  k1: 1.2,
  fieldWeight: [3, 3, 1.5, 1.5, 1],
  fieldB: [0.3, 0.3, 0.3, 0.3, 0.75],
  idfFloor: 0.05,
  titleBonus: 8,
  titlePower: 3,
};

if (RANKING.fieldWeight.length !== NF || RANKING.fieldB.length !== NF) throw new Error('scoring: one weight and one b per field');

/** Robertson–Spärck Jones idf, floored: a word in half the notes or more weighs almost nothing. */
export function idf(documents: number, withTerm: number): number {
  return Math.max(RANKING.idfFloor, Math.log((documents - withTerm + 0.5) / (withTerm + 0.5)));
}

/** The saturated contribution of a pseudo-frequency (BM25's tf part, with the (k1 + 1) scale). */
export function saturate(tf: number): number {
  return (tf * (RANKING.k1 + 1)) / (tf + RANKING.k1);
}

/** A query's positive leaves as the title match reads them. */
export interface TitleLeaf { term: string; prefix: boolean }

export function titleLeaves(q: ParsedQuery): TitleLeaf[] {
  return q.leaves.filter((l) => q.clauses.some((c) => c.alts.some((a) => a.terms.includes(l.term))));
}

/**
 * How well a title (or alias) and the query describe each other: (share of the query's terms found in
 * the title) × (share of the title's terms found in the query). 1 when the query is the title; small
 * for a long question that shares a word or two with it.
 */
export function titleMatchOf(tt: readonly string[], leaves: readonly TitleLeaf[]): number {
  return titleMatchIn(tt.length, (i) => tt[i], leaves);
}

/** titleMatchOf over `n` distinct terms read through `termAt` (the title cache's ids, titleCache.ts). */
export function titleMatchIn(n: number, termAt: (i: number) => string, leaves: readonly TitleLeaf[]): number {
  if (!n || !leaves.length) return 0;
  let qHit = 0;
  let tHit = 0;
  const seen = n <= 31 ? null : new Set<number>();
  let mask = 0;
  for (const l of leaves) {
    let found = false;
    for (let i = 0; i < n; i++) {
      const t = termAt(i);
      if (l.prefix ? t.startsWith(l.term) : t === l.term) {
        found = true;
        if (seen) { if (!seen.has(i)) { seen.add(i); tHit++; } } else if (!(mask & (1 << i))) { mask |= 1 << i; tHit++; }
      }
    }
    if (found) qHit++;
  }
  return (qHit / leaves.length) * (tHit / n);
}

export function titleMatch(title: string, q: ParsedQuery, analyzer: Analyzer): number {
  return titleMatchOf(titleTerms(title, analyzer), titleLeaves(q));
}

/** The multiplier a title match gives. */
export function titleFactor(match: number): number {
  return 1 + RANKING.titleBonus * match ** RANKING.titlePower;
}

/** Distinct terms of a title form / alias (stop words aside), cached per analyzer (re-analyzed once, not per query). */
// Sharded: at 100k notes a Map of every title rehashed it in one set() inside a query's slice.
const titleTermCache = new WeakMap<Analyzer, ShardedMap<string[]>>();
export function titleTerms(title: string, analyzer: Analyzer): string[] {
  let m = titleTermCache.get(analyzer);
  if (!m) { m = new ShardedMap(); titleTermCache.set(analyzer, m); }
  let tt = m.get(title);
  if (!tt) {
    // Stop words do not count ("art of war" is the whole of "The Art of War"), unless that is all there is.
    tt = [...new Set(terms(title, analyzer))];
    if (!tt.length) tt = [...new Set(terms(title, analyzer, true))];
    if (m.size >= 400_000) m.clear();
    m.set(title, tt);
  }
  return tt;
}
