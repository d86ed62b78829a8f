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

/** A keyset sort key that orders newest first (then by path) under plain string comparison. */
export function newestFirstKey(ms: number, path: string): string {
  return String(9_999_999_999_999 - Math.floor(ms)).padStart(13, '0') + '\u0000' + path;
}
