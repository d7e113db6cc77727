import fc from 'fast-check';
import {
  DAY_MS,
  addDaysToInstant,
  addDaysToIsoDate,
  dayNumberOf,
  daysBefore,
  daysBetweenInstants,
  daysBetweenIsoDates,
  firstUtcMidnightAtOrAfter,
  isIsoCalendarDate,
  isoDateOf,
  isoDateOfDayNumber,
  utcDayNumberOf,
  utcMidnightOf,
} from './calendar';

describe('calendar (UTC)', () => {
  it('knows real ISO dates', () => {
    expect(isIsoCalendarDate('2024-02-29')).toBe(true);
    expect(isIsoCalendarDate('2025-02-29')).toBe(false);
    expect(isIsoCalendarDate('2026-1-01')).toBe(false);
    expect(isIsoCalendarDate(20260101)).toBe(false);
  });

  it('adds days to ISO dates across month, year and leap-day ends', () => {
    expect(addDaysToIsoDate('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDaysToIsoDate('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDaysToIsoDate('2025-12-31', 1)).toBe('2026-01-01');
    expect(daysBetweenIsoDates('2025-12-25', '2026-01-04')).toBe(10);
    expect(dayNumberOf('1970-01-02')).toBe(1);
    expect(isoDateOfDayNumber(0)).toBe('1970-01-01');
  });

  it('maps instants to their UTC day', () => {
    const lateEvening = new Date('2026-03-29T23:59:59.999Z');
    expect(isoDateOf(lateEvening)).toBe('2026-03-29');
    expect(utcMidnightOf('2026-03-29').toISOString()).toBe('2026-03-29T00:00:00.000Z');
    expect(utcDayNumberOf(lateEvening)).toBe(dayNumberOf('2026-03-29'));
    expect(firstUtcMidnightAtOrAfter(lateEvening).toISOString()).toBe('2026-03-30T00:00:00.000Z');
    expect(firstUtcMidnightAtOrAfter(utcMidnightOf('2026-03-30')).toISOString()).toBe('2026-03-30T00:00:00.000Z');
  });

  it('moves instants by 24-hour days and measures between them', () => {
    const now = new Date('2026-11-28T18:00:00Z');
    expect(daysBefore(now, 30).toISOString()).toBe('2026-10-29T18:00:00.000Z');
    expect(addDaysToInstant(now, 1).toISOString()).toBe('2026-11-29T18:00:00.000Z');
    expect(daysBetweenInstants(now, new Date('2026-11-30T06:00:00Z'))).toBe(1.5);
  });

  it('round-trips day numbers and ISO dates', () => {
    fc.assert(
      fc.property(fc.integer({ min: -200_000, max: 200_000 }), fc.integer({ min: -1000, max: 1000 }), (day, days) => {
        const iso = isoDateOfDayNumber(day);
        expect(isIsoCalendarDate(iso)).toBe(true);
        expect(dayNumberOf(iso)).toBe(day);
        expect(daysBetweenIsoDates(iso, addDaysToIsoDate(iso, days))).toBe(days);
        expect(utcMidnightOf(iso).getTime()).toBe(day * DAY_MS);
      }),
    );
  });
});
