// Opaque, keyset-style page cursors: a page resumes after the last row's sort key, so rows added or
// removed in between do not shift the next page. Tampered cursors are refused, never half-trusted.
import { refuse } from './errors.js';

export function encodeCursor(value: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

export function decodeCursor<T extends Record<string, unknown>>(cursor: string, kind: string): T {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { k?: unknown } | null;
    if (v && typeof v === 'object' && v.k === kind) return v as T;
  } catch { /* fall through */ }
  refuse('invalid_argument', `The cursor is not one this tool returned; drop it to start from the first page, or pass the next_cursor of the previous page unchanged.`);
}

/** Pages a sorted array after the row whose key equals the cursor's `after` key. */
export function pageAfter<T>(rows: T[], keyOf: (row: T) => string, limit: number, kind: string, cursor?: string): { page: T[]; next_cursor: string | null } {
  let start = 0;
  if (cursor) {
    const { after } = decodeCursor<{ k: string; after: string }>(cursor, kind);
    // rows are sorted by key; binary search would need a comparator, a scan is fine for listing sizes.
    const i = rows.findIndex((r) => keyOf(r) > after);
    start = i < 0 ? rows.length : i;
  }
  const page = rows.slice(start, start + limit);
  const more = start + limit < rows.length;
  return { page, next_cursor: more && page.length ? encodeCursor({ k: kind, after: keyOf(page[page.length - 1]) }) : null };
}

/**
 * pageAfter over rows in any order, without sorting them all: the page is the `limit` smallest keys
 * after the cursor, kept in a short sorted list (most rows are turned away by one comparison). Keys
 * must be unique. Same answer as sorting then pageAfter; at 40k task rows the full sort was a long task.
 */
export function pageAfterUnsorted<T>(rows: T[], keyOf: (row: T) => string, limit: number, kind: string, cursor?: string): { page: T[]; next_cursor: string | null } {
  const after = cursor ? decodeCursor<{ k: string; after: string }>(cursor, kind).after : null;
  const page: { row: T; key: string }[] = [];
  let rest = 0;
  for (const row of rows) {
    const key = keyOf(row);
    if (after !== null && !(key > after)) continue;
    rest++;
    if (page.length >= limit && !(key < page[page.length - 1].key)) continue;
    let lo = 0;
    let hi = page.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (page[mid].key < key) lo = mid + 1; else hi = mid; }
    page.splice(lo, 0, { row, key });
    if (page.length > limit) page.pop();
  }
  const more = rest > limit;
  return { page: page.map((x) => x.row), next_cursor: more && page.length ? encodeCursor({ k: kind, after: page[page.length - 1].key }) : null };
}

/** A keyset sort key that orders newest first (then by path) under plain string comparison. */
export function newestFirstKey(ms: number, path: string): string {
  return String(9_999_999_999_999 - Math.floor(ms)).padStart(13, '0') + '\u0000' + path;
}
