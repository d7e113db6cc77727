import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { CookieSerializeOptions } from '@fastify/cookie';
import type { AppConfig } from '@pod/config';

/** How long a browser stays "a device this account signed in from". */
export const KNOWN_DEVICE_MAX_AGE_SECONDS = 180 * 24 * 3600;

/** __Host- needs Secure, which a plain-http local start cannot have (as for the session cookie). */
export function knownDeviceCookieName(config: AppConfig): string {
  return config.isProduction ? '__Host-podprofit_device' : 'podprofit_device';
}

export function knownDeviceCookieOptions(config: AppConfig): CookieSerializeOptions {
  // Only same-origin sign-in requests need it: Strict keeps it off every cross-site request.
  return {
    httpOnly: true,
    sameSite: 'strict',
    secure: config.isProduction,
    path: '/',
    maxAge: KNOWN_DEVICE_MAX_AGE_SECONDS,
  };
}

/**
 * The cookie names a random device id and carries its HMAC, so an id cannot be made up; which
 * accounts signed in on that device is kept server-side (SignInThrottleService), never in it.
 */
export class KnownDeviceTokens {
  constructor(private readonly key: Buffer) {}

  /** A fresh device id: 128 random bits. */
  static newDeviceId(): string {
    return randomBytes(16).toString('base64url');
  }

  issue(deviceId: string): string {
    return `${deviceId}.${this.sign(deviceId)}`;
  }

  /** The device id of a well-formed, correctly signed token; undefined for anything else. */
  verify(token: string | undefined): string | undefined {
    const match = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/.exec(token ?? '');
    if (!match) return undefined;
    const expected = Buffer.from(this.sign(match[1]));
    const given = Buffer.from(match[2]);
    return given.length === expected.length && timingSafeEqual(given, expected) ? match[1] : undefined;
  }

  private sign(deviceId: string): string {
    return createHmac('sha256', this.key).update(`known-device:${deviceId}`).digest('base64url');
  }
}
