/** TARGET2 calendar: no reference rates on weekends, 1 Jan, Good Friday, Easter Monday, 1 May, 25 and 26 Dec. */
const DAY_MS = 86_400_000;

/** Easter Sunday (Gregorian), as days since the epoch: the anonymous Gregorian computus. */
export function easterSunday(year: number): number {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return Date.UTC(year, month - 1, day) / DAY_MS;
}

/** Whether the ECB publishes rates on this day (days since the epoch, UTC). */
export function isTargetDay(dayNumber: number): boolean {
  const date = new Date(dayNumber * DAY_MS);
  const weekday = date.getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  const month = date.getUTCMonth() + 1;
  const dom = date.getUTCDate();
  if ((month === 1 && dom === 1) || (month === 5 && dom === 1) || (month === 12 && (dom === 25 || dom === 26)))
    return false;
  const easter = easterSunday(date.getUTCFullYear());
  return dayNumber !== easter - 2 && dayNumber !== easter + 1;
}

export function isoDate(dayNumber: number): string {
  return new Date(dayNumber * DAY_MS).toISOString().slice(0, 10);
}

export function dayNumberOf(iso: string): number {
  return Date.parse(`${iso}T00:00:00Z`) / DAY_MS;
}

/**
 * The latest day with published rates at `nowMs`: today once the rates are out (about 16:00
 * CET; the sandbox uses 15:00 UTC all year), else the TARGET day before.
 */
export function latestPublishedDay(nowMs: number): number {
  let day = Math.floor(nowMs / DAY_MS);
  const minutes = Math.floor((nowMs % DAY_MS) / 60_000);
  if (!isTargetDay(day) || minutes < 15 * 60) day--;
  while (!isTargetDay(day)) day--;
  return day;
}
