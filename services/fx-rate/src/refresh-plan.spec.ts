import { planRefresh } from './refresh-plan';

describe('planRefresh', () => {
  it('loads the whole history into an empty table, or when the gap is past the 90-day file', () => {
    expect(planRefresh(null, '2026-03-16')).toBe('historyZip');
    expect(planRefresh('2025-12-01', '2026-03-16')).toBe('historyZip');
  });

  it('takes the daily file when at most one business day can be missing (weekends and holidays do not count)', () => {
    expect(planRefresh('2026-03-13', '2026-03-13')).toBe('daily');
    expect(planRefresh('2026-03-13', '2026-03-15')).toBe('daily'); // Friday stored, Sunday
    expect(planRefresh('2026-03-13', '2026-03-16')).toBe('daily'); // Monday's rates are the next file
    expect(planRefresh('2026-04-02', '2026-04-07')).toBe('daily'); // Good Friday and Easter Monday 2026 have no rates
  });

  it('fills a gap of several business days from the 90-day file', () => {
    expect(planRefresh('2026-03-12', '2026-03-16')).toBe('last90Days');
    expect(planRefresh('2026-01-02', '2026-03-16')).toBe('last90Days');
  });
});
