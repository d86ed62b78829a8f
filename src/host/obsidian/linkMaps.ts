// The app's resolvedLinks / unresolvedLinks as ObsidianHost shows them: NFC keys, dot-folders and
// paths the symlink rule refuses left out. A generator, so the copy can run to the end at once or a
// slice at a time (at 100k notes the whole copy is about 300 ms of the UI thread).

import { NON_ASCII, hidden, nfc } from './paths.js';

export type LinkRows = Record<string, Record<string, number>>;

export interface LinkView {
  /** Whether a (NFC) source or target is shown. */
  visible: (p: string) => boolean;
  /** True when some path is refused (only then are targets filtered one by one). */
  refusing: boolean;
}

/** Copies `m` into `out` row by row, yielding after each row. Rows whose keys are already NFC (all-ASCII
 *  paths: nearly every vault) are the app's own objects, not copies; nothing downstream writes into them. */
export function* copyLinkRows(m: LinkRows, out: LinkRows, targetsArePaths: boolean, v: LinkView): Generator<void, void, void> {
  for (const src in m) {
    if (hidden(src) || !v.visible(nfc(src))) { yield; continue; }
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
    out[nfc(src)] = row;
    yield;
  }
}
