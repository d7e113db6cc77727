import { codeChallengeFor, createPkcePair, isValidCodeVerifier, randomState } from './pkce';

describe('PKCE', () => {
  it("matches Etsy's documented pair", () => {
    expect(codeChallengeFor('vvkdljkejllufrvbhgeiegrnvufrhvrffnkvcknjvfid')).toBe(
      'DSWlW2Abh-cf8CeLL8-g3hQ2WQyYdKyiu83u_s7nRhI',
    );
  });

  it('creates verifiers within the RFC 7636 alphabet and length, with matching challenges', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i += 1) {
      const { verifier, challenge } = createPkcePair();
      expect(verifier).toMatch(/^[A-Za-z0-9._~-]{43,128}$/);
      expect(challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(challenge).toBe(codeChallengeFor(verifier));
      seen.add(verifier);
    }
    expect(seen.size).toBe(200);
  });

  it('refuses malformed verifiers', () => {
    expect(isValidCodeVerifier('short')).toBe(false);
    expect(isValidCodeVerifier('a'.repeat(129))).toBe(false);
    expect(isValidCodeVerifier(`${'a'.repeat(42)}+`)).toBe(false);
    expect(() => codeChallengeFor('short')).toThrow(RangeError);
  });

  it('makes states of at least 128 random bits', () => {
    const state = randomState();
    expect(Buffer.from(state, 'base64url').length).toBeGreaterThanOrEqual(16);
    expect(randomState()).not.toBe(state);
  });
});
