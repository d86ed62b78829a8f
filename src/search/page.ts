// Rank order and page selection over a query's candidates: full matches first, then score descending,
// then path (a stable key, so ties never depend on build order). Only the page is sorted.
import type { Scratch } from './scratch.js';

/** Sort position of a hit relative to a cursor. */
export interface HitKey { matchedAll: boolean; score: number; path: string }

export function selectPage(cands: Int32Array, sc: Scratch, pathOf: (doc: number) => string, limit: number, after?: HitKey): { page: number[]; total: number; totalAll: number; offset: number } {
  const { scores, matchedAll } = sc;
  let totalAll = 0;
  for (let i = 0; i < cands.length; i++) totalAll += matchedAll[cands[i]];
  const before = (x: number, y: number) => {
    if (matchedAll[x] !== matchedAll[y]) return matchedAll[x] > matchedAll[y];
    if (scores[x] !== scores[y]) return scores[x] > scores[y];
    return pathOf(x) < pathOf(y);
  };
  const cmp = (x: number, y: number) => (before(x, y) ? -1 : before(y, x) ? 1 : 0);
  let pool = cands;
  if (after) {
    const g = after.matchedAll ? 1 : 0;
    pool = cands.filter((doc) => matchedAll[doc] !== g ? matchedAll[doc] < g : scores[doc] !== after.score ? scores[doc] < after.score : pathOf(doc) > after.path);
  }
  let page: number[];
  if (limit >= pool.length) page = Array.from(pool).sort(cmp);
  else {
    page = [];
    for (let i = 0; i < pool.length; i++) keepTop(page, pool[i], limit, before);
  }
  return { page, total: cands.length, totalAll, offset: cands.length - pool.length };
}

/**
 * Top `k` by insertion into a short list kept in `before` order: most candidates are rejected by one
 * comparison. Returns the doc that is not (or no longer) in the list, or -1.
 */
export function keepTop(top: number[], doc: number, k: number, before: (x: number, y: number) => boolean): number {
  if (top.length >= k && (!top.length || !before(doc, top[top.length - 1]))) return doc;
  let lo = 0;
  let hi = top.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (before(doc, top[mid])) hi = mid; else lo = mid + 1; }
  top.splice(lo, 0, doc);
  return top.length > k ? top.pop()! : -1;
}
