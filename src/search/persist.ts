// The keyword index on disk, compactly: two JSON lines (the service's header, then the index's small
// parts: document ids, term list, aliases) followed by the postings and field lengths as one
// little-endian Uint32 array. Loading builds MiniSearch's maps straight from the array, without the
// per-posting objects and string keys of MiniSearch's own JSON (toJSON / loadJSON), which made
// warm starts parse and convert several times more data.
//
//   <header JSON>\n<meta JSON>\n<0–3 spaces to a 4-byte boundary><u32 …>
//   u32 part: for each document (meta.ids order) its FIELDS lengths; then for each term (meta.terms
//   order): field count, then per field: field id, posting count, then (short id, term frequency) pairs.
import MiniSearch from 'minisearch';
import type { Analyzer } from './analyzer.js';
import { FIELDS, miniSearchOptions, markChanged, type IndexedDoc } from './keywordIndex.js';
import { setTimeout } from 'node:timers';

interface Meta {
  format: 1;
  documentCount: number;
  nextId: number;
  fieldIds: Record<string, number>;
  averageFieldLength: number[];
  dirtCount: number;
  /** Short id and external id (path) of every document. */
  ids: number[];
  paths: string[];
  /** [short id, aliases] for documents with aliases. */
  aliases: [number, string][];
  terms: string[];
}

interface Internals {
  _index: Iterable<[string, Map<number, Map<number, number>>]> & { set(t: string, v: Map<number, Map<number, number>>): void };
  _documentIds: Map<number, string>;
  _idToShortId: Map<string, number>;
  _fieldLength: Map<number, number[]>;
  _storedFields: Map<number, Record<string, unknown> | undefined>;
  _documentCount: number;
  _nextId: number;
  _fieldIds: Record<string, number>;
  _avgFieldLength: number[];
  _dirtCount: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8');
const NO_FIELDS: Record<string, unknown> = Object.freeze({});

/**
 * A posting list (short id → term frequency) read from the file and kept packed: a view of the file's
 * Uint32 array, pairs sorted by short id. It behaves as the Map MiniSearch expects and turns itself
 * into a real Map on the first change, so loading builds no per-posting entries; the query code reads
 * `pairs` directly while it is packed.
 */
export class PackedPostings extends Map<number, number> {
  pairs: Uint32Array | null;
  constructor(pairs: Uint32Array) {
    super();
    this.pairs = pairs;
  }
  private unpack(): void {
    const p = this.pairs;
    if (!p) return;
    this.pairs = null;
    for (let i = 0; i < p.length; i += 2) super.set(p[i], p[i + 1]);
  }
  private find(doc: number): number {
    const p = this.pairs!;
    let lo = 0;
    let hi = p.length / 2 - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const v = p[mid * 2];
      if (v === doc) return mid * 2;
      if (v < doc) lo = mid + 1; else hi = mid - 1;
    }
    return -1;
  }
  override get size(): number { return this.pairs ? this.pairs.length / 2 : super.size; }
  override has(doc: number): boolean { return this.pairs ? this.find(doc) >= 0 : super.has(doc); }
  override get(doc: number): number | undefined { if (this.pairs) { const i = this.find(doc); return i < 0 ? undefined : this.pairs[i + 1]; } return super.get(doc); }
  override set(doc: number, tf: number): this { this.unpack(); return super.set(doc, tf); }
  override delete(doc: number): boolean { this.unpack(); return super.delete(doc); }
  override clear(): void { this.pairs = null; super.clear(); }
  override keys(): MapIterator<number> { this.unpack(); return super.keys(); }
  override values(): MapIterator<number> { this.unpack(); return super.values(); }
  override entries(): MapIterator<[number, number]> { this.unpack(); return super.entries(); }
  override [Symbol.iterator](): MapIterator<[number, number]> { this.unpack(); return super[Symbol.iterator](); }
  override forEach(fn: (v: number, k: number, m: Map<number, number>) => void, self?: unknown): void { this.unpack(); super.forEach(fn, self); }
}

/** Serializes the header (any JSON value) and the index, in one go (tests, small indexes). */
export function encodeIndex(header: unknown, ms: MiniSearch<IndexedDoc>): Uint8Array {
  const steps = encodeSteps(header, ms);
  for (;;) { const r = steps.next(); if (r.done) return r.value; }
}

/**
 * The same bytes, giving the event loop a turn (`pause`) whenever `sliceMs` has passed: a 6.5k-note
 * index took 300–700 ms to encode in one piece, a frozen app at every save. The caller keeps the index
 * unchanged until this resolves (service.ts holds its updates meanwhile).
 */
export async function encodeIndexSliced(header: unknown, ms: MiniSearch<IndexedDoc>, sliceMs = 12, pause: () => Promise<void> = turn): Promise<Uint8Array> {
  const steps = encodeSteps(header, ms);
  let start = Date.now();
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    if (Date.now() - start > sliceMs) { await pause(); start = Date.now(); }
  }
}

const turn = () => new Promise<void>((r) => setTimeout(r, 0));

/** JSON.stringify for plain data (and Maps, as objects), as pieces, with a step after every few hundred entries of a large
 *  object or array (a 100k-note header is megabytes of JSON). Same text as JSON.stringify. */
function* jsonPieces(v: unknown, out: string[]): Generator<void, void> {
  // A Map is written as an object (what Object.fromEntries would make of it; keys as strings).
  if (v instanceof Map) {
    out.push('{');
    let first = true;
    let i = 0;
    for (const [k, x] of v as Map<unknown, unknown>) {
      if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
      out.push(`${first ? '' : ','}${JSON.stringify(String(k))}:`);
      first = false;
      yield* jsonPieces(x, out);
      if ((++i & 511) === 0) yield;
    }
    out.push('}');
    return;
  }
  if (Array.isArray(v) && v.length > 512) {
    out.push('[');
    for (let i = 0; i < v.length; i++) {
      if (i) out.push(',');
      const item: unknown = v[i];
      out.push(JSON.stringify(item) ?? 'null');
      if ((i & 511) === 511) yield;
    }
    out.push(']');
    return;
  }
  if (v && typeof v === 'object' && !Array.isArray(v) && typeof (v as { toJSON?: unknown }).toJSON !== 'function') {
    const keys = Object.keys(v);
    if (keys.length > 512 || keys.some((k) => { const x = (v as Record<string, unknown>)[k]; return !!x && typeof x === 'object'; })) {
      out.push('{');
      let first = true;
      for (let i = 0; i < keys.length; i++) {
        const x = (v as Record<string, unknown>)[keys[i]];
        if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
        out.push(`${first ? '' : ','}${JSON.stringify(keys[i])}:`);
        first = false;
        yield* jsonPieces(x, out);
        if ((i & 511) === 511) yield;
      }
      out.push('}');
      return;
    }
  }
  out.push(JSON.stringify(v));
}

function* encodeSteps(header: unknown, ms: MiniSearch<IndexedDoc>): Generator<void, Uint8Array> {
  const ix = ms as unknown as Internals;
  const nf = FIELDS.length;
  const ids: number[] = [];
  const paths: string[] = [];
  const aliases: [number, string][] = [];
  let step = 0;
  for (const [short, id] of ix._documentIds) {
    if ((++step & 1023) === 0) yield;
    ids.push(short);
    paths.push(id);
    const a = ix._storedFields.get(short)?.aliases;
    if (typeof a === 'string' && a) aliases.push([short, a]);
  }
  // Count first so the array is allocated once.
  let words = ids.length * nf;
  const terms: string[] = [];
  // Postings of discarded notes (MiniSearch drops them lazily) are left out, so the file has no dirt.
  const docs = ix._documentIds;
  const liveSize = (postings: Map<number, number>) => {
    let n = 0;
    if (postings instanceof PackedPostings && postings.pairs) { const p = postings.pairs; for (let i = 0; i < p.length; i += 2) if (docs.has(p[i])) n++; return n; }
    for (const d of postings.keys()) if (docs.has(d)) n++;
    return n;
  };
  const sizes: number[] = [];
  // A step after about 16k postings (not a fixed number of terms: a common term has one per note).
  let work = 0;
  for (const [term, fields] of ix._index) {
    if (work > 16_384) { work = 0; yield; }
    let live = 0;
    const at = sizes.length;
    for (const postings of fields.values()) { const n = liveSize(postings); sizes.push(n); work += 1 + postings.size; if (n) live++; }
    if (!live) continue;
    terms.push(term);
    words += 1;
    for (let i = at; i < sizes.length; i++) if (sizes[i]) words += 2 + 2 * sizes[i];
  }
  const meta: Meta = {
    format: 1, documentCount: ix._documentCount, nextId: ix._nextId, fieldIds: ix._fieldIds,
    averageFieldLength: ix._avgFieldLength, dirtCount: 0, ids, paths, aliases, terms,
  };
  const text: string[] = [];
  yield* jsonPieces(header, text);
  text.push('\n');
  yield* jsonPieces(meta, text);
  text.push('\n');
  const chunks: Uint8Array[] = [];
  let headLength = 0;
  for (let i = 0; i < text.length; i += 4096) {
    const c = encoder.encode(text.slice(i, i + 4096).join(''));
    chunks.push(c);
    headLength += c.length;
    yield;
  }
  const head = { length: headLength };
  const pad = (4 - (head.length % 4)) % 4;
  const out = new Uint8Array(head.length + pad + words * 4);
  let offset = 0;
  for (const c of chunks) { out.set(c, offset); offset += c.length; }
  out.fill(0x20, head.length, head.length + pad);
  const u = new Uint32Array(out.buffer, head.length + pad, words);
  let w = 0;
  for (const short of ids) {
    if ((++step & 1023) === 0) yield;
    const lengths = ix._fieldLength.get(short) ?? [];
    for (let f = 0; f < nf; f++) u[w++] = lengths[f] ?? 0;
  }
  let si = 0;
  for (const [, fields] of ix._index) {
    if (work > 16_384) { work = 0; yield; }
    const at = si;
    si += fields.size;
    let live = 0;
    for (let i = at; i < si; i++) if (sizes[i]) live++;
    if (!live) continue;
    u[w++] = live;
    let i = at;
    for (const [fid, postings] of fields) {
      const n = sizes[i++];
      work += 1 + postings.size;
      if (!n) continue;
      u[w++] = fid;
      u[w++] = n;
      if (postings instanceof PackedPostings && postings.pairs) {
        const p = postings.pairs; // already sorted
        for (let i = 0; i < p.length; i += 2) if (docs.has(p[i])) { u[w++] = p[i]; u[w++] = p[i + 1]; }
        continue;
      }
      const from = w;
      let sorted = true;
      let last = -1;
      for (const [doc, tf] of postings) if (docs.has(doc)) { u[w++] = doc; u[w++] = tf; if (doc < last) sorted = false; last = doc; }
      if (!sorted) {
        const pairs: [number, number][] = [];
        for (let i = from; i < w; i += 2) pairs.push([u[i], u[i + 1]]);
        pairs.sort((a, b) => a[0] - b[0]);
        for (let i = 0; i < pairs.length; i++) { u[from + 2 * i] = pairs[i][0]; u[from + 2 * i + 1] = pairs[i][1]; }
      }
    }
  }
  if (w !== words) throw new Error(`index encoding wrote ${w} of ${words} words`);
  return out;
}

/** The header line alone (cheap: the caller checks schema and signature before decoding the rest). */
export function decodeHeader(bytes: Uint8Array): { header: unknown; rest: number } {
  const nl = bytes.indexOf(0x0a);
  if (nl < 0) throw new Error('no header line');
  return { header: JSON.parse(decoder.decode(bytes.subarray(0, nl))), rest: nl + 1 };
}

/**
 * Rebuilds the MiniSearch instance from `bytes` (starting at `from`, after the header line). Gives the
 * event loop a turn every `sliceMs` so a large index loads without freezing the app.
 */
export async function decodeIndex(bytes: Uint8Array, from: number, analyzer: Analyzer, sliceMs = 12): Promise<MiniSearch<IndexedDoc>> {
  const nl = bytes.indexOf(0x0a, from);
  if (nl < 0) throw new Error('no index line');
  const meta = JSON.parse(decoder.decode(bytes.subarray(from, nl))) as Meta;
  if (meta.format !== 1 || !Array.isArray(meta.ids) || !Array.isArray(meta.terms) || meta.ids.length !== meta.paths.length) throw new Error('unknown index format');
  let start = nl + 1;
  while (start < bytes.length && bytes[start] === 0x20 && (bytes.byteOffset + start) % 4 !== 0) start++;
  if ((bytes.length - start) % 4 !== 0) throw new Error('truncated index');
  const words = (bytes.length - start) / 4;
  const aligned = (bytes.byteOffset + start) % 4 === 0 ? bytes : bytes.slice(start);
  const u = aligned === bytes ? new Uint32Array(bytes.buffer, bytes.byteOffset + start, words) : new Uint32Array(aligned.buffer, aligned.byteOffset, words);
  const ms = MiniSearch.loadJS<IndexedDoc>({
    documentCount: meta.documentCount, nextId: meta.nextId, documentIds: {}, fieldIds: meta.fieldIds, fieldLength: {},
    averageFieldLength: meta.averageFieldLength, storedFields: {}, dirtCount: meta.dirtCount, index: [], serializationVersion: 2,
  }, miniSearchOptions(analyzer));
  const ix = ms as unknown as Internals;
  const nf = FIELDS.length;
  let w = 0;
  const need = (n: number) => { if (w + n > words) throw new Error('truncated index'); };
  need(meta.ids.length * nf);
  const aliasOf = new Map(meta.aliases);
  for (let i = 0; i < meta.ids.length; i++) {
    const short = meta.ids[i];
    ix._documentIds.set(short, meta.paths[i]);
    ix._idToShortId.set(meta.paths[i], short);
    const lengths = new Array<number>(nf);
    for (let f = 0; f < nf; f++) lengths[f] = u[w++];
    ix._fieldLength.set(short, lengths);
    const a = aliasOf.get(short);
    ix._storedFields.set(short, a ? { aliases: a } : NO_FIELDS);
  }
  let sliceStart = Date.now();
  for (let ti = 0; ti < meta.terms.length; ti++) {
    const term = meta.terms[ti];
    if ((ti & 1023) === 1023 && Date.now() - sliceStart > sliceMs) { await new Promise<void>((r) => setTimeout(r, 0)); sliceStart = Date.now(); }
    need(1);
    const nFields = u[w++];
    const fields = new Map<number, Map<number, number>>();
    for (let k = 0; k < nFields; k++) {
      need(2);
      const fid = u[w++];
      const n = u[w++];
      need(2 * n);
      fields.set(fid, new PackedPostings(u.subarray(w, w + 2 * n)));
      w += 2 * n;
    }
    ix._index.set(term, fields);
  }
  if (w !== words) throw new Error(`index holds ${words - w} unread words`);
  markChanged(ms);
  return ms;
}
