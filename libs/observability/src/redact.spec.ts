import { REDACTED, redactQuery, redactText, SECRET_NAMES } from './redact';

/** Every way a credential has turned up in a message: header, query, form body, JSON, a log line. */
const HOSTILE =
  'GET https://openapi.etsy.com/v3/shops?code=abc123&state=xyz789 failed: Authorization: Bearer eyJhbGciOi token=s3cret ' +
  '"password":"hunter2" x-api-key: key:shh refresh_token=r3fresh&client_secret=cl13nt {"access_token": "4cc355"} code_verifier=v3rifier';
const SECRET_VALUES = [
  'abc123',
  'xyz789',
  'eyJhbGciOi',
  's3cret',
  'hunter2',
  'shh',
  'r3fresh',
  'cl13nt',
  '4cc355',
  'v3rifier',
];

describe('redacting free text', () => {
  it('blanks bearer credentials, secret name/value pairs in every notation, and query strings', () => {
    const out = redactText(HOSTILE, { maxLength: 1_000 });
    for (const value of SECRET_VALUES) expect(out).not.toContain(value);
    expect(out).toContain(`https://openapi.etsy.com/v3/shops?${REDACTED}`);
    expect(out).toContain(`"password":${REDACTED}`);
    expect(redactText('retrying with Bearer eyJhbGciOi.x.y now', { maxLength: 100 })).toBe(
      `retrying with Bearer ${REDACTED} now`,
    );
  });

  it('blanks the caller’s own secrets wherever they appear, the longest first', () => {
    expect(
      redactText('key k3ys and k3ystring:sh4red', { maxLength: 100, knownSecrets: ['k3ys', 'k3ystring:sh4red'] }),
    ).toBe(`key ${REDACTED} and ${REDACTED}`);
    // Too short to blank without destroying the message.
    expect(redactText('a b c', { maxLength: 100, knownSecrets: ['b'] })).toBe('a b c');
  });

  it('leaves words that merely contain a secret name alone', () => {
    expect(redactText('postcode=12345 tokenizer: on', { maxLength: 100 })).toBe('postcode=12345 tokenizer: on');
  });

  it('is one line, cut to the length asked for', () => {
    const out = redactText(`first\r\nsecond\u2028third\t${'x'.repeat(400)}`, { maxLength: 200 });
    expect(out).toMatch(/^first second third x+…$/);
    expect(out).toHaveLength(200);
  });
});

describe('redacting a logged URL', () => {
  it('blanks the value of every secret parameter, in any letter case, and keeps the rest', () => {
    const url = new URL(
      `https://sandbox.test/oauth/connect?client_id=keystring&${SECRET_NAMES.map((name) => `${name.toUpperCase()}=v`).join('&')}`,
    );
    const query = redactQuery(url);
    expect(query.client_id).toBe('keystring');
    for (const name of SECRET_NAMES) expect(query[name.toUpperCase()]).toBe(REDACTED);
  });
});
