import type { Clock } from '../http/clock';
import type { RatePlan } from '../http/request';
import { parseRetryAfter } from '../http/retry';
import { bucketForLimit, mostGrantedInWindow, type RateLimiter } from '../rate-limit/limiter';

/** How long a lower `x-limit-per-second` holds once seen (renewed by every response that says it). */
const LOWERED_LIMIT_TTL_MS = 10 * 60_000;

function headerInt(headers: Headers, ...names: string[]): number | null {
  for (const name of names) {
    const value = headers.get(name)?.trim();
    if (value !== undefined && /^\d+$/.test(value)) return Number(value);
  }
  return null;
}

/**
 * Reads Etsy's rate headers from every response and tells the shared limiter, so all
 * replicas slow down within one second of Etsy saying so:
 * - `x-remaining-today: 0`: the connection's daily scope is blocked (for `retry-after` when
 *   given, else `dailyQuotaPauseMs`); calls fail fast with RateLimitedError('day') meanwhile.
 * - `x-limit-per-second` below our configured `perSecondLimit`: the bucket shrinks, 10% under
 *   the announced limit (bucketForLimit), for 10 minutes.
 * - `x-remaining-this-second` (documented as `x-remaining-this-secon`; both are read) below what
 *   our own calls can leave in Etsy's window (the limit minus the most the bucket grants in a
 *   second): someone else spends this budget, so the bucket is drained to 90% of what remains;
 *   at 0, to a one-second pause. At the configured limit the bucket itself may fill Etsy's
 *   window (that is how it reaches the limit), so a 0 is only news when our pace cannot explain it.
 */
export function etsyRateHeaders(input: {
  limiter: RateLimiter;
  plan: RatePlan;
  perSecondLimit: number;
  clock: Clock;
  dailyQuotaPauseMs: number;
}) {
  const { limiter, plan, perSecondLimit, clock, dailyQuotaPauseMs } = input;
  const dayScope = plan.blockScopes?.find((b) => b.kind === 'day')?.scope;
  return async ({ status, headers }: { status: number; headers: Headers }): Promise<void> => {
    const remainingToday = headerInt(headers, 'x-remaining-today');
    if (remainingToday === 0 && dayScope) {
      const retryAfter = parseRetryAfter(headers.get('retry-after'), clock.now());
      await limiter.block(dayScope, retryAfter ?? dailyQuotaPauseMs);
    }
    const advertised = headerInt(headers, 'x-limit-per-second');
    let limit = plan.limit;
    if (advertised !== null && advertised > 0 && advertised < perSecondLimit) {
      limit = bucketForLimit(advertised, 1);
      await limiter.lowerLimit(plan.scope, limit, LOWERED_LIMIT_TTL_MS);
    }
    const remaining = headerInt(headers, 'x-remaining-this-second', 'x-remaining-this-secon');
    const etsyLimit = advertised !== null && advertised > 0 ? advertised : perSecondLimit;
    const ourLeast = etsyLimit - mostGrantedInWindow(limit, 1);
    if (remaining !== null && status !== 429 && remaining < ourLeast) {
      // At 0, a balance of 1 − refill makes the next token due in one second.
      const maxTokens = remaining === 0 ? 1 - limit.refillPerSecond : Math.floor(remaining * 0.9);
      if (maxTokens < limit.capacity) await limiter.drain(plan.scope, limit, maxTokens);
    }
  };
}
