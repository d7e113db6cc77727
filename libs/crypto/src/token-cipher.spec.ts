import { randomBytes } from 'node:crypto';
import { deriveKey } from '@pod/config';
import { TokenCipher, TokenDecryptError } from './token-cipher';

const SECRET = 'unit-test-app-secret-0123456789-abcdef';
const A = { userId: '7f1c2a52-1111-4c3e-9d59-aaaaaaaaaaaa', provider: 'etsy' };
const B = { userId: '7f1c2a52-2222-4c3e-9d59-bbbbbbbbbbbb', provider: 'etsy' };
const TOKEN = '12345678.O1zLuwveeKjpIqCQFfmR-PaMMpBmagH6DljRAkK9qt05OtRKiANJOyZlMx3MIjSAV9bjpJDv1SJ3Dnf0qSuB7N2jr0';

const expectDecryptError = (fn: () => unknown, reason?: string) => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(TokenDecryptError);
    if (reason) expect((error as TokenDecryptError).reason).toBe(reason);
    // The error never echoes the secret or the ciphertext.
    expect(String((error as Error).message)).not.toContain(TOKEN);
    return;
  }
  throw new Error('expected a TokenDecryptError');
};

describe('TokenCipher', () => {
  const cipher = TokenCipher.fromAppSecret(SECRET);

  it('round-trips, in the versioned format, without the plaintext showing', () => {
    const stored = cipher.encrypt(TOKEN, A);
    expect(stored).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    expect(stored).not.toContain(TOKEN);
    expect(stored).not.toContain('12345678');
    expect(cipher.decrypt(stored, A)).toBe(TOKEN);
    expect(TokenCipher.keyVersionOf(stored)).toBe(1);
    expect(cipher.decrypt(cipher.encrypt('', A), A)).toBe('');
    expect(cipher.decrypt(cipher.encrypt('ünïcødé 🔐', A), A)).toBe('ünïcødé 🔐');
  });

  it("refuses A's ciphertext in B's context, another provider or another purpose", () => {
    const stored = cipher.encrypt(TOKEN, A);
    expectDecryptError(() => cipher.decrypt(stored, B), 'authentication-failed');
    expectDecryptError(() => cipher.decrypt(stored, { ...A, provider: 'printify' }), 'authentication-failed');
    expectDecryptError(() => cipher.decrypt(stored, { ...A, purpose: 'refresh' }), 'authentication-failed');
    const withPurpose = cipher.encrypt(TOKEN, { ...A, purpose: 'access' });
    expectDecryptError(() => cipher.decrypt(withPurpose, A), 'authentication-failed');
    expect(cipher.decrypt(withPurpose, { ...A, purpose: 'access' })).toBe(TOKEN);
  });

  it('fails on any single flipped bit of nonce, ciphertext or tag', () => {
    const stored = cipher.encrypt(TOKEN, A);
    const [prefix, nonce, body] = stored.split('.');
    const raw = { nonce: Buffer.from(nonce, 'base64url'), body: Buffer.from(body, 'base64url') };
    for (const part of ['nonce', 'body'] as const) {
      for (let byte = 0; byte < raw[part].length; byte += 1) {
        const bit = 1 << (byte % 8);
        const copy = Buffer.from(raw[part]);
        copy[byte] ^= bit;
        const tampered =
          part === 'nonce'
            ? `${prefix}.${copy.toString('base64url')}.${body}`
            : `${prefix}.${nonce}.${copy.toString('base64url')}`;
        expectDecryptError(() => cipher.decrypt(tampered, A));
      }
    }
  });

  it('fails with the wrong key, and with a key version it does not hold', () => {
    const stored = cipher.encrypt(TOKEN, A);
    expectDecryptError(() => TokenCipher.fromAppSecret(`${SECRET}-other`).decrypt(stored, A), 'authentication-failed');
    // Relabelling the version does not help: the version is authenticated too.
    const v2 = new TokenCipher(
      { 1: deriveKey(SECRET, 'token-encryption-v1'), 2: deriveKey(SECRET, 'token-encryption-v1') },
      2,
    );
    expectDecryptError(() => v2.decrypt(stored.replace(/^v1\./, 'v2.'), A), 'authentication-failed');
    expectDecryptError(() => cipher.decrypt(stored.replace(/^v1\./, 'v3.'), A), 'unknown-key-version');
  });

  it('refuses malformed input', () => {
    for (const bad of [
      '',
      'plain-token',
      'v1..',
      'v1.AAAA.BBBB',
      'v0.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAAAA',
      `v1.${'A'.repeat(16)}.${'A'.repeat(10)}`,
    ]) {
      expectDecryptError(() => cipher.decrypt(bad, A), 'malformed');
    }
    expectDecryptError(() => cipher.decrypt(undefined as unknown as string, A), 'malformed');
  });

  it('rotates: new values under the current key, old values still readable', () => {
    const v1 = TokenCipher.fromAppSecret(SECRET);
    const old = v1.encrypt(TOKEN, A);
    const rotated = new TokenCipher(
      { 1: deriveKey(SECRET, 'token-encryption-v1'), 2: deriveKey(SECRET, 'token-encryption-v2') },
      2,
    );
    expect(rotated.decrypt(old, A)).toBe(TOKEN);
    const fresh = rotated.encrypt(TOKEN, A);
    expect(TokenCipher.keyVersionOf(fresh)).toBe(2);
    expectDecryptError(() => v1.decrypt(fresh, A), 'unknown-key-version');
  });

  it('refuses bad key material', () => {
    expect(() => new TokenCipher({ 1: randomBytes(16) }, 1)).toThrow(/32 bytes/);
    expect(() => new TokenCipher({ 1: randomBytes(32) }, 2)).toThrow(/current version/);
  });

  it('gives 100,000 encryptions 100,000 distinct nonces', () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 100_000; i += 1) nonces.add(cipher.encrypt('x', A).split('.')[1]);
    expect(nonces.size).toBe(100_000);
  });
});
