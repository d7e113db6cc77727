import errorsFixture from '../../test-fixtures/etsy/errors.json';
import ledgerFixture from '../../test-fixtures/etsy/ledger-entries.json';
import meFixture from '../../test-fixtures/etsy/me.json';
import paymentsFixture from '../../test-fixtures/etsy/payments.json';
import receiptsFixture from '../../test-fixtures/etsy/receipts-page.json';
import shopFixture from '../../test-fixtures/etsy/shop.json';
import tokenFixture from '../../test-fixtures/etsy/token.json';
import { captureLogger, fakeFetch, json, type Reply } from '../../test/support/fake-fetch';
import { AuthError, InvalidRequestError, ProviderError, RateLimitedError, ReauthRequiredError } from '../http/errors';
import { InMemoryRateLimiter } from '@pod/testing/oracles';
import { EtsyClient } from './client';
import { codeChallengeFor } from './pkce';
import type { EtsyAuth } from './types';

const KEYSTRING = 'exJeyZtXODeekHfX8VRgMQ';
const SHARED_SECRET = 'a1b2c3d4e5sharedsecret';
const ACCESS = '12345678.accessTokenOne';
const FRESH = '12345678.accessTokenTwo';
const VERIFIER = 'vvkdljkejllufrvbhgeiegrnvufrhvrffnkvcknjvfid';

function setup(...script: Reply[]) {
  const fetch = fakeFetch(...script);
  const { logger, lines } = captureLogger();
  const limiter = new InMemoryRateLimiter();
  const client = new EtsyClient(
    {
      apiUrl: 'https://openapi.etsy.com',
      keystring: KEYSTRING,
      sharedSecret: SHARED_SECRET,
      redirectUri: 'https://app.example.test/api/connections/etsy/callback',
    },
    { limiter, logger, fetch, random: () => 0.5 },
  );
  return { client, fetch, lines, limiter };
}

function auth(connectionKey = 'conn-1'): EtsyAuth & { refreshes: string[] } {
  const refreshes: string[] = [];
  return {
    connectionKey,
    refreshes,
    getAccessToken: () => Promise.resolve(ACCESS),
    refreshAfterUnauthorized: (rejected) => {
      refreshes.push(rejected);
      return Promise.resolve(FRESH);
    },
  };
}

async function settle<T>(promise: Promise<T>, stepMs = 100, maxMs = 600_000): Promise<T | Error> {
  let done = false;
  const result = promise.then(
    (v) => ((done = true), v),
    (e: Error) => ((done = true), e),
  );
  for (let t = 0; t < maxMs && !done; t += stepMs) await jest.advanceTimersByTimeAsync(stepMs);
  return result;
}

beforeEach(() => jest.useFakeTimers({ now: new Date('2026-03-01T00:00:00Z') }));
afterEach(() => jest.useRealTimers());

describe('EtsyClient OAuth', () => {
  it('builds the consent URL with PKCE S256, state and space-separated scopes', () => {
    const { client } = setup();
    const url = new URL(client.authorizationUrl({ state: 'st4te', codeChallenge: codeChallengeFor(VERIFIER) }));
    expect(url.origin + url.pathname).toBe('https://www.etsy.com/oauth/connect');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: KEYSTRING,
      redirect_uri: 'https://app.example.test/api/connections/etsy/callback',
      scope: 'transactions_r shops_r',
      state: 'st4te',
      code_challenge: 'DSWlW2Abh-cf8CeLL8-g3hQ2WQyYdKyiu83u_s7nRhI',
      code_challenge_method: 'S256',
    });
    expect(url.search).toContain('scope=transactions_r%20shops_r');
    expect(() => client.authorizationUrl({ state: '', codeChallenge: codeChallengeFor(VERIFIER) })).toThrow(
      InvalidRequestError,
    );
  });

  it('exchanges a code with a form body and the keystring:secret API key', async () => {
    const { client, fetch } = setup(json(200, tokenFixture));
    const tokens = await settle(client.exchangeCode({ code: 'the-code', codeVerifier: VERIFIER }));
    expect(tokens).toEqual({
      accessToken: tokenFixture.access_token,
      refreshToken: tokenFixture.refresh_token,
      accessTokenExpiresAt: new Date(Date.parse('2026-03-01T01:00:00Z')),
      etsyUserId: '12345678',
    });
    const call = fetch.calls[0];
    expect(call.method).toBe('POST');
    expect(call.url.toString()).toBe('https://openapi.etsy.com/v3/public/oauth/token');
    expect(call.headers['x-api-key']).toBe(`${KEYSTRING}:${SHARED_SECRET}`);
    expect(call.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(call.body))).toEqual({
      grant_type: 'authorization_code',
      client_id: KEYSTRING,
      redirect_uri: 'https://app.example.test/api/connections/etsy/callback',
      code: 'the-code',
      code_verifier: VERIFIER,
    });
  });

  it('refreshes tokens; invalid_grant becomes ReauthRequiredError after one call', async () => {
    let { client, fetch } = setup(json(200, tokenFixture));
    await settle(client.refreshTokens('12345678.oldRefresh'));
    expect(Object.fromEntries(new URLSearchParams(fetch.calls[0].body))).toEqual({
      grant_type: 'refresh_token',
      client_id: KEYSTRING,
      refresh_token: '12345678.oldRefresh',
    });

    ({ client, fetch } = setup(json(400, errorsFixture.invalidGrant)));
    const error = await settle(client.refreshTokens('12345678.revoked'));
    expect(error).toBeInstanceOf(ReauthRequiredError);
    expect(error).toMatchObject({ code: 'reauth_required', retryable: false, provider: 'etsy' });
    expect(fetch.calls).toHaveLength(1);

    ({ client, fetch } = setup(json(400, { error: 'invalid_request', error_description: 'code_verifier is wrong' })));
    expect(await settle(client.exchangeCode({ code: 'c', codeVerifier: VERIFIER }))).toMatchObject({
      code: 'oauth_error',
      upstreamMessage: 'invalid_request',
    });
  });

  it('never retries a token call that may have reached Etsy', async () => {
    const { client, fetch } = setup(json(502, {}), json(200, tokenFixture));
    expect(await settle(client.refreshTokens('12345678.r'))).toBeInstanceOf(ProviderError);
    expect(fetch.calls).toHaveLength(1);
  });
});

describe('EtsyClient resources', () => {
  it('gets me and the shop with the bearer token and API key', async () => {
    const { client, fetch } = setup(json(200, meFixture), json(200, shopFixture));
    expect(await settle(client.getMe(auth()))).toEqual({ userId: '12345678', shopId: '22334455' });
    expect(await settle(client.getShop(auth(), '22334455'))).toMatchObject({ name: 'CatMomPrints', currency: 'USD' });
    expect(fetch.calls.map((c) => c.url.pathname)).toEqual([
      '/v3/application/users/me',
      '/v3/application/shops/22334455',
    ]);
    for (const call of fetch.calls) {
      expect(call.headers.authorization).toBe(`Bearer ${ACCESS}`);
      expect(call.headers['x-api-key']).toBe(`${KEYSTRING}:${SHARED_SECRET}`);
    }
  });

  it('lists receipts with the documented query names', async () => {
    const { client, fetch } = setup(json(200, receiptsFixture));
    const page = await settle(
      client.listReceipts(auth(), '22334455', {
        minLastModified: 1767225600,
        limit: 100,
        offset: 200,
        sortOn: 'updated',
        sortOrder: 'asc',
        wasPaid: true,
      }),
    );
    expect(page).toMatchObject({ count: 4, rejected: [{ index: 2 }] });
    const url = fetch.calls[0].url;
    expect(url.pathname).toBe('/v3/application/shops/22334455/receipts');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      min_last_modified: '1767225600',
      limit: '100',
      offset: '200',
      sort_on: 'updated',
      sort_order: 'asc',
      was_paid: 'true',
    });
  });

  it('lists payments and ledger entries', async () => {
    const { client, fetch } = setup(json(200, paymentsFixture), json(200, ledgerFixture));
    expect(await settle(client.listReceiptPayments(auth(), '22334455', '3012345678'))).toHaveLength(1);
    const ledger = await settle(
      client.listLedgerEntries(auth(), '22334455', {
        minCreated: 1767225600,
        maxCreated: 1767225600 + 2_678_400,
        limit: 100,
      }),
    );
    expect(ledger).toMatchObject({ count: 5, rejected: [{ index: 4 }] });
    expect(fetch.calls[1].url.pathname).toBe('/v3/application/shops/22334455/payment-account/ledger-entries');
  });

  it('refuses documented-invalid arguments before sending anything', async () => {
    const { client, fetch } = setup(json(200, {}));
    const a = auth();
    await expect(
      client.listLedgerEntries(a, '1', { minCreated: 1767225600, maxCreated: 1767225600 + 2_678_401 }),
    ).rejects.toThrow(/31 days/);
    await expect(
      client.listLedgerEntries(a, '1', { minCreated: 1767225600, maxCreated: 1767225599 }),
    ).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(client.listReceipts(a, '1', { offset: 12_001 })).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(client.listReceipts(a, '1', { limit: 101 })).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(client.listReceipts(a, '1', { minCreated: 5 })).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(client.getShop(a, '../users/me')).rejects.toBeInstanceOf(InvalidRequestError);
    expect(fetch.calls).toHaveLength(0);
  });
});

describe('EtsyClient token expiry', () => {
  it('on 401 invalid_token refreshes once and retries with the new token', async () => {
    const { client, fetch } = setup(json(401, errorsFixture.invalidToken), json(200, meFixture));
    const a = auth();
    expect(await settle(client.getMe(a))).toEqual({ userId: '12345678', shopId: '22334455' });
    expect(a.refreshes).toEqual([ACCESS]);
    expect(fetch.calls.map((c) => c.headers.authorization)).toEqual([`Bearer ${ACCESS}`, `Bearer ${FRESH}`]);
  });

  it('a second 401 surfaces as AuthError without another refresh', async () => {
    const { client, fetch } = setup(json(401, errorsFixture.invalidToken));
    const a = auth();
    expect(await settle(client.getMe(a))).toBeInstanceOf(AuthError);
    expect(a.refreshes).toHaveLength(1);
    expect(fetch.calls).toHaveLength(2);
  });

  it('passes ReauthRequiredError from the token provider through', async () => {
    const { client } = setup(json(401, errorsFixture.invalidToken));
    const a: EtsyAuth = {
      connectionKey: 'c',
      getAccessToken: async () => ACCESS,
      refreshAfterUnauthorized: async () => Promise.reject(new ReauthRequiredError('etsy', 'gone')),
    };
    expect(await settle(client.getMe(a))).toBeInstanceOf(ReauthRequiredError);
  });
});

describe('EtsyClient rate limits', () => {
  it('parks the connection when x-remaining-today reaches 0: later calls fail fast with scope day', async () => {
    const { client, fetch } = setup(
      json(200, meFixture, { 'x-remaining-today': '0', 'x-limit-per-day': '10000' }),
      json(200, meFixture),
    );
    await settle(client.getMe(auth()));
    const error = await settle(client.getMe(auth()));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ scope: 'day', retryable: true });
    expect((error as RateLimitedError).retryAfterMs).toBeGreaterThan(3_500_000);
    expect(fetch.calls).toHaveLength(1);
    // Another connection is not affected.
    expect(await settle(client.getMe(auth('conn-2')))).toMatchObject({ userId: '12345678' });
    // After the pause the connection works again.
    await jest.advanceTimersByTimeAsync(3_600_000);
    expect(await settle(client.getMe(auth()))).toMatchObject({ userId: '12345678' });
  });

  it('a 429 for the daily quota surfaces with its Retry-After and blocks the day scope', async () => {
    const { client, fetch } = setup(json(429, { error: 'quota' }, { 'retry-after': '3600', 'x-remaining-today': '0' }));
    const error = await settle(client.getMe(auth()));
    expect(error).toMatchObject({ name: 'RateLimitedError', scope: 'day', retryAfterMs: 3_600_000, status: 429 });
    expect(await settle(client.getMe(auth()))).toMatchObject({ scope: 'day' });
    expect(fetch.calls).toHaveLength(1);
  });

  it('slows down when Etsy announces a lower per-second limit', async () => {
    const { client, fetch } = setup(
      json(200, meFixture, { 'x-limit-per-second': '2', 'x-remaining-this-second': '1' }),
    );
    const a = auth();
    for (let i = 0; i < 4; i += 1) await settle(client.getMe(a), 10);
    const gaps = fetch.calls.slice(1).map((c, i) => c.atMs - fetch.calls[i].atMs);
    // 2/s kept 10% under → one call per 2 s after the first burst token.
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(1_990);
  });

  it('pauses about a second when x-remaining-this-secon is 0 and its own calls cannot explain it', async () => {
    // Etsy allows 150 a second and we send at most 10: a 0 means someone else spends this budget.
    const { client, fetch } = setup(
      json(200, meFixture, { 'x-limit-per-second': '150', 'x-remaining-this-secon': '0' }),
      json(200, meFixture),
    );
    await settle(client.getMe(auth()), 10);
    await settle(client.getMe(auth()), 10);
    expect(fetch.calls[1].atMs - fetch.calls[0].atMs).toBeGreaterThanOrEqual(990);
  });

  it('keeps its pace when a 0 in x-remaining-this-second is what its own calls leave at the limit', async () => {
    const { client, fetch } = setup(
      json(200, meFixture, { 'x-limit-per-second': '10', 'x-remaining-this-second': '0' }),
    );
    const a = auth();
    for (let i = 0; i < 12; i += 1) await settle(client.getMe(a), 10);
    const gaps = fetch.calls.slice(1).map((c, i) => c.atMs - fetch.calls[i].atMs);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(120);
  });

  it('keeps a burst within 10 calls in any second by default, with 75 ms to spare on every 11 calls', async () => {
    const { client, fetch } = setup(json(200, meFixture));
    const a = auth();
    const all = Promise.all(Array.from({ length: 30 }, () => client.getMe(a)));
    await settle(all, 10);
    const times = fetch.calls.map((c) => c.atMs).sort((x, y) => x - y);
    expect(times).toHaveLength(30);
    for (const t of times) expect(times.filter((u) => u >= t && u < t + 1_000).length).toBeLessThanOrEqual(10);
    for (let i = 0; i + 10 < times.length; i += 1) expect(times[i + 10] - times[i]).toBeGreaterThanOrEqual(1_074);
  });
});

describe('EtsyClient secrets', () => {
  it('keeps tokens, codes, verifiers and the shared secret out of logs and error messages', async () => {
    const { client, lines } = setup(
      json(200, tokenFixture),
      json(401, { error: `invalid_token ${ACCESS}` }),
      json(500, { error: `boom ${SHARED_SECRET}` }),
      json(400, { error: 'invalid_grant' }),
    );
    const errors: unknown[] = [];
    await settle(client.exchangeCode({ code: 'secret-code-123', codeVerifier: VERIFIER }));
    errors.push(await settle(client.getMe(auth())));
    errors.push(await settle(client.refreshTokens('12345678.refreshSecret')));
    const text = `${lines.join('\n')}\n${errors.map((e) => `${String(e)} ${JSON.stringify(e)}`).join('\n')}`;
    for (const secret of [
      ACCESS,
      FRESH,
      SHARED_SECRET,
      'secret-code-123',
      VERIFIER,
      '12345678.refreshSecret',
      tokenFixture.access_token,
      tokenFixture.refresh_token,
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(lines.length).toBeGreaterThan(3);
  });
});
