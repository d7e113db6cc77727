import { createHash } from 'node:crypto';

/**
 * A token bucket shared by every process that calls a provider. A scope is one budget (an
 * Etsy connection's per-second limit, a Printify account's per-minute limit); `limit` is the
 * bucket the caller wants for it. Within any span of S seconds a bucket grants at most
 * `capacity + refillPerSecond · S` tokens (it holds at most `capacity` at the start and gains
 * `refill · S`); see bucketForSlidingLimit for what that means for a provider's sliding window.
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
 * How much later, relative to one another, two calls may reach the provider than the bucket
 * granted them (event-loop lag, GC pauses, a busy server, the network): bucketForSlidingLimit
 * keeps this much time in hand on every window, and more on long windows, where it costs little
 * (a fiftieth of the window: 1.2 s of Printify's minute).
 */
export const DEFAULT_JITTER_MARGIN_MS = 75;
const JITTER_MARGIN_SHARE_OF_WINDOW = 0.02;

/** The margin bucketForSlidingLimit keeps by default: 75 ms, or a fiftieth of a long window. */
export function defaultJitterMarginMs(windowSeconds: number): number {
  return Math.max(DEFAULT_JITTER_MARGIN_MS, windowSeconds * 1000 * JITTER_MARGIN_SHARE_OF_WINDOW);
}

/**
 * The bucket for a provider that allows `limit` calls in any sliding window of `windowSeconds`
 * (Etsy 10 a second, Printify 600 a minute), as fast as that allows with `jitterMarginMs` to
 * spare: a burst of a tenth of the limit (at least 1) and a refill of
 * (limit + 1 − capacity) / (window + margin) a second.
 *
 * Why it never exceeds the limit: the calls a provider counts in one window (t − W, t] reached
 * it less than W apart, so (when no call is delayed more than the margin J relative to another)
 * the bucket granted them less than W + J apart. Within a span shorter than W + J the bucket
 * grants fewer than capacity + refill · (W + J) = limit + 1 tokens, so at most `limit`.
 *   Etsy 10/s → capacity 1, refill 9.30/s: any 11 calls are granted at least 1.075 s apart;
 *   Printify 600/min → capacity 60, refill 8.84/s: any 601 calls at least 61.2 s apart.
 */
export function bucketForSlidingLimit(
  limit: number,
  windowSeconds: number,
  jitterMarginMs = defaultJitterMarginMs(windowSeconds),
): RateLimit {
  if (!(limit >= 1) || !(windowSeconds > 0) || !(jitterMarginMs >= 0))
    throw new RangeError('limit, window and margin must be positive');
  const capacity = Math.max(1, Math.floor(limit / 10));
  // A hair under the bound, so that floating point never rounds a window up to limit + 1.
  return {
    capacity,
    refillPerSecond: ((Math.floor(limit) + 1 - capacity) / (windowSeconds + jitterMarginMs / 1000)) * (1 - 1e-9),
  };
}

/**
 * The most tokens `limit` grants inside any window (t − W, t] of its own grant times: the
 * burst, then one every 1 / refill seconds.
 */
export function mostGrantedInWindow(limit: RateLimit, windowSeconds: number): number {
  return limit.capacity - 1 + Math.ceil(limit.refillPerSecond * windowSeconds - 1e-9);
}

/**
 * A more cautious bucket, `headroom` (default 10%) under a provider limit: budget =
 * ⌊limit · (1 − headroom)⌋ calls per window, a burst of a tenth of it (at least 1) and a steady
 * refill for the rest, so that capacity + refill · window = budget. Used when a provider
 * announces a lower limit than configured (Etsy's `x-limit-per-second`): something changed,
 * so the client backs off further than bucketForSlidingLimit would.
 *   10/s → capacity 1, refill 8/s (at most 9 in any second); 2/s → one call every 2 s.
 */
export function bucketForLimit(limit: number, windowSeconds: number, headroom = 0.1): RateLimit {
  if (!(limit > 0) || !(windowSeconds > 0)) throw new RangeError('limit and window must be positive');
  const budget = Math.max(1, Math.floor(limit * (1 - headroom)));
  if (budget === 1) return { capacity: 1, refillPerSecond: 1 / (2 * windowSeconds) };
  const capacity = Math.max(1, Math.floor(budget / 10));
  return { capacity, refillPerSecond: (budget - capacity) / windowSeconds };
}

export function assertValidLimit(limit: RateLimit): void {
  if (
    !(limit.capacity >= 1) ||
    !Number.isFinite(limit.capacity) ||
    !(limit.refillPerSecond > 0) ||
    !Number.isFinite(limit.refillPerSecond)
  ) {
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
