import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { REDIS } from '../../core/core.module';
import { TooManyAttemptsException, WindowCounters, type WindowLimit } from './failure-counters';

type Limit = Omit<WindowLimit, 'key'> & { scope: string };

/** Sign-ups per IP: a taken email answers 409, so sign-up must not become an enumeration oracle. */
const SIGNUP_LIMIT: Limit = { scope: 'signup-ip', max: 50, windowSeconds: 3600 };
/** Printify token checks per user: a validate endpoint must not become a way to test stolen tokens. */
const TOKEN_CHECK_LIMIT: Limit = { scope: 'token-check-user', max: 20, windowSeconds: 600 };
/** Demo accounts per IP: each one creates a sandbox seller with months of orders. */
const DEMO_LIMIT: Limit = { scope: 'demo-ip', max: 30, windowSeconds: 3600 };
/**
 * Sync requests per user: each costs a queue job and provider budget, though a request while a
 * run is active only returns that run. Generous: a burst of clicks or tabs must not be refused.
 */
const SYNC_REQUEST_LIMIT: Limit = { scope: 'sync-user', max: 120, windowSeconds: 600 };
/**
 * "Match Orders" requests per user: a request while a run is queued joins it, but each finished
 * run lets the next request queue another that recomputes all the user's orders. 30 in 10
 * minutes is far more than a person clicking (the button is disabled while matching is pending).
 */
const MATCH_REQUEST_LIMIT: Limit = { scope: 'match-user', max: 30, windowSeconds: 600 };
/**
 * Wrong current passwords per user on "change password", like failed sign-ins: a stolen
 * session must not become a way to guess the password (10 a minute, 100 an hour).
 */
const PASSWORD_CHECK_LIMITS: Limit[] = [
  { scope: 'password-check-user', max: 10, windowSeconds: 60 },
  { scope: 'password-check-user-h', max: 100, windowSeconds: 3600 },
];

/**
 * Limits on the requests that cost us or an account something (sign-ups, demo accounts,
 * Printify token checks, current-password checks, sync and match requests). Sign-in has its own: SignInThrottleService.
 * The counters live in Redis, so every gateway replica sees the same attempts.
 */
@Injectable()
export class AbuseThrottleService {
  private readonly counters: WindowCounters;

  constructor(@Inject(REDIS) redis: Redis) {
    this.counters = new WindowCounters(redis, 'This is temporarily unavailable. Please try again shortly.');
  }

  assertSignupAllowed(ip: string): Promise<void> {
    return this.countAgainst(SIGNUP_LIMIT, ip, 'Too many sign-ups from this network.');
  }

  assertDemoAllowed(ip: string): Promise<void> {
    return this.countAgainst(DEMO_LIMIT, ip, 'Too many demo accounts from this network.');
  }

  assertTokenCheckAllowed(userId: string): Promise<void> {
    return this.countAgainst(TOKEN_CHECK_LIMIT, userId, 'Too many Printify token checks.');
  }

  assertSyncAllowed(userId: string): Promise<void> {
    return this.countAgainst(SYNC_REQUEST_LIMIT, userId, 'Too many sync requests.');
  }

  assertMatchAllowed(userId: string): Promise<void> {
    return this.countAgainst(MATCH_REQUEST_LIMIT, userId, 'Too many Match Orders requests.');
  }

  /** Refuses (429) once the user has given too many wrong current passwords lately. */
  async assertPasswordCheckAllowed(userId: string): Promise<void> {
    const exhausted = await this.counters.firstExhausted(passwordCheckLimits(userId));
    if (exhausted) {
      const wait = exhausted.retryAfterSeconds;
      throw new TooManyAttemptsException(wait, `Too many wrong current passwords. Try again in ${wait} seconds.`);
    }
  }

  recordWrongCurrentPassword(userId: string): Promise<void> {
    return this.counters.increment(passwordCheckLimits(userId));
  }

  /** The right password ends the short window; the hourly one keeps bounding guesses. */
  clearPasswordCheckFailures(userId: string): Promise<void> {
    return this.counters.clear([passwordCheckLimits(userId)[0].key]);
  }

  /** Counts one attempt for `who` (an IP or a user id) and refuses past the limit. */
  private async countAgainst(limit: Limit, who: string, message: string): Promise<void> {
    const { exceeded, retryAfterSeconds } = await this.counters.incrementAndCheck({
      ...limit,
      key: `${limit.scope}:${who}`,
    });
    if (exceeded)
      throw new TooManyAttemptsException(retryAfterSeconds, `${message} Try again in ${retryAfterSeconds} seconds.`);
  }
}

function passwordCheckLimits(userId: string): WindowLimit[] {
  return PASSWORD_CHECK_LIMITS.map((limit) => ({ ...limit, key: `${limit.scope}:${userId}` }));
}
