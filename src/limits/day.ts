// Calendar days in the server's local time zone: quotas reset at local midnight, the activity chart
// buckets by local day. Pure functions of a timestamp.

export function dayKey(t: number): string {
  const d = new Date(t);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** Milliseconds from `t` to the next local midnight. */
export function msToNextDay(t: number): number {
  const d = new Date(t);
  const next = new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1).getTime();
  return next - t;
}

/** The `n` day keys ending with the day of `t`, oldest first. */
export function lastDays(t: number, n: number): string[] {
  const d = new Date(t);
  const out: string[] = [];
  for (let i = n - 1; i >= 0; i--) out.push(dayKey(new Date(d.getFullYear(), d.getMonth(), d.getDate() - i, 12).getTime()));
  return out;
}
