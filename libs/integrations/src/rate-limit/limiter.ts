import { createHash } from 'node:crypto';

/**
 * A token bucket shared by every process that calls a provider. A scope is one budget (an
 * Etsy connection's per-second limit, a Printify account's per-minute limit); `limit` is the
 * bucket the caller wants for it. In any window of W seconds a bucket grants at most
 * `capacity + refillPerSecond · W` tokens, so a provider limit L per window is safe when
 * capacity + refill · W ≤ L (see bucketForLimit, which keeps 10% under).
 *
 * Tokens are reserved in order: acquire() takes the next token even when it is only
 * available in the future and then sleeps until then, so waiting callers are served first
 * come, first served and never exceed the rate, however many processes share the bucket.
 */
export interface RateLimit {
  /** Tokens the bucket holds when full (the largest burst). At least 1. */
  capacity: number;
  /** Tokens added per second. Greater than 0. */
  refillPerSecond: number;
}

export interface AcquireOptions {
  /** Longest wait (bucket or block) acquire() sits out before throwing RateLimitWaitError. Default 30 s. */
  maxWaitMs?: number;
  /** Further scopes whose blocks also stop this call (for example an Etsy connection's daily quota). */
  blockScopes?: readonly string[];
}

export interface RateLimiter {
  /** Waits (bounded) for a token of `scope`; throws RateLimitWaitError when the wait would be longer. */
  acquire(scope: string, limit: RateLimit, options?: AcquireOptions): Promise<void>;
  /** Blocks `scope` for every process for `durationMs` from now; never shortens a longer block. */
  block(scope: string, durationMs: number): Promise<void>;
  /** Milliseconds left on the scope's block, 0 when it is not blocked. */
  blockedForMs(scope: string): Promise<number>;
  /**
   * Lowers the scope's bucket for `ttlMs` (a provider announced a lower limit): acquire() uses
   * the smaller of its own limit and this one until the override expires.
   */
  lowerLimit(scope: string, limit: RateLimit, ttlMs: number): Promise<void>;
  /** Caps the tokens the scope's bucket holds now (a provider said few calls remain this second). */
  drain(scope: string, limit: RateLimit, maxTokens: number): Promise<void>;
}

/** acquire() would have to wait longer than allowed; nothing was reserved. */
export class RateLimitWaitError extends Error {
  constructor(
    readonly waitMs: number,
    /** The blocked scope when a block is the reason; null when the bucket itself is empty. */
    readonly blockedScope: string | null,
  ) {
    super(blockedScope ? `rate-limit scope blocked for ${waitMs} ms` : `no rate-limit token for ${waitMs} ms`);
    this.name = 'RateLimitWaitError';
  }
}

export const DEFAULT_MAX_WAIT_MS = 30_000;

/**
 * The bucket for a provider limit of `limit` calls per `windowSeconds`, kept `headroom`
 * (default 10%) under it: budget = ⌊limit · (1 − headroom)⌋ calls per window, split into a
 * burst of a tenth of the budget (at least 1) and a steady refill for the rest, so that
 * capacity + refill · window = budget.
 *   Etsy 10/s → capacity 1, refill 8/s (at most 9 in any second);
 *   Printify 600/min → capacity 54, refill 8.1/s (at most 540 in any minute).
 */
export function bucketForLimit(limit: number, windowSeconds: number, headroom = 0.1): RateLimit {
  if (!(limit > 0) || !(windowSeconds > 0)) throw new RangeError('limit and window must be positive');
  const budget = Math.max(1, Math.floor(limit * (1 - headroom)));
  if (budget === 1) return { capacity: 1, refillPerSecond: 1 / (2 * windowSeconds) };
  const capacity = Math.max(1, Math.floor(budget / 10));
  return { capacity, refillPerSecond: (budget - capacity) / windowSeconds };
}

export function assertValidLimit(limit: RateLimit): void {
  if (!(limit.capacity >= 1) || !Number.isFinite(limit.capacity) || !(limit.refillPerSecond > 0) || !Number.isFinite(limit.refillPerSecond)) {
    throw new RangeError(`invalid rate limit ${limit.capacity}/${limit.refillPerSecond}`);
  }
}

/**
 * A scope for a caller-side id (a connection id, a Printify account id): a short SHA-256
 * hash of it, so ids, and above all anything token-like, never land in Redis keys.
 */
export function scopeKey(kind: string, id: string): string {
  return `${kind}:${createHash('sha256').update(id).digest('hex').slice(0, 20)}`;
}
