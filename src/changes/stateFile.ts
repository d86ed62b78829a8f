// The change feed's saved state (changes-state.json), written and read in slices that yield: at 100k
// notes it is about 8 MB, and one JSON.stringify or JSON.parse of it held the event loop (Obsidian's UI
// thread) for 100 ms and more. Format v2 is line-based: a JSON header line, then one JSON array
// [path, mtime, size, hash, changed] per note. v1 (one JSON object) is still read, once, then rewritten.
import type { NoteState } from './feed.js';
import { Slicer } from '../services/slicer.js';
import { NoteTable } from './noteTable.js';

export interface StateHeader {
  seq: number;
  saved: number;
  /** Events before this time (or seq) were dropped by retention. */
  pruned_before_t: number;
  pruned_before_n: number;
}

/** `files` is in columns (noteTable.ts), its path index sharded: a Map of 100k paths grows by
 *  rehashing every entry in one set() (10-25 ms). */
export interface LoadedState extends StateHeader { files: NoteTable }

/** The state file's text in parts (their concatenation is the file), each handed to `emit` as it is
 *  made and awaited before the next: the save writes each through one reused buffer, so no more than
 *  one part is alive at a time (all made first, their 14 MB at 100k notes outlived the young
 *  generation). Parts are a few thousand lines, never one string (joining the 15 MB of 100k notes held
 *  the thread 50-60 ms). */
export async function emitState(header: StateHeader, files: Iterable<[string, NoteState]>, emit: (part: string) => Promise<void> | void): Promise<void> {
  const slicer = new Slicer();
  await emit(JSON.stringify({ v: 2, ...header }) + '\n');
  let lines: string[] = [];
  // Each part one flat string, its line end included: `join() + '\n'` made a cons string, which the
  // encoder flattened into a copy.
  const close = async () => { lines.push(''); const part = lines.join('\n'); lines = []; await emit(part); };
  for (const [p, s] of files) {
    lines.push(JSON.stringify([p, s.m, s.s, s.h, s.c]));
    if (lines.length === 2048) await close();
    if (slicer.due()) await slicer.pause();
  }
  if (lines.length) await close();
}

type Row = [string, number, number, string | null, number];
const isRow = (r: unknown): r is Row => Array.isArray(r) && r.length === 5 && typeof r[0] === 'string' && typeof r[1] === 'number' && typeof r[2] === 'number' && (r[3] === null || typeof r[3] === 'string') && typeof r[4] === 'number';

/** The saved state, or a problem saying why it cannot be used (then the feed starts afresh). Parts may
 *  come lazily (utf8Slices.utf8LinePieces), so no more than one piece's text is held at a time. `keyOf`
 *  gives the string to keep as a path's key: the service passes the host's own copy of the path, so the
 *  one just parsed dies young and 100k notes' paths are not kept twice. */
export async function decodeState(input: string | Iterable<string> | AsyncIterable<string>, keyOf: (path: string) => string = (p) => p): Promise<{ state: LoadedState | null; problem: string | null }> {
  const slicer = new Slicer();
  // In parts (utf8Slices.decodeUtf8Lines), each ending at a line end: the head line is in the first.
  const parts = typeof input === 'string' ? [input] : input;
  const it = Symbol.asyncIterator in parts ? parts[Symbol.asyncIterator]() : parts[Symbol.iterator]();
  let first = await it.next();
  const text = first.done ? '' : first.value;
  const nl = text.indexOf('\n');
  let head: { v?: unknown; seq?: unknown; saved?: unknown; pruned_before_t?: unknown; pruned_before_n?: unknown; files?: unknown };
  try { head = JSON.parse(nl < 0 ? text : text.slice(0, nl)) as typeof head; } catch { return { state: null, problem: 'the saved state is corrupt' }; }
  if (!head || typeof head.seq !== 'number' || (head.v !== 1 && head.v !== 2)) return { state: null, problem: 'the saved state has an unknown format' };
  const files = new NoteTable();
  if (head.v === 1) {
    // The old single-object file (one parse, once: the next save writes v2).
    if (!head.files || typeof head.files !== 'object') return { state: null, problem: 'the saved state has an unknown format' };
    for (const [p, r] of Object.entries(head.files as Record<string, unknown>)) {
      const row: unknown[] = [p, ...(Array.isArray(r) ? (r as unknown[]) : [])];
      if (isRow(row)) files.put(p, row[1], row[2], row[3], row[4]);
      if (slicer.due()) await slicer.pause();
    }
  } else {
    for (let at = nl < 0 ? text.length : nl + 1; !first.done; first = await it.next(), at = 0) {
      const part = first.value;
      while (at < part.length) {
        let end = part.indexOf('\n', at);
        if (end < 0) end = part.length;
        if (end > at) {
          let row: unknown;
          try { row = JSON.parse(part.slice(at, end)); } catch { return { state: null, problem: 'the saved state is corrupt' }; }
          if (!isRow(row)) return { state: null, problem: 'the saved state is corrupt' };
          files.put(keyOf(row[0]), row[1], row[2], row[3], row[4]);
        }
        at = end + 1;
        if (slicer.due()) await slicer.pause();
      }
    }
  }
  const num = (x: unknown) => (typeof x === 'number' ? x : 0);
  return { state: { seq: head.seq, saved: num(head.saved), pruned_before_t: num(head.pruned_before_t), pruned_before_n: num(head.pruned_before_n), files }, problem: null };
}
