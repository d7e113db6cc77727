import created from '../../test-fixtures/printify/webhook-created.json';
import errorFixture from '../../test-fixtures/printify/error-validation.json';
import webhooks from '../../test-fixtures/printify/webhooks.json';
import { captureLogger, fakeFetch, json, networkError, type Reply } from '../../test/support/fake-fetch';
import {
  AuthError,
  InvalidRequestError,
  NotFoundError,
  PayloadSchemaError,
  ProviderError,
  UpstreamError,
} from '../http/errors';
import { InMemoryRateLimiter } from '@pod/testing/oracles';
import { PrintifyClient } from './client';

const TOKEN = 'eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.printifyPersonalAccessToken';
const AUTH = { token: TOKEN, accountKey: 'printify-account-7' };
const SECRET = 'f3a1c2b4d5e6f708192a3b4c5d6e7f8091a2b3c4';
const URL_ = 'https://podprofit.example.com/api/webhooks/printify/k1';

function setup(...script: Reply[]) {
  const fetch = fakeFetch(...script);
  const { logger, lines } = captureLogger();
  const client = new PrintifyClient({}, { limiter: new InMemoryRateLimiter(), logger, fetch, random: () => 0.5 });
  return { client, fetch, lines };
}

async function settle<T>(promise: Promise<T>): Promise<T | Error> {
  let done = false;
  const result = promise.then(
    (v) => ((done = true), v),
    (e: Error) => ((done = true), e),
  );
  for (let t = 0; t < 60_000 && !done; t += 100) await jest.advanceTimersByTimeAsync(100);
  return result;
}

beforeEach(() => jest.useFakeTimers({ now: new Date('2026-03-01T00:00:00Z') }));
afterEach(() => jest.useRealTimers());

describe('PrintifyClient webhooks (integrations.md b.5)', () => {
  it("lists a shop's subscriptions, rejecting entries without a URL", async () => {
    const { client, fetch } = setup(json(200, webhooks));
    expect(await settle(client.listWebhooks(AUTH, '5432100'))).toEqual({
      webhooks: [
        { id: '5cb87a8cd490a2ccb256cec4', topic: 'order:created', url: URL_, shopId: '5432100' },
        { id: '5cb87a8cd490a2ccb256cec5', topic: 'order:shipment:created', url: URL_, shopId: '5432100' },
      ],
      rejected: [
        expect.objectContaining({ index: 2, id: '5cb87a8cd490a2ccb256cec6', field: '[2].url', reason: 'is missing' }),
      ],
    });
    expect(fetch.calls[0].method).toBe('GET');
    expect(fetch.calls[0].url.toString()).toBe('https://api.printify.com/v1/shops/5432100/webhooks.json');
    expect(fetch.calls[0].headers).toMatchObject({
      authorization: `Bearer ${TOKEN}`,
      'user-agent': 'PodProfit/1.0 (Node.js)',
    });
  });

  it('refuses a list that is not an array', async () => {
    const { client } = setup(json(200, { data: [] }));
    expect(await settle(client.listWebhooks(AUTH, '5432100'))).toBeInstanceOf(PayloadSchemaError);
  });

  it('creates a subscription with {topic, url, secret} as JSON and reads the answer', async () => {
    const { client, fetch } = setup(json(200, created));
    const webhook = await settle(
      client.createWebhook(AUTH, '5432100', { topic: 'order:updated', url: URL_, secret: SECRET }),
    );
    expect(webhook).toEqual({ id: '5cb87a8cd490a2ccb256cec7', topic: 'order:updated', url: URL_, shopId: '5432100' });
    const call = fetch.calls[0];
    expect(call.method).toBe('POST');
    expect(call.url.toString()).toBe('https://api.printify.com/v1/shops/5432100/webhooks.json');
    expect(call.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(call.body ?? '')).toEqual({ topic: 'order:updated', url: URL_, secret: SECRET });
  });

  it('fills topic, URL and shop from the request when the answer carries only the id, and needs that id', async () => {
    const { client } = setup(json(201, { id: 'abc123' }), json(200, {}));
    expect(await settle(client.createWebhook(AUTH, '5432100', { topic: 'order:created', url: URL_ }))).toEqual({
      id: 'abc123',
      topic: 'order:created',
      url: URL_,
      shopId: '5432100',
    });
    expect(await settle(client.createWebhook(AUTH, '5432100', { topic: 'order:created', url: URL_ }))).toBeInstanceOf(
      PayloadSchemaError,
    );
  });

  it('does not retry a create the server may have acted on, but does when the connection was never made', async () => {
    const failing = setup(json(503, { status: 'error', message: 'busy' }));
    expect(
      await settle(failing.client.createWebhook(AUTH, '5432100', { topic: 'order:created', url: URL_ })),
    ).toBeInstanceOf(UpstreamError);
    expect(failing.fetch.calls).toHaveLength(1);
    const refused = setup(networkError('ECONNREFUSED'), json(200, created));
    expect(
      await settle(refused.client.createWebhook(AUTH, '5432100', { topic: 'order:updated', url: URL_ })),
    ).toMatchObject({ id: '5cb87a8cd490a2ccb256cec7' });
    expect(refused.fetch.calls).toHaveLength(2);
  });

  it('maps a validation error and a token without the webhooks scope', async () => {
    const { client } = setup(
      json(400, errorFixture),
      json(403, { status: 'error', message: 'This action is unauthorized.' }),
      json(401, { message: 'Unauthenticated.' }),
    );
    expect(await settle(client.createWebhook(AUTH, '5432100', { topic: 'order:created', url: URL_ }))).toMatchObject({
      code: 'bad_request',
      status: 400,
    });
    expect(await settle(client.createWebhook(AUTH, '5432100', { topic: 'order:created', url: URL_ }))).toMatchObject({
      code: 'forbidden',
      status: 403,
    });
    expect(await settle(client.listWebhooks(AUTH, '5432100'))).toBeInstanceOf(AuthError);
  });

  it("deletes with the webhook URL's host, retrying an outage; a subscription already gone is NotFoundError", async () => {
    const { client, fetch } = setup(
      json(502, {}),
      json(200, {}),
      json(404, { status: 'error', message: 'Not found.' }),
    );
    expect(
      await settle(client.deleteWebhook(AUTH, '5432100', '5cb87a8cd490a2ccb256cec4', 'podprofit.example.com')),
    ).toBeUndefined();
    expect(fetch.calls.map((c) => c.method)).toEqual(['DELETE', 'DELETE']);
    expect(fetch.calls[1].url.toString()).toBe(
      'https://api.printify.com/v1/shops/5432100/webhooks/5cb87a8cd490a2ccb256cec4.json?host=podprofit.example.com',
    );
    expect(fetch.calls[1].body).toBeUndefined();
    expect(
      await settle(client.deleteWebhook(AUTH, '5432100', '5cb87a8cd490a2ccb256cec4', 'localhost:5000')),
    ).toBeInstanceOf(NotFoundError);
  });

  it('refuses ids, hosts, URLs and shops that are not what they claim before any call', async () => {
    const { client, fetch } = setup(json(200, {}));
    await expect(client.deleteWebhook(AUTH, '5432100', '../orders', 'podprofit.example.com')).rejects.toBeInstanceOf(
      InvalidRequestError,
    );
    await expect(client.deleteWebhook(AUTH, '5432100', 'abc', 'evil.example/x?y')).rejects.toBeInstanceOf(
      InvalidRequestError,
    );
    await expect(
      client.createWebhook(AUTH, '5432100', { topic: 'order:created', url: 'javascript:alert(1)' }),
    ).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(client.listWebhooks(AUTH, '54321x')).rejects.toBeInstanceOf(InvalidRequestError);
    expect(fetch.calls).toHaveLength(0);
  });

  it('keeps the token and the webhook secret out of logs and errors', async () => {
    const { client, lines } = setup(json(422, { status: 'error', message: `secret ${SECRET} rejected for ${TOKEN}` }));
    const error = await settle(
      client.createWebhook(AUTH, '5432100', { topic: 'order:created', url: URL_, secret: SECRET }),
    );
    expect(error).toBeInstanceOf(ProviderError);
    const text = `${lines.join('\n')}${String(error)}${JSON.stringify(error)}${(error as ProviderError).upstreamMessage}`;
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(TOKEN);
  });
});
