import { bearerToken, sameSecret } from './operator.guard';

describe('the operator credential', () => {
  it('is read from a Bearer authorization header only', () => {
    expect(bearerToken('Bearer abc.def')).toBe('abc.def');
    expect(bearerToken('bearer abc')).toBe('abc');
    expect(bearerToken(['Bearer abc'])).toBe('abc');
    expect(bearerToken('Basic abc')).toBeNull();
    expect(bearerToken('Bearer')).toBeNull();
    expect(bearerToken('Bearer a b')).toBeNull();
    expect(bearerToken(undefined)).toBeNull();
  });

  it('matches only the exact secret, whatever the lengths', () => {
    expect(sameSecret('operator-token-123456', 'operator-token-123456')).toBe(true);
    expect(sameSecret('operator-token-12345', 'operator-token-123456')).toBe(false);
    expect(sameSecret('', 'operator-token-123456')).toBe(false);
  });
});
