import fc from 'fast-check';
import { bucketStartOf } from '@pod/db';
import { addDaysToIsoDate, isoDateOf } from '@pod/domain';
import { nextBucketStart, seriesOf } from './analytics-view';

const BUCKETS = ['day', 'week', 'month'] as const;
const DAY_MS = 86_400_000;

describe('the Analytics series', () => {
  it('walks bucket by bucket to the same starts as every day of the range mapped to its bucket', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2023, 0, 1), max: Date.UTC(2027, 0, 1) }),
        fc.integer({ min: 0, max: 400 * DAY_MS }),
        fc.constantFrom(...BUCKETS),
        (sinceMs, lengthMs, bucket) => {
          const since = new Date(sinceMs);
          const now = new Date(sinceMs + lengthMs);
          const expected = new Set<string>();
          for (let day = isoDateOf(since); day <= isoDateOf(now); day = addDaysToIsoDate(day, 1))
            expected.add(bucketStartOf(day, bucket));
          const starts = seriesOf([], since, now, bucket, 'USD').map((point) => point.start);
          expect(starts).toEqual([...expected].sort());
        },
      ),
    );
  });

  it('steps a month across the year’s end and a week across a month’s', () => {
    expect(nextBucketStart('2026-12-01', 'month')).toBe('2027-01-01');
    expect(nextBucketStart('2026-02-01', 'month')).toBe('2026-03-01');
    expect(nextBucketStart('2026-11-30', 'week')).toBe('2026-12-07');
    expect(nextBucketStart('2026-02-28', 'day')).toBe('2026-03-01');
  });

  it('keeps a row dated after now as its own bucket, and fills the empty ones with zero', () => {
    const series = seriesOf(
      [
        { start: '2026-11-02', revenueMinor: 1000, costsMinor: 400, netProfitMinor: 600 },
        { start: '2026-11-09', revenueMinor: 500, costsMinor: 100, netProfitMinor: 400 },
      ],
      new Date('2026-10-27T10:00:00Z'),
      new Date('2026-11-04T10:00:00Z'),
      'week',
      'EUR',
    );
    expect(series.map((point) => [point.start, point.revenue.minor, point.netProfit.minor])).toEqual([
      ['2026-10-26', 0, 0],
      ['2026-11-02', 1000, 600],
      ['2026-11-09', 500, 400],
    ]);
    expect(series[1].revenue.currency).toBe('EUR');
  });
});
