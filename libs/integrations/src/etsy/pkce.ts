import { createHash, randomBytes } from 'node:crypto';

/** PKCE (RFC 7636, S256) as Etsy requires it on every authorization. */
export interface PkcePair {
  /** 43 characters of base64url (32 random bytes): within [A-Za-z0-9._~-]{43,128}. */
  verifier: string;
  /** base64url(SHA-256(verifier)), no padding. */
  challenge: string;
}

const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

export function isValidCodeVerifier(verifier: string): boolean {
  return VERIFIER.test(verifier);
}

export function codeChallengeFor(verifier: string): string {
  if (!isValidCodeVerifier(verifier)) throw new RangeError('a PKCE verifier is 43-128 characters of [A-Za-z0-9._~-]');
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

export function createPkcePair(): PkcePair {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: codeChallengeFor(verifier) };
}

/** An OAuth `state`: 256 random bits, base64url. */
export function randomState(): string {
  return randomBytes(32).toString('base64url');
}
