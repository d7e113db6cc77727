import { createSecretKey, type KeyObject } from 'node:crypto';
import type { CookieSerializeOptions } from '@fastify/cookie';
import { deriveKey, type AppConfig } from '@pod/config';

/** __Host- needs Secure, which a plain-http local start cannot have. */
export function sessionCookieName(config: AppConfig): string {
  return config.isProduction ? '__Host-podprofit_session' : 'podprofit_session';
}

export function sessionCookieOptions(config: AppConfig, maxAgeSeconds: number): CookieSerializeOptions {
  // Lax, not Strict: Etsy's OAuth redirect back to us is a cross-site navigation.
  return { httpOnly: true, sameSite: 'lax', secure: config.isProduction, path: '/', maxAge: maxAgeSeconds };
}

/**
 * The session JWT's HMAC key as a KeyObject. jsonwebtoken, handed a Buffer, first tries to read
 * it as a public key and falls back on the exception: that failed parse cost more than all the
 * rest of the session check once the session row is cached.
 */
export function sessionJwtKey(config: AppConfig): KeyObject {
  return createSecretKey(deriveKey(config.APP_SECRET, 'session-jwt'));
}
