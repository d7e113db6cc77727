import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { bucketForLimit, bucketForSlidingLimit, RateLimitWaitError, type RateLimit } from './limiter';
import { RedisRateLimiter } from './redis-limiter';

/**
 * The shared limiter against the real local Redis: two limiter instances on their own
 * connections stand for two replicas. Every run uses its own key prefix and deletes it.
 */
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `podtest_rl_${randomBytes(6).toString('hex')}`;
let connections: Redis[] = [];

function replica(): RedisRateLimiter {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  connections.push(redis);
  return new RedisRateLimiter({ redis, keyPrefix: prefix });
}

function maxInWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; i < sorted.length; i += 1) {
    while (sorted[j] <= sorted[i] - windowMs) j += 1;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

/** `workers` loops per replica, each taking tokens one after another until `total` are taken. */
async function hammer(
  replicas: RedisRateLimiter[],
  scope: string,
  limit: RateLimit,
  total: number,
  workers: number,
): Promise<number[]> {
  const granted: number[] = [];
  let remaining = total;
  await Promise.all(
    replicas.flatMap((limiter) =>
      Array.from({ length: workers }, async () => {
        while (remaining > 0) {
          remaining -= 1;
          await limiter.acquire(scope, limit, { maxWaitMs: 30_000 });
          granted.push(performance.now());
        }
      }),
    ),
  );
  return granted;
}

afterAll(async () => {
  const cleaner = new Redis(REDIS_URL);
  let cursor = '0';
  do {
    const [next, keys] = await cleaner.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
    if (keys.length) await cleaner.del(...keys);
    cursor = next;
  } while (cursor !== '0');
  await cleaner.quit();
  await Promise.all(connections.map((c) => c.quit()));
  connections = [];
});

describe('RedisRateLimiter (two replicas, real Redis)', () => {
  it('never grants more than capacity + refill·W in any sliding window across replicas', async () => {
    const [a, b] = [replica(), replica()];
    const limit: RateLimit = { capacity: 2, refillPerSecond: 20 };
    const started = performance.now();
    const granted = await hammer([a, b], 'etsy:conn:window', limit, 100, 4);
    const elapsed = performance.now() - started;
    expect(granted).toHaveLength(100);
    for (const windowMs of [100, 250, 500, 1_000, 2_000]) {
      expect(maxInWindow(granted, windowMs)).toBeLessThanOrEqual(
        Math.floor(limit.capacity + (limit.refillPerSecond * windowMs) / 1_000),
      );
    }
    // And it does not crawl: 100 tokens at 20/s after a burst of 2 take about 4.9 s.
    expect(elapsed).toBeGreaterThan(4_500);
    expect(elapsed).toBeLessThan(8_000);
  }, 20_000);

  it('keeps the cautious bucket for 10 a second (bucketForLimit) at most 9 calls in any second', async () => {
    const [a, b] = [replica(), replica()];
    const limit = bucketForLimit(10, 1);
    const granted = await hammer([a, b], 'etsy:conn:default', limit, 30, 3);
    expect(maxInWindow(granted, 1_000)).toBeLessThanOrEqual(9);
  }, 20_000);

  it("keeps Etsy's sliding-window bucket at most 10 calls in any second across three replicas, at 9.3 a second", async () => {
    const replicas = [replica(), replica(), replica()];
    const limit = bucketForSlidingLimit(10, 1);
    const started = performance.now();
    const granted = await hammer(replicas, 'etsy:conn:sliding', limit, 40, 2);
    const elapsed = performance.now() - started;
    expect(granted).toHaveLength(40);
    expect(maxInWindow(granted, 1_000)).toBeLessThanOrEqual(10);
    // 39 tokens after the first at 10 / 1.075 s: about 4.2 s, not the 4.9 s of 8 a second.
    expect(elapsed).toBeGreaterThan(4_000);
    expect(elapsed).toBeLessThan(6_000);
  }, 20_000);

  it('holds a Retry-After block for every replica until it ends, and never shortens it', async () => {
    const [a, b] = [replica(), replica()];
    const limit: RateLimit = { capacity: 10, refillPerSecond: 10 };
    await a.block('printify:acct:blocked', 1_500);
    await b.block('printify:acct:blocked', 100);
    expect(await b.blockedForMs('printify:acct:blocked')).toBeGreaterThan(1_300);
    const error = await b.acquire('printify:acct:blocked', limit, { maxWaitMs: 500 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitWaitError);
    expect(error).toMatchObject({ blockedScope: 'printify:acct:blocked' });
    const started = performance.now();
    await Promise.all([a.acquire('printify:acct:blocked', limit), b.acquire('printify:acct:blocked', limit)]);
    expect(performance.now() - started).toBeGreaterThan(1_000);
    expect(await a.blockedForMs('printify:acct:blocked')).toBe(0);
  }, 10_000);

  it("honours another scope's block (an Etsy daily quota) and reports which scope", async () => {
    const [a, b] = [replica(), replica()];
    await a.block('etsy:conn:q:day', 60_000);
    const error = await b
      .acquire('etsy:conn:q', { capacity: 5, refillPerSecond: 5 }, { blockScopes: ['etsy:conn:q:day'] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'RateLimitWaitError', blockedScope: 'etsy:conn:q:day' });
    expect((error as RateLimitWaitError).waitMs).toBeGreaterThan(59_000);
    await b.acquire('etsy:conn:q', { capacity: 5, refillPerSecond: 5 });
  });

  it("applies one replica's lowered limit and drain to the other", async () => {
    const [a, b] = [replica(), replica()];
    const limit: RateLimit = { capacity: 5, refillPerSecond: 50 };
    await a.lowerLimit('etsy:conn:low', { capacity: 1, refillPerSecond: 2 }, 5_000);
    await b.acquire('etsy:conn:low', limit);
    await expect(b.acquire('etsy:conn:low', limit, { maxWaitMs: 100 })).rejects.toMatchObject({
      name: 'RateLimitWaitError',
      blockedScope: null,
    });
    await a.drain('etsy:conn:other', limit, -4);
    const waited = await b
      .acquire('etsy:conn:other', limit, { maxWaitMs: 0 })
      .catch((e: RateLimitWaitError) => e.waitMs);
    expect(waited).toBeGreaterThanOrEqual(90);
  });

  it('refuses a wait beyond maxWaitMs without reserving a token', async () => {
    const a = replica();
    const limit: RateLimit = { capacity: 1, refillPerSecond: 1 };
    await a.acquire('s:refuse', limit);
    for (let i = 0; i < 5; i += 1)
      await expect(a.acquire('s:refuse', limit, { maxWaitMs: 10 })).rejects.toBeInstanceOf(RateLimitWaitError);
    const started = performance.now();
    await a.acquire('s:refuse', limit, { maxWaitMs: 2_000 });
    expect(performance.now() - started).toBeLessThan(1_200);
  });
});
