import { refuse } from './errors.js';

export function isoUtc(ms: number): string {
  return new Date(ms).toISOString();
}

/** Accepts an ISO 8601 date/time (a bare date is midnight UTC) or epoch milliseconds. */
export function parseTime(value: string, field: string): number {
  const s = value.trim();
  const ms = /^\d{10,}$/.test(s) ? Number(s) : Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(s) ? `${s}T00:00:00Z` : s);
  if (!Number.isFinite(ms)) refuse('invalid_argument', `${field}="${value}" is not a date; use ISO 8601 such as "2026-01-31" or "2026-01-31T09:00:00Z".`);
  return ms;
}
