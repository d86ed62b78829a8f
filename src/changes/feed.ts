// Pure parts of the change feed: the line format, cursors, retention and the start-up reconciliation
// diff. The stateful service (changes/service.ts) feeds these from host events and the data folder.
import { ShardedSet } from '../core/shardedMap.js';
import { Slicer } from '../services/slicer.js';

export type ChangeKind = 'created' | 'modified' | 'moved' | 'deleted' | 'gap' | 'reset';
export const NOTE_KINDS = ['created', 'modified', 'moved', 'deleted'] as const;

export interface ChangeEvent {
  /** Sequence number: the cursor `ev:<n>` resumes after it. */
  n: number;
  /** ms since epoch when the change was seen. */
  t: number;
  kind: ChangeKind;
  path?: string;
  /** Old path of a move. */
  from?: string;
  /** Name of the key that made the change, `human` for anything else, `server` for gap/reset lines. */
  by: string;
  /** Why: for deletions (who/how), gap and reset lines, and changes found at start. */
  reason?: string;
  /** For gap lines: the window the feed did not watch (ms). */
  gap_from?: number;
  gap_until?: number;
}

/** Per-note state remembered between runs: mtime, size, content hash, when the bytes last changed. */
export interface NoteState { m: number; s: number; h: string | null; c: number }

/** A NoteState to keep: a class instance, as host/fileStat.ts explains. In the long-task bench on Node 20
 *  the spreads that made entries (`{ ...cur, h }`) gave each a hidden class of its own, and one shared
 *  literal in their place made dictionary-mode objects. */
export const noteState = (m: number, s: number, h: string | null, c: number): NoteState => new NoteStateRecord(m, s, h, c);

class NoteStateRecord implements NoteState {
  declare readonly m: number;
  declare readonly s: number;
  declare readonly h: string | null;
  declare readonly c: number;
  constructor(m: number, s: number, h: string | null, c: number) {
    this.m = m;
    this.s = s;
    this.h = h;
    this.c = c;
  }
}

export function parseCursor(since: string): { kind: 'seq'; n: number } | { kind: 'time' } | null {
  const m = /^ev:(\d{1,15})$/.exec(since.trim());
  if (m) return { kind: 'seq', n: Number(m[1]) };
  if (/^ev:/i.test(since.trim())) return null;
  return { kind: 'time' };
}

export const cursorOf = (n: number) => `ev:${n}`;

/** The feed read from parts that each end at a line end (utf8Slices.decodeUtf8Lines), a part per slice:
 *  at 100k notes the feed holds a line per note after a vault-wide move, a 100+ ms parse in one go.
 *  Parts may come lazily (utf8Slices.utf8LinePieces), so the file's text is not all held while it is parsed. */
export async function parseFeedParts(parts: Iterable<string> | AsyncIterable<string>, pause: () => Promise<void>): Promise<{ events: ChangeEvent[]; bad: number }> {
  const events: ChangeEvent[] = [];
  let bad = 0;
  let first = true;
  for await (const part of parts) {
    if (!first) await pause();
    first = false;
    bad += parseFeedPart(part, events);
  }
  // Saved in order; sorted only if a line was appended out of order.
  for (let i = 1; i < events.length; i++) if (events[i - 1].n > events[i].n) { events.sort((a, b) => a.n - b.n); break; }
  return { events, bad };
}

function parseFeedPart(text: string, events: ChangeEvent[]): number {
  let bad = 0;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const e = JSON.parse(line) as ChangeEvent;
      if (typeof e.n === 'number' && typeof e.t === 'number' && typeof e.kind === 'string') events.push(e);
      else bad++;
    } catch { bad++; }
  }
  return bad;
}

/** One event's line in the feed file. */
const feedLine = (e: ChangeEvent): string => JSON.stringify(e) + '\n';

export function feedText(events: ChangeEvent[]): string {
  return events.map(feedLine).join('');
}

/** feedText in parts, one a slice of the app's thread. Fixed parts of 2,048 lines were a 22 ms step in
 *  a profile of a 100k-note rename's compaction, and even parts of 512 took 17 ms when V8 was marking
 *  (its marking steps are charged to what allocates, about 64 KB of strings here); a part now ends when
 *  the slice's time is spent. */
export async function feedPartsInTurns(events: readonly ChangeEvent[], slicer = new Slicer()): Promise<string[]> {
  const parts: string[] = [];
  let lines: string[] = [];
  for (const e of events) {
    lines.push(feedLine(e));
    if (slicer.due()) { parts.push(lines.join('')); lines = []; await slicer.pause(); }
  }
  if (lines.length) parts.push(lines.join(''));
  return parts;
}

/** Retention: drop events older than `maxAgeMs` before `now`, then keep the newest `maxCount`. */
export function retain(events: ChangeEvent[], now: number, maxAgeMs: number, maxCount: number): { kept: ChangeEvent[]; dropped: ChangeEvent[] } {
  let start = 0;
  const cut = now - maxAgeMs;
  while (start < events.length && events[start].t < cut) start++;
  start = Math.max(start, events.length - maxCount);
  return { kept: events.slice(start), dropped: events.slice(0, start) };
}

/** A note as the host lists it now (its FileStat, used as is: no object per note made for the diff). */
export interface CurrentNote { path: string; mtime: number; size: number }
export type Diff =
  | { kind: 'created'; path: string }
  | { kind: 'changed?'; path: string } // mtime or size differ: the caller compares hashes
  | { kind: 'deleted'; path: string };

/** The remembered state by path: a Map, a ShardedMap or a plain record (tests). */
export type StateLookup = Record<string, NoteState> | { get(path: string): NoteState | undefined; keys(): IterableIterator<string> };

/** Compares the notes present now with the remembered state (no I/O). */
export function diffState(prev: StateLookup, now: readonly CurrentNote[]): Diff[] {
  const steps = diffSteps(prev, now);
  for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
}

/** diffState a step at a time: yields every 1,024 notes, so a caller can pause (100k notes were a 110 ms block). */
export function* diffSteps(prev: StateLookup, now: readonly CurrentNote[]): Generator<void, Diff[], void> {
  const out: Diff[] = [];
  // Sharded: a Set of 100k paths rehashed every entry in one add() (a 10-25 ms step).
  const seen = new ShardedSet();
  const lookup = typeof prev.get === 'function' && typeof prev.keys === 'function' ? (prev as Exclude<StateLookup, Record<string, NoteState>>) : null;
  const rec = lookup ? null : (prev as Record<string, NoteState>);
  const get = (k: string): NoteState | undefined => (lookup ? lookup.get(k) : rec && Object.hasOwn(rec, k) ? rec[k] : undefined);
  let n = 0;
  for (const f of now) {
    seen.add(f.path);
    const p = get(f.path);
    if (!p) out.push({ kind: 'created', path: f.path });
    else if (p.m !== f.mtime || p.s !== f.size) out.push({ kind: 'changed?', path: f.path });
    if ((++n & 1023) === 0) yield;
  }
  for (const path of lookup ? lookup.keys() : Object.keys(rec ?? {})) {
    if (!seen.has(path)) out.push({ kind: 'deleted', path });
    if ((++n & 1023) === 0) yield;
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Pairs deletions with creations of identical bytes into moves (one each, first by path). */
export function pairMoves(deleted: { path: string; h: string | null }[], created: { path: string; h: string | null }[]): { moves: { from: string; to: string }[]; deleted: string[]; created: string[] } {
  const byHash = new Map<string, string[]>();
  for (const c of created) if (c.h) { const l = byHash.get(c.h) ?? []; l.push(c.path); byHash.set(c.h, l); }
  const moves: { from: string; to: string }[] = [];
  const used = new Set<string>();
  const gone: string[] = [];
  for (const d of deleted) {
    const cands = d.h ? byHash.get(d.h) : undefined;
    const to = cands?.find((p) => !used.has(p));
    if (to) { used.add(to); moves.push({ from: d.path, to }); } else gone.push(d.path);
  }
  return { moves, deleted: gone, created: created.map((c) => c.path).filter((p) => !used.has(p)) };
}

/** First index whose element satisfies `pred` (which is false then true along the array). */
export function lowerBound<T>(a: T[], pred: (x: T) => boolean): number {
  let lo = 0, hi = a.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (pred(a[mid])) hi = mid; else lo = mid + 1; }
  return lo;
}

/** A line as a root-confined caller sees it: moves across the root become creations or deletions. */
export function scopeEvent(e: ChangeEvent, visible: (p: string) => boolean): ChangeEvent | null {
  if (e.kind === 'gap' || e.kind === 'reset') return e;
  if (e.kind === 'moved' && e.from !== undefined) {
    const a = visible(e.from), b = visible(e.path!);
    if (a && b) return e;
    if (b) { const { from: _f, ...rest } = e; return { ...rest, kind: 'created', reason: 'moved in from outside the folders this key can see' }; }
    if (a) return { n: e.n, t: e.t, kind: 'deleted', path: e.from, by: e.by, reason: 'moved to a place this key cannot see' };
    return null;
  }
  return e.path !== undefined && visible(e.path) ? e : null;
}
