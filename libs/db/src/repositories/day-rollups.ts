/**
 * What the per-day tables kept with the records (dashboard_day, ADR 0018; order_count_day,
 * migration 1765520000000) share: their key, the UTC day of a record, and how a set of days
 * becomes the bounds of the refresh's index range and of a "since" read.
 */
import { addDaysToIsoDate, firstUtcMidnightAtOrAfter, isoDateOf, utcMidnightOf } from '@pod/domain';

/** The UTC day of a record `r` (the dashboard's "last N days" are N × 24 h back from now). */
export const DAY_SQL = `(r.order_date AT TIME ZONE 'UTC')::date`;

/** 'YYYY-MM-DD' of a UTC day. */
export const isoDay = isoDateOf;

/** The first UTC midnight at or after `since`: whole days from it come from a day table, the part-day before it from the rows. */
export const firstWholeDayAfter = firstUtcMidnightAtOrAfter;

/**
 * The days to refresh ('YYYY-MM-DD', each once, in order) and the instants they span, so the
 * refresh reads the records through the date index; null when there is none.
 */
export function dayWindow(days: Iterable<string>): { days: string[]; from: Date; to: Date } | null {
  const sorted = [...new Set(days)].sort();
  if (sorted.length === 0) return null;
  const from = utcMidnightOf(sorted[0]);
  const to = utcMidnightOf(addDaysToIsoDate(sorted[sorted.length - 1], 1));
  return { days: sorted, from, to };
}

/** Integer text from SQL (bigint, a count or sum) to a number; past 2^53 it is refused, never rounded. */
export function safeInteger(value: unknown): number {
  const parsed = Number(value ?? 0);
  if (!Number.isSafeInteger(parsed)) throw new RangeError(`not a safe integer: ${String(value)}`);
  return parsed;
}
