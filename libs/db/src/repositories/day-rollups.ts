/**
 * What the per-day tables kept with the records (dashboard_day, ADR 0018; order_count_day,
 * migration 1765520000000) share: their key, the UTC day of a record, and how a set of days
 * becomes the bounds of the refresh's index range and of a "since" read.
 */

/** The UTC day of a record `r` (the dashboard's "last N days" are N × 24 h back from now). */
export const DAY_SQL = `(r.order_date AT TIME ZONE 'UTC')::date`;

const DAY_MS = 86_400_000;

/** 'YYYY-MM-DD' of a UTC day. */
export const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** The first UTC midnight at or after `since`: whole days from it come from a day table, the part-day before it from the rows. */
export const firstWholeDayAfter = (since: Date) => new Date(Math.ceil(since.getTime() / DAY_MS) * DAY_MS);

/**
 * The days to refresh ('YYYY-MM-DD', each once, in order) and the instants they span, so the
 * refresh reads the records through the date index; null when there is none.
 */
export function dayWindow(days: Iterable<string>): { days: string[]; from: Date; to: Date } | null {
  const sorted = [...new Set(days)].sort();
  if (sorted.length === 0) return null;
  const from = new Date(`${sorted[0]}T00:00:00Z`);
  const to = new Date(new Date(`${sorted[sorted.length - 1]}T00:00:00Z`).getTime() + DAY_MS);
  return { days: sorted, from, to };
}

/** Integer text from SQL (bigint, a count or sum) to a number; past 2^53 it is refused, never rounded. */
export function safeInteger(value: unknown): number {
  const parsed = Number(value ?? 0);
  if (!Number.isSafeInteger(parsed)) throw new RangeError(`not a safe integer: ${String(value)}`);
  return parsed;
}
