// The MiniSearch index: one document per note, fields title / aliases / headings / tags / body with
// per-field boosts, and the query execution (AND rows first, then partial rows, exclusions, phrases).
// Pure of I/O except through the `readText` callback used to verify phrases.
import MiniSearch from 'minisearch';
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
  for (const docs of fieldMap.values()) n = Math.max(n, liveSize(ms, docs));
  return n;
}

/**
 * Live notes in a posting list. Until the vacuum (vacuum.ts) a list still holds the notes replaced or
 * deleted since, and counting them would skew BM25's idf, even below zero for common words after many
 * edits (so answers would differ from the same index reloaded). Counted only while there is dirt.
 */
function liveSize(ms: MiniSearch<IndexedDoc>, postings: Map<number, number>): number {
  const ix = ms as unknown as { _dirtCount: number; _documentIds: Map<number, string> };
  if (!ix._dirtCount) return postings.size;
  const packed = (postings as { pairs?: Uint32Array | null }).pairs;
  let n = 0;
  if (packed) { for (let i = 0; i < packed.length; i += 2) if (ix._documentIds.has(packed[i])) n++; return n; }
  for (const d of postings.keys()) if (ix._documentIds.has(d)) n++;
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
    // The service vacuums in time slices itself (vacuum.ts): MiniSearch's batches held the thread 100+ ms.
    autoVacuum: false,
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

/**
 * MiniSearch's add() (same ids, field lengths, stored fields and term frequencies), but each distinct
 * term of a field is looked up in the term tree once with its count, not once per occurrence.
 */
export function addDoc(ms: MiniSearch<IndexedDoc>, doc: IndexedDoc, analyzer: Analyzer): void {
  const steps = addDocSteps(ms, doc, analyzer);
  while (!steps.next().done) { /* all at once */ }
}

/**
 * addDoc as steps, for a caller that gives the event loop turns between them (service.ts): a long note
 * (the Hub vault has 300 KB ones; notes up to 5 MB are indexed) is analysed in pieces of about 32 KB cut
 * at white space (no word spans white space, so the terms are the same) and its terms are inserted a few
 * thousand postings at a time. The note is registered only after its analysis, so until the last step
 * a query may see it partly indexed; the caller keeps saves out until the steps are done.
 */
export function* addDocSteps(ms: MiniSearch<IndexedDoc>, doc: IndexedDoc, analyzer: Analyzer): Generator<void, void> {
  const ix = ms as unknown as {
    _idToShortId: Map<string, number>;
    _fieldIds: Record<string, number>;
    _documentCount: number;
    _index: { fetch(t: string, make: () => Map<number, Map<number, number>>): Map<number, Map<number, number>> };
    addDocumentId(id: string): number;
    saveStoredFields(short: number, doc: IndexedDoc): void;
    addFieldLength(short: number, fieldId: number, count: number, length: number): void;
  };
  if (ix._idToShortId.has(doc.id)) throw new Error(`MiniSearch: duplicate ID ${doc.id}`);
  const fields: [number, Map<string, number>][] = [];
  for (const field of FIELDS) {
    const value = doc[field];
    if (value == null) continue;
    const counts = new Map<string, number>();
    for (const piece of textPieces(String(value))) {
      for (const t of terms(piece, analyzer, !!KEEP_STOP[field])) counts.set(t, (counts.get(t) ?? 0) + 1);
      yield;
    }
    fields.push([ix._fieldIds[field], counts]);
  }
  if (ix._idToShortId.has(doc.id)) throw new Error(`MiniSearch: duplicate ID ${doc.id}`);
  const short = ix.addDocumentId(doc.id);
  ix.saveStoredFields(short, doc);
  for (const [fid, counts] of fields) ix.addFieldLength(short, fid, ix._documentCount - 1, counts.size);
  let work = 0;
  for (const [fid, counts] of fields) {
    for (const [t, n] of counts) {
      if (!t) continue;
      const data = ix._index.fetch(t, newFieldMap);
      let postings = data.get(fid);
      if (!postings) { postings = new Map(); data.set(fid, postings); }
      // A packed list (persist.ts) becomes a Map at its first change: that costs its length.
      work += 1 + ((postings as { pairs?: Uint32Array | null }).pairs?.length ?? 0) / 2;
      postings.set(short, (postings.get(short) ?? 0) + n);
      if (work > 4096) { work = 0; changed.add(ms); yield; }
    }
  }
  changed.add(ms);
}

/** A text in pieces of about `size` characters, each cut just before a white-space character. */
function* textPieces(text: string, size = 32_768): Generator<string> {
  if (text.length <= size) { yield text; return; }
  const space = /\s/g;
  let at = 0;
  while (at < text.length) {
    space.lastIndex = Math.min(text.length, at + size);
    const m = space.exec(text);
    const end = m ? m.index : text.length;
    yield text.slice(at, end);
    at = end;
  }
}
const newFieldMap = () => new Map<number, Map<number, number>>();



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
  const internals = ms as unknown as { _fieldLength: Map<number, number[]>; _avgFieldLength: number[]; _fieldIds: Record<string, number>; _nextId: number };
  const nf = FIELDS.length;
  const sums = new Array<number>(nf).fill(0);
  const counts = new Array<number>(nf).fill(0);
  // The same pass fills the flat per-note field lengths the query loop reads (0 = not a live note).
  const lengthsOf = new Uint32Array(internals._nextId * nf);
  const live = new Uint8Array(internals._nextId);
  for (const [doc, lengths] of internals._fieldLength) {
    live[doc] = 1;
    for (let f = 0; f < lengths.length; f++) { const l = lengths[f]; if (l) { sums[f] += l; counts[f]++; if (f < nf) lengthsOf[doc * nf + f] = l; } }
  }
  for (const name of FIELDS) {
    const f = internals._fieldIds[name];
    if (f !== undefined && counts[f]) internals._avgFieldLength[f] = sums[f] / counts[f];
  }
  flat.set(ms, { lengths: lengthsOf, live, count: (ms as unknown as Internals)._documentIds.size, nextId: internals._nextId });
}

/** Per index: field lengths as one flat array (note × field) and which short ids are live notes. */
const flat = new WeakMap<MiniSearch<IndexedDoc>, { lengths: Uint32Array; live: Uint8Array; count: number; nextId: number }>();
/** Per index: analyzed title terms by short id (a short id always names the same note version). */
const titlesById = new WeakMap<MiniSearch<IndexedDoc>, (string[] | undefined)[]>();

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

interface Internals {
  _index: { get(t: string): Map<number, Map<number, number>> | undefined; atPrefix(p: string): Iterable<[string, Map<number, Map<number, number>>]> };
  _documentIds: Map<number, string>;
  _fieldLength: Map<number, number[]>;
  _avgFieldLength: number[];
  _fieldIds: Record<string, number>;
  _storedFields: Map<number, Record<string, unknown> | undefined>;
  _documentCount: number;
  _nextId: number;
}

/** MiniSearch's prefix weighting: an expansion counts less the longer it is than the prefix. */
const PREFIX_WEIGHT = 0.375;

/** Index terms a leaf stands for: the term itself, plus (prefix leaves) every longer indexed term starting with it. */
function expansions(ix: Internals, term: string, prefix: boolean): { term: string; weight: number; data: Map<number, Map<number, number>> }[] {
  const out: { term: string; weight: number; data: Map<number, Map<number, number>> }[] = [];
  const exact = ix._index.get(term);
  if (exact) out.push({ term, weight: 1, data: exact });
  if (prefix) {
    for (const [t, data] of ix._index.atPrefix(term)) {
      const distance = t.length - term.length;
      if (!distance) continue;
      out.push({ term: t, weight: (PREFIX_WEIGHT * t.length) / (t.length + 0.3 * distance), data });
    }
  }
  return out;
}

/** Notes (short ids) containing every term of an alt, in any field. */
function altDocs(ix: Internals, alt: Alt): Set<number> {
  let acc: Set<number> | null = null;
  for (const t of alt.terms) {
    const docs = new Set<number>();
    for (const e of expansions(ix, t, alt.kind === 'prefix')) for (const fm of e.data.values()) for (const d of fm.keys()) if (!acc || acc.has(d)) docs.add(d);
    acc = docs;
    if (!acc.size) break;
  }
  return acc ?? new Set();
}

/** Title / alias term lists, cached per analyzer (a note's title is re-analyzed once, not per query). */
const titleTermCache = new WeakMap<Analyzer, Map<string, string[]>>();
function titleTerms(title: string, analyzer: Analyzer): string[] {
  let m = titleTermCache.get(analyzer);
  if (!m) { m = new Map(); titleTermCache.set(analyzer, m); }
  let tt = m.get(title);
  if (!tt) {
    tt = [...new Set(terms(title, analyzer))];
    if (m.size >= 400_000) m.clear();
    m.set(title, tt);
  }
  return tt;
}

/** titleMatch with the query's leaves worked out once (same result). */
function titleMatchFast(tt: string[], leaves: { term: string; prefix: boolean }[]): number {
  if (!tt.length || !leaves.length) return 0;
  let qHit = 0;
  let tHit = 0;
  const seen = tt.length <= 31 ? null : new Set<number>();
  let mask = 0;
  for (const l of leaves) {
    let found = false;
    for (let i = 0; i < tt.length; i++) {
      const t = tt[i];
      if (l.prefix ? t.startsWith(l.term) : t === l.term) {
        found = true;
        if (seen) { if (!seen.has(i)) { seen.add(i); tHit++; } } else if (!(mask & (1 << i))) { mask |= 1 << i; tHit++; }
      }
    }
    if (found) qHit++;
  }
  return (qHit / leaves.length) * (tHit / tt.length);
}

/** Sort position of a hit relative to a cursor: full matches first, then score descending, then path. */
export interface HitKey { matchedAll: boolean; score: number; path: string }

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

/** Every matching note, ranked (AND rows first, then partial rows). */
export async function runQuery(ms: MiniSearch<IndexedDoc>, q: ParsedQuery, analyzer: Analyzer, opts: SearchOptions = {}): Promise<Hit[]> {
  return (await runQueryPage(ms, q, analyzer, opts)).hits;
}

/**
 * Scores every note that has a query term straight from MiniSearch's postings (the same BM25 per field,
 * boosts, prefix weights and per-term boosts MiniSearch's own OR search applies), into flat arrays:
 * no per-match objects. Only the requested page is selected (not the whole list sorted) and turned
 * into Hit rows, so a query matching most of a large vault costs one pass over its postings.
 */
export async function runQueryPage(ms: MiniSearch<IndexedDoc>, q: ParsedQuery, analyzer: Analyzer, opts: PageOptions = {}): Promise<QueryPage> {
  if (!q.clauses.length) return { hits: [], total: 0, totalAll: 0, offset: 0 };
  if (!flat.has(ms)) changed.add(ms);
  const ix = ms as unknown as Internals;
  // Notes added or discarded straight through MiniSearch (not addDoc / markChanged) also re-derive.
  const f0 = flat.get(ms);
  if (f0 && (f0.count !== ix._documentIds.size || f0.nextId !== ix._nextId)) changed.add(ms);
  fixAverageFieldLengths(ms);
  const nPositive = q.leaves.filter((l) => q.clauses.some((c) => c.alts.some((a) => (a.kind === 'prefix') === l.prefix && a.terms.includes(l.term)))).length;
  const scratch = takeScratch(ms, ix._nextId, Math.max(1, Math.ceil(nPositive / 32)));
  try {
    return await pageWith(ms, q, analyzer, opts, scratch);
  } finally {
    releaseScratch(ms, scratch);
  }
}

/**
 * Per-note accumulators of one query, kept between queries (a 100k-note vault would otherwise allocate
 * megabytes of typed arrays per query, and the garbage collector's pauses showed up as p99 latency).
 * Only the entries of the notes a query touched are cleared afterwards. A query that starts while
 * another is still running (phrase reads await) gets arrays of its own.
 */
interface Scratch {
  size: number;
  /** Words of leafMask per note (stride). */
  W: number;
  scores: Float64Array;
  fieldMask: Uint8Array;
  leafMask: Uint32Array;
  matchedAll: Uint8Array;
  /** Notes touched by the query (first n entries), then the candidates (first nc entries of cands). */
  touched: Int32Array;
  n: number;
  cands: Int32Array;
  busy: boolean;
}
const scratchOf = new WeakMap<MiniSearch<IndexedDoc>, Scratch>();

function takeScratch(ms: MiniSearch<IndexedDoc>, size: number, W: number): Scratch {
  let s = scratchOf.get(ms);
  if (!s || s.busy || s.size < size) {
    const cap = Math.max(size, s && !s.busy ? s.size : 0);
    s = {
      size: cap, W,
      scores: new Float64Array(cap), fieldMask: new Uint8Array(cap), leafMask: new Uint32Array(cap * W), matchedAll: new Uint8Array(cap),
      touched: new Int32Array(cap), n: 0, cands: new Int32Array(cap), busy: false,
    };
    const cur = scratchOf.get(ms);
    if (!cur || !cur.busy) scratchOf.set(ms, s);
  }
  // leafMask's stride is the query's word count (all zero between queries, so any stride reads clean).
  if (s.leafMask.length < s.size * W) s.leafMask = new Uint32Array(s.size * W);
  s.W = W;
  s.busy = true;
  s.n = 0;
  return s;
}

function releaseScratch(ms: MiniSearch<IndexedDoc>, s: Scratch): void {
  const { touched, scores, fieldMask, leafMask, matchedAll, W } = s;
  for (let i = 0; i < s.n; i++) {
    const doc = touched[i];
    scores[doc] = 0;
    fieldMask[doc] = 0;
    matchedAll[doc] = 0;
    for (let w = 0; w < W; w++) leafMask[doc * W + w] = 0;
  }
  s.n = 0;
  s.busy = false;
  void ms;
}

/**
 * One posting list's BM25 contributions into the query's accumulators (kept out of the async query
 * function so the optimizing compiler takes these loops on their own); returns the new touched count.
 */
function addPacked(p: Uint32Array, live: Uint8Array, lens: Uint32Array, NF: number, fid: number, avg: number, wi: number, fbit: number, W: number, word: number, bit: number, sc: Scratch, nt: number): number {
  const { scores, fieldMask, leafMask, touched } = sc;
  const { k, b, d } = BM25;
  for (let i = 0; i < p.length; i += 2) {
    const doc = p[i];
    if (!live[doc]) continue; // discarded, not yet vacuumed
    const tf = p[i + 1];
    if (!fieldMask[doc]) touched[nt++] = doc;
    scores[doc] += wi * (d + (tf * (k + 1)) / (tf + k * (1 - b + (b * lens[doc * NF + fid]) / avg)));
    fieldMask[doc] |= fbit;
    leafMask[doc * W + word] |= bit;
  }
  return nt;
}

function addPostings(postings: Map<number, number>, live: Uint8Array, lens: Uint32Array, NF: number, fid: number, avg: number, wi: number, fbit: number, W: number, word: number, bit: number, sc: Scratch, nt: number): number {
  const { scores, fieldMask, leafMask, touched } = sc;
  const { k, b, d } = BM25;
  for (const [doc, tf] of postings) {
    if (!live[doc]) continue;
    if (!fieldMask[doc]) touched[nt++] = doc;
    scores[doc] += wi * (d + (tf * (k + 1)) / (tf + k * (1 - b + (b * lens[doc * NF + fid]) / avg)));
    fieldMask[doc] |= fbit;
    leafMask[doc * W + word] |= bit;
  }
  return nt;
}

async function pageWith(ms: MiniSearch<IndexedDoc>, q: ParsedQuery, analyzer: Analyzer, opts: PageOptions, scratch: Scratch): Promise<QueryPage> {
  const none: QueryPage = { hits: [], total: 0, totalAll: 0, offset: 0 };
  const ix = ms as unknown as Internals;
  const { lengths: lens, live } = flat.get(ms)!;
  const NF = FIELDS.length;
  let titleCache = titlesById.get(ms);
  if (!titleCache) { titleCache = []; titlesById.set(ms, titleCache); }
  const positiveLeaves = q.leaves.filter((l) => q.clauses.some((c) => c.alts.some((a) => (a.kind === 'prefix') === l.prefix && a.terms.includes(l.term))));
  const L = positiveLeaves.length;
  const W = scratch.W;
  const { scores, fieldMask, leafMask, matchedAll, touched } = scratch;
  let nt = 0;
  const N = ix._documentCount;
  const fieldIds = FIELDS.map((f) => ix._fieldIds[f]);
  const expanded: { leaf: number; term: string; data: Map<number, Map<number, number>> }[] = [];
  try {
    for (let li = 0; li < L; li++) {
      const l = positiveLeaves[li];
      const boostTerm = (l.weight > 1 ? l.weight ** SCORING.qtf : 1) * (l.prefix ? 1 : idfScale(ms, l.term));
      const word = li >> 5;
      const bit = 1 << (li & 31);
      for (const e of expansions(ix, l.term, l.prefix)) {
        expanded.push({ leaf: li, term: e.term, data: e.data });
        for (let f = 0; f < FIELDS.length; f++) {
          const fid = fieldIds[f];
          const postings = e.data.get(fid);
          if (!postings) continue;
          const n = liveSize(ms, postings);
          const idf = Math.log(1 + (N - n + 0.5) / (n + 0.5));
          const avg = ix._avgFieldLength[fid];
          const w = e.weight * boostTerm * BOOSTS[FIELDS[f]];
          const wi = w * idf; // (w * idf) * x is how w * idf * x evaluates: same bits
          const fbit = 1 << f;
          // The same sum for both posting forms (packed pairs or a Map), no per-posting closure call.
          const packed = (postings as { pairs?: Uint32Array | null }).pairs;
          nt = packed
            ? addPacked(packed, live, lens, NF, fid, avg, wi, fbit, W, word, bit, scratch, nt)
            : addPostings(postings, live, lens, NF, fid, avg, wi, fbit, W, word, bit, scratch, nt);
        }
      }
    }
  } finally {
    scratch.n = nt; // so the entries are cleared even if this throws
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
  positiveLeaves.forEach((l, i) => leafIndex.set(leafKey(l.term, l.prefix), i));
  const clauses = q.clauses.map((c) => c.alts.map((a) => ({ alt: a, leaves: a.terms.map((t) => leafIndex.get(leafKey(t, a.kind === 'prefix')) ?? -1) })));
  const simple = W === 1 && clauses.every((c) => c.length === 1 && c[0].alt.kind !== 'phrase' && c[0].leaves.every((li) => li >= 0));
  let simpleMask = 0;
  if (simple) for (const c of clauses) for (const li of c[0].leaves) simpleMask |= 1 << li;
  simpleMask >>>= 0;
  const has = (doc: number, li: number) => li >= 0 && (leafMask[doc * W + (li >> 5)] & (1 << (li & 31))) !== 0;
  const phraseAlts = q.clauses.flatMap((c) => c.alts).filter((a) => a.kind === 'phrase');
  const titleLeaves = q.leaves.filter((l) => q.clauses.some((c) => c.alts.some((a) => a.terms.includes(l.term))));
  const titleOrAlias = (1 << FIELDS.indexOf('title')) | (1 << FIELDS.indexOf('aliases'));
  const titleBit = 1 << FIELDS.indexOf('title');
  const aliasBit = 1 << FIELDS.indexOf('aliases');
  const candBuf = scratch.cands;
  let nc = 0;
  const phraseNeeds = new Map<number, Alt[][]>();
  const accept = opts.accept;
  for (let ti = 0; ti < nt; ti++) {
    const doc = touched[ti];
    if (excluded?.has(doc)) continue;
    if (accept) {
      const path = ix._documentIds.get(doc);
      if (path === undefined || !accept(path)) continue;
    }
    let all = true;
    let phraseCheck: Alt[][] | null = null;
    if (simple) {
      // One word alt per clause, at most 32 leaves: every clause's bits present.
      all = ((leafMask[doc] & simpleMask) >>> 0) === simpleMask;
    } else {
      for (const c of clauses) {
        const ok: Alt[] = [];
        for (const a of c) if (a.leaves.every((li) => has(doc, li))) ok.push(a.alt);
        if (!ok.length) { all = false; break; }
        if (ok.every((a) => a.kind === 'phrase')) (phraseCheck ??= []).push(ok);
      }
    }
    if (SCORING.coord) {
      // Coordination bonus per extra matched query term (0 by default).
      let n = 0;
      for (let li = 0; li < L; li++) if (has(doc, li)) n++;
      scores[doc] *= 1 + SCORING.coord * (Math.max(1, n) - 1);
    }
    if (all) matchedAll[doc] = 1;
    if (all && phraseCheck) phraseNeeds.set(doc, phraseCheck);
    candBuf[nc++] = doc;
  }
  const cands = candBuf.subarray(0, nc);
  // Title / alias bonus: score × (1 + titleBonus × match³), match ≤ 1.
  const titleBonus = (doc: number) => {
    const fm = fieldMask[doc];
    if (!(fm & titleOrAlias)) return;
    const path = ix._documentIds.get(doc)!;
    let best = fm & titleBit ? titleMatchFast(titleCache[doc] ??= [...new Set(terms(noteTitle(path), analyzer))], titleLeaves) : 0;
    if (fm & aliasBit) {
      const aliases = ix._storedFields.get(doc)?.aliases;
      if (typeof aliases === 'string') for (const a of aliases.split('\n')) best = Math.max(best, titleMatchFast(titleTerms(a, analyzer), titleLeaves));
    }
    scores[doc] *= 1 + SCORING.titleBonus * best ** SCORING.titlePower;
  };
  const want = opts.limit ?? Infinity;
  if (!Number.isFinite(want) || opts.after || phraseAlts.length || SCORING.titleBonus < 0 || want >= cands.length) {
    for (let i = 0; i < nc; i++) titleBonus(cands[i]);
  } else {
    // Only the page is needed: a note can reach it only if its best possible score (the bonus at its
    // maximum) is at least the want-th best score before any bonus (a bonus never lowers a score).
    // Full matches rank first, so the partial ones matter only when the full ones do not fill the page.
    let nAll = 0;
    for (let i = 0; i < nc; i++) nAll += matchedAll[cands[i]];
    const maxFactor = 1 + SCORING.titleBonus;
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
    const tl = titleLeaves.map((l) => leafIndex.get(leafKey(l.term, l.prefix)) ?? -1);
    const bound = (doc: number) => {
      if (!tl.length) return 1;
      let n = 0;
      for (const li of tl) if (li < 0 || has(doc, li)) n++;
      return 1 + SCORING.titleBonus * (n / tl.length) ** SCORING.titlePower;
    };
    for (let i = 0; i < nc; i++) {
      const doc = cands[i];
      const threshold = matchedAll[doc] ? barAll : barAny;
      if (threshold === -Infinity) { titleBonus(doc); continue; }
      const base = scores[doc];
      if (!(fieldMask[doc] & titleOrAlias)) continue;
      if (base * maxFactor < threshold) continue;
      if (SCORING.titlePower >= 0 && base * bound(doc) < threshold) continue;
      titleBonus(doc);
    }
  }
  // Phrases: verify word adjacency on the text of the candidates that need it (bounded).
  if (phraseAlts.length && opts.readText) {
    let budget = opts.phraseReadCap ?? 200;
    const need = [...phraseNeeds.keys()].sort((x, y) => scores[y] - scores[x]);
    for (const doc of need) {
      if (opts.signal?.aborted) break;
      if (budget-- <= 0) { matchedAll[doc] = 0; continue; }
      const text = await opts.readText(ix._documentIds.get(doc)!);
      if (text === null || !phraseNeeds.get(doc)!.every((alts) => alts.some((a) => containsPhrase(text, a, analyzer)))) matchedAll[doc] = 0;
    }
  } else if (phraseAlts.length) {
    for (const doc of phraseNeeds.keys()) matchedAll[doc] = 0;
  }
  let totalAll = 0;
  for (let i = 0; i < nc; i++) totalAll += matchedAll[cands[i]];
  // Rank order: full matches first, then score descending, then path.
  const pathOf = (doc: number) => ix._documentIds.get(doc)!;
  const before = (x: number, y: number) => {
    if (matchedAll[x] !== matchedAll[y]) return matchedAll[x] > matchedAll[y];
    if (scores[x] !== scores[y]) return scores[x] > scores[y];
    return pathOf(x) < pathOf(y);
  };
  const cmp = (x: number, y: number) => (before(x, y) ? -1 : before(y, x) ? 1 : 0);
  let pool = cands;
  const a = opts.after;
  if (a) {
    const g = a.matchedAll ? 1 : 0;
    pool = cands.filter((doc) => matchedAll[doc] !== g ? matchedAll[doc] < g : scores[doc] !== a.score ? scores[doc] < a.score : pathOf(doc) > a.path);
  }
  const limit = opts.limit ?? Infinity;
  let page: number[];
  if (limit >= pool.length) page = Array.from(pool).sort(cmp);
  else {
    // Top `limit` by insertion into a short sorted list: most candidates are rejected by one comparison.
    page = [];
    for (let i = 0; i < pool.length; i++) {
      const doc = pool[i];
      if (page.length >= limit && !before(doc, page[page.length - 1])) continue;
      let lo = 0;
      let hi = page.length;
      while (lo < hi) { const mid = (lo + hi) >> 1; if (before(doc, page[mid])) hi = mid; else lo = mid + 1; }
      page.splice(lo, 0, doc);
      if (page.length > limit) page.pop();
    }
  }
  const hits: Hit[] = page.map((doc) => {
    const fields = FIELDS.filter((_, f) => fieldMask[doc] & (1 << f));
    const found = new Set<string>();
    for (const e of expanded) {
      if (!has(doc, e.leaf) || found.has(e.term)) continue;
      for (const pm of e.data.values()) if (pm.has(doc)) { found.add(e.term); break; }
    }
    return { path: pathOf(doc), score: scores[doc], matchedAll: matchedAll[doc] === 1, fields, terms: [...found] };
  });
  return { hits, total: cands.length, totalAll, offset: cands.length - pool.length };
}
