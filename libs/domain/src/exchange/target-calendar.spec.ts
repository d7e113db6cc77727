import { isIsoCalendarDate as isIsoDate } from '../calendar';
import { isTargetDay, latestTargetDayOnOrBefore, nextTargetDay } from './target-calendar';

describe('TARGET calendar', () => {
  it('has no ECB day on weekends and TARGET holidays (2025: Good Friday 18 Apr, Easter Monday 21 Apr, 1 May)', () => {
    for (const day of [
      '2025-04-18',
      '2025-04-21',
      '2025-05-01',
      '2025-12-25',
      '2025-12-26',
      '2026-01-01',
      '2026-03-14',
      '2026-03-15',
      '2026-04-03',
      '2026-04-06',
    ])
      expect(isTargetDay(day)).toBe(false);
    for (const day of ['2025-04-17', '2025-04-22', '2026-01-02', '2026-03-13', '2026-04-07'])
      expect(isTargetDay(day)).toBe(true);
    expect(nextTargetDay('2025-04-17')).toBe('2025-04-22');
    expect(nextTargetDay('2026-03-13')).toBe('2026-03-16');
    expect(latestTargetDayOnOrBefore('2026-03-16')).toBe('2026-03-16');
    expect(latestTargetDayOnOrBefore('2026-03-15')).toBe('2026-03-13');
    expect(latestTargetDayOnOrBefore('2025-04-21')).toBe('2025-04-17'); // Easter Monday, Good Friday, the weekend
  });

  it('accepts only real calendar dates', () => {
    expect(isIsoDate('2024-02-29')).toBe(true);
    for (const bad of ['2023-02-29', '2026-13-01', '2026-1-01', '20260101', '2026-01-01T00:00:00Z', '', null])
      expect(isIsoDate(bad)).toBe(false);
  });
});
