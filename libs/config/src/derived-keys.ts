import { hkdfSync } from 'node:crypto';

/**
 * One APP_SECRET, separate keys per purpose: a leaked session-signing key must not
 * decrypt stored provider tokens, and the other way round.
 */
export function deriveKey(appSecret: string, purpose: 'session-jwt' | 'token-encryption-v1' | 'login-throttle'): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(appSecret, 'utf8'), Buffer.alloc(0), `podprofit:${purpose}`, 32));
}
