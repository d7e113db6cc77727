import { RateTable, type FxRateRow } from './rate-table';

// Real ECB reference rates (integrations.md §c.3's worked example: Friday 2026-03-13).
const rows: FxRateRow[] = [
  { date: '2026-03-12', currency: 'USD', perEur: '1.1502' },
  { date: '2026-03-12', currency: 'GBP', perEur: '0.8651' },
  { date: '2026-03-13', currency: 'USD', perEur: '1.1476' },
  { date: '2026-03-13', currency: 'GBP', perEur: '0.86503' },
  { date: '2026-03-13', currency: 'JPY', perEur: '171.5' },
];
const table = RateTable.fromRows(rows);

describe('RateTable', () => {
  it('crosses through EUR exactly at the date, keeping the two ECB rates', () => {
    expect(table.crossRate('2026-03-13', 'USD', 'GBP')).toMatchObject({
      unavailable: false,
      rate: '0.7537730917',
      rateDate: '2026-03-13',
      fromPerEur: '1.1476',
      toPerEur: '0.86503',
    });
    expect(table.crossRate('2026-03-13', 'EUR', 'GBP')).toMatchObject({ rate: '0.86503', fromPerEur: '1' });
    expect(table.crossRate('2026-03-12', 'GBP', 'EUR')).toMatchObject({ rate: '1.15593573', rateDate: '2026-03-12' });
  });

  it('takes the last ECB day on or before the date: a weekend uses Friday', () => {
    expect(table.crossRate('2026-03-14', 'USD', 'GBP')).toMatchObject({ rateDate: '2026-03-13' });
    expect(table.crossRate('2026-03-15', 'USD', 'GBP')).toMatchObject({ rateDate: '2026-03-13' });
  });

  it('says why when there is no rate, never a number', () => {
    // Monday's rates are a business day past the last loaded one.
    expect(table.crossRate('2026-03-16', 'USD', 'GBP')).toMatchObject({ unavailable: true, reason: 'rate_not_loaded' });
    expect(table.crossRate('2026-03-11', 'USD', 'GBP')).toMatchObject({
      unavailable: true,
      reason: 'no_rate_for_date',
    });
    expect(table.crossRate('2026-03-12', 'USD', 'JPY')).toMatchObject({
      unavailable: true,
      reason: 'no_rate_for_date',
      message: expect.stringContaining('JPY'),
    });
    expect(table.crossRate('2026-03-13', 'USD', 'MAD')).toMatchObject({
      unavailable: true,
      reason: 'currency_not_published',
    });
    expect(table.crossRate('2026-02-30', 'USD', 'GBP')).toMatchObject({ unavailable: true, reason: 'invalid_date' });
  });

  it('looks back at most 10 days through a gap in the table', () => {
    const gappy = RateTable.fromRows([
      { date: '2026-01-02', currency: 'USD', perEur: '1.17' },
      { date: '2026-02-02', currency: 'USD', perEur: '1.18' },
    ]);
    expect(gappy.crossRate('2026-01-12', 'EUR', 'USD')).toMatchObject({ rateDate: '2026-01-02' });
    expect(gappy.crossRate('2026-01-13', 'EUR', 'USD')).toMatchObject({
      unavailable: true,
      reason: 'no_rate_for_date',
    });
  });

  it('converts a currency to itself at rate 1 on the date itself, even one the ECB does not publish', () => {
    expect(table.crossRate('2026-03-15', 'MAD', 'MAD')).toEqual({
      unavailable: false,
      ratio: { num: 1n, den: 1n },
      rate: '1',
      rateDate: '2026-03-15',
      fromPerEur: '1',
      toPerEur: '1',
    });
  });

  it('answers a question asked again as it did the first time (answers are kept), whatever else was asked between', () => {
    const questions: [string, string, string][] = [];
    for (const date of ['2026-03-11', '2026-03-12', '2026-03-13', '2026-03-15', '2026-03-16', 'not a date']) {
      for (const [from, to] of [
        ['USD', 'GBP'],
        ['GBP', 'USD'],
        ['EUR', 'JPY'],
        ['USD', 'MAD'],
        ['USD', 'USD'],
        ['2026-03-13', 'USD'],
      ])
        questions.push([date, from, to]);
    }
    const asked = RateTable.fromRows(rows);
    const first = questions.map(([date, from, to]) => asked.crossRate(date, from, to));
    const again = [...questions]
      .reverse()
      .map(([date, from, to]) => asked.crossRate(date, from, to))
      .reverse();
    const fresh = questions.map(([date, from, to]) => RateTable.fromRows(rows).crossRate(date, from, to));
    expect(again).toEqual(first);
    expect(first).toEqual(fresh);
    expect(asked.crossRate('2026-03-13', 'USD', 'GBP')).toMatchObject({ rate: '0.7537730917' });
    expect(asked.crossRate('2026-03-13', 'GBP', 'USD')).toMatchObject({ rate: '1.326659191' });
  });

  it('refuses rows that are not dates and decimals', () => {
    expect(() => RateTable.fromRows([{ date: '2026-03-13', currency: 'USD', perEur: 'N/A' }])).toThrow();
    expect(() => RateTable.fromRows([{ date: '13 March 2026', currency: 'USD', perEur: '1.1' }])).toThrow();
  });
});
