import { createHmac } from 'node:crypto';
import { HttpException, HttpStatus, Inject, Injectable, ServiceUnavailableException } from '@nestjs/common';
import type Redis from 'ioredis';
import { AppConfig, deriveKey } from '@pod/config';
import { REDIS } from '../core/core.module';

interface Limit {
  scope: string;
  max: number;
  windowSeconds: number;
}

/** Failed sign-ins: 10 per account per minute (the 11th is refused), 100 per account per hour, 30 per IP per minute. */
const LOGIN_LIMITS = (account: string, ip: string): Array<Limit & { key: string }> => [
  { scope: 'account', key: `login-fail:acct:${account}`, max: 10, windowSeconds: 60 },
  { scope: 'account-hour', key: `login-fail:acct-h:${account}`, max: 100, windowSeconds: 3600 },
  { scope: 'ip', key: `login-fail:ip:${ip}`, max: 30, windowSeconds: 60 },
];
/** Sign-ups per IP: a taken email answers 409, so sign-up must not become an enumeration oracle. */
const SIGNUP_LIMIT: Limit = { scope: 'signup-ip', max: 50, windowSeconds: 3600 };
/** Printify token checks per user: a validate endpoint must not become a way to test stolen tokens. */
const TOKEN_CHECK_LIMIT: Limit = { scope: 'token-check-user', max: 20, windowSeconds: 600 };
/** Demo accounts per IP: each one creates a sandbox seller with months of orders. */
const DEMO_LIMIT: Limit = { scope: 'demo-ip', max: 30, windowSeconds: 3600 };

export class TooManyAttemptsException extends HttpException {
  constructor(
    readonly retryAfterSeconds: number,
    message: string,
  ) {
    super(message, HttpStatus.TOO_MANY_REQUESTS);
  }
}

/** Counters live in Redis, so every gateway replica sees the same attempts. */
@Injectable()
export class LoginThrottleService {
  private readonly hmacKey: Buffer;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    config: AppConfig,
  ) {
    this.hmacKey = deriveKey(config.APP_SECRET, 'login-throttle');
  }

  /** Throws 429 with Retry-After when any login limit is used up for this account or IP. */
  async assertLoginAllowed(email: string, ip: string): Promise<void> {
    const limits = LOGIN_LIMITS(this.accountKey(email), ip);
    const counts = await this.run(() => this.redis.mget(...limits.map((l) => l.key)));
    for (const [index, limit] of limits.entries()) {
      if (Number(counts[index] ?? 0) >= limit.max) {
        const ttl = await this.run(() => this.redis.ttl(limit.key));
        const wait = Math.max(1, ttl);
        throw new TooManyAttemptsException(wait, `Too many sign-in attempts. Try again in ${wait} seconds.`);
      }
    }
  }

  async recordFailure(email: string, ip: string): Promise<void> {
    const multi = this.redis.multi();
    for (const limit of LOGIN_LIMITS(this.accountKey(email), ip)) {
      multi.incr(limit.key);
      multi.expire(limit.key, limit.windowSeconds, 'NX');
    }
    await this.run(() => multi.exec());
  }

  async recordSuccess(email: string): Promise<void> {
    await this.run(() => this.redis.del(`login-fail:acct:${this.accountKey(email)}`));
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

  /** Counts one attempt for `who` (an IP or a user id) and refuses past the limit. */
  private async countAgainst(limit: Limit, who: string, message: string): Promise<void> {
    const key = `${limit.scope}:${who}`;
    const results = await this.run(() => this.redis.multi().incr(key).expire(key, limit.windowSeconds, 'NX').ttl(key).exec());
    const count = Number(results?.[0]?.[1] ?? 0);
    if (count > limit.max) {
      const wait = Math.max(1, Number(results?.[2]?.[1] ?? limit.windowSeconds));
      throw new TooManyAttemptsException(wait, `${message} Try again in ${wait} seconds.`);
    }
  }

  /** Emails are keyed by HMAC so Redis never holds them in the clear. */
  private accountKey(email: string): string {
    return createHmac('sha256', this.hmacKey).update(email.trim().toLowerCase()).digest('base64url');
  }

  private async run<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch {
      // Without the shared counters we cannot limit guessing: refuse rather than allow unlimited tries.
      throw new ServiceUnavailableException('Sign-in is temporarily unavailable. Please try again shortly.');
    }
  }
}
