/**
 * Calendar arithmetic in UTC, the one place that knows a day is 86,400,000 ms. Two kinds of
 * value: ISO calendar dates ('YYYY-MM-DD', a day with no clock) and instants (`Date`). UTC has
 * no daylight-saving shifts, so every UTC day is exactly DAY_MS long.
 */
export const DAY_MS = 86_400_000;

/** A real calendar date written 'YYYY-MM-DD' ('2026-02-30' is not one). */
export function isIsoCalendarDate(value: unknown): value is string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const ms = Date.parse(`${value}T00:00:00Z`);
  return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === value;
}

/** Days since 1970-01-01 of an ISO date (a whole number for a valid date). */
export function dayNumberOf(isoDate: string): number {
  return Date.parse(`${isoDate}T00:00:00Z`) / DAY_MS;
}

/** The ISO date of a day number (dayNumberOf's inverse). */
export function isoDateOfDayNumber(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** The ISO date `days` calendar days after `isoDate` (before it when negative). */
export function addDaysToIsoDate(isoDate: string, days: number): string {
  return isoDateOfDayNumber(dayNumberOf(isoDate) + days);
}

/** Whole calendar days from one ISO date to another (negative when `to` is earlier). */
export function daysBetweenIsoDates(from: string, to: string): number {
  return dayNumberOf(to) - dayNumberOf(from);
}

/** The ISO date of the UTC day an instant falls on. */
export function isoDateOf(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

/** The UTC midnight starting an ISO date. */
export function utcMidnightOf(isoDate: string): Date {
  return new Date(`${isoDate}T00:00:00Z`);
}

/** The day number of the UTC day an instant falls on. */
export function utcDayNumberOf(instant: Date): number {
  return Math.floor(instant.getTime() / DAY_MS);
}

/** The first UTC midnight at or after an instant (the instant itself when it is one). */
export function firstUtcMidnightAtOrAfter(instant: Date): Date {
  return new Date(Math.ceil(instant.getTime() / DAY_MS) * DAY_MS);
}

/** The instant `days` × 24 hours after `instant` (before it when negative). */
export function addDaysToInstant(instant: Date, days: number): Date {
  return new Date(instant.getTime() + days * DAY_MS);
}

/** The instant `days` × 24 hours before `instant`: the start of a "last N days" window. */
export function daysBefore(instant: Date, days: number): Date {
  return new Date(instant.getTime() - days * DAY_MS);
}

/** The days from one instant to another, with the fraction (negative when `to` is earlier). */
export function daysBetweenInstants(from: Date, to: Date): number {
  return (to.getTime() - from.getTime()) / DAY_MS;
}
