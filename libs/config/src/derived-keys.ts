import { hkdfSync } from 'node:crypto';

/** What a derived key is for; token-encryption keys carry their version (v1, v2, … for rotation). */
export type KeyPurpose = 'session-jwt' | 'login-throttle' | `token-encryption-v${number}`;

/**
 * One APP_SECRET, separate keys per purpose: a leaked session-signing key must not
 * decrypt stored provider tokens, and the other way round.
 */
export function deriveKey(appSecret: string, purpose: KeyPurpose): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(appSecret, 'utf8'), Buffer.alloc(0), `podprofit:${purpose}`, 32));
}
