// The app's resolvedLinks / unresolvedLinks as ObsidianHost shows them: NFC keys, dot-folders and
// paths the symlink rule refuses left out. Copied into sharded maps (core/shardedMap.ts): at 100k
// notes, adding the rows to a plain object rehashed it for 20-25 ms at once, and every later
// enumeration of such an object collects its 100k keys in one go. The copy runs to the end at once or
// a row at a time (the whole copy is about 300 ms of the UI thread at 100k notes).

import { ShardedMap } from '../../core/shardedMap.js';
import { NON_ASCII, hidden, nfc } from './paths.js';

export type LinkRows = Record<string, Record<string, number>>;
type Row = Record<string, number>;
/** Both maps copied (they satisfy the port's LinkRowMaps). */
export interface LinkCopy { resolved: ShardedMap<Row>; unresolved: ShardedMap<Row> }

export interface LinkView {
  /** Whether a (NFC) source or target is shown. */
  visible: (p: string) => boolean;
  /** True when some path is refused (only then are targets filtered one by one). */
  readonly refusing: boolean;
}

/**
 * Copies `m` into `out` row by row, yielding after each row. Rows whose keys are already NFC (all-ASCII
 * paths: nearly every vault) are the app's own objects, not copies; nothing downstream writes into them.
 * `sources`, when given, names every source `m` may have, exactly as its keys are spelled: they are
 * looked up one at a time. Enumerating the app's object instead collects all its keys in one step, 22 ms
 * at 100k notes (twice per copy: resolved and unresolved) that cannot be sliced.
 */
export function* copyLinkRows(m: LinkRows, out: ShardedMap<Row>, targetsArePaths: boolean, v: LinkView, sources: Iterable<string> | null = null): Generator<void, void, void> {
  if (sources) {
    for (const src of sources) { if (Object.hasOwn(m, src)) copyRow(m, src, out, targetsArePaths, v); yield; }
  } else {
    for (const src in m) { copyRow(m, src, out, targetsArePaths, v); yield; }
  }
}

function copyRow(m: LinkRows, src: string, out: ShardedMap<Row>, targetsArePaths: boolean, v: LinkView): void {
  if (hidden(src) || !v.visible(nfc(src))) return;
  const targets = m[src];
  let row = targets;
  if (targetsArePaths) {
    for (const t in targets) {
      if (!NON_ASCII.test(t)) continue;
      row = {};
      for (const [k, n] of Object.entries(targets)) { const key = nfc(k); row[key] = (row[key] ?? 0) + n; }
      break;
    }
    // Links into a path the symlink rule refuses are not links.
    if (v.refusing && Object.keys(row).some((k) => !v.visible(nfc(k)))) row = Object.fromEntries(Object.entries(row).filter(([k]) => v.visible(nfc(k))));
  }
  out.set(nfc(src), row);
}

/** The host's copy of the app's two maps, kept until an event drops it. */
export class LinkCopies {
  private kept: LinkCopy | null = null;
  private records: { resolved: LinkRows; unresolved: LinkRows } | null = null;
  /** Bumped by every drop: a copy begun before one is returned to its caller but not kept. */
  private gen = 0;

  /** `sources`: every path the app's maps may have as a source, spelled as their keys are (see
   *  copyLinkRows), or null when no such list is at hand (the app's keys are then enumerated). */
  constructor(private readonly app: () => { resolved: LinkRows; unresolved: LinkRows }, private readonly view: LinkView, private readonly sources: () => Iterable<string> | null = () => null) {}

  drop(): void {
    this.kept = null;
    this.records = null;
    this.gen++;
  }

  /** The copy, made at once if none is kept. */
  now(): LinkCopy {
    if (this.kept) return this.kept;
    const copy = this.copy();
    for (let step = copy.next(); ; step = copy.next()) if (step.done) return step.value;
  }

  /** The copy, made with `pause()` awaited between rows when it returns a promise. */
  async inSlices(pause: () => Promise<void> | undefined): Promise<LinkCopy> {
    if (this.kept) return this.kept;
    const copy = this.copy();
    for (let step = copy.next(); ; step = copy.next()) {
      if (step.done) return step.value;
      const p = pause();
      if (p) await p;
    }
  }

  /** The copy as plain objects (VaultHost.resolvedLinks()), made at once. */
  asRecords(): { resolved: LinkRows; unresolved: LinkRows } {
    if (this.records) return this.records;
    const { resolved, unresolved } = this.now();
    const gen = this.gen;
    const out = { resolved: Object.fromEntries(resolved.entries()), unresolved: Object.fromEntries(unresolved.entries()) };
    if (gen === this.gen) this.records = out;
    return out;
  }

  private *copy(): Generator<void, LinkCopy, void> {
    const gen = ++this.gen;
    const { resolved, unresolved } = this.app();
    const maps = { resolved: new ShardedMap<Row>(), unresolved: new ShardedMap<Row>() };
    yield* copyLinkRows(resolved, maps.resolved, true, this.view, this.sources());
    yield* copyLinkRows(unresolved, maps.unresolved, false, this.view, this.sources());
    if (gen === this.gen) this.kept = maps;
    return maps;
  }
}
