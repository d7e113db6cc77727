import { safeFailedReason } from './safe-failed-reason';

describe('a failed reason shown to the operator', () => {
  it('is null when there is none', () => {
    expect(safeFailedReason(undefined)).toBeNull();
    expect(safeFailedReason('')).toBeNull();
  });

  it('blanks credentials, bearer tokens and query strings', () => {
    const reason = safeFailedReason(
      'GET https://openapi.etsy.com/v3/shops?code=abc&state=xyz failed: Bearer eyJhbGciOi token=s3cret "password":"hunter2" x-api-key: key:shh',
    );
    expect(reason).not.toMatch(/abc|xyz|eyJhbGciOi|s3cret|hunter2|shh/);
    expect(reason).toContain('https://openapi.etsy.com/v3/shops?[redacted]');
  });

  it('is one line of at most 200 characters', () => {
    const reason = safeFailedReason(`first\nsecond ${'x'.repeat(400)}`);
    expect(reason).not.toContain('\n');
    expect(reason).toHaveLength(200);
  });
});
