import { describe, expect, it } from 'vitest';
import {
  bucketLabel,
  changePercent,
  comparisonText,
  marginComparisonText,
  moneyTick,
  statusShareRows,
} from './analyticsData';

describe('analytics data shaping', () => {
  it('labels buckets by day, week and month (UTC calendar days)', () => {
    expect(bucketLabel('2026-11-24', 'day')).toBe('Nov 24');
    expect(bucketLabel('2026-11-23', 'week')).toBe('Week of Nov 23');
    expect(bucketLabel('2026-01-01', 'month')).toBe('Jan 2026');
  });

  it('compares with the previous period, saying so when there is nothing to compare with', () => {
    expect(changePercent(11_000, 10_000)).toBe(10);
    expect(changePercent(-500, -1_000)).toBe(50);
    expect(changePercent(5, 0)).toBeNull();
    expect(comparisonText(11_000, 10_000, 30, true)).toBe('+10.0% vs previous 30 days');
    expect(comparisonText(9_000, 10_000, 7, true)).toBe('-10.0% vs previous 7 days');
    expect(comparisonText(9_000, 0, 30, false)).toBe('No orders in the previous 30 days');
    expect(comparisonText(0, 0, 30, true)).toBe('Same as the previous 30 days');
    expect(marginComparisonText(25.5, 23.4, 90)).toBe('+2.1 pts vs previous 90 days');
    expect(marginComparisonText(null, 23.4, 90)).toBe('No margin to compare with the previous 90 days');
  });

  it('formats money ticks from minor units, without cents from 1,000 or when whole', () => {
    expect(moneyTick('USD')(12_345)).toBe('$123.45');
    expect(moneyTick('EUR')(123_400)).toBe('€1,234');
    expect(moneyTick('GBP')(-250)).toBe('-£2.50');
    expect(moneyTick('USD')(85_000)).toBe('$850');
  });

  it('gives each matching status its share of the range, nothing divided by zero', () => {
    expect(statusShareRows({ matched: 2, pending: 1, unmatched: 1 }).map((row) => [row.key, row.percent])).toEqual([
      ['matched', 50],
      ['pending', 25],
      ['unmatched', 25],
    ]);
    expect(statusShareRows({ matched: 0, pending: 0, unmatched: 0 }).every((row) => row.percent === 0)).toBe(true);
  });
});
