// Query execution: every note holding a query term is scored (BM25F, src/search/scoring.ts) straight from
// the packed postings into flat per-note arrays (no per-match objects); then exclusions, AND rows before
// partial rows, the title bonus, phrase checks, and only the requested page is selected and turned into
// rows. Ties are broken by path, so the order never depends on how or when the index was built.
import type { Analyzer } from './types.js';
import { phrasesHold } from './phrase.js';
import type { Alt, ParsedQuery } from './query.js';
import { FIELDS, NF, TITLE, ALIASES, type Field, type InvertedIndex } from './invertedIndex.js';
import { PostingCursor } from './postings.js';
import { RANKING, idf, titleFactor, titleLeaves, titleMatchOf, titleTerms } from './scoring.js';
import { acquire, release, type Scratch } from './scratch.js';
import { TitleTermCache } from './titleCache.js';
import { keepTop, selectPage, type HitKey } from './page.js';
import type { Pause } from './persist.js';

export type { HitKey } from './page.js';

export interface Hit {
  path: string;
  /** The note's display title (src/search/title.ts). */
  title: string;
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
  /** Called every so often in the long loops (every candidate is filtered and scored): a promise means
   *  wait for it, so a query over 100k matches is not one long task. The caller keeps the index from
   *  changing until the query is done (KeywordService holds index updates while a query runs). */
  pause?: Pause;
}

export interface PageOptions extends SearchOptions {
  /** Rows wanted (default: every match). */
  limit?: number;
  /** Only rows sorting strictly after this one (the previous page's last row). */
  after?: HitKey;
}

export interface QueryPage {
  /** The requested page, in rank order. */
  hits: Hit[];
  /** Matching notes (filters and exclusions applied), all pages. */
  total: number;
  /** Of those, notes matching every clause. */
  totalAll: number;
  /** Matches ranked before the page (those up to and including `after`). */
  offset: number;
}

/** A prefix expansion counts less the longer the indexed term is than the prefix (MiniSearch's weighting). */
const PREFIX_WEIGHT = 0.375;

interface Expansion { term: string; weight: number; id: number }

/** Index terms a leaf stands for: the term itself, plus (prefix leaves) every longer term starting with it, in term order. */
function expansions(ix: InvertedIndex, term: string, prefix: boolean): Expansion[] {
  const out: Expansion[] = [];
  const exact = ix.termId(term);
  if (exact !== undefined) out.push({ term, weight: 1, id: exact });
  if (prefix) {
    const longer: Expansion[] = [];
    for (const [t, id] of ix.withPrefix(term)) {
      const distance = t.length - term.length;
      if (distance) longer.push({ term: t, weight: (PREFIX_WEIGHT * t.length) / (t.length + 0.3 * distance), id });
    }
    // The tree's order depends on insertion order; sums must not.
    longer.sort((a, b) => (a.term < b.term ? -1 : 1));
    out.push(...longer);
  }
  return out;
}

/** Notes (short ids) containing every term of an alt, in any field. */
function altDocs(ix: InvertedIndex, alt: Alt): Set<number> {
  let acc: Set<number> | null = null;
  for (const t of alt.terms) {
    const docs = new Set<number>();
    for (const e of expansions(ix, t, alt.kind === 'prefix')) {
      for (let f = 0; f < NF; f++) {
        const c = ix.store.open(e.id * NF + f, cursor);
        while (c.next()) if (ix.live[c.doc] && (!acc || acc.has(c.doc))) docs.add(c.doc);
      }
    }
    acc = docs;
    if (!acc.size) break;
  }
  return acc ?? new Set();
}

/** Title-form terms by short id (a short id always names the same version of a note). */
const titleCache = new WeakMap<InvertedIndex, TitleTermCache>();

/** Every matching note, ranked (AND rows first, then partial rows). */
export async function runQuery(ix: InvertedIndex, q: ParsedQuery, analyzer: Analyzer, opts: SearchOptions = {}): Promise<Hit[]> {
  return (await runQueryPage(ix, q, analyzer, opts)).hits;
}

export async function runQueryPage(ix: InvertedIndex, q: ParsedQuery, analyzer: Analyzer, opts: PageOptions = {}): Promise<QueryPage> {
  if (!q.clauses.length) return { hits: [], total: 0, totalAll: 0, offset: 0 };
  const leaves = positiveLeaves(q);
  const scratch = await acquire(ix, ix.nextId, Math.max(1, Math.ceil(leaves.length / 32)));
  try {
    return await pageWith(ix, q, leaves, analyzer, opts, scratch);
  } finally {
    release(ix, scratch);
  }
}

function positiveLeaves(q: ParsedQuery) {
  return q.leaves.filter((l) => q.clauses.some((c) => c.alts.some((a) => (a.kind === 'prefix') === l.prefix && a.terms.includes(l.term))));
}

/** One field's postings of a term into the term's pseudo-frequencies; returns the new count of notes with the term. */
function accumulate(ix: InvertedIndex, term: number, f: number, avg: number, sc: Scratch, n: number): number {
  const c = ix.store.open(term * NF + f, cursor);
  const { termAcc, termDocs, fieldMask } = sc;
  const { live, lengths } = ix;
  const w = RANKING.fieldWeight[f];
  const b = RANKING.fieldB[f];
  const fbit = 1 << f;
  while (c.next()) {
    const doc = c.doc;
    if (!live[doc]) continue; // removed, not yet vacuumed
    if (termAcc[doc] === 0) termDocs[n++] = doc;
    termAcc[doc] += (w * c.tf) / (1 - b + (b * lengths[doc * NF + f]) / avg);
    fieldMask[doc] |= fbit;
  }
  return n;
}

/** Per page row, the expanded terms its note contains (in `expanded` order): one pass over each term's lists, up to the page's highest note. */
function termsOnPage(ix: InvertedIndex, page: readonly number[], expanded: readonly { leaf: number; term: string; id: number }[], has: (doc: number, leaf: number) => boolean): Set<string>[] {
  const found = page.map(() => new Set<string>());
  const row = new Map<number, number>();
  page.forEach((doc, i) => row.set(doc, i));
  for (const e of expanded) {
    let top = -1;
    for (let i = 0; i < page.length; i++) if (has(page[i], e.leaf) && !found[i].has(e.term)) top = Math.max(top, page[i]);
    if (top < 0) continue;
    for (let f = 0; f < NF; f++) {
      const c = ix.store.open(e.id * NF + f, cursor);
      while (c.next() && c.doc <= top) {
        const i = row.get(c.doc);
        if (i !== undefined && has(c.doc, e.leaf)) found[i].add(e.term);
      }
    }
  }
  return found;
}

/** One cursor for every list read here (queries run one at a time between awaits, each read finishes before the next). */
const cursor = new PostingCursor();

/** A term's saturated, idf-weighted contribution into the scores; returns the new touched count. */
function flush(sc: Scratch, n: number, weight: number, word: number, bit: number, nt: number): number {
  const { termAcc, termDocs, scores, leafMask, seen, touched, W } = sc;
  const k1 = RANKING.k1;
  for (let j = 0; j < n; j++) {
    const doc = termDocs[j];
    const x = termAcc[doc];
    termAcc[doc] = 0;
    if (!seen[doc]) { seen[doc] = 1; touched[nt++] = doc; }
    scores[doc] += (weight * (x * (k1 + 1))) / (x + k1);
    leafMask[doc * W + word] |= bit;
  }
  return nt;
}

async function pageWith(ix: InvertedIndex, q: ParsedQuery, leaves: ParsedQuery['leaves'], analyzer: Analyzer, opts: PageOptions, scratch: Scratch): Promise<QueryPage> {
  const none: QueryPage = { hits: [], total: 0, totalAll: 0, offset: 0 };
  const L = leaves.length;
  const W = scratch.W;
  const { scores, fieldMask, leafMask, matchedAll, touched } = scratch;
  const N = ix.documentCount;
  const avg = FIELDS.map((_, f) => ix.averageLength(f));
  const expanded: { leaf: number; term: string; id: number }[] = [];
  let nt = 0;
  let n = 0; // notes of the term being read (its sums in termAcc until flushed)
  try {
    for (let li = 0; li < L; li++) {
      const l = leaves[li];
      const word = li >> 5;
      const bit = 1 << (li & 31);
      for (const e of expansions(ix, l.term, l.prefix)) {
        expanded.push({ leaf: li, term: e.term, id: e.id });
        // A pause offer after each field's list: a word in every note has a 100k-posting list in more than one field.
        for (let f = 0; f < NF; f++) {
          if (!ix.store.has(e.id * NF + f)) continue;
          n = accumulate(ix, e.id, f, avg[f], scratch, n);
          const wait = opts.pause?.(); if (wait) await wait;
        }
        if (n) nt = flush(scratch, n, e.weight * l.weight * idf(N, n), word, bit, nt);
        n = 0;
        const wait = opts.pause?.(); if (wait) await wait;
      }
    }
  } finally {
    scratch.n = nt; // so the entries are cleared even if this throws
    for (let i = 0; i < n; i++) scratch.termAcc[scratch.termDocs[i]] = 0; // termAcc is zero between terms
  }
  if (!nt) return none;
  // Exclusions: notes containing any excluded alt.
  let excluded: Set<number> | null = null;
  if (q.excluded.length) {
    excluded = new Set();
    for (const alt of q.excluded) for (const doc of altDocs(ix, alt)) excluded.add(doc);
  }
  // Clauses as leaf indexes.
  const leafIndex = new Map<string, number>();
  leaves.forEach((l, i) => leafIndex.set(`${l.prefix ? 'p' : 't'}:${l.term}`, i));
  const clauses = q.clauses.map((c) => c.alts.map((a) => ({ alt: a, leaves: a.terms.map((t) => leafIndex.get(`${a.kind === 'prefix' ? 'p' : 't'}:${t}`) ?? -1) })));
  const simple = W === 1 && clauses.every((c) => c.length === 1 && c[0].alt.kind !== 'phrase' && c[0].leaves.every((li) => li >= 0));
  let simpleMask = 0;
  if (simple) for (const c of clauses) for (const li of c[0].leaves) simpleMask |= 1 << li;
  simpleMask >>>= 0;
  const has = (doc: number, li: number) => li >= 0 && (leafMask[doc * W + (li >> 5)] & (1 << (li & 31))) !== 0;
  const phraseAlts = q.clauses.flatMap((c) => c.alts).filter((a) => a.kind === 'phrase');
  const tLeaves = titleLeaves(q);
  const candBuf = scratch.cands;
  let nc = 0;
  // A full match's phrase groups (the clauses only its phrases satisfy): false when not a full match,
  // null when no phrase needs checking. Made again for the few notes whose text is read, not kept for
  // every candidate (a Map of 100k arrays for a phrase of common words, outliving the query's scavenges).
  const phraseGroups = (doc: number): Alt[][] | null | false => {
    let groups: Alt[][] | null = null;
    for (const c of clauses) {
      const ok: Alt[] = [];
      for (const a of c) if (a.leaves.every((li) => has(doc, li))) ok.push(a.alt);
      if (!ok.length) return false;
      if (ok.every((a) => a.kind === 'phrase')) (groups ??= []).push(ok);
    }
    return groups;
  };
  // The full matches that need a phrase check, in candidate order.
  const needs = phraseAlts.length ? new Int32Array(nt) : null;
  let nNeeds = 0;
  const accept = opts.accept;
  for (let ti = 0; ti < nt; ti++) {
    if ((ti & 1023) === 1023) { const wait = opts.pause?.(); if (wait) await wait; }
    const doc = touched[ti];
    if (excluded?.has(doc)) continue;
    if (accept && !accept(ix.paths[doc]!)) continue;
    let all = true;
    if (simple) {
      // One word alt per clause, at most 32 leaves: every clause's bits present.
      all = ((leafMask[doc] & simpleMask) >>> 0) === simpleMask;
    } else {
      const groups = phraseGroups(doc);
      all = groups !== false;
      if (groups && needs) needs[nNeeds++] = doc;
    }
    if (all) matchedAll[doc] = 1;
    candBuf[nc++] = doc;
  }
  const cands = candBuf.subarray(0, nc);
  // Title bonus: the best match over the note's title forms and aliases.
  let cache = titleCache.get(ix);
  // Remade when the analyzer changed, or when replaced notes' entries outweigh the live ones.
  if (!cache || cache.analyzer !== analyzer || cache.size > 32 * (ix.documentCount + 1024)) titleCache.set(ix, cache = new TitleTermCache(ix, analyzer));
  const titleOrAlias = (1 << TITLE) | (1 << ALIASES);
  const titleBonus = (doc: number) => {
    const fm = fieldMask[doc];
    if (!(fm & titleOrAlias)) return;
    let best = 0;
    if (fm & (1 << TITLE)) best = cache.bestMatch(doc, tLeaves);
    if (fm & (1 << ALIASES) && ix.aliases[doc]) for (const a of ix.aliases[doc].split('\n')) best = Math.max(best, titleMatchOf(titleTerms(a, analyzer), tLeaves));
    scores[doc] *= titleFactor(best);
  };
  const want = opts.limit ?? Infinity;
  if (!Number.isFinite(want) || opts.after || phraseAlts.length || want >= cands.length) {
    for (let i = 0; i < nc; i++) {
      titleBonus(cands[i]);
      if ((i & 63) === 63) { const wait = opts.pause?.(); if (wait) await wait; }
    }
  } else {
    // Each pass below goes over every candidate (100k for a word in every note: 10-20 ms each), so a
    // slice that is spent ends before it rather than running on through the rest of the query.
    { const wait = opts.pause?.(); if (wait) await wait; }
    await boundedTitleBonus(cands, scratch, want, titleOrAlias, tLeaves.map((l) => leafIndex.get(`${l.prefix ? 'p' : 't'}:${l.term}`) ?? -1), has, titleBonus, opts.pause);
  }
  // Phrases: verify word adjacency on the text of the candidates that need it (bounded).
  if (phraseAlts.length && opts.readText) {
    const need = await phraseReads(needs!.subarray(0, nNeeds), opts.phraseReadCap ?? 200, (x, y) => scores[x] > scores[y] || (scores[x] === scores[y] && ix.paths[x]! < ix.paths[y]!), (doc) => { matchedAll[doc] = 0; }, opts.pause);
    for (const doc of need) {
      // Reads answered at once (in-app, or small files headless) would run every check in one task: 50-70 ms for a phrase of common words on the Hub vault.
      { const wait = opts.pause?.(); if (wait) await wait; }
      if (opts.signal?.aborted) break;
      const text = await opts.readText(ix.paths[doc]!);
      if (text === null || !(await phrasesHold(text, phraseGroups(doc) as Alt[][], analyzer, opts.pause))) matchedAll[doc] = 0;
    }
  } else if (phraseAlts.length) {
    for (let i = 0; i < nNeeds; i++) matchedAll[needs![i]] = 0;
  }
  { const wait = opts.pause?.(); if (wait) await wait; }
  const { page, total, totalAll, offset } = selectPage(cands, scratch, (doc) => ix.paths[doc]!, opts.limit ?? Infinity, opts.after);
  { const wait = opts.pause?.(); if (wait) await wait; }
  const foundBy = termsOnPage(ix, page, expanded, has);
  const hits: Hit[] = page.map((doc, i) => {
    const fields = FIELDS.filter((_, f) => fieldMask[doc] & (1 << f));
    const found = foundBy[i];
    const titles = ix.titles[doc];
    const nl = titles.indexOf('\n');
    return { path: ix.paths[doc]!, title: nl < 0 ? titles : titles.slice(0, nl), score: scores[doc], matchedAll: matchedAll[doc] === 1, fields, terms: [...found] };
  });
  return { hits, total, totalAll, offset };
}

/**
 * The title bonus for just the notes that can still reach the page: a note can only if its best possible
 * score (the bonus at its maximum) is at least the want-th best score before any bonus (a bonus never
 * lowers a score). Full matches rank first, so partial ones matter only when full ones do not fill it.
 */
async function boundedTitleBonus(cands: Int32Array, sc: Scratch, want: number, titleOrAlias: number, tl: number[], has: (doc: number, li: number) => boolean, titleBonus: (doc: number) => void, pause?: Pause): Promise<void> {
  const { scores, matchedAll, fieldMask } = sc;
  const nc = cands.length;
  let nAll = 0;
  for (let i = 0; i < nc; i++) nAll += matchedAll[cands[i]];
  const maxFactor = titleFactor(1);
  const bar = (group: number, k: number) => {
    const top: number[] = []; // k largest base scores, descending
    for (let i = 0; i < nc; i++) {
      const doc = cands[i];
      if (matchedAll[doc] !== group) continue;
      const v = scores[doc];
      if (top.length >= k && v <= top[top.length - 1]) continue;
      let lo = 0;
      let hi = top.length;
      while (lo < hi) { const mid = (lo + hi) >> 1; if (top[mid] >= v) lo = mid + 1; else hi = mid; }
      top.splice(lo, 0, v);
      if (top.length > k) top.pop();
    }
    return top.length < k ? -Infinity : top[top.length - 1];
  };
  const barAll = nAll >= want ? bar(1, want) : -Infinity;
  const barAny = nAll >= want ? Infinity : bar(0, want - nAll);
  // A title term matching a query leaf implies the note matched that leaf, so the share of leaves the
  // note matched at all bounds the title match (and the bonus) from above.
  const bound = (doc: number) => {
    if (!tl.length) return 1;
    let n = 0;
    for (const li of tl) if (li < 0 || has(doc, li)) n++;
    return titleFactor(n / tl.length);
  };
  // Pauses: when no note can be ruled out (a title word in every note's title), every candidate gets
  // its bonus, and the first query fills the title cache: 30 ms, and 300 ms for a first query, at 100k
  // notes. Offered every 16 notes: filling the cache (the analyzer on each title) ran 512 in 25-38 ms,
  // and 64 in 40 ms of a profiled warm load's first query.
  for (let i = 0; i < nc; i++) {
    if ((i & 15) === 15) { const wait = pause?.(); if (wait) await wait; }
    const doc = cands[i];
    const threshold = matchedAll[doc] ? barAll : barAny;
    if (threshold === -Infinity) { titleBonus(doc); continue; }
    const base = scores[doc];
    if (!(fieldMask[doc] & titleOrAlias)) continue;
    if (base * maxFactor < threshold) continue;
    if (base * bound(doc) < threshold) continue;
    titleBonus(doc);
  }
}

/**
 * The notes whose text is read to verify a phrase: the best `cap` in rank order (score, then path); every
 * other one is passed to `unverified`. Picked in one pass with pauses: sorting all of them (100k notes
 * for a phrase of two common words) was a 120-140 ms block at 100k notes.
 */
async function phraseReads(docs: Iterable<number>, cap: number, before: (x: number, y: number) => boolean, unverified: (doc: number) => void, pause?: Pause): Promise<number[]> {
  if (cap > 4096) {
    // A cap this large (a caller reading every note) sorts them all at once; inserting one by one is quadratic.
    const all = [...docs].sort((x, y) => (before(x, y) ? -1 : before(y, x) ? 1 : 0));
    for (const doc of all.slice(cap)) unverified(doc);
    return all.slice(0, cap);
  }
  const top: number[] = [];
  let i = 0;
  for (const doc of docs) {
    if ((++i & 1023) === 0) { const wait = pause?.(); if (wait) await wait; }
    const out = keepTop(top, doc, cap, before);
    if (out >= 0) unverified(out);
  }
  return top;
}
