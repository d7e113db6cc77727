import fc from 'fast-check';
import {
  bucketForLimit,
  bucketForSlidingLimit,
  mostGrantedInWindow,
  RateLimitWaitError,
  scopeKey,
} from '@pod/integrations';
import { InMemoryRateLimiter } from './memory-limiter';

/** The largest number of times inside any window [t, t + windowMs). */
export function maxInWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; i < sorted.length; i += 1) {
    while (sorted[j] <= sorted[i] - windowMs) j += 1;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
afterEach(() => jest.useRealTimers());

describe('bucketForLimit', () => {
  it('keeps capacity + refill per window at or under 90% of the limit', () => {
    expect(bucketForLimit(10, 1)).toEqual({ capacity: 1, refillPerSecond: 8 });
    expect(bucketForLimit(600, 60)).toEqual({ capacity: 54, refillPerSecond: 8.1 });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 1, max: 3_600 }), (limit, window) => {
        const b = bucketForLimit(limit, window);
        expect(b.capacity).toBeGreaterThanOrEqual(1);
        expect(b.refillPerSecond).toBeGreaterThan(0);
        expect(Math.floor(b.capacity + b.refillPerSecond * window + 1e-9)).toBeLessThanOrEqual(
          Math.max(1, Math.floor(limit * 0.9)),
        );
      }),
    );
  });

  it('bucketForSlidingLimit grants at most the limit within any window plus the jitter margin, and at least limit / (window + margin) a second', () => {
    expect(bucketForSlidingLimit(10, 1)).toMatchObject({ capacity: 1 });
    expect(bucketForSlidingLimit(10, 1).refillPerSecond).toBeCloseTo(10 / 1.075, 6);
    expect(bucketForSlidingLimit(600, 60)).toMatchObject({ capacity: 60 });
    // A fiftieth of a long window: 1.2 s of Printify's minute.
    expect(bucketForSlidingLimit(600, 60).refillPerSecond).toBeCloseTo(541 / 61.2, 6);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 1, max: 3_600 }),
        fc.integer({ min: 0, max: 2_000 }),
        (limit, window, marginMs) => {
          const b = bucketForSlidingLimit(limit, window, marginMs);
          expect(b.capacity).toBeGreaterThanOrEqual(1);
          // Fewer than capacity + refill · (W + J) grants within any span shorter than W + J: at most the limit.
          expect(b.capacity + b.refillPerSecond * (window + marginMs / 1_000)).toBeLessThan(limit + 1);
          expect(mostGrantedInWindow(b, window + marginMs / 1_000)).toBeLessThanOrEqual(limit);
          expect(b.refillPerSecond * (window + marginMs / 1_000)).toBeGreaterThanOrEqual(
            (limit + 1 - b.capacity) * (1 - 1e-8),
          );
        },
      ),
    );
  });

  it('hashes scope ids', () => {
    expect(scopeKey('printify:acct', 'acct-1')).toMatch(/^printify:acct:[0-9a-f]{20}$/);
    expect(scopeKey('printify:acct', 'acct-1')).not.toContain('acct-1');
  });
});

describe('InMemoryRateLimiter', () => {
  it('never grants more than capacity + refill·W in any window, however callers arrive', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 3_000 }), { minLength: 1, maxLength: 60 }),
        fc.constantFrom(bucketForLimit(10, 1), bucketForSlidingLimit(10, 1), { capacity: 3, refillPerSecond: 2 }),
        async (arrivals, limit) => {
          const limiter = new InMemoryRateLimiter();
          const start = Date.now();
          const granted: number[] = [];
          const calls = [...arrivals]
            .sort((a, b) => a - b)
            .map(async (at) => {
              await new Promise((r) => setTimeout(r, at));
              await limiter.acquire('s', limit, { maxWaitMs: 60_000 });
              granted.push(Date.now() - start);
            });
          await jest.advanceTimersByTimeAsync(70_000);
          await Promise.all(calls);
          expect(granted).toHaveLength(arrivals.length);
          expect(maxInWindow(granted, 1_000)).toBeLessThanOrEqual(Math.floor(limit.capacity + limit.refillPerSecond));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('refuses waits beyond maxWaitMs without reserving', async () => {
    const limiter = new InMemoryRateLimiter();
    const limit = { capacity: 1, refillPerSecond: 1 };
    await limiter.acquire('s', limit);
    await expect(limiter.acquire('s', limit, { maxWaitMs: 500 })).rejects.toMatchObject({
      waitMs: 1_000,
      blockedScope: null,
    });
    const p = limiter.acquire('s', limit, { maxWaitMs: 1_000 });
    await jest.advanceTimersByTimeAsync(1_000);
    await expect(p).resolves.toBeUndefined();
  });

  it('holds a block for every caller, never shortens it, and reports the blocking scope', async () => {
    const limiter = new InMemoryRateLimiter();
    const limit = { capacity: 10, refillPerSecond: 10 };
    await limiter.block('day', 60_000);
    await limiter.block('day', 1_000);
    expect(await limiter.blockedForMs('day')).toBe(60_000);
    const error = await limiter.acquire('s', limit, { blockScopes: ['day'] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitWaitError);
    expect(error).toMatchObject({ blockedScope: 'day', waitMs: 60_000 });
    await limiter.block('s', 2_000);
    let done = false;
    const p = limiter.acquire('s', limit).then(() => (done = true));
    await jest.advanceTimersByTimeAsync(1_999);
    expect(done).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    await p;
    expect(done).toBe(true);
  });

  it('applies a lowered limit until it expires, and drains on request', async () => {
    const limiter = new InMemoryRateLimiter();
    const limit = { capacity: 5, refillPerSecond: 5 };
    await limiter.lowerLimit('s', { capacity: 1, refillPerSecond: 1 }, 10_000);
    await limiter.acquire('s', limit);
    await expect(limiter.acquire('s', limit, { maxWaitMs: 0 })).rejects.toMatchObject({ waitMs: 1_000 });
    await jest.advanceTimersByTimeAsync(20_000);
    await limiter.acquire('s', limit, { maxWaitMs: 0 });
    await limiter.drain('s', limit, -1);
    await expect(limiter.acquire('s', limit, { maxWaitMs: 0 })).rejects.toMatchObject({ waitMs: 400 });
  });
});
