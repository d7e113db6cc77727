import { systemClock } from '../http/clock';
import { RateLimitWaitError } from './limiter';
import { InMemoryRateLimiter } from '@pod/testing/oracles';
import { withLimiterWaitHook, type LimiterWaitEvent } from './wait-hook';

beforeEach(() => jest.useFakeTimers({ now: new Date('2026-03-01T00:00:00Z') }));
afterEach(() => jest.useRealTimers());

const limit = { capacity: 1, refillPerSecond: 1 };

describe('a limiter with a wait hook', () => {
  it('reports how long each acquire waited for its token, and refusals', async () => {
    const events: LimiterWaitEvent[] = [];
    const limiter = withLimiterWaitHook(new InMemoryRateLimiter(systemClock), (event) => events.push(event));
    await limiter.acquire('etsy:conn:abc', limit);
    const second = limiter.acquire('etsy:conn:abc', limit);
    await jest.advanceTimersByTimeAsync(1_000);
    await second;
    await expect(limiter.acquire('etsy:conn:abc', limit, { maxWaitMs: 10 })).rejects.toBeInstanceOf(RateLimitWaitError);
    expect(events).toEqual([
      { scope: 'etsy:conn:abc', waitedMs: 0, granted: true },
      { scope: 'etsy:conn:abc', waitedMs: 1_000, granted: true },
      { scope: 'etsy:conn:abc', waitedMs: 0, granted: false },
    ]);
  });

  it('passes blocks through and survives a hook that throws', async () => {
    const inner = new InMemoryRateLimiter(systemClock);
    const limiter = withLimiterWaitHook(inner, () => {
      throw new Error('metrics broke');
    });
    await limiter.block('etsy:day:abc', 5_000);
    expect(await inner.blockedForMs('etsy:day:abc')).toBe(5_000);
    await expect(limiter.acquire('etsy:conn:abc', limit)).resolves.toBeUndefined();
  });
});
