import type { RateLimit } from '@pod/integrations';

/**
 * The bucket arithmetic of both limiters (the Lua script in redis-limiter.ts does the same in
 * Redis). Times in milliseconds; tokens may go negative: a negative balance is the queue of
 * reservations not yet due.
 */
export interface BucketState {
  tokens: number;
  updatedAtMs: number;
}

export type TakeResult = { granted: true; waitMs: number; next: BucketState } | { granted: false; waitMs: number };

export function effectiveLimit(limit: RateLimit, override: RateLimit | undefined): RateLimit {
  if (!override) return limit;
  return {
    capacity: Math.min(limit.capacity, override.capacity),
    refillPerSecond: Math.min(limit.refillPerSecond, override.refillPerSecond),
  };
}

export function refill(state: BucketState | undefined, limit: RateLimit, nowMs: number): BucketState {
  if (!state) return { tokens: limit.capacity, updatedAtMs: nowMs };
  const elapsed = Math.max(0, nowMs - state.updatedAtMs);
  const tokens = Math.min(limit.capacity, state.tokens + (elapsed / 1000) * limit.refillPerSecond);
  return { tokens, updatedAtMs: Math.max(nowMs, state.updatedAtMs) };
}

/** Reserves one token; the caller may send after `waitMs`. Refuses (reserving nothing) past maxWaitMs. */
export function take(state: BucketState | undefined, limit: RateLimit, nowMs: number, maxWaitMs: number): TakeResult {
  const current = refill(state, limit, nowMs);
  const tokens = current.tokens - 1;
  const waitMs = tokens >= 0 ? 0 : Math.ceil((-tokens / limit.refillPerSecond) * 1000);
  if (waitMs > maxWaitMs) return { granted: false, waitMs };
  return { granted: true, waitMs, next: { tokens, updatedAtMs: current.updatedAtMs } };
}
