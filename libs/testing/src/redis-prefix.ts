import Redis from 'ioredis';

/** Deletes every key of a run's prefix (a test's or a bench's), so the shared Redis stays clean. */
export async function deleteRedisPrefix(
  prefix: string,
  url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
