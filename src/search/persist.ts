// The keyword index on disk, compactly: two JSON parts (the service's header, then the index's small
// parts: paths, titles, aliases, the term list; each in lines of bounded size, see writeSplit), then a
// binary part: per note its field lengths and file record, the posting-list directory, and the lists'
// varint bytes (postings.ts). Loading points every list at its bytes in the file as read (no decoding,
// no per-list object); verifyLists reads them through afterwards. Notes are renumbered 0…n−1 in the
// file (removed notes and their postings are left out), keeping each list's order.
//
//   <header JSON lines><meta JSON lines><0–3 spaces to a 4-byte boundary><u32 …><list bytes>
//   u32 part: for each note (meta.paths order) its FIELDS lengths; for each note its record (RECORD
//   bytes: mtime f64, size f64, SHA-256); for each term (meta.terms order): field count, then per
//   field: field index, postings, bytes, highest note. Then every list's bytes in directory order.
//
// Both directions work in slices (`pause` between them) so a large index never freezes the app.
import { FIELDS, NF, InvertedIndex } from './invertedIndex.js';
import { PostingCursor } from './postings.js';
import { varintSize } from '../core/varint.js';
import { beginSlice, nextTurn, turnSpent } from '../core/turns.js';
import { PieceWriter, type Put } from '../core/pieceWriter.js';
import { GROW_PIECE_BYTES, type GrownArray } from './arrayGrowth.js';

/** 3: JSON parts in lines of bounded size (writeSplit); 4: posting lists as varint bytes after a directory. */
const FORMAT = 4;

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

/** A Pause that waits for a turn of the event loop (core/turns.ts) once its slice has run `budgetMs`,
 *  or the turn's sliced work, every job's together, has run its budget. */
export function slicePause(budgetMs: number): Pause {
  let start = Date.now();
  beginSlice();
  return () => {
    if (Date.now() - start <= budgetMs && !turnSpent()) return null;
    return nextTurn().then(() => { start = Date.now(); });
  };
}

const decoder = new TextDecoder('utf-8');

/**
 * The index file of `ix` as it is now (later changes are not included) with `header` (any JSON value)
 * at its head, as a writer for DataStore.write: the snapshot is taken in this call, the file is then
 * produced a buffer at a time into `put` (core/pieceWriter.ts), never whole.
 */
export function indexWriter(header: unknown, ix: InvertedIndex, pause: Pause = () => null, bufferBytes?: number): (put: Put) => Promise<void> {
  const top = ix.nextId;
  const steps = snapshotSteps(ix, top);
  let step = steps.next();
  while (!step.done) step = steps.next();
  const [live, snap] = step.value;
  return (put) => writeIndex(header, ix, top, live, snap, new PieceWriter(put, bufferBytes), pause);
}

/**
 * indexWriter with the snapshot's copies made a turn apart (at 100k notes, made together they were a
 * 36-45 ms block of a save in a profile: 7 MB of new arrays). The index must not change until this
 * resolves: the service holds its read gate, which updates wait for.
 */
export async function indexWriterInTurns(header: unknown, ix: InvertedIndex, pause: Pause, bufferBytes?: number, turn: () => Promise<void> = nextTurn, pieceBytes = GROW_PIECE_BYTES): Promise<(put: Put) => Promise<void>> {
  const top = ix.nextId;
  const steps = snapshotSteps(ix, top, pieceBytes);
  let step = steps.next();
  while (!step.done) { await turn(); step = steps.next(); }
  if (ix.nextId !== top) throw new Error('keyword index: a note was added while its snapshot was taken');
  const [live, snap] = step.value;
  return (put) => writeIndex(header, ix, top, live, snap, new PieceWriter(put, bufferBytes), pause);
}

/**
 * Copies of what changes in place, one per step; lists only grow past `top` (appends may move them,
 * which the cursor follows) and the service never runs the vacuum during a save. The copies (memcpy
 * fast) let the per-note loops of writeIndex pause while indexing re-records and removes notes in
 * place (at 100k notes one loop was a 40-100 ms block). A typed array is copied a piece of at most
 * `pieceBytes` per step: the cost is the first touch of the copy's fresh pages (3.2 MB of note hashes
 * took 9 ms on a quiet machine, 69 ms in a profiled 100k run beside the app's collections).
 */
function* snapshotSteps(ix: InvertedIndex, top: number, pieceBytes = GROW_PIECE_BYTES): Generator<void, [Uint8Array, Snapshot], void> {
  const live = yield* copyInPieces(ix.live, top, pieceBytes);
  const mtimes = yield* copyInPieces(ix.mtimes, top, pieceBytes);
  const sizes = yield* copyInPieces(ix.sizes, top, pieceBytes);
  const hashes = yield* copyInPieces(ix.hashes, top * 32, pieceBytes);
  const lengths = yield* copyInPieces(ix.lengths, top * NF, pieceBytes);
  const paths = ix.paths.slice(0, top); yield;
  const titles = ix.titles.slice(0, top); yield;
  const aliases = ix.aliases.slice(0, top);
  return [live, { mtimes, sizes, hashes, paths, titles, aliases, lengths }];
}

/** The first `length` items of `src` in a new array, a piece of at most `pieceBytes` per step (a yield after each). */
function* copyInPieces<A extends GrownArray>(src: A, length: number, pieceBytes: number): Generator<void, A, void> {
  const out = new (src.constructor as new (n: number) => A)(length);
  const piece = Math.max(1, Math.floor(pieceBytes / src.BYTES_PER_ELEMENT));
  for (let at = 0; at < length; at += piece) {
    out.set(src.subarray(at, Math.min(length, at + piece)), at);
    yield;
  }
  if (!length) yield;
  return out;
}

type Snapshot = { mtimes: Float64Array; sizes: Float64Array; hashes: Uint8Array; paths: (string | undefined)[]; titles: string[]; aliases: string[]; lengths: Uint32Array };

async function writeIndex(header: unknown, ix: InvertedIndex, top: number, live: Uint8Array, snap: Snapshot, out: PieceWriter, pause: Pause): Promise<void> {
  // The allocations below each start a task of their own: with the snapshot they were a 50-75 ms block.
  await nextTurn();
  const dense = new Int32Array(top).fill(-1);
  // Sized up front: grown by push, the two 100k-item arrays were copied (and their old stores collected)
  // inside the loop's slices.
  let nLive = 0;
  for (let id = 0; id < top; id++) if (live[id]) nLive++;
  const paths = new Array<string>(nLive);
  const titles = new Array<string>(nLive);
  let n = 0;
  const aliases: [number, string][] = [];
  await nextTurn();
  for (let id = 0; id < top; id++) {
    if ((id & 1023) === 1023) { const w = pause(); if (w) await w; }
    if (!live[id]) continue;
    dense[id] = n;
    if (snap.aliases[id]) aliases.push([n, snap.aliases[id]]);
    paths[n] = snap.paths[id]!;
    titles[n] = snap.titles[id];
    n++;
  }
  const { store } = ix;
  const c = new PostingCursor();
  const terms: string[] = [];
  const termIds: number[] = [];
  /** The file's directory as it will be written: per kept term its field count, then per field with
   *  postings: field, postings, bytes, highest note (renumbered). One typed array of about the words
   *  the terms need (three arrays of terms x fields were 3 MB a save at 50k terms); grown when short. */
  await nextTurn();
  let dir = new Uint32Array(ix.lexicon.ids.size * 6 + 1024);
  let dirWords = 0;
  await nextTurn();
  let listBytes = 0;
  // The clock is read (pause) after about WORK postings: a common word has one per note.
  let work = 0;
  for (const [t, id] of ix.lexicon.ids) {
    if (dirWords + 1 + 4 * NF > dir.length) { const grown = new Uint32Array(dir.length * 2); grown.set(dir.subarray(0, dirWords)); dir = grown; }
    const at = dirWords++;
    let fields = 0;
    for (let f = 0; f < NF; f++) {
      store.open(id * NF + f, c);
      let k = 0;
      let bytes = 0;
      let prev = 0;
      while (c.next()) {
        if (c.doc >= top || !live[c.doc]) continue;
        const d = dense[c.doc];
        bytes += varintSize(d - prev) + varintSize(c.tf);
        prev = d;
        k++;
      }
      work += store.size(id * NF + f);
      if (!k) continue;
      fields++;
      listBytes += bytes;
      dir[dirWords++] = f; dir[dirWords++] = k; dir[dirWords++] = bytes; dir[dirWords++] = prev;
    }
    // A term with no live posting left takes no entry.
    if (fields) { dir[at] = fields; terms.push(t); termIds.push(id); } else dirWords = at;
    if ((work += 8) > WORK) { work = 0; const w = pause(); if (w) await w; }
  }
  const meta: Meta = { format: FORMAT, fields: [...FIELDS], paths, titles, aliases, terms };
  // The JSON parts are megabytes at 100k notes: made in lines of bounded size, with pauses between, each
  // written as soon as it is made (all made first, their 10 MB outlived the scavenges of the save's pauses).
  const emit = (line: string) => out.text(line);
  await writeSplit(header, emit, pause);
  await writeSplit(meta, emit, pause);
  const headLength = out.length;
  for (let pad = (4 - (headLength % 4)) % 4; pad > 0; pad--) await out.bytes(SPACE);
  const words = nLive * (NF + RECORD / 4) + dirWords;
  const wordsAt = out.length;
  // Per note its field lengths, then its record, from the snapshot.
  for (let id = 0; id < top; id++) {
    if ((id & 1023) === 1023) { const w = pause(); if (w) await w; }
    if (!live[id]) continue;
    { const w = out.room(4 * NF); if (w) await w; }
    for (let f = 0; f < NF; f++) out.u32(snap.lengths[id * NF + f]);
  }
  for (let id = 0; id < top; id++) {
    if ((id & 1023) === 1023) { const w = pause(); if (w) await w; }
    if (!live[id]) continue;
    { const w = out.room(RECORD); if (w) await w; }
    out.f64(snap.mtimes[id]);
    out.f64(snap.sizes[id]);
    out.copy(snap.hashes, id * 32, 32);
  }
  // The directory in megabyte copies, each flush a task of its own.
  await out.bytes(new Uint8Array(dir.buffer, 0, dirWords * 4));
  if (out.length - wordsAt !== words * 4) throw new Error(`index encoding wrote ${(out.length - wordsAt) / 4} of ${words} words`);
  // A note indexed while the save waits may move the list being written (its old region can be handed
  // out again): it is then read anew up to where the save was. Where it stayed, the cursor goes on.
  const list = { slot: 0, chunk: 0, bytes: c.bytes, from: 0, read: 0 };
  const open = (slot: number) => {
    store.open(slot, c);
    list.slot = slot;
    list.chunk = store.chunk[slot];
    list.bytes = c.bytes;
    list.from = c.at;
  };
  const resume = () => {
    const { slot, chunk, bytes, from, read } = list;
    if (store.chunk[slot] === chunk && store.chunks[chunk] === bytes && store.off[slot] === from) return;
    open(slot);
    for (let k = 0; k < read; k++) c.next();
  };
  for (let ti = 0, w = 0; ti < termIds.length; ti++) {
    const id = termIds[ti];
    for (let nFields = dir[w++]; nFields > 0; nFields--, w += 4) {
      const end = out.length + dir[w + 2];
      open(id * NF + dir[w]);
      list.read = 0;
      let prev = 0;
      while (c.next()) {
        list.read++;
        // A list of a word in most notes is 100k postings or more: a pause offered inside it too.
        if ((++work & (WORK - 1)) === 0) { const wait = pause(); if (wait) { await wait; resume(); } }
        if (c.doc >= top || !live[c.doc]) continue;
        const d = dense[c.doc];
        const wait = out.room(16);
        if (wait) { await wait; resume(); }
        out.varint(d - prev);
        out.varint(c.tf);
        prev = d;
      }
      if (out.length !== end) throw new Error('a posting list changed during the save');
    }
    if ((work += 8) > WORK) { work = 0; const wait = pause(); if (wait) await wait; }
  }
  if (out.length !== wordsAt + words * 4 + listBytes) throw new Error('index encoding lost its count');
  await out.end();
}

/** The whole file as bytes (tests compare files; the service writes through indexWriter). */
export async function encodeIndex(header: unknown, ix: InvertedIndex, pause: Pause = () => null, bufferBytes?: number): Promise<Uint8Array> {
  const pieces: Uint8Array[] = [];
  await indexWriter(header, ix, pause, bufferBytes)(async (p) => { pieces.push(p.slice()); });
  const all = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of pieces) { all.set(p, at); at += p.length; }
  return all;
}

const SPACE = new Uint8Array([0x20]);

/** Bytes per note record: mtime and size (f64 each), SHA-256 of the text (32 bytes). */
const RECORD = 48;

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
async function writeSplit(v: unknown, emit: (line: string) => Promise<void>, pause: Pause): Promise<void> {
  const lists: (unknown[] | Map<unknown, unknown>)[] = [];
  const top: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (x instanceof Map) { top[k] = { $lines: Math.ceil(x.size / LINE_ITEMS), $map: 1 }; lists.push(x); }
    else if (Array.isArray(x) && x.length > LINE_ITEMS) { top[k] = { $lines: Math.ceil(x.length / LINE_ITEMS) }; lists.push(x); }
    else top[k] = x;
  }
  const line = async (items: unknown) => { await emit(JSON.stringify(items)); await emit('\n'); const wait = pause(); if (wait) await wait; };
  await line(top);
  for (const list of lists) {
    const items = list instanceof Map ? list.entries() : list.values();
    let batch: unknown[] = [];
    for (const item of items) {
      batch.push(item);
      if (batch.length === LINE_ITEMS) { await line(batch); batch = []; }
    }
    if (batch.length) await line(batch);
  }
}

/** Reads what writeSplit wrote from `at`: steps between lines; returns the object and the offset after it.
 *  `keep` maps a split list's items as each line is parsed (what is parsed and replaced then dies young). */
function* readSplit(bytes: Uint8Array, at: number, keep: Record<string, (item: unknown) => unknown> = {}): Generator<void, { value: Record<string, unknown>; next: number }> {
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
    const f = Object.hasOwn(keep, k) ? keep[k] : null;
    for (let i = 0; i < split.$lines; i++) {
      const items = line();
      if (!Array.isArray(items)) throw new Error('unknown index format');
      if (map) for (const e of items as [unknown, unknown][]) map.set(e[0], e[1]);
      else for (const e of items) list.push(f ? f(e) : e);
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

/** Rebuilds the index from `bytes` (starting at `from`, after the header line). `keyOf` gives the string
 *  kept for a note's path: the service passes the host's own copy, so 100k paths are not kept twice. */
export async function decodeIndex(bytes: Uint8Array, from: number, pause: Pause = () => null, keyOf: (path: string) => string = (p) => p): Promise<InvertedIndex> {
  // Each path is swapped for the host's copy as its line is parsed: the parsed one then dies young
  // (kept to the end of the directory, 100k paths outlived every scavenge of a 100k warm load).
  const steps = readSplit(bytes, from, { paths: (p) => { if (typeof p !== 'string') throw new Error('unknown index format'); return keyOf(p); } });
  let r = steps.next();
  for (; !r.done; r = steps.next()) { const wait = pause(); if (wait) await wait; }
  const meta = r.value.value as unknown as Meta;
  const nl = r.value.next - 1;
  if (meta.format !== FORMAT || !Array.isArray(meta.paths) || !Array.isArray(meta.terms) || meta.titles?.length !== meta.paths.length || meta.fields?.join() !== FIELDS.join()) throw new Error('unknown index format');
  let start = nl + 1;
  while (start < bytes.length && bytes[start] === 0x20 && (bytes.byteOffset + start) % 4 !== 0) start++;
  // The u32 part's length is known once the directory is read: view every whole word after `start`.
  const words = Math.floor((bytes.length - start) / 4);
  const u = (bytes.byteOffset + start) % 4 === 0 ? new Uint32Array(bytes.buffer, bytes.byteOffset + start, words) : new Uint32Array(bytes.slice(start, start + words * 4).buffer, 0, words);
  // The index's first allocations each in a task of their own (in a profile at 100k notes they shared
  // one 150 ms block with the directory's parse).
  await nextTurn();
  const ix = new InvertedIndex();
  const count = meta.paths.length;
  if (count * NF > words) throw new Error('truncated index');
  if (count * (NF + RECORD / 4) > words) throw new Error('truncated index');
  const aliasOf = new Map(meta.aliases);
  const rec = start + count * NF * 4;
  const rv = new DataView(bytes.buffer, bytes.byteOffset + rec, count * RECORD);
  await nextTurn();
  if (count) ix.reserve(count - 1 + (count >> 3) + 64, true); // room for new notes, as for new terms (restoreTerms)
  await nextTurn();
  for (let i = 0; i < count; i++) {
    const id = ix.restoreDoc(meta.paths[i], u, i * NF, meta.titles[i], aliasOf.get(i) ?? '');
    ix.mtimes[id] = rv.getFloat64(i * RECORD, true);
    ix.sizes[id] = rv.getFloat64(i * RECORD + 8, true);
    ix.hashes.set(bytes.subarray(rec + i * RECORD + 16, rec + i * RECORD + 48), id * 32);
    // The clock every 32 notes: when V8 is marking, each note's allocations are charged its marking steps
    // (256 notes between readings were 22 ms of marking in one block of a 100k warm load).
    if ((i & 31) === 31) { const wait = pause(); if (wait) await wait; }
  }
  let w = count * (NF + RECORD / 4);
  const need = (n: number) => { if (w + n > words) throw new Error('truncated index'); };
  // The directory: per term its fields, each with postings, bytes and highest note; the lists follow
  // it, in order. A first pass finds where it ends, the second points each slot at its bytes. The
  // lists themselves are checked after the index is serving (verifyLists), not here.
  let listBytes = 0;
  let work = 0;
  for (let ti = 0; ti < meta.terms.length; ti++) {
    need(1);
    const nFields = u[w++];
    if (nFields > NF) throw new Error('bad field count');
    need(4 * nFields);
    for (let k = 0; k < nFields; k++) listBytes += u[w + 4 * k + 2];
    w += 4 * nFields;
    if ((work += 8) > WORK) { work = 0; const wait = pause(); if (wait) await wait; }
  }
  const lists = start + w * 4;
  if (lists + listBytes !== bytes.length) throw new Error('truncated index');
  const restore = ix.restoreTerms(meta.terms);
  while (!restore.next().done) { const wait = pause(); if (wait) await wait; }
  const chunk = ix.store.addChunk(bytes.subarray(lists));
  let off = 0;
  w = count * (NF + RECORD / 4);
  for (let ti = 0; ti < meta.terms.length; ti++) {
    const nFields = u[w++];
    for (let k = 0; k < nFields; k++, w += 4) {
      const [f, n, size, last] = [u[w], u[w + 1], u[w + 2], u[w + 3]];
      if (f >= NF || !n || last >= count) throw new Error('bad posting list');
      ix.store.adopt(ti * NF + f, chunk, off, size, n, last);
      off += size;
    }
    if ((work += 8) > WORK) { work = 0; const wait = pause(); if (wait) await wait; }
  }
  return ix;
}

/**
 * Reads every posting list of a loaded index once: short ids ascending and below the note count, each
 * list exactly its bytes, postings and highest note as the directory said. False for a damaged file
 * (the service then rebuilds). In slices; `abandoned` stops it early (the index was replaced).
 */
export async function verifyLists(ix: InvertedIndex, pause: Pause, abandoned: () => boolean = () => false): Promise<boolean> {
  const { store } = ix;
  const c = new PostingCursor();
  let work = 0;
  for (let slot = 0; slot < store.slots; slot++) {
    const count = ix.nextId; // notes added meanwhile append higher ids
    if (!store.has(slot)) continue;
    store.open(slot, c);
    let k = 0;
    let prev = -1;
    while (c.next()) {
      if (c.doc <= prev || c.doc >= count || c.tf < 1) return false;
      prev = c.doc;
      k++;
    }
    if (k !== store.count[slot] || c.at !== c.end || prev !== store.last[slot]) return false;
    if ((work += 8 + k) > WORK) { work = 0; const wait = pause(); if (wait) await wait; if (abandoned()) return true; }
  }
  return true;
}
