// The keyword index on disk, compactly: two JSON lines (the service's header, then the index's small
// parts: paths, titles, aliases, the term list) followed by the field lengths and postings as one
// little-endian Uint32 array. Loading keeps that array and points each posting list at its window in
// it, so a warm start builds no per-posting objects. Notes are renumbered 0…n−1 in the file (removed
// notes and their postings are left out), keeping each list's order.
//
//   <header JSON>\n<meta JSON>\n<0–3 spaces to a 4-byte boundary><u32 …>
//   u32 part: for each note (meta.paths order) its FIELDS lengths; then for each term (meta.terms
//   order): field count, then per field: field index, posting count, then (note, term frequency) pairs.
//
// Both directions work in slices (`pause` between them) so a large index never freezes the app.
import { FIELDS, NF, InvertedIndex } from './invertedIndex.js';
import { Postings } from './postings.js';

const FORMAT = 2;

interface Meta {
  format: typeof FORMAT;
  fields: string[];
  paths: string[];
  /** Per note: display title, then the other title forms, one per line. */
  titles: string[];
  /** [note, aliases] for notes with aliases. */
  aliases: [number, string][];
  terms: string[];
}

/** Called between slices; returns a promise to wait on (a turn of the event loop) or null to go on. */
export type Pause = () => Promise<void> | null;

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8');

/** Serializes the header (any JSON value) and the index as it is now (later changes are not included). */
export async function encodeIndex(header: unknown, ix: InvertedIndex, pause: Pause = () => null): Promise<Uint8Array> {
  // Snapshot what changes in place; posting lists only grow past `top` or shrink through vacuum, which
  // the service never runs during a save.
  const top = ix.nextId;
  const live = ix.live.slice(0, top);
  const dense = new Int32Array(top).fill(-1);
  const paths: string[] = [];
  const titles: string[] = [];
  const aliases: [number, string][] = [];
  const lengths: number[] = [];
  for (let id = 0; id < top; id++) {
    if (!live[id]) continue;
    dense[id] = paths.length;
    if (ix.aliases[id]) aliases.push([paths.length, ix.aliases[id]]);
    paths.push(ix.paths[id]!);
    titles.push(ix.titles[id]);
    for (let f = 0; f < NF; f++) lengths.push(ix.lengths[id * NF + f]);
  }
  const terms: string[] = [];
  const termIds: number[] = [];
  const sizes: number[] = [];
  let words = lengths.length;
  let n = 0;
  for (const [t, id] of ix.lexicon.ids) {
    let fields = 0;
    let postings = 0;
    for (let f = 0; f < NF; f++) {
      const p = ix.postings[id * NF + f];
      let k = 0;
      if (p) for (let i = p.start; i < p.start + p.len; i += 2) { const d = p.data[i]; if (d < top && live[d]) k++; }
      sizes.push(k);
      if (k) { fields++; postings += k; }
    }
    if (fields) { terms.push(t); termIds.push(id); words += 1 + 2 * fields + 2 * postings; } else sizes.length -= NF;
    if ((++n & 63) === 0) { const w = pause(); if (w) await w; }
  }
  const meta: Meta = { format: FORMAT, fields: [...FIELDS], paths, titles, aliases, terms };
  // The two JSON lines are megabytes at 100k notes: written and encoded in pieces too.
  const text: string[] = [];
  await jsonPieces(header, text, pause);
  text.push('\n');
  await jsonPieces(meta, text, pause);
  text.push('\n');
  const chunks: Uint8Array[] = [];
  let headLength = 0;
  for (let i = 0; i < text.length; i += 1024) {
    const c = encoder.encode(text.slice(i, i + 1024).join(''));
    chunks.push(c);
    headLength += c.length;
    const wait = pause(); if (wait) await wait;
  }
  const pad = (4 - (headLength % 4)) % 4;
  const out = new Uint8Array(headLength + pad + words * 4);
  let at = 0;
  for (const c of chunks) { out.set(c, at); at += c.length; }
  out.fill(0x20, headLength, headLength + pad);
  const u = new Uint32Array(out.buffer, headLength + pad, words);
  u.set(lengths);
  let w = lengths.length;
  for (let ti = 0; ti < termIds.length; ti++) {
    const id = termIds[ti];
    let fields = 0;
    for (let f = 0; f < NF; f++) if (sizes[ti * NF + f]) fields++;
    u[w++] = fields;
    for (let f = 0; f < NF; f++) {
      const k = sizes[ti * NF + f];
      if (!k) continue;
      u[w++] = f;
      u[w++] = k;
      const p = ix.postings[id * NF + f]!;
      const d = p.data;
      for (let i = p.start; i < p.start + p.len; i += 2) {
        const doc = d[i];
        if (doc < top && live[doc]) { u[w++] = dense[doc]; u[w++] = d[i + 1]; }
      }
    }
    if ((ti & 63) === 63) { const wait = pause(); if (wait) await wait; }
  }
  if (w !== words) throw new Error(`index encoding wrote ${w} of ${words} words`);
  return out;
}

const BIG = 1024;

/**
 * JSON.stringify(v) for plain data (what the header and meta hold), into `out` as pieces, with a pause
 * after every BIG entries of a large array or object. Same text as JSON.stringify.
 */
async function jsonPieces(v: unknown, out: string[], pause: Pause): Promise<void> {
  // A Map is written as the object Object.fromEntries would make of it (keys as strings).
  if (v instanceof Map) {
    out.push('{');
    let first = true;
    let i = 0;
    for (const [k, x] of v as Map<unknown, unknown>) {
      const j = JSON.stringify(x);
      if (j !== undefined) { out.push(`${first ? '' : ','}${JSON.stringify(String(k))}:${j}`); first = false; }
      if ((++i & (BIG - 1)) === 0) { const wait = pause(); if (wait) await wait; }
    }
    out.push('}');
    return;
  }
  if (Array.isArray(v) && v.length > BIG) {
    out.push('[');
    for (let i = 0; i < v.length; i += BIG) {
      const part = JSON.stringify(v.slice(i, i + BIG));
      out.push(i ? ',' : '', part.slice(1, -1));
      const wait = pause(); if (wait) await wait;
    }
    out.push(']');
    return;
  }
  if (v && typeof v === 'object' && !Array.isArray(v) && typeof (v as { toJSON?: unknown }).toJSON !== 'function') {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o);
    out.push('{');
    let first = true;
    for (let i = 0; i < keys.length; i++) {
      const x = o[keys[i]];
      const big = !!x && typeof x === 'object' && (Array.isArray(x) ? x.length > BIG : true);
      if (big && keys.length <= BIG) {
        out.push(`${first ? '' : ','}${JSON.stringify(keys[i])}:`);
        await jsonPieces(x, out, pause);
      } else {
        const j = JSON.stringify(x);
        if (j === undefined) continue;
        out.push(`${first ? '' : ','}${JSON.stringify(keys[i])}:${j}`);
      }
      first = false;
      if ((i & (BIG - 1)) === BIG - 1) { const wait = pause(); if (wait) await wait; }
    }
    out.push('}');
    return;
  }
  out.push(JSON.stringify(v));
}

/** The header line alone (cheap: the caller checks schema and signature before decoding the rest). */
export function decodeHeader(bytes: Uint8Array): { header: unknown; rest: number } {
  const nl = bytes.indexOf(0x0a);
  if (nl < 0) throw new Error('no header line');
  return { header: JSON.parse(decoder.decode(bytes.subarray(0, nl))) as unknown, rest: nl + 1 };
}

/** Rebuilds the index from `bytes` (starting at `from`, after the header line). */
export async function decodeIndex(bytes: Uint8Array, from: number, pause: Pause = () => null): Promise<InvertedIndex> {
  const nl = bytes.indexOf(0x0a, from);
  if (nl < 0) throw new Error('no index line');
  const meta = JSON.parse(decoder.decode(bytes.subarray(from, nl))) as Meta;
  if (meta.format !== FORMAT || !Array.isArray(meta.paths) || !Array.isArray(meta.terms) || meta.titles?.length !== meta.paths.length || meta.fields?.join() !== FIELDS.join()) throw new Error('unknown index format');
  let start = nl + 1;
  while (start < bytes.length && bytes[start] === 0x20 && (bytes.byteOffset + start) % 4 !== 0) start++;
  if ((bytes.length - start) % 4 !== 0) throw new Error('truncated index');
  const words = (bytes.length - start) / 4;
  const u = (bytes.byteOffset + start) % 4 === 0 ? new Uint32Array(bytes.buffer, bytes.byteOffset + start, words) : new Uint32Array(bytes.slice(start).buffer, 0, words);
  const ix = new InvertedIndex();
  const count = meta.paths.length;
  if (count * NF > words) throw new Error('truncated index');
  const aliasOf = new Map(meta.aliases);
  for (let i = 0; i < count; i++) ix.restoreDoc(meta.paths[i], u, i * NF, meta.titles[i], aliasOf.get(i) ?? '');
  let w = count * NF;
  const need = (n: number) => { if (w + n > words) throw new Error('truncated index'); };
  const postings = new Array<Postings | undefined>(meta.terms.length * NF);
  for (let ti = 0; ti < meta.terms.length; ti++) {
    if ((ti & 63) === 63) { const wait = pause(); if (wait) await wait; }
    need(1);
    const nFields = u[w++];
    for (let k = 0; k < nFields; k++) {
      need(2);
      const f = u[w++];
      const n = u[w++];
      if (f >= NF) throw new Error('bad field index');
      need(2 * n);
      for (let i = 0; i < n; i++) if (u[w + 2 * i] >= count) throw new Error('posting names an unknown note');
      postings[ti * NF + f] = new Postings(u, w, 2 * n);
      w += 2 * n;
    }
  }
  ix.restoreTerms(meta.terms, postings);
  if (w !== words) throw new Error(`index holds ${words - w} unread words`);
  return ix;
}
