import { createHmac } from 'node:crypto';
import { timestampProblem, verifyEtsySignature, verifyPrintifySignature } from './signatures';

const body = Buffer.from(
  '{"id":"653b6be8-2ff7-4ab5-a7a6-6889a8b3bbf5","type":"order:updated","created_at":"2026-11-24 10:00:00+00:00","resource":{"id":"5a96f649b2439217d070f507","type":"order","data":{"shop_id":815256,"status":"fulfilled"}}}',
);

describe('Printify X-Pfy-Signature (b.5)', () => {
  const secret = 'f3a1c2b4d5e6f708192a3b4c5d6e7f8091a2b3c4';
  const hex = createHmac('sha256', secret).update(body).digest('hex');

  it('accepts sha256=<hex HMAC of the raw body>', () => {
    expect(verifyPrintifySignature(body, `sha256=${hex}`, secret)).toBe(true);
    expect(verifyPrintifySignature(body, `sha256=${hex.toUpperCase()}`, secret)).toBe(true);
  });

  it('refuses another secret, another body, a missing or malformed header', () => {
    expect(verifyPrintifySignature(body, `sha256=${hex}`, 'other-secret')).toBe(false);
    expect(verifyPrintifySignature(Buffer.concat([body, Buffer.from(' ')]), `sha256=${hex}`, secret)).toBe(false);
    for (const header of [
      undefined,
      '',
      hex,
      `sha1=${hex}`,
      `sha256=${hex.slice(2)}`,
      `sha256=${hex}00`,
      `sha256=${'z'.repeat(64)}`,
    ]) {
      expect(verifyPrintifySignature(body, header, secret)).toBe(false);
    }
  });
});

describe('Etsy webhook-signature (a.12, Standard Webhooks)', () => {
  const key = Buffer.from('etsy-portal-secret-for-tests-01');
  const secret = `whsec_${key.toString('base64')}`;
  const headers = { id: 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W', timestamp: '1764000000' };
  const sign = (k = key, id = headers.id, ts = headers.timestamp) =>
    createHmac('sha256', k).update(`${id}.${ts}.${body.toString()}`).digest('base64');

  it('accepts an entry matching the HMAC of "{id}.{timestamp}.{body}" under the decoded secret, with or without v1,', () => {
    expect(verifyEtsySignature(body, { ...headers, signature: `v1,${sign()}` }, secret)).toBe(true);
    expect(verifyEtsySignature(body, { ...headers, signature: sign() }, secret)).toBe(true);
    expect(
      verifyEtsySignature(
        body,
        { ...headers, signature: `v1,${sign(Buffer.from('old-secret-0123456789'))} v1,${sign()}` },
        secret,
      ),
    ).toBe(true);
  });

  it('refuses a signature over another id, timestamp or body, under another key, of another version', () => {
    expect(verifyEtsySignature(body, { ...headers, signature: `v1,${sign(key, 'msg_other')}` }, secret)).toBe(false);
    expect(
      verifyEtsySignature(body, { ...headers, signature: `v1,${sign(key, headers.id, '1764000001')}` }, secret),
    ).toBe(false);
    expect(verifyEtsySignature(Buffer.from('{}'), { ...headers, signature: `v1,${sign()}` }, secret)).toBe(false);
    // The secret is used decoded, not as its text.
    expect(verifyEtsySignature(body, { ...headers, signature: `v1,${sign(Buffer.from(secret))}` }, secret)).toBe(false);
    expect(verifyEtsySignature(body, { ...headers, signature: `v2,${sign()}` }, secret)).toBe(false);
    expect(verifyEtsySignature(body, { ...headers, signature: 'v1,not-base64!' }, secret)).toBe(false);
    expect(verifyEtsySignature(body, { ...headers, signature: '' }, secret)).toBe(false);
  });
});

describe('timestamps', () => {
  const now = 1_764_000_000_000;
  it('accepts five minutes either way and refuses beyond', () => {
    expect(timestampProblem(now / 1000, now)).toBeNull();
    expect(timestampProblem(now / 1000 - 300, now)).toBeNull();
    expect(timestampProblem(now / 1000 + 300, now)).toBeNull();
    expect(timestampProblem(now / 1000 - 301, now)).toBe('stale');
    expect(timestampProblem(now / 1000 + 301, now)).toBe('future');
  });
});
