import { createHmac } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { AppConfig, deriveKey } from '@pod/config';
import { REDIS } from '../../core/core.module';
import { TooManyAttemptsException, WindowCounters, type WindowLimit } from './failure-counters';
import { KNOWN_DEVICE_MAX_AGE_SECONDS, KnownDeviceTokens } from './known-device-cookie';

/** Where a sign-in comes from, as far as the account is concerned. */
export type SignInTrust = 'device' | 'address' | 'unknown';

export interface SignInOrigin {
  ip: string;
  /** The known-device cookie's value, if the browser sent one. */
  deviceToken?: string;
}

/** What the check learned, handed back to recordFailure/recordSuccess. */
export interface SignInCheck {
  trust: SignInTrust;
  /** The verified device id of the cookie (known to this account or not). */
  deviceId?: string;
}

type Scope = 'ip' | 'pair' | 'account' | 'account-hour';
type ScopedLimit = WindowLimit & { scope: Scope };

const MINUTE = 60;
const HOUR = 3600;
/** Failed sign-ins per address across accounts (credential stuffing). */
const PER_IP = 10 * 3;
/** Failed sign-ins per account and address, or account and known device. */
const PER_PAIR = 10;
/** Failed sign-ins per account per minute from unknown addresses (the 11th gets 429). */
const PER_ACCOUNT_MINUTE = 10;
/**
 * Failed sign-ins per account per hour: every failure counts, and each kind of origin stops at
 * its own ceiling, so an attacker from unknown addresses can use at most 80 and always leaves
 * the owner's known addresses 10 and known devices 20 more: never more than 100 reach argon2.
 */
const HOURLY_CEILING: Record<SignInTrust, number> = { unknown: 80, address: 90, device: 100 };
/** Remembered per account: the addresses and devices of recent successful sign-ins. */
const KNOWN_ADDRESSES = { keep: 10, ttlSeconds: 30 * 24 * HOUR };
const KNOWN_DEVICES = { keep: 20, ttlSeconds: KNOWN_DEVICE_MAX_AGE_SECONDS };

/**
 * Slows password guessing without letting an attacker lock the owner out:
 * - per address (all accounts) and per (account, address) — or (account, device) for a known
 *   device, so a shared address cannot lock the owner's browser;
 * - per account, only for origins the owner never signed in from: spraying from many addresses
 *   locks out unknown origins for the window, not the owner's known devices and addresses;
 * - an hourly account ceiling graded by trust (HOURLY_CEILING).
 * A success clears the counters of that (account, address/device) and remembers both.
 */
@Injectable()
export class SignInThrottleService {
  private readonly hmacKey: Buffer;
  private readonly counters: WindowCounters;
  private readonly devices: KnownDeviceTokens;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    config: AppConfig,
  ) {
    this.hmacKey = deriveKey(config.APP_SECRET, 'login-throttle');
    this.devices = new KnownDeviceTokens(this.hmacKey);
    this.counters = new WindowCounters(redis, 'Sign-in is temporarily unavailable. Please try again shortly.');
  }

  /** Throws 429 with Retry-After (and the scope, for the log) when a limit is used up. */
  async assertAllowed(email: string, origin: SignInOrigin): Promise<SignInCheck> {
    const account = this.accountKey(email);
    const check = await this.recognise(account, origin);
    const exhausted = await this.counters.firstExhausted(this.limitsToEnforce(account, origin, check));
    if (exhausted) {
      const wait = exhausted.retryAfterSeconds;
      throw new SignInLockedException(wait, exhausted.limit.scope, check.trust);
    }
    return check;
  }

  async recordFailure(email: string, origin: SignInOrigin, check: SignInCheck): Promise<void> {
    await this.counters.increment(this.allLimits(this.accountKey(email), origin, check));
  }

  async recordSuccess(email: string, origin: SignInOrigin, check: SignInCheck): Promise<{ deviceToken: string }> {
    const account = this.accountKey(email);
    // The browser keeps its device id (one cookie serves every account signed in on it).
    const deviceId = check.deviceId ?? KnownDeviceTokens.newDeviceId();
    const deviceToken = this.devices.issue(deviceId);
    const now = Date.now();
    const knownAddresses = `signin:known-ip:${account}`;
    const knownDevices = `signin:known-dev:${account}`;
    await this.counters.clear([
      pairKey(account, 'a', this.hash(`ip:${origin.ip}`)),
      pairKey(account, 'd', this.hash(`device:${deviceId}`)),
    ]);
    await this.counters.run(() =>
      this.redis
        .multi()
        .zadd(knownAddresses, now, this.hash(`ip:${origin.ip}`))
        .zremrangebyrank(knownAddresses, 0, -(KNOWN_ADDRESSES.keep + 1))
        .expire(knownAddresses, KNOWN_ADDRESSES.ttlSeconds)
        .zadd(knownDevices, now, this.hash(`device:${deviceId}`))
        .zremrangebyrank(knownDevices, 0, -(KNOWN_DEVICES.keep + 1))
        .expire(knownDevices, KNOWN_DEVICES.ttlSeconds)
        .exec(),
    );
    return { deviceToken };
  }

  /** A new account's first sign-in: its browser and address become known. */
  recordSignUp(email: string, origin: SignInOrigin): Promise<{ deviceToken: string }> {
    return this.recordSuccess(email, origin, { trust: 'unknown', deviceId: this.devices.verify(origin.deviceToken) });
  }

  /** A device the account signed in on before, else an address it signed in from, else unknown. */
  private async recognise(account: string, origin: SignInOrigin): Promise<SignInCheck> {
    const deviceId = this.devices.verify(origin.deviceToken);
    const results = await this.counters.run(() =>
      this.redis
        .multi()
        .zscore(`signin:known-dev:${account}`, deviceId ? this.hash(`device:${deviceId}`) : '-')
        .zscore(`signin:known-ip:${account}`, this.hash(`ip:${origin.ip}`))
        .exec(),
    );
    const [knownDevice, knownAddress] = (results ?? []).map(([, value]) => value !== null && value !== undefined);
    if (deviceId && knownDevice) return { trust: 'device', deviceId };
    return { trust: knownAddress ? 'address' : 'unknown', deviceId };
  }

  /** Every failure counts in all of these; which of them refuse depends on the trust. */
  private allLimits(account: string, origin: SignInOrigin, check: SignInCheck): ScopedLimit[] {
    const pair =
      check.trust === 'device'
        ? pairKey(account, 'd', this.hash(`device:${check.deviceId as string}`))
        : pairKey(account, 'a', this.hash(`ip:${origin.ip}`));
    return [
      { scope: 'pair', key: pair, max: PER_PAIR, windowSeconds: MINUTE },
      { scope: 'ip', key: `signin:ip:${origin.ip}`, max: PER_IP, windowSeconds: MINUTE },
      { scope: 'account', key: `signin:acct:${account}`, max: PER_ACCOUNT_MINUTE, windowSeconds: MINUTE },
      { scope: 'account-hour', key: `signin:acct-h:${account}`, max: HOURLY_CEILING[check.trust], windowSeconds: HOUR },
    ];
  }

  private limitsToEnforce(account: string, origin: SignInOrigin, check: SignInCheck): ScopedLimit[] {
    return this.allLimits(account, origin, check).filter((limit) => {
      // A known device proves an earlier sign-in to this account: others on its network and
      // attackers elsewhere cannot use up its limits.
      if (limit.scope === 'ip') return check.trust !== 'device';
      if (limit.scope === 'account') return check.trust === 'unknown';
      return true;
    });
  }

  /** Emails (and addresses and devices in per-account keys) are keyed by HMAC, never in the clear. */
  private accountKey(email: string): string {
    return this.hash(`email:${email.trim().toLowerCase()}`);
  }

  private hash(value: string): string {
    return createHmac('sha256', this.hmacKey).update(value).digest('base64url');
  }
}

function pairKey(account: string, kind: 'a' | 'd', who: string): string {
  return `signin:pair:${account}:${kind}:${who}`;
}

export class SignInLockedException extends TooManyAttemptsException {
  constructor(
    retryAfterSeconds: number,
    readonly scope: Scope,
    readonly trust: SignInTrust,
  ) {
    super(retryAfterSeconds, `Too many sign-in attempts. Try again in ${retryAfterSeconds} seconds.`);
  }
}
