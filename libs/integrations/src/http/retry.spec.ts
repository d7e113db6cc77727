import fc from 'fast-check';
import { backoffDelayMs, parseRetryAfter } from './retry';

describe('Retry-After', () => {
  const now = Date.parse('2026-03-01T00:00:00Z');

  it('reads delay-seconds', () => {
    expect(parseRetryAfter('7', now)).toBe(7_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('1.5', now)).toBe(1_500);
    expect(parseRetryAfter('3600', now)).toBe(3_600_000);
  });

  it('reads HTTP dates, a past one meaning now', () => {
    expect(parseRetryAfter('Sun, 01 Mar 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sat, 28 Feb 2026 23:00:00 GMT', now)).toBe(0);
  });

  it('ignores what it cannot read', () => {
    for (const bad of [undefined, null, '', '-5', 'soon', '1e3', '12abc']) expect(parseRetryAfter(bad, now)).toBeNull();
  });
});

describe('backoff with full jitter', () => {
  it('stays within [0, min(max, base * 2^(attempt-1))]', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), fc.double({ min: 0, max: 1, noNaN: true }), (attempt, r) => {
        const policy = { baseDelayMs: 1_000, maxDelayMs: 30_000 };
        const delay = backoffDelayMs(attempt, policy, () => r);
        expect(Number.isInteger(delay)).toBe(true);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThanOrEqual(Math.min(30_000, 1_000 * 2 ** (attempt - 1)));
      }),
    );
  });

  it('doubles its ceiling per attempt', () => {
    const top = (attempt: number) => backoffDelayMs(attempt, { baseDelayMs: 1_000, maxDelayMs: 30_000 }, () => 0.99999);
    expect([1, 2, 3, 4, 5, 6].map(top)).toEqual([999, 1_999, 3_999, 7_999, 15_999, 29_999]);
  });
});
