/**
 * The years the product supports, for every date and month a request may carry. From 1999: the
 * ECB's reference rates start on 4 January 1999, so no amount can be converted before it, and
 * every order is later still (Etsy opened in 2005, Printify in 2015). To 2099: far past any
 * order, and it keeps every date four digits wide — PostgreSQL and `Date#toISOString` write
 * years before 1 or after 9999 as "-000001" or "+010000", which is where unbounded dates broke.
 */
export const FIRST_SUPPORTED_YEAR = 1999;
export const LAST_SUPPORTED_YEAR = 2099;
export const FIRST_SUPPORTED_DATE = `${FIRST_SUPPORTED_YEAR}-01-01`;
export const LAST_SUPPORTED_DATE = `${LAST_SUPPORTED_YEAR}-12-31`;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

const supportedYear = (year: number) => year >= FIRST_SUPPORTED_YEAR && year <= LAST_SUPPORTED_YEAR;

/** A real calendar date written YYYY-MM-DD (no 2026-02-30) within the supported years. */
export function isSupportedIsoDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const parts = ISO_DATE.exec(value);
  if (!parts || !supportedYear(Number(parts[1]))) return false;
  const date = new Date(Date.UTC(Number(parts[1]), Number(parts[2]) - 1, Number(parts[3])));
  return date.toISOString().slice(0, 10) === value;
}

/** A month written YYYY-MM within the supported years. */
export function isSupportedMonth(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const parts = ISO_MONTH.exec(value);
  return parts !== null && supportedYear(Number(parts[1]));
}
