import { fakeFetch, json, networkError } from '../../test/support/fake-fetch';
import { InMemoryRateLimiter } from '@pod/testing/oracles';
import { createRequester, type FetchLike, type HttpRequest, type RequestMetricsHook } from './request';

const plan = { scope: 'etsy:conn:test', limit: { capacity: 5, refillPerSecond: 5 }, kind: 'second' as const };
const get: HttpRequest = { method: 'GET', path: '/v3/things', rate: plan };

function setup(fetch: FetchLike, metrics: RequestMetricsHook) {
  return createRequester(
    { provider: 'etsy', baseUrl: 'https://api.example.test' },
    { fetch, metrics, random: () => 0, limiter: new InMemoryRateLimiter() },
  );
}

async function settle<T>(promise: Promise<T>): Promise<T | Error> {
  let done = false;
  const result = promise.then(
    (value) => ((done = true), value),
    (error: Error) => ((done = true), error),
  );
  for (let t = 0; t < 120_000 && !done; t += 50) await jest.advanceTimersByTimeAsync(50);
  return result;
}

beforeEach(() => jest.useFakeTimers({ now: new Date('2026-03-01T00:00:00Z') }));
afterEach(() => jest.useRealTimers());

describe('the request function’s metrics hook', () => {
  it('reports every attempt with its status and duration, and each 429 with its budget', async () => {
    const onAttempt = jest.fn();
    const onRateLimited = jest.fn();
    const fetch = fakeFetch(networkError('ECONNRESET'), json(429, {}, { 'retry-after': '2' }), json(200, { ok: true }));
    const request = setup(fetch, { onAttempt, onRateLimited });
    await expect(settle(request(get))).resolves.toMatchObject({ status: 200 });
    expect(onAttempt.mock.calls.map(([attempt]) => [attempt.provider, attempt.status])).toEqual([
      ['etsy', null],
      ['etsy', 429],
      ['etsy', 200],
    ]);
    for (const [attempt] of onAttempt.mock.calls) expect(attempt.durationMs).toBeGreaterThanOrEqual(0);
    expect(onRateLimited).toHaveBeenCalledTimes(1);
    expect(onRateLimited).toHaveBeenCalledWith({ provider: 'etsy', scope: 'second', retryAfterMs: 2_000 });
  });

  it('never lets a failing hook fail the call', async () => {
    const explode = () => {
      throw new Error('metrics broke');
    };
    const request = setup(fakeFetch(json(429, {}, { 'retry-after': '1' }), json(200, {})), {
      onAttempt: explode,
      onRateLimited: explode,
    });
    await expect(settle(request(get))).resolves.toMatchObject({ status: 200 });
  });
});
