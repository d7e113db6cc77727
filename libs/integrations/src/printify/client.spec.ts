import errorFixture from '../../test-fixtures/printify/error-validation.json';
import ordersPage from '../../test-fixtures/printify/orders-page-1.json';
import shopsFixture from '../../test-fixtures/printify/shops.json';
import { captureLogger, fakeFetch, json, type Reply } from '../../test/support/fake-fetch';
import { AuthError, InvalidRequestError, NotFoundError, ProviderError, RateLimitedError } from '../http/errors';
import { scopeKey } from '../rate-limit/limiter';
import { InMemoryRateLimiter } from '@pod/testing/oracles';
import { PrintifyClient } from './client';

const TOKEN = 'eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.printifyPersonalAccessToken';
const AUTH = { token: TOKEN, accountKey: 'printify-account-7' };

function setup(...script: Reply[]) {
  const fetch = fakeFetch(...script);
  const { logger, lines } = captureLogger();
  const limiter = new InMemoryRateLimiter();
  const client = new PrintifyClient({}, { limiter, logger, fetch, random: () => 0.5 });
  return { client, fetch, lines, limiter };
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

describe('PrintifyClient', () => {
  it('lists shops with the bearer token and a User-Agent', async () => {
    const { client, fetch } = setup(json(200, shopsFixture));
    expect(await settle(client.listShops(AUTH))).toEqual([
      { id: '5432100', title: 'CatMomPrints & Co', salesChannel: 'etsy' },
      { id: '5432101', title: 'Test store', salesChannel: 'disconnected' },
    ]);
    expect(fetch.calls[0].url.toString()).toBe('https://api.printify.com/v1/shops.json');
    expect(fetch.calls[0].headers).toMatchObject({
      authorization: `Bearer ${TOKEN}`,
      'user-agent': 'PodProfit/1.0 (Node.js)',
      accept: 'application/json',
    });
  });

  it('validates a token by listing shops: 401 is AuthError, with no retry', async () => {
    const { client, fetch } = setup(json(401, { status: 'error', message: 'Unauthenticated.' }));
    const error = await settle(client.listShops(AUTH));
    expect(error).toBeInstanceOf(AuthError);
    expect(error).toMatchObject({ provider: 'printify', upstreamMessage: 'Unauthenticated.' });
    expect(fetch.calls).toHaveLength(1);
  });

  it('pages orders 10 at a time with filters', async () => {
    const { client, fetch } = setup(json(200, ordersPage));
    const page = await settle(
      client.listOrders(AUTH, '5432100', { page: 1, status: 'fulfilled', sku: 'PF-TEE-BLK-M' }),
    );
    expect(page).toMatchObject({ currentPage: 1, lastPage: 3, total: 23, hasNextPage: true, rejected: [{ index: 2 }] });
    expect((page as { orders: unknown[] }).orders).toHaveLength(2);
    const url = fetch.calls[0].url;
    expect(url.pathname).toBe('/v1/shops/5432100/orders.json');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      limit: '10',
      page: '1',
      status: 'fulfilled',
      sku: 'PF-TEE-BLK-M',
    });
  });

  it('gets one order and maps 404 and validation errors', async () => {
    const { client, fetch } = setup(
      json(200, ordersPage.data[0]),
      json(404, { status: 'error', message: 'Not found' }),
      json(400, errorFixture),
    );
    expect(
      await settle(client.getOrder(AUTH, '5432100', '5a96f649b2439217d070f507', { currency: 'GBP' })),
    ).toMatchObject({ totalPrice: { amountMinor: 2100, currency: 'GBP' } });
    expect(fetch.calls[0].url.pathname).toBe('/v1/shops/5432100/orders/5a96f649b2439217d070f507.json');
    expect(await settle(client.getOrder(AUTH, '5432100', 'abc'))).toBeInstanceOf(NotFoundError);
    expect(await settle(client.listOrders(AUTH, '5432100', { page: 1 }))).toMatchObject({
      code: 'bad_request',
      upstreamMessage: 'Validation failed.',
    });
    await expect(client.getOrder(AUTH, '5432100', '../../x')).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(client.listOrders(AUTH, '5432100', { page: 0 })).rejects.toBeInstanceOf(InvalidRequestError);
  });

  it('shares one per-minute bucket per account, keyed by a hash of the account id', async () => {
    const { client, fetch, limiter } = setup(json(429, {}, { 'retry-after': '120' }), json(200, shopsFixture));
    const error = await settle(client.listShops(AUTH));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ scope: 'minute', retryAfterMs: 120_000 });
    expect(await limiter.blockedForMs(scopeKey('printify:acct', AUTH.accountKey))).toBeGreaterThan(119_000);
    // Another token of the same account waits too; another account does not.
    expect(
      await settle(client.listShops({ token: 'other-token-of-same-account', accountKey: AUTH.accountKey })),
    ).toBeInstanceOf(RateLimitedError);
    expect(await settle(client.listShops({ token: 'other', accountKey: 'account-8' }))).toHaveLength(2);
    expect(fetch.calls).toHaveLength(2);
  });

  it('stays at or under 600 requests in any minute, with 1.2 s to spare on every 601', async () => {
    const { client, fetch } = setup(json(200, shopsFixture));
    // Ten workers of one account, 70 calls each, one after another.
    const all = Promise.all(
      Array.from({ length: 10 }, async () => {
        for (let i = 0; i < 70; i += 1) await client.listShops(AUTH);
      }),
    );
    await settle(all, 250, 200_000);
    const times = fetch.calls.map((c) => c.atMs).sort((a, b) => a - b);
    let worst = 0;
    for (let i = 0, j = 0; i < times.length; i += 1) {
      while (times[j] <= times[i] - 60_000) j += 1;
      worst = Math.max(worst, i - j + 1);
    }
    expect(times).toHaveLength(700);
    expect(worst).toBeLessThanOrEqual(600);
    for (let i = 0; i + 600 < times.length; i += 1) expect(times[i + 600] - times[i]).toBeGreaterThanOrEqual(61_199);
  });

  it('keeps the token out of logs and errors', async () => {
    const { client, lines } = setup(json(500, { message: `bad token ${TOKEN}` }));
    const error = await settle(client.listShops(AUTH));
    expect(error).toBeInstanceOf(ProviderError);
    const text = `${lines.join('\n')}${String(error)}${JSON.stringify(error)}`;
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain('printifyPersonalAccessToken');
  });
});
