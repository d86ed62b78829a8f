// Pure map-reduce helpers: fitting notes to a character budget and packing them into batches.
// Each note is sent as <note path="…">…</note>, so the model can cite it by path.

export interface NoteDoc {
  path: string;
  title: string;
  text: string;
  /** The text was cut to fit one request; `originalChars` is its full length. */
  cut: boolean;
  originalChars: number;
}

export function noteBlock(d: NoteDoc): string {
  const mark = d.cut ? `\n[… cut: only the first ${d.text.length} of ${d.originalChars} characters fit in one request]` : '';
  return `<note path="${d.path.replace(/"/g, '&quot;')}">\n${d.text}${mark}\n</note>`;
}

const BLOCK_OVERHEAD = 160; // tags, path and the cut marker

/** Cuts a note's text so its block fits `budget` characters (at a line break when one is near). */
export function fitNote(path: string, title: string, text: string, budget: number): NoteDoc {
  const room = Math.max(200, budget - BLOCK_OVERHEAD - path.length);
  if (text.length <= room) return { path, title, text, cut: false, originalChars: text.length };
  let end = room;
  const nl = text.lastIndexOf('\n', room);
  if (nl > room * 0.8) end = nl;
  // Do not split a surrogate pair.
  const c = text.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return { path, title, text: text.slice(0, end), cut: true, originalChars: text.length };
}

/** Packs items in order into batches whose summed sizes stay within `budget` (an item alone may exceed it). */
export function packBatches<T>(items: T[], size: (t: T) => number, budget: number): T[][] {
  const out: T[][] = [];
  let cur: T[] = [];
  let used = 0;
  for (const it of items) {
    const n = size(it) + 2;
    if (cur.length && used + n > budget) { out.push(cur); cur = []; used = 0; }
    cur.push(it);
    used += n;
  }
  if (cur.length) out.push(cur);
  return out;
}

/** Runs `fn` over items with at most `limit` in flight; results keep the input order. */
export async function mapLimit<T, R>(items: T[], limit: number, fn: (t: T, i: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  // A holder, not a local: workers assign it from their own closures.
  const state: { failed: Error | null } = { failed: null };
  const worker = async () => {
    while (next < items.length && state.failed === null) {
      const i = next++;
      try {
        out[i] = await fn(items[i], i);
      } catch (e) {
        state.failed ??= e instanceof Error ? e : new Error(typeof e === 'string' ? e : 'a batch failed');
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (state.failed) throw state.failed;
  return out;
}
