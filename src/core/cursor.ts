// Opaque, keyset-style page cursors: a page resumes after the last row's sort key, so rows added or
// removed in between do not shift the next page. Tampered cursors are refused, never half-trusted.
import { refuse } from './errors.js';

/** Refuses a cursor this tool did not return (or one whose key it cannot read). */
export function refuseCursor(): never {
  refuse('invalid_argument', 'The cursor is not one this tool returned; drop it to start from the first page, or pass the next_cursor of the previous page unchanged.');
}

export function encodeCursor(value: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

export function decodeCursor<T extends Record<string, unknown>>(cursor: string, kind: string): T {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { k?: unknown } | null;
    if (v && typeof v === 'object' && v.k === kind) return v as T;
  } catch { /* fall through */ }
  refuseCursor();
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

/** The key a page cursor resumes after (refused when the cursor is not this kind's). */
export function cursorAfter(cursor: string, kind: string): string {
  const { after } = decodeCursor<{ k: string; after: unknown }>(cursor, kind);
  if (typeof after !== 'string') refuseCursor();
  return after;
}

/**
 * pageAfter over rows offered one at a time in any order, without sorting or keeping them all: the
 * page is the `limit` smallest rows after `from` (the cursor's row: only its key's parts, K), kept in a
 * short sorted list (most rows are turned away by one comparison). `compare` orders rows as their keys
 * do; keys must be unique. Same answer as sorting then pageAfter. No key string is made per row, only
 * the cursor's: list_tasks at 100k notes built 40k concatenated keys and compared them in one task,
 * 74 ms of CPU, two thirds of it V8 marking the strings it had to flatten.
 */
export class PageCollector<T extends K, K = T> {
  private readonly page: T[] = [];
  /** Rows offered after `from`: more than `limit` means another page. */
  private beyond = 0;

  constructor(private readonly limit: number, private readonly compare: (a: K, b: K) => number, private readonly from: K | null = null) {}

  offer(row: T): void {
    if (this.from !== null && this.compare(row, this.from) <= 0) return;
    this.beyond++;
    const page = this.page;
    if (page.length >= this.limit && (!page.length || this.compare(row, page[page.length - 1]) >= 0)) return;
    let lo = 0;
    let hi = page.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (this.compare(page[mid], row) < 0) lo = mid + 1; else hi = mid; }
    page.splice(lo, 0, row);
    if (page.length > this.limit) page.pop();
  }

  /** The page, and a cursor (the last row's key) when rows after it were offered. */
  result(keyOf: (row: T) => string, kind: string): { page: T[]; next_cursor: string | null } {
    const page = this.page;
    return { page, next_cursor: this.beyond > this.limit && page.length ? encodeCursor({ k: kind, after: keyOf(page[page.length - 1]) }) : null };
  }
}

/** A keyset sort key that orders newest first (then by path) under plain string comparison. */
export function newestFirstKey(ms: number, path: string): string {
  return String(9_999_999_999_999 - Math.floor(ms)).padStart(13, '0') + '\u0000' + path;
}
