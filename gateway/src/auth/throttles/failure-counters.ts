import { HttpStatus } from '@nestjs/common';
import { ApiException } from '../../http/api-exception';
import type Redis from 'ioredis';

/** One fixed window: at most `max` counted events per `windowSeconds` under `key`. */
export interface WindowLimit {
  key: string;
  max: number;
  windowSeconds: number;
}

export class TooManyAttemptsException extends ApiException {
  constructor(retryAfterSeconds: number, message: string) {
    super(HttpStatus.TOO_MANY_REQUESTS, 'too_many_attempts', message, { retryAfterSeconds });
  }
}

/**
 * Fixed-window counters in Redis, shared by every gateway replica. Without Redis we cannot
 * count, so every operation answers 503 rather than letting unlimited attempts through.
 */
export class WindowCounters {
  constructor(
    private readonly redis: Redis,
    /** What a caller is told while Redis does not answer. */
    private readonly unavailableMessage: string,
  ) {}

  /** The first limit already used up, with the seconds until its window ends. */
  async firstExhausted<T extends WindowLimit>(
    limits: T[],
  ): Promise<{ limit: T; retryAfterSeconds: number } | undefined> {
    if (limits.length === 0) return undefined;
    const counts = await this.run(() => this.redis.mget(...limits.map((l) => l.key)));
    const index = limits.findIndex((limit, i) => Number(counts[i] ?? 0) >= limit.max);
    if (index < 0) return undefined;
    const ttl = await this.run(() => this.redis.ttl(limits[index].key));
    return { limit: limits[index], retryAfterSeconds: Math.max(1, ttl) };
  }

  /** Counts one event in each window; a window starts with its first event. */
  async increment(limits: WindowLimit[]): Promise<void> {
    const multi = this.redis.multi();
    for (const limit of limits) {
      multi.incr(limit.key);
      multi.expire(limit.key, limit.windowSeconds, 'NX');
    }
    await this.run(() => multi.exec());
  }

  /** Counts one event and reports whether it went past the limit (for limits on every attempt). */
  async incrementAndCheck(limit: WindowLimit): Promise<{ exceeded: boolean; retryAfterSeconds: number }> {
    const results = await this.run(() =>
      this.redis.multi().incr(limit.key).expire(limit.key, limit.windowSeconds, 'NX').ttl(limit.key).exec(),
    );
    const count = Number(results?.[0]?.[1] ?? 0);
    return {
      exceeded: count > limit.max,
      retryAfterSeconds: Math.max(1, Number(results?.[2]?.[1] ?? limit.windowSeconds)),
    };
  }

  async clear(keys: string[]): Promise<void> {
    if (keys.length > 0) await this.run(() => this.redis.del(...keys));
  }

  async run<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch {
      throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, 'service_unavailable', this.unavailableMessage);
    }
  }
}
