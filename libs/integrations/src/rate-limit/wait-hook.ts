import { systemClock, type Clock } from '../http/clock';
import { RateLimitWaitError, type AcquireOptions, type RateLimit, type RateLimiter } from './limiter';

/** One acquire(): its scope, how long it took (waiting included), and whether it got a token. */
export interface LimiterWaitEvent {
  scope: string;
  waitedMs: number;
  granted: boolean;
}

/**
 * The same limiter, reporting every acquire() to `onWait` (for metrics: how long calls wait for
 * the shared budget, and how often it refuses). Only acquire() is watched; a hook that throws
 * is ignored, and errors other than RateLimitWaitError are not reported.
 */
export function withLimiterWaitHook(
  limiter: RateLimiter,
  onWait: (event: LimiterWaitEvent) => void,
  clock: Clock = systemClock,
): RateLimiter {
  const report = (event: LimiterWaitEvent) => {
    try {
      onWait(event);
    } catch {
      // Metrics must never fail a provider call.
    }
  };
  return {
    async acquire(scope: string, limit: RateLimit, options?: AcquireOptions): Promise<void> {
      const started = clock.now();
      try {
        await limiter.acquire(scope, limit, options);
      } catch (error) {
        if (error instanceof RateLimitWaitError) report({ scope, waitedMs: clock.now() - started, granted: false });
        throw error;
      }
      report({ scope, waitedMs: clock.now() - started, granted: true });
    },
    block: (scope, durationMs) => limiter.block(scope, durationMs),
    blockedForMs: (scope) => limiter.blockedForMs(scope),
    lowerLimit: (scope, limit, ttlMs) => limiter.lowerLimit(scope, limit, ttlMs),
    drain: (scope, limit, maxTokens) => limiter.drain(scope, limit, maxTokens),
  };
}
