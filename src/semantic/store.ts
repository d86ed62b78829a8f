// The vector index: one contiguous Float32Array (rows of `dims` floats, L2-normalised), each note's
// chunks in consecutive rows, and a manifest of note path, content hash, chunk ranges and section
// ordinals. It persists as ONE binary file written atomically (DataStore.write: temp + fsync +
// rename), so a kill during save leaves the previous file intact, and manifest and vectors can never
// disagree. The fingerprint (model, dims, chunking) is stored with the vectors; a loader that expects a
// different fingerprint gets a `mismatch` and starts empty, so two vector spaces are never mixed.
//
// In memory the rows live in a WebAssembly.Memory scanned by a SIMD kernel (simd.ts), with a plain
// JS fallback.
//
// File layout: "VMCPSEM1" | u32 version | u32 json bytes | u32 dims | u32 rows | 8 bytes reserved |
// manifest JSON (UTF-8, space-padded to 4 bytes) | rows × dims float32 little-endian.

import { Slicer } from '../services/slicer.js';

export interface Fingerprint {
  model: string;
  dims: number;
  chunking: string;
}

export interface ChunkMeta {
  ordinal: string | null;
  heading: string;
  start: number;
  end: number;
}

export interface NoteEntry {
  path: string;
  hash: string;
  mtime: number;
  size: number;
  row: number;
  count: number;
  chunks: ChunkMeta[];
}

export interface FailedEntry { hash: string; error: string; mtime: number; size: number }

export interface NoteHit {
  path: string;
  score: number;
  /** Index into the note's chunks of the best-scoring chunk. */
  chunk: number;
}

const MAGIC = 'VMCPSEM1';
const VERSION = 1;
const HEADER = 32;

export function fingerprintKey(f: Fingerprint): string {
  return `${f.model}|${f.dims}|${f.chunking}`;
}

import { simdKernel, type ScoreFn } from './simd.js';

if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) throw new Error('the vector index needs a little-endian platform');

/** Dot product of the row at `off` in `v` with `q` (`dims` long): the scan where SIMD is missing. */
function dot(v: Float32Array, off: number, q: Float32Array, dims: number): number {
  let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  let i = 0;
  for (; i + 3 < dims; i += 4) {
    s0 += v[off + i] * q[i];
    s1 += v[off + i + 1] * q[i + 1];
    s2 += v[off + i + 2] * q[i + 2];
    s3 += v[off + i + 3] * q[i + 3];
  }
  for (; i < dims; i++) s0 += v[off + i] * q[i];
  return s0 + s1 + s2 + s3;
}

/** A bounded min-heap keeping the k largest scores. */
export class TopK<T> {
  private scores: number[] = [];
  private items: T[] = [];
  constructor(readonly k: number) {}
  get min(): number { return this.scores.length < this.k ? -Infinity : this.scores[0]; }
  push(score: number, item: T): void {
    if (this.k <= 0) return;
    if (this.scores.length < this.k) {
      this.scores.push(score); this.items.push(item);
      let i = this.scores.length - 1;
      while (i > 0) { const p = (i - 1) >> 1; if (this.scores[p] <= this.scores[i]) break; this.swap(i, p); i = p; }
      return;
    }
    if (score <= this.scores[0]) return;
    this.scores[0] = score; this.items[0] = item;
    let i = 0;
    const n = this.scores.length;
    for (;;) {
      const l = 2 * i + 1, r = l + 1;
      let m = i;
      if (l < n && this.scores[l] < this.scores[m]) m = l;
      if (r < n && this.scores[r] < this.scores[m]) m = r;
      if (m === i) break;
      this.swap(i, m); i = m;
    }
  }
  private swap(a: number, b: number): void {
    [this.scores[a], this.scores[b]] = [this.scores[b], this.scores[a]];
    [this.items[a], this.items[b]] = [this.items[b], this.items[a]];
  }
  /** Best first. */
  sorted(): { score: number; item: T }[] {
    return this.scores.map((score, i) => ({ score, item: this.items[i] })).sort((a, b) => b.score - a.score);
  }
}

const PAGE = 65536;

export class VectorStore {
  /** Rows are `stride` floats apart (dims rounded up to 8, zero-padded) so the SIMD kernel needs no tail. */
  readonly stride: number;
  private memory: WebAssembly.Memory | null = null;
  private kernel: ScoreFn | null = null;
  private fallback: ArrayBuffer | null = null;
  private capacity = 0;
  private vec: Float32Array = new Float32Array(0);
  private used = 0;
  private dead = 0;
  readonly notes = new Map<string, NoteEntry>();
  readonly failed = new Map<string, FailedEntry>();
  /** Bumped on every change; the saver compares it with the last saved generation. */
  generation = 0;
  /** A sliced save is running: rows must not move (compaction waits), so its snapshot stays valid. */
  private saving = 0;

  constructor(readonly fingerprint: Fingerprint, capacityRows = 1024, opts: { simd?: boolean } = {}) {
    this.stride = Math.ceil(fingerprint.dims / 8) * 8;
    if (opts.simd !== false) {
      try {
        this.memory = new WebAssembly.Memory({ initial: 1 });
        this.kernel = simdKernel(this.memory);
      } catch { this.memory = null; }
      if (!this.kernel) this.memory = null;
    }
    this.reserve(Math.max(1, capacityRows), 0);
  }

  get dims(): number { return this.fingerprint.dims; }
  /** Live chunk rows. */
  get chunkCount(): number { return this.used - this.dead; }
  /** Whether the scan runs on the WebAssembly SIMD kernel (else plain JS). */
  get simd(): boolean { return !!this.kernel; }

  /** Makes room for `rows` vector rows plus `scratchFloats` after them; keeps existing rows in place. */
  private reserve(rows: number, scratchFloats: number): void {
    const bytes = (rows * this.stride + scratchFloats) * 4;
    if (this.memory) {
      const have = this.memory.buffer.byteLength;
      if (bytes > have) this.memory.grow(Math.ceil((bytes - have) / PAGE));
    } else if (!this.fallback || this.fallback.byteLength < bytes) {
      const next = new ArrayBuffer(Math.max(bytes, (this.fallback?.byteLength ?? 0) * 2));
      if (this.fallback) new Uint8Array(next).set(new Uint8Array(this.fallback));
      this.fallback = next;
    }
    this.capacity = Math.max(this.capacity, rows);
    this.vec = new Float32Array(this.buffer(), 0, this.capacity * this.stride);
  }

  private buffer(): ArrayBuffer {
    return (this.memory?.buffer) ?? this.fallback!;
  }

  private view(): Float32Array {
    if (this.vec.buffer !== this.buffer()) this.vec = new Float32Array(this.buffer(), 0, this.capacity * this.stride);
    return this.vec;
  }

  private ensure(rows: number): void {
    const need = this.used + rows;
    if (need <= this.capacity) return;
    let cap = Math.max(this.capacity, 64);
    while (cap < need) cap *= 2;
    this.reserve(cap, 0);
  }

  /** Copies `n` packed rows (dims floats each) into rows starting at `row`. */
  private putRows(row: number, packed: Float32Array, n: number): void {
    const v = this.view();
    const d = this.dims, st = this.stride;
    if (d === st) { v.set(packed.subarray(0, n * d), row * st); return; }
    for (let r = 0; r < n; r++) {
      v.set(packed.subarray(r * d, (r + 1) * d), (row + r) * st);
      v.fill(0, (row + r) * st + d, (row + r + 1) * st);
    }
  }

  /** Replaces a note's chunks and vectors (`vectors` holds chunks.length packed rows of dims floats). */
  upsert(e: Omit<NoteEntry, 'row' | 'count'>, vectors: Float32Array): void {
    if (vectors.length !== e.chunks.length * this.dims) throw new Error(`expected ${e.chunks.length}×${this.dims} floats, got ${vectors.length}`);
    this.remove(e.path);
    this.ensure(e.chunks.length);
    this.putRows(this.used, vectors, e.chunks.length);
    // Every field named (no spread): see noteState in changes/feed.ts.
    this.notes.set(e.path, { path: e.path, hash: e.hash, mtime: e.mtime, size: e.size, row: this.used, count: e.chunks.length, chunks: e.chunks });
    this.failed.delete(e.path);
    this.used += e.chunks.length;
    this.generation++;
    if (this.dead > 4096 && this.dead > this.used / 4 && !this.saving) this.compact();
  }

  remove(path: string): boolean {
    const old = this.notes.get(path);
    const hadFailure = this.failed.delete(path);
    if (!old) { if (hadFailure) this.generation++; return hadFailure; }
    this.notes.delete(path);
    this.dead += old.count;
    this.generation++;
    return true;
  }

  /** Gives a note's entry a new path (semantic/moves.ts). Its rows are copied to the end, as an upsert
   *  writes them (Map order is row order). False when `from` has no entry or `to` has one. */
  move(from: string, to: string): boolean {
    const e = this.notes.get(from);
    if (!e || this.notes.has(to) || this.failed.has(to)) return false;
    this.upsert({ path: to, hash: e.hash, mtime: e.mtime, size: e.size, chunks: e.chunks }, this.noteVectors(from)!);
    this.remove(from);
    return true;
  }

  markFailed(path: string, hash: string, error: string, mtime = 0, size = 0): void {
    this.remove(path);
    this.failed.set(path, { hash, error, mtime, size });
    this.generation++;
  }

  /** Moves live rows together, in place. Map order is row order (upserts append and re-insert). */
  compact(): void {
    if (!this.dead) return;
    const v = this.view();
    const st = this.stride;
    let row = 0;
    for (const e of this.notes.values()) {
      if (e.row !== row) v.copyWithin(row * st, e.row * st, (e.row + e.count) * st);
      e.row = row;
      row += e.count;
    }
    this.used = row;
    this.dead = 0;
    this.layout = null;
  }

  /** A copy of the note's chunk vectors, packed (count × dims). */
  noteVectors(path: string): Float32Array | null {
    const e = this.notes.get(path);
    if (!e) return null;
    const v = this.view();
    const out = new Float32Array(e.count * this.dims);
    for (let r = 0; r < e.count; r++) out.set(v.subarray((e.row + r) * this.stride, (e.row + r) * this.stride + this.dims), r * this.dims);
    return out;
  }

  /** Similarity of `q` with every row (dead rows included), as a view valid until the next change. */
  private scoreAll(q: Float32Array): Float32Array {
    if (q.length !== this.dims) throw new Error(`query has ${q.length} dimensions, the index ${this.dims}`);
    const st = this.stride;
    const rows = this.used;
    if (this.kernel) {
      this.reserve(this.capacity, st + rows);
      const buf = this.buffer();
      const qOff = this.capacity * st * 4;
      const qv = new Float32Array(buf, qOff, st);
      qv.fill(0);
      qv.set(q);
      const outOff = qOff + st * 4;
      this.kernel(qOff, 0, rows, st, outOff);
      return new Float32Array(buf, outOff, rows);
    }
    const v = this.view();
    const out = new Float32Array(rows);
    for (let r = 0, off = 0; r < rows; r++, off += st) out[r] = dot(v, off, q, this.dims);
    return out;
  }

  /** row → index into `entries` (-1 for dead rows); rebuilt after changes. */
  private layout: { owner: Int32Array; entries: NoteEntry[]; generation: number } | null = null;

  private rowOwners(): { owner: Int32Array; entries: NoteEntry[] } {
    if (this.layout && this.layout.generation === this.generation && this.layout.owner.length === this.used) return this.layout;
    const owner = new Int32Array(this.used).fill(-1);
    const entries = [...this.notes.values()];
    entries.forEach((e, i) => owner.fill(i, e.row, e.row + e.count));
    this.layout = { owner, entries, generation: this.generation };
    return this.layout;
  }

  /** The k notes whose best chunk is most similar to `q` (normalised), among notes `accept` allows. */
  searchNotes(q: Float32Array, k: number, accept?: (path: string) => boolean): NoteHit[] {
    const scores = this.scoreAll(q);
    const { owner, entries } = this.rowOwners();
    const best = new Float32Array(entries.length).fill(-Infinity);
    const bestRow = new Int32Array(entries.length);
    for (let r = 0; r < owner.length; r++) {
      const n = owner[r];
      if (n >= 0 && scores[r] > best[n]) { best[n] = scores[r]; bestRow[n] = r; }
    }
    const top = new TopK<number>(k);
    for (let n = 0; n < entries.length; n++) {
      if (best[n] > top.min && (!accept || accept(entries[n].path))) top.push(best[n], n);
    }
    return top.sorted().map((h) => ({ path: entries[h.item].path, chunk: bestRow[h.item] - entries[h.item].row, score: h.score }));
  }

  /** The k chunk rows most similar to `q` over the whole array (the raw scan the bench measures). */
  searchRows(q: Float32Array, k: number): { row: number; score: number }[] {
    const scores = this.scoreAll(q);
    const top = new TopK<number>(k);
    for (let r = 0; r < scores.length; r++) if (scores[r] > top.min) top.push(scores[r], r);
    return top.sorted().map((h) => ({ row: h.item, score: h.score }));
  }

  serialize(): Uint8Array {
    this.compact();
    const manifest = {
      fingerprint: this.fingerprint,
      notes: [...this.notes.values()].map((e) => [e.path, e.hash, e.mtime, e.size, e.count, e.chunks.map((c) => [c.ordinal, c.heading, c.start, c.end])]),
      failed: [...this.failed.entries()].map(([p, f]) => [p, f.hash, f.error, f.mtime, f.size]),
    };
    let json = new TextEncoder().encode(JSON.stringify(manifest));
    const pad = (4 - (json.length % 4)) % 4;
    if (pad) { const j = new Uint8Array(json.length + pad).fill(0x20); j.set(json); json = j; }
    const floats = this.used * this.dims;
    const out = new Uint8Array(HEADER + json.length + floats * 4);
    const v = this.view();
    out.set(new TextEncoder().encode(MAGIC), 0);
    const dv = new DataView(out.buffer);
    dv.setUint32(8, VERSION, true);
    dv.setUint32(12, json.length, true);
    dv.setUint32(16, this.dims, true);
    dv.setUint32(20, this.used, true);
    out.set(json, HEADER);
    const dst = new Float32Array(out.buffer, HEADER + json.length, floats);
    if (this.stride === this.dims) dst.set(v.subarray(0, floats));
    else for (let r = 0; r < this.used; r++) dst.set(v.subarray(r * this.stride, r * this.stride + this.dims), r * this.dims);
    return out;
  }

  /**
   * serialize() in slices that yield (the plugin saves on the UI thread): at 100k notes the manifest
   * JSON and the vector copy held it for hundreds of milliseconds. The bytes are identical to
   * serialize()'s: the manifest is JSON.stringify's output assembled note by note.
   */
  async serializeSliced(): Promise<Uint8Array> {
    this.compact();
    // A snapshot: upserts meanwhile append rows after `used` and replace entry objects; removals only
    // mark rows dead; compaction (the one thing that moves rows) waits until this save is done.
    this.saving++;
    try { return await this.writeSnapshot([...this.notes.values()], [...this.failed.entries()], this.used); } finally { this.saving--; }
  }

  private async writeSnapshot(notes: NoteEntry[], failed: [string, FailedEntry][], used: number): Promise<Uint8Array> {
    const slicer = new Slicer();
    const parts: string[] = [`{"fingerprint":${JSON.stringify(this.fingerprint)},"notes":[`];
    let first = true;
    for (const e of notes) {
      parts.push((first ? '' : ',') + JSON.stringify([e.path, e.hash, e.mtime, e.size, e.count, e.chunks.map((c) => [c.ordinal, c.heading, c.start, c.end])]));
      first = false;
      if (slicer.due()) await slicer.pause();
    }
    parts.push('],"failed":' + JSON.stringify(failed.map(([p, f]) => [p, f.hash, f.error, f.mtime, f.size])) + '}');
    const enc = new TextEncoder();
    const blocks: Uint8Array[] = [];
    let len = 0;
    for (let i = 0; i < parts.length; i += 2048) {
      const b = enc.encode(parts.slice(i, i + 2048).join(''));
      blocks.push(b);
      len += b.length;
      if (slicer.due()) await slicer.pause();
    }
    const pad = (4 - (len % 4)) % 4;
    const jsonLen = len + pad;
    const floats = used * this.dims;
    const out = new Uint8Array(HEADER + jsonLen + floats * 4);
    out.set(enc.encode(MAGIC), 0);
    const dv = new DataView(out.buffer);
    dv.setUint32(8, VERSION, true);
    dv.setUint32(12, jsonLen, true);
    dv.setUint32(16, this.dims, true);
    dv.setUint32(20, used, true);
    let at = HEADER;
    for (const b of blocks) { out.set(b, at); at += b.length; }
    out.fill(0x20, at, HEADER + jsonLen);
    const dst = new Float32Array(out.buffer, HEADER + jsonLen, floats);
    const ROWS = 2048;
    for (let r = 0; r < used; r += ROWS) {
      const n = Math.min(ROWS, used - r);
      const v = this.view(); // the memory may have grown (a new buffer) while this save yielded
      if (this.stride === this.dims) dst.set(v.subarray(r * this.dims, (r + n) * this.dims), r * this.dims);
      else for (let k = r; k < r + n; k++) dst.set(v.subarray(k * this.stride, k * this.stride + this.dims), k * this.dims);
      await slicer.pause();
    }
    return out;
  }

  /** deserialize() in slices that yield (see serializeSliced): same checks, same result. */
  static async deserializeSliced(bytes: Uint8Array, opts: { simd?: boolean } = {}): Promise<VectorStore> {
    const { jsonLen, dims, rows } = readHeader(bytes);
    const slicer = new Slicer();
    // Decoded a megabyte at a time (a streaming decoder keeps characters split across pieces whole).
    const dec = new TextDecoder();
    const pieces: string[] = [];
    for (let at = 0; at < jsonLen; at += 1 << 20) {
      const end = Math.min(jsonLen, at + (1 << 20));
      pieces.push(dec.decode(bytes.subarray(HEADER + at, HEADER + end), { stream: end < jsonLen }));
      await slicer.pause();
    }
    const text = pieces.join('');
    // The manifest is {"fingerprint":{…},"notes":[…],"failed":[…]}: its note rows are parsed one by one.
    const notesAt = text.indexOf(',"notes":[');
    if (!text.startsWith('{"fingerprint":') || notesAt < 0) return VectorStore.deserialize(bytes, opts);
    const fingerprint = JSON.parse(text.slice('{"fingerprint":'.length, notesAt)) as Fingerprint;
    if (fingerprint.dims !== dims) throw new Error('vector index header and manifest disagree on dimensions');
    const store = new VectorStore(fingerprint, Math.max(1, rows), opts);
    let i = notesAt + ',"notes":['.length;
    let row = 0;
    while (text.charCodeAt(i) !== 93 /* ] */) {
      const end = elementEnd(text, i);
      const [path, hash, mtime, size, count, chunks] = JSON.parse(text.slice(i, end)) as [string, string, number, number, number, [string | null, string, number, number][]];
      store.notes.set(path, { path, hash, mtime, size, row, count, chunks: chunks.map(([ordinal, heading, s, e]) => ({ ordinal, heading, start: s, end: e })) });
      row += count;
      i = text.charCodeAt(end) === 44 /* , */ ? end + 1 : end;
      if (slicer.due()) await slicer.pause();
    }
    if (row !== rows) throw new Error(`vector index manifest names ${row} rows, the file holds ${rows}`);
    const rest = text.slice(i + 1).trimEnd();
    if (!rest.startsWith(',"failed":') || !rest.endsWith('}')) throw new Error('vector index manifest is damaged');
    for (const [p, hash, error, mtime, size] of JSON.parse(rest.slice(',"failed":'.length, -1)) as [string, string, string, number, number][]) store.failed.set(p, { hash, error, mtime, size });
    const off = bytes.byteOffset + HEADER + jsonLen;
    const packed = off % 4 === 0 ? new Float32Array(bytes.buffer as ArrayBuffer, off, rows * dims) : new Float32Array(new Uint8Array(bytes.subarray(HEADER + jsonLen)).buffer);
    const ROWS = 2048;
    for (let r = 0; r < rows; r += ROWS) {
      const n = Math.min(ROWS, rows - r);
      store.putRows(r, packed.subarray(r * dims, (r + n) * dims), n);
      await slicer.pause();
    }
    store.used = rows;
    return store;
  }

  /** Parses a saved index. Throws on a damaged file; the caller decides about fingerprints. */
  static deserialize(bytes: Uint8Array, opts: { simd?: boolean } = {}): VectorStore {
    const { jsonLen, dims, rows } = readHeader(bytes);
    const m = JSON.parse(new TextDecoder().decode(bytes.subarray(HEADER, HEADER + jsonLen))) as {
      fingerprint: Fingerprint;
      notes: [string, string, number, number, number, [string | null, string, number, number][]][];
      failed: [string, string, string, number, number][];
    };
    if (m.fingerprint.dims !== dims) throw new Error('vector index header and manifest disagree on dimensions');
    const store = new VectorStore(m.fingerprint, Math.max(1, rows), opts);
    const off = bytes.byteOffset + HEADER + jsonLen;
    const packed = off % 4 === 0
      ? new Float32Array(bytes.buffer as ArrayBuffer, off, rows * dims)
      : new Float32Array(new Uint8Array(bytes.subarray(HEADER + jsonLen)).buffer);
    store.putRows(0, packed, rows);
    let row = 0;
    for (const [path, hash, mtime, size, count, chunks] of m.notes) {
      store.notes.set(path, { path, hash, mtime, size, row, count, chunks: chunks.map(([ordinal, heading, s, e]) => ({ ordinal, heading, start: s, end: e })) });
      row += count;
    }
    if (row !== rows) throw new Error(`vector index manifest names ${row} rows, the file holds ${rows}`);
    store.used = rows;
    for (const [p, hash, error, mtime, size] of m.failed) store.failed.set(p, { hash, error, mtime, size });
    return store;
  }
}

function readHeader(bytes: Uint8Array): { jsonLen: number; dims: number; rows: number } {
  if (bytes.length < HEADER || new TextDecoder().decode(bytes.subarray(0, 8)) !== MAGIC) throw new Error('not a vector index file');
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = dv.getUint32(8, true);
  if (version !== VERSION) throw new Error(`vector index version ${version} is not supported`);
  const jsonLen = dv.getUint32(12, true);
  const dims = dv.getUint32(16, true);
  const rows = dv.getUint32(20, true);
  if (bytes.length !== HEADER + jsonLen + rows * dims * 4) throw new Error(`vector index file is ${bytes.length} bytes, expected ${HEADER + jsonLen + rows * dims * 4} (truncated or damaged)`);
  return { jsonLen, dims, rows };
}

/** Where the JSON value starting at `i` ends (the index after it): strings and nesting respected. */
function elementEnd(text: string, i: number): number {
  let depth = 0;
  let inString = false;
  for (let k = i; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (inString) {
      if (c === 92 /* \\ */) k++;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 91 || c === 123) depth++;
    else if (c === 93 || c === 125) { if (depth === 0) return k; depth--; if (depth === 0) return k + 1; }
    else if (c === 44 && depth === 0) return k;
  }
  throw new Error('vector index manifest is damaged');
}
