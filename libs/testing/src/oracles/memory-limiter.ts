import {
  assertValidLimit,
  DEFAULT_MAX_WAIT_MS,
  RateLimitWaitError,
  systemClock,
  type AcquireOptions,
  type Clock,
  type RateLimit,
  type RateLimiter,
} from '@pod/integrations';
import { effectiveLimit, refill, take, type BucketState } from './bucket-math';

/**
 * The RateLimiter in one process's memory, for unit tests only (with an injected clock and
 * Jest's fake timers). Production code uses RedisRateLimiter: a limit kept in one process
 * means nothing once there are replicas.
 */
export class InMemoryRateLimiter implements RateLimiter {
  private readonly buckets = new Map<string, BucketState>();
  private readonly blocks = new Map<string, number>();
  private readonly overrides = new Map<string, { limit: RateLimit; expiresAtMs: number }>();
  /** Every granted token: scope and the time the caller may send. Handy for assertions. */
  readonly grants: { scope: string; atMs: number }[] = [];

  constructor(private readonly clock: Clock = systemClock) {}

  async acquire(scope: string, limit: RateLimit, options: AcquireOptions = {}): Promise<void> {
    assertValidLimit(limit);
    const maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
    let waited = 0;
    for (;;) {
      const now = this.clock.now();
      const blocked = this.longestBlock([scope, ...(options.blockScopes ?? [])], now);
      if (blocked) {
        if (blocked.waitMs > maxWaitMs - waited) throw new RateLimitWaitError(blocked.waitMs, blocked.scope);
        await this.clock.sleep(blocked.waitMs);
        waited += blocked.waitMs;
        continue;
      }
      const result = take(this.buckets.get(scope), this.limitFor(scope, limit, now), now, maxWaitMs - waited);
      if (!result.granted) throw new RateLimitWaitError(result.waitMs, null);
      this.buckets.set(scope, result.next);
      this.grants.push({ scope, atMs: now + result.waitMs });
      if (result.waitMs > 0) await this.clock.sleep(result.waitMs);
      return;
    }
  }

  async block(scope: string, durationMs: number): Promise<void> {
    const until = this.clock.now() + Math.max(0, durationMs);
    if ((this.blocks.get(scope) ?? 0) < until) this.blocks.set(scope, until);
    return Promise.resolve();
  }

  async blockedForMs(scope: string): Promise<number> {
    return Promise.resolve(Math.max(0, (this.blocks.get(scope) ?? 0) - this.clock.now()));
  }

  async lowerLimit(scope: string, limit: RateLimit, ttlMs: number): Promise<void> {
    assertValidLimit(limit);
    this.overrides.set(scope, { limit, expiresAtMs: this.clock.now() + ttlMs });
    return Promise.resolve();
  }

  async drain(scope: string, limit: RateLimit, maxTokens: number): Promise<void> {
    const now = this.clock.now();
    const current = refill(this.buckets.get(scope), this.limitFor(scope, limit, now), now);
    this.buckets.set(scope, { tokens: Math.min(current.tokens, maxTokens), updatedAtMs: current.updatedAtMs });
    return Promise.resolve();
  }

  private limitFor(scope: string, limit: RateLimit, now: number): RateLimit {
    const override = this.overrides.get(scope);
    if (override && override.expiresAtMs <= now) this.overrides.delete(scope);
    return effectiveLimit(limit, override && override.expiresAtMs > now ? override.limit : undefined);
  }

  private longestBlock(scopes: readonly string[], now: number): { scope: string; waitMs: number } | null {
    let found: { scope: string; waitMs: number } | null = null;
    for (const scope of scopes) {
      const waitMs = (this.blocks.get(scope) ?? 0) - now;
      if (waitMs > 0 && (!found || waitMs > found.waitMs)) found = { scope, waitMs };
    }
    return found;
  }
}
