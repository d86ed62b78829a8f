// The app's resolvedLinks / unresolvedLinks as ObsidianHost shows them: NFC keys, dot-folders and
// paths the symlink rule refuses left out. Read through views, row by row as asked, not copied: a copy
// of 100k rows into sharded maps (core/shardedMap.ts) was 21 MB of map tables made during the warm
// load, about 7 MB of them alive through the young generation's collections, which lengthened them.
// A plain-object copy is worse still: 100k keys rehash and enumerate in one block.

import { NON_ASCII, hidden, nfc } from './paths.js';
import type { LinkRowMap, LinkRowMaps } from '../port.js';

export type LinkRows = Record<string, Record<string, number>>;
type Row = Record<string, number>;

export interface LinkView {
  /** Whether a (NFC) source or target is shown. */
  visible: (p: string) => boolean;
  /** True when some path is refused (only then are targets filtered one by one). */
  readonly refusing: boolean;
}

export interface LinkSource {
  /** The app's two maps, as they are now. */
  resolved: () => LinkRows;
  unresolved: () => LinkRows;
  /** Every path the app's maps may have as a source, spelled exactly as their keys are, or null when no
   *  such list is at hand: the app's keys are then enumerated (one step of 22 ms at 100k notes). */
  sources: () => Iterable<string> | null;
  /** The app's spelling of an NFC path (a file it knows), or null. */
  spelling: (nfcPath: string) => string | null;
}

/** One of the app's maps, read on demand. Rows whose keys are already NFC (all-ASCII paths: nearly
 *  every vault) are the app's own objects; nothing downstream writes into them. */
class LinkRowView implements LinkRowMap {
  constructor(private readonly which: 'resolved' | 'unresolved', private readonly src: LinkSource, private readonly view: LinkView) {}

  private get map(): LinkRows {
    return this.src[this.which]();
  }

  get(source: string): Row | undefined {
    if (hidden(source) || !this.view.visible(source)) return undefined;
    const m = this.map;
    let key: string | null = source;
    if (!Object.hasOwn(m, key) && NON_ASCII.test(source)) key = this.src.spelling(source);
    if (key === null || !Object.hasOwn(m, key)) return undefined;
    return this.which === 'resolved' ? shownTargets(m[key], this.view) : m[key];
  }

  /** NFC sources shown, in the app's order (or the file list's). */
  *keys(): Generator<string, void, void> {
    const m = this.map;
    const sources = this.src.sources();
    if (sources) {
      for (const s of sources) if (Object.hasOwn(m, s) && this.shown(s)) yield nfc(s);
    } else {
      for (const s in m) if (this.shown(s)) yield nfc(s);
    }
  }

  private shown(appKey: string): boolean {
    return !hidden(appKey) && this.view.visible(nfc(appKey));
  }
}

/** A resolved row's targets as NFC paths, links into refused paths left out (they are not links). */
function shownTargets(targets: Row, v: LinkView): Row {
  let row = targets;
  for (const t in targets) {
    if (!NON_ASCII.test(t)) continue;
    row = {};
    for (const [k, n] of Object.entries(targets)) { const key = nfc(k); row[key] = (row[key] ?? 0) + n; }
    break;
  }
  if (v.refusing && Object.keys(row).some((k) => !v.visible(nfc(k)))) row = Object.fromEntries(Object.entries(row).filter(([k]) => v.visible(nfc(k))));
  return row;
}

/** The host's views of the app's two maps, and their plain-object copy (kept until an event drops it). */
export class LinkViews {
  readonly rows: LinkRowMaps;
  private records: { resolved: LinkRows; unresolved: LinkRows } | null = null;

  constructor(source: LinkSource, view: LinkView) {
    this.rows = { resolved: new LinkRowView('resolved', source, view), unresolved: new LinkRowView('unresolved', source, view) };
  }

  drop(): void {
    this.records = null;
  }

  /** The maps as plain objects (VaultHost.resolvedLinks()), made at once. */
  asRecords(): { resolved: LinkRows; unresolved: LinkRows } {
    if (this.records) return this.records;
    const record = (m: LinkRowMap) => { const out: LinkRows = {}; for (const k of m.keys()) { const row = m.get(k); if (row) out[k] = row; } return out; };
    this.records = { resolved: record(this.rows.resolved), unresolved: record(this.rows.unresolved) };
    return this.records;
  }
}
