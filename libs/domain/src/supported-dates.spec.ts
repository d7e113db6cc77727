import { FIRST_SUPPORTED_DATE, LAST_SUPPORTED_DATE, isSupportedIsoDate, isSupportedMonth } from './supported-dates';

describe('the supported dates (1999 to 2099)', () => {
  it('takes real calendar dates in the supported years, their first and last day included', () => {
    for (const date of [FIRST_SUPPORTED_DATE, LAST_SUPPORTED_DATE, '2024-02-29', '2026-11-28'])
      expect(isSupportedIsoDate(date)).toBe(true);
  });

  it.each([
    '0000-01-01',
    '0001-01-01',
    '1998-12-31',
    '2100-01-01',
    '9999-12-31',
    '-000001-12-01',
    '2026-02-30',
    '2025-02-29',
    '2026-13-01',
    '2026-1-01',
    ' 2026-01-01',
    '2026-01-01T00:00:00Z',
    '',
  ])('refuses %j', (date) => expect(isSupportedIsoDate(date)).toBe(false));

  it('takes months of the supported years and refuses the rest', () => {
    for (const month of ['1999-01', '2026-11', '2099-12']) expect(isSupportedMonth(month)).toBe(true);
    for (const month of [
      '0000-01',
      '1900-01',
      '1998-12',
      '2100-01',
      '9999-12',
      '-000001-12',
      '2026-00',
      '2026-13',
      '2026-1',
      '202611',
    ])
      expect(isSupportedMonth(month)).toBe(false);
    expect(isSupportedMonth(202611)).toBe(false);
    expect(isSupportedIsoDate(undefined)).toBe(false);
  });
});
