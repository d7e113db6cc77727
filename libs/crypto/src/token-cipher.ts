import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { deriveKey, tokenKeysOf, type TokenKeySettings } from '@pod/config';

const ALGORITHM = 'aes-256-gcm';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
/** `v<keyVersion>.<nonce, base64url>.<ciphertext then tag, base64url>` */
const STORED_FORMAT = /^v([1-9][0-9]{0,5})\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{22,})$/;

/** Whose secret this is: bound into the ciphertext as additional authenticated data. */
export interface TokenContext {
  userId: string;
  /** `etsy`, `printify`, or another owner-side label (e.g. `etsy-pkce` for an OAuth verifier). */
  provider: string;
  /** Optional finer binding, e.g. `access` vs `refresh` or an OAuth state hash. */
  purpose?: string;
}

export type TokenDecryptReason = 'malformed' | 'unknown-key-version' | 'authentication-failed';

/**
 * A stored token that cannot be read: tampered with, encrypted under another key, or
 * belonging to another user, provider or purpose. The message never contains the input.
 */
export class TokenDecryptError extends Error {
  constructor(readonly reason: TokenDecryptReason) {
    super(`Stored token could not be decrypted (${reason})`);
    this.name = 'TokenDecryptError';
  }
}

/**
 * AES-256-GCM for provider tokens at rest. Every encryption draws a fresh random 96-bit
 * nonce; the additional authenticated data binds the user, the provider (and purpose) and
 * the key version, so a ciphertext copied into another user's row, or relabelled with
 * another key version, fails to decrypt. Keys are versioned for rotation: new values use
 * `currentVersion`, old values decrypt with the key their prefix names.
 */
export class TokenCipher {
  private readonly keys: ReadonlyMap<number, Buffer>;

  constructor(
    keys: ReadonlyMap<number, Buffer> | Record<number, Buffer>,
    readonly currentVersion: number,
  ) {
    const map =
      keys instanceof Map ? new Map(keys) : new Map(Object.entries(keys).map(([v, k]) => [Number(v), k as Buffer]));
    for (const [version, key] of map) {
      if (!Number.isInteger(version) || version < 1) throw new Error('Key versions are positive integers');
      if (key.length !== KEY_BYTES) throw new Error(`Token-encryption key v${version} must be ${KEY_BYTES} bytes`);
    }
    if (!map.has(currentVersion)) throw new Error(`No token-encryption key for the current version v${currentVersion}`);
    this.keys = map;
  }

  /** Key v1 derived from APP_SECRET alone: what every process used before key rotation. */
  static fromAppSecret(appSecret: string): TokenCipher {
    return new TokenCipher(new Map([[1, deriveKey(appSecret, 'token-encryption-v1')]]), 1);
  }

  /** The cipher every process uses: the keys of TOKEN_ENCRYPTION_KEYS (v1 from APP_SECRET when unset). */
  static fromConfig(config: TokenKeySettings): TokenCipher {
    const { keys, current } = tokenKeysOf(config);
    return new TokenCipher(keys, current);
  }

  encrypt(plaintext: string, context: TokenContext): string {
    const version = this.currentVersion;
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.key(version), nonce, { authTagLength: TAG_BYTES });
    cipher.setAAD(additionalData(version, context));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `v${version}.${nonce.toString('base64url')}.${body.toString('base64url')}`;
  }

  /** Throws TokenDecryptError unless `stored` was encrypted by us for exactly this context. */
  decrypt(stored: string, context: TokenContext): string {
    const match = typeof stored === 'string' ? STORED_FORMAT.exec(stored) : null;
    if (!match) throw new TokenDecryptError('malformed');
    const version = Number(match[1]);
    if (!this.keys.has(version)) throw new TokenDecryptError('unknown-key-version');
    const nonce = Buffer.from(match[2], 'base64url');
    const body = Buffer.from(match[3], 'base64url');
    if (nonce.length !== NONCE_BYTES || body.length < TAG_BYTES) throw new TokenDecryptError('malformed');
    try {
      const decipher = createDecipheriv(ALGORITHM, this.key(version), nonce, { authTagLength: TAG_BYTES });
      decipher.setAAD(additionalData(version, context));
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      throw new TokenDecryptError('authentication-failed');
    }
  }

  /** The key version a stored value names (for re-encryption jobs), or undefined when malformed. */
  static keyVersionOf(stored: string): number | undefined {
    const match = STORED_FORMAT.exec(stored);
    return match ? Number(match[1]) : undefined;
  }

  private key(version: number): Buffer {
    const key = this.keys.get(version);
    if (!key) throw new TokenDecryptError('unknown-key-version');
    return key;
  }
}

/** Unambiguous encoding of the binding (a JSON array: no separator can be smuggled in a field). */
function additionalData(version: number, context: TokenContext): Buffer {
  return Buffer.from(
    JSON.stringify(['podprofit-token', version, context.userId, context.provider, context.purpose ?? '']),
    'utf8',
  );
}
