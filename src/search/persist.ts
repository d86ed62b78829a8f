// The keyword index on disk, compactly: two JSON parts (the service's header, then the index's small
// parts: paths, titles, aliases, the term list; each in lines of bounded size, see writeSplit) followed by the field lengths and postings as one
// little-endian Uint32 array. Loading keeps that array and points each posting list at its window in
// it, so a warm start builds no per-posting objects. Notes are renumbered 0…n−1 in the file (removed
// notes and their postings are left out), keeping each list's order.
//
//   <header JSON lines><meta JSON lines><0–3 spaces to a 4-byte boundary><u32 …>
//   u32 part: for each note (meta.paths order) its FIELDS lengths; then for each term (meta.terms
//   order): field count, then per field: field index, posting count, then (note, term frequency) pairs.
//
// Both directions work in slices (`pause` between them) so a large index never freezes the app.
import { FIELDS, NF, InvertedIndex } from './invertedIndex.js';
import { Postings } from './postings.js';

/** 3: JSON parts in lines of bounded size (writeSplit). */
const FORMAT = 3;

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
  // The clock is read (pause) after about WORK postings: a common word has one per note.
  let work = 0;
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
    if ((work += 8 + postings) > WORK) { work = 0; const w = pause(); if (w) await w; }
  }
  const meta: Meta = { format: FORMAT, fields: [...FIELDS], paths, titles, aliases, terms };
  // The JSON parts are megabytes at 100k notes: written in lines of bounded size, with pauses between.
  const text: string[] = [];
  await writeSplit(header, text, pause);
  await writeSplit(meta, text, pause);
  const chunks: Uint8Array[] = [];
  let headLength = 0;
  for (const piece of text) {
    const c = encoder.encode(piece);
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
      work += k;
    }
    if ((work += 8) > WORK) { work = 0; const wait = pause(); if (wait) await wait; }
  }
  if (w !== words) throw new Error(`index encoding wrote ${w} of ${words} words`);
  return out;
}

/** Items per line of a split list. */
const LINE_ITEMS = 1024;
/** Postings (or their equivalent) between two looks at the clock. */
const WORK = 16_384;

/**
 * Writes `v` (a plain object) as one JSON line in which each Map, and each array longer than
 * LINE_ITEMS, is replaced by {"$lines": k} (plus "$map": 1 for a Map), followed by those k lines in
 * property order: JSON arrays of at most LINE_ITEMS items ([key, value] pairs for a Map). So neither
 * writing nor reading holds the thread for one JSON text of megabytes.
 */
async function writeSplit(v: unknown, out: string[], pause: Pause): Promise<void> {
  const lists: (unknown[] | Map<unknown, unknown>)[] = [];
  const top: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (x instanceof Map) { top[k] = { $lines: Math.ceil(x.size / LINE_ITEMS), $map: 1 }; lists.push(x); }
    else if (Array.isArray(x) && x.length > LINE_ITEMS) { top[k] = { $lines: Math.ceil(x.length / LINE_ITEMS) }; lists.push(x); }
    else top[k] = x;
  }
  out.push(JSON.stringify(top), '\n');
  for (const list of lists) {
    const items = list instanceof Map ? list.entries() : list.values();
    let line: unknown[] = [];
    for (const item of items) {
      line.push(item);
      if (line.length === LINE_ITEMS) { out.push(JSON.stringify(line), '\n'); line = []; const wait = pause(); if (wait) await wait; }
    }
    if (line.length) out.push(JSON.stringify(line), '\n');
  }
}

/** Reads what writeSplit wrote from `at`: steps between lines; returns the object and the offset after it. */
function* readSplit(bytes: Uint8Array, at: number): Generator<void, { value: Record<string, unknown>; next: number }> {
  const line = () => {
    const nl = bytes.indexOf(0x0a, at);
    if (nl < 0) throw new Error('truncated index');
    const v = JSON.parse(decoder.decode(bytes.subarray(at, nl))) as unknown;
    at = nl + 1;
    return v;
  };
  const top = line();
  if (!top || typeof top !== 'object' || Array.isArray(top)) throw new Error('unknown index format');
  const value = top as Record<string, unknown>;
  for (const [k, x] of Object.entries(value)) {
    const split = x as { $lines?: unknown; $map?: unknown } | null;
    if (!split || typeof split !== 'object' || typeof split.$lines !== 'number') continue;
    const map = split.$map ? new Map<unknown, unknown>() : null;
    const list: unknown[] = [];
    for (let i = 0; i < split.$lines; i++) {
      const items = line();
      if (!Array.isArray(items)) throw new Error('unknown index format');
      if (map) for (const e of items as [unknown, unknown][]) map.set(e[0], e[1]);
      else for (const e of items) list.push(e);
      yield;
    }
    value[k] = map ?? list;
  }
  return { value, next: at };
}

/** The header alone (cheap: the caller checks schema and signature before decoding the rest). Maps come back as Maps. */
export function decodeHeader(bytes: Uint8Array): { header: unknown; rest: number } {
  const steps = readSplit(bytes, 0);
  for (;;) { const r = steps.next(); if (r.done) return { header: r.value.value, rest: r.value.next }; }
}

/** decodeHeader with `pause` between lines. */
export async function readHeader(bytes: Uint8Array, pause: Pause): Promise<{ header: unknown; rest: number }> {
  const steps = readSplit(bytes, 0);
  for (;;) {
    const r = steps.next();
    if (r.done) return { header: r.value.value, rest: r.value.next };
    const wait = pause(); if (wait) await wait;
  }
}

/** Rebuilds the index from `bytes` (starting at `from`, after the header line). */
export async function decodeIndex(bytes: Uint8Array, from: number, pause: Pause = () => null): Promise<InvertedIndex> {
  const steps = readSplit(bytes, from);
  let r = steps.next();
  for (; !r.done; r = steps.next()) { const wait = pause(); if (wait) await wait; }
  const meta = r.value.value as unknown as Meta;
  const nl = r.value.next - 1;
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
  for (let i = 0; i < count; i++) {
    ix.restoreDoc(meta.paths[i], u, i * NF, meta.titles[i], aliasOf.get(i) ?? '');
    if ((i & 255) === 255) { const wait = pause(); if (wait) await wait; }
  }
  let w = count * NF;
  const need = (n: number) => { if (w + n > words) throw new Error('truncated index'); };
  const postings = new Array<Postings | undefined>(meta.terms.length * NF);
  let work = 0;
  for (let ti = 0; ti < meta.terms.length; ti++) {
    if ((work += 8) > WORK) { work = 0; const wait = pause(); if (wait) await wait; }
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
      work += n;
      w += 2 * n;
    }
  }
  const restore = ix.restoreTerms(meta.terms, postings);
  while (!restore.next().done) { const wait = pause(); if (wait) await wait; }
  if (w !== words) throw new Error(`index holds ${words - w} unread words`);
  return ix;
}
