import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { PinoLogger } from 'nestjs-pino';
import { TooManyAttemptsException, WindowCounters, type WindowLimit } from '../auth/throttles/failure-counters';
import { REDIS } from '../core/core.module';

/** Where the wrong token was presented: the JSON operator routes, or Bull Board (bearer or its sign-in form). */
export type OperatorSurface = 'api' | 'bull-board';

/**
 * Wrong operator tokens per address: an operator mistypes once or twice, a guesser keeps going.
 * Past the limit every operator request from the address (right token or not) answers 429
 * until the window ends, so the limit bounds guesses rather than merely slowing them.
 */
export const OPERATOR_FAILURE_LIMIT = { scope: 'operator-ip', max: 5, windowSeconds: 900 } as const;

/**
 * Throttles wrong OPERATOR_TOKENs per client address (counters in Redis, shared by every
 * gateway replica) and logs each at WARN — the address and the surface, never what was
 * presented. Used by OperatorGuard and by Bull Board's hook (bull-board.ts).
 */
@Injectable()
export class OperatorThrottle {
  private readonly counters: WindowCounters;

  constructor(
    @Inject(REDIS) redis: Redis,
    private readonly logger: PinoLogger,
  ) {
    this.counters = new WindowCounters(redis, 'Operator access is temporarily unavailable. Please try again shortly.');
    logger.setContext(OperatorThrottle.name);
  }

  /** Throws 429 (with Retry-After) while the address has used up its wrong tokens. */
  async assertAllowed(ip: string, surface: OperatorSurface): Promise<void> {
    const exhausted = await this.counters.firstExhausted([limitFor(ip)]);
    if (!exhausted) return;
    this.logger.warn(
      { event: 'operator.throttled', ip, surface, retryAfterSeconds: exhausted.retryAfterSeconds },
      'operator request refused: too many wrong tokens from this address',
    );
    throw new TooManyAttemptsException(
      exhausted.retryAfterSeconds,
      `Too many wrong operator tokens. Try again in ${exhausted.retryAfterSeconds} seconds.`,
    );
  }

  /** Counts a wrong token from the address and says so at WARN. */
  async recordRejected(ip: string, surface: OperatorSurface): Promise<void> {
    this.logger.warn({ event: 'operator.credential_rejected', ip, surface }, 'wrong operator token');
    await this.counters.increment([limitFor(ip)]);
  }
}

function limitFor(ip: string): WindowLimit {
  return {
    key: `${OPERATOR_FAILURE_LIMIT.scope}:${ip}`,
    max: OPERATOR_FAILURE_LIMIT.max,
    windowSeconds: OPERATOR_FAILURE_LIMIT.windowSeconds,
  };
}
