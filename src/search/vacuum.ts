// Dropping the postings of discarded notes (MiniSearch's "vacuum"), in time slices. MiniSearch's own
// autoVacuum counts terms, not time (1,000 terms per batch), and turns every packed posting list it
// visits (persist.ts) into a Map: on the 6.5k-note Hub vault one of its batches held the thread for
// 100–200 ms. This one reads the clock every few thousand postings and filters packed lists without
// unpacking them.
// The service runs it after updates (autoVacuum is off in miniSearchOptions) and never during a save.
import type MiniSearch from 'minisearch';
import type { IndexedDoc } from './keywordIndex.js';
import { PackedPostings } from './persist.js';

type FieldMap = Map<number, Map<number, number>>;
interface Internals {
  _index: { entries(): Iterator<[string, FieldMap]>; get(term: string): FieldMap | undefined; delete(term: string): void };
  _documentIds: Map<number, string>;
  _dirtCount: number;
  _documentCount: number;
}

/** MiniSearch's own thresholds: at least 20 discarded notes and a tenth of the index. */
export function vacuumDue(ms: MiniSearch<IndexedDoc>): boolean {
  const ix = ms as unknown as Internals;
  return ix._dirtCount >= 20 && ix._dirtCount / (1 + ix._documentCount + ix._dirtCount) >= 0.1;
}

function fieldsWork(fields: FieldMap): number {
  let w = 0;
  for (const p of fields.values()) w += p.size;
  return w;
}

/** Removes every posting whose note is gone; `pause` is awaited whenever `sliceMs` has passed. Notes
 *  added meanwhile are live (their ids are known), so updates may run between slices. */
export async function vacuumSliced(ms: MiniSearch<IndexedDoc>, sliceMs: number, pause: () => Promise<void>): Promise<void> {
  const ix = ms as unknown as Internals;
  const dirt = ix._dirtCount;
  const docs = ix._documentIds;
  const emptied: string[] = [];
  let start = Date.now();
  let n = 0;
  const it = ix._index.entries();
  for (let r = it.next(); !r.done; r = it.next()) {
    const [term, fields] = r.value;
    for (const [fid, postings] of fields) {
      if (postings instanceof PackedPostings && postings.pairs) {
        const p = postings.pairs;
        let dead = 0;
        for (let i = 0; i < p.length; i += 2) if (!docs.has(p[i])) dead++;
        if (!dead) continue;
        if (dead * 2 === p.length) { fields.delete(fid); continue; }
        const kept = new Uint32Array(p.length - 2 * dead);
        let w = 0;
        for (let i = 0; i < p.length; i += 2) if (docs.has(p[i])) { kept[w++] = p[i]; kept[w++] = p[i + 1]; }
        fields.set(fid, new PackedPostings(kept));
      } else {
        for (const d of postings.keys()) if (!docs.has(d)) postings.delete(d);
        if (!postings.size) fields.delete(fid);
      }
    }
    if (!fields.size) emptied.push(term);
    // The clock is read after about 4k postings (a common term has one per note).
    if ((n += 1 + fieldsWork(fields)) > 4096) { n = 0; if (Date.now() - start > sliceMs) { await pause(); start = Date.now(); } }
  }
  // Terms left without postings go after the walk (a note added meanwhile may have brought one back).
  for (let i = 0; i < emptied.length; i++) {
    if (ix._index.get(emptied[i])?.size === 0) ix._index.delete(emptied[i]);
    if ((i & 255) === 255 && Date.now() - start > sliceMs) { await pause(); start = Date.now(); }
  }
  ix._dirtCount = Math.max(0, ix._dirtCount - dirt);
}
