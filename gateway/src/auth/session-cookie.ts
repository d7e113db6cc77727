import type { CookieSerializeOptions } from '@fastify/cookie';
import type { AppConfig } from '@pod/config';

/** __Host- needs Secure, which a plain-http local start cannot have. */
export function sessionCookieName(config: AppConfig): string {
  return config.isProduction ? '__Host-podprofit_session' : 'podprofit_session';
}

export function sessionCookieOptions(config: AppConfig, maxAgeSeconds: number): CookieSerializeOptions {
  // Lax, not Strict: Etsy's OAuth redirect back to us is a cross-site navigation.
  return { httpOnly: true, sameSite: 'lax', secure: config.isProduction, path: '/', maxAge: maxAgeSeconds };
}
