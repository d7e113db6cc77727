/**
 * The days the ECB publishes reference rates (integrations.md §c.1): TARGET working days, so
 * never on weekends, 1 January, Good Friday, Easter Monday, 1 May, 25 and 26 December. Dates
 * are ISO calendar dates ('YYYY-MM-DD'); this is calendar arithmetic, not a clock.
 */
import { DAY_MS, addDaysToIsoDate, dayNumberOf } from '../calendar';

/** Easter Sunday of `year` (Gregorian; the anonymous computus) as a day number. */
function easterSunday(year: number): number {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const h = (19 * a + b - Math.floor(b / 4) - Math.floor((b - Math.floor((b + 8) / 25) + 1) / 3) + 15) % 30;
  const l = (32 + 2 * (b % 4) + 2 * Math.floor(c / 4) - h - (c % 4)) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return Date.UTC(year, month - 1, day) / DAY_MS;
}

export function isTargetDay(isoDate: string): boolean {
  const day = dayNumberOf(isoDate);
  const date = new Date(day * DAY_MS);
  const weekday = date.getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  const monthDay = isoDate.slice(5);
  if (monthDay === '01-01' || monthDay === '05-01' || monthDay === '12-25' || monthDay === '12-26') return false;
  const easter = easterSunday(date.getUTCFullYear());
  return day !== easter - 2 && day !== easter + 1;
}

/** The first TARGET day strictly after `isoDate`. */
export function nextTargetDay(isoDate: string): string {
  let day = addDaysToIsoDate(isoDate, 1);
  while (!isTargetDay(day)) day = addDaysToIsoDate(day, 1);
  return day;
}

/** The last TARGET day on or before `isoDate`: the ECB day whose rates apply to it once published. */
export function latestTargetDayOnOrBefore(isoDate: string): string {
  let day = isoDate;
  while (!isTargetDay(day)) day = addDaysToIsoDate(day, -1);
  return day;
}
