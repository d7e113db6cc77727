/** Retry policy: at most `maxAttempts` calls in all, exponential backoff with full jitter. */
export interface RetryPolicy {
  /** Calls in all, the first included (default 5). */
  maxAttempts: number;
  /** The first backoff ceiling (default 1 s); it doubles per attempt. */
  baseDelayMs: number;
  /** No backoff ceiling above this (default 30 s). */
  maxDelayMs: number;
  /**
   * The longest `Retry-After` (or shared-limiter wait) the request function sits out itself
   * (default 30 s). Longer waits surface at once as RateLimitedError so the job can park.
   */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 30_000,
};

/**
 * "Full jitter": a uniformly random delay between 0 and min(maxDelay, base · 2^(attempt−1)),
 * so replicas that failed together do not retry together. `attempt` is the call that just
 * failed (1 for the first).
 */
export function backoffDelayMs(
  attempt: number,
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>,
  random: () => number,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.floor(r * ceiling);
}

/**
 * `Retry-After` as milliseconds from `nowMs`: either delay-seconds ("7", "1.5") or an HTTP
 * date ("Wed, 21 Oct 2026 07:28:00 GMT"; a date in the past means 0). Null when absent or
 * unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | null {
  if (value === null || value === undefined) return null;
  const text = value.trim();
  if (text === '') return null;
  if (/^\d+(\.\d+)?$/.test(text)) {
    const ms = Math.ceil(Number(text) * 1000);
    return Number.isFinite(ms) ? ms : null;
  }
  // An HTTP date always names a weekday or month; refuse bare numbers with signs and the like.
  if (!/[A-Za-z]/.test(text)) return null;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - nowMs);
}
