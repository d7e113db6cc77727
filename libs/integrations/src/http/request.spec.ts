import { captureLogger, fakeFetch, json, networkError, stalledBody, text } from '../../test/support/fake-fetch';
import { InMemoryRateLimiter } from '@pod/testing/oracles';
import {
  AuthError,
  HostNotAllowedError,
  MalformedResponseError,
  NotFoundError,
  ProviderError,
  RateLimitedError,
  RedirectRefusedError,
  RequestAbortedError,
  TransportError,
  UpstreamError,
} from './errors';
import { createRequester, type FetchLike, type HttpRequest, type RatePlan } from './request';

const BASE = 'https://api.example.test';
const SECRET = 'sekret-shared-value';
const TOKEN = '12345678.tokenValueThatMustNeverBeLogged';

function setup(fetch: FetchLike, extra: { random?: () => number; limiter?: InMemoryRateLimiter } = {}) {
  const { logger, lines } = captureLogger();
  const limiter = extra.limiter ?? new InMemoryRateLimiter();
  const request = createRequester(
    {
      provider: 'etsy',
      baseUrl: BASE,
      defaultHeaders: { 'x-api-key': `keystring:${SECRET}` },
      secrets: [SECRET],
      timeouts: { headersMs: 1_000, bodyMs: 2_000 },
    },
    { fetch, logger, random: extra.random ?? (() => 0.5), limiter },
  );
  return { request, lines, limiter };
}

const plan: RatePlan = { scope: 'etsy:conn:test', limit: { capacity: 5, refillPerSecond: 5 }, kind: 'second' };
const get: HttpRequest = {
  method: 'GET',
  path: '/v3/things/{id}',
  params: { id: '42' },
  query: { code: 'abc-secret-code' },
  headers: { authorization: `Bearer ${TOKEN}` },
  rate: plan,
};

/** Starts the call, advances fake time in steps until it settles, and returns its result or error. */
async function settle<T>(promise: Promise<T>, stepMs = 100, maxMs = 600_000): Promise<T | Error> {
  let done = false;
  const result = promise.then(
    (value) => ((done = true), value),
    (error: Error) => ((done = true), error),
  );
  for (let t = 0; t < maxMs && !done; t += stepMs) await jest.advanceTimersByTimeAsync(stepMs);
  return result;
}

beforeEach(() => jest.useFakeTimers({ now: new Date('2026-03-01T00:00:00Z') }));
afterEach(() => jest.useRealTimers());

describe('request function', () => {
  it('returns parsed JSON, sends no redirect-following fetch and fills path parameters and the query', async () => {
    const fetch = fakeFetch(json(200, { ok: true, big: 1 }));
    const { request } = setup(fetch);
    const response = await settle(request(get));
    expect(response).toMatchObject({ status: 200, body: { ok: true } });
    expect(fetch.calls).toHaveLength(1);
    expect(fetch.calls[0].url.toString()).toBe(`${BASE}/v3/things/42?code=abc-secret-code`);
    expect(fetch.calls[0].redirect).toBe('manual');
    expect(fetch.calls[0].headers['x-api-key']).toBe(`keystring:${SECRET}`);
  });

  it('keeps integers beyond 2^53 exact as strings', async () => {
    const fetch = fakeFetch(text(200, '{"id": 12345678901234567890, "n": 5}'));
    const { request } = setup(fetch);
    expect(await settle(request(get))).toMatchObject({ body: { id: '12345678901234567890', n: 5 } });
  });

  it('retries 5xx with full-jitter backoff and succeeds when the fault clears', async () => {
    const fetch = fakeFetch(text(503, '<html>busy</html>'), text(502, ''), json(200, { ok: 1 }));
    const { request } = setup(fetch, { random: () => 0.999 });
    const response = await settle(request(get), 10);
    expect(response).toMatchObject({ status: 200 });
    expect(fetch.calls).toHaveLength(3);
    // Ceilings 1 s then 2 s; random 0.999 puts each delay just under its ceiling.
    const gaps = [fetch.calls[1].atMs - fetch.calls[0].atMs, fetch.calls[2].atMs - fetch.calls[1].atMs];
    expect(gaps[0]).toBeGreaterThanOrEqual(990);
    expect(gaps[0]).toBeLessThanOrEqual(1_010);
    expect(gaps[1]).toBeGreaterThanOrEqual(1_990);
    expect(gaps[1]).toBeLessThanOrEqual(2_010);
  });

  it('stops after 5 attempts in all and throws UpstreamError', async () => {
    const fetch = fakeFetch(text(500, 'oops'));
    const { request } = setup(fetch);
    const error = await settle(request(get));
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ status: 500, retryable: true, code: 'upstream_error', provider: 'etsy' });
    expect(fetch.calls).toHaveLength(5);
  });

  it('honours Retry-After in seconds: no call before it ends, and blocks the scope for everyone', async () => {
    const fetch = fakeFetch(json(429, { error: 'slow down' }, { 'retry-after': '7' }), json(200, {}));
    const limiter = new InMemoryRateLimiter();
    const { request } = setup(fetch, { limiter });
    const pending = settle(request(get), 50);
    await jest.advanceTimersByTimeAsync(10);
    expect(await limiter.blockedForMs(plan.scope)).toBeGreaterThan(6_900);
    expect(await pending).toMatchObject({ status: 200 });
    expect(fetch.calls).toHaveLength(2);
    expect(fetch.calls[1].atMs - fetch.calls[0].atMs).toBeGreaterThanOrEqual(7_000);
  });

  it('honours Retry-After as an HTTP date', async () => {
    const at = new Date(Date.now() + 12_000).toUTCString();
    const fetch = fakeFetch(json(429, {}, { 'retry-after': at }), json(200, {}));
    const { request } = setup(fetch);
    await settle(request(get), 50);
    expect(fetch.calls[1].atMs - fetch.calls[0].atMs).toBeGreaterThanOrEqual(11_000);
  });

  it('surfaces a Retry-After beyond the cap at once as RateLimitedError with retryAfterMs', async () => {
    const fetch = fakeFetch(json(429, {}, { 'retry-after': '3600' }));
    const limiter = new InMemoryRateLimiter();
    const { request } = setup(fetch, { limiter });
    const error = await settle(request(get));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ retryAfterMs: 3_600_000, scope: 'second', retryable: true, status: 429 });
    expect(fetch.calls).toHaveLength(1);
    // Another caller of the same scope fails fast without sending.
    const second = await settle(request(get));
    expect(second).toBeInstanceOf(RateLimitedError);
    expect((second as RateLimitedError).status).toBeNull();
    expect(fetch.calls).toHaveLength(1);
  });

  it('gives up after 5 attempts of 429 with a RateLimitedError', async () => {
    const fetch = fakeFetch(json(429, {}, { 'retry-after': '1' }));
    const { request } = setup(fetch);
    const error = await settle(request(get));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(fetch.calls).toHaveLength(5);
  });

  it('never follows a redirect', async () => {
    const fetch = fakeFetch(text(302, '', { location: 'https://evil.example/steal' }));
    const { request } = setup(fetch);
    const error = await settle(request(get));
    expect(error).toBeInstanceOf(RedirectRefusedError);
    expect(error).toMatchObject({ status: 302, retryable: false });
    expect(fetch.calls).toHaveLength(1);
    expect(fetch.calls.every((c) => c.url.host === 'api.example.test')).toBe(true);
  });

  it('refuses hosts outside the allow-list before sending anything', async () => {
    const fetch = fakeFetch(json(200, {}));
    const { request } = setup(fetch);
    await expect(request({ ...get, path: 'https://evil.example/v3/things' })).rejects.toBeInstanceOf(
      HostNotAllowedError,
    );
    await expect(request({ ...get, path: 'http://api.example.test/v3/things' })).rejects.toBeInstanceOf(
      HostNotAllowedError,
    );
    expect(fetch.calls).toHaveLength(0);
    // A protocol-relative path cannot escape the base host either.
    await settle(request({ ...get, path: '//evil.example/x' }));
    expect(fetch.calls[0].url.host).toBe('api.example.test');
  });

  it('times out waiting for headers, retries, and fails with a timeout TransportError', async () => {
    const fetch = fakeFetch('hang');
    const { request } = setup(fetch);
    const error = await settle(request(get));
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ kind: 'headers_timeout', code: 'timeout', retryable: true });
    expect(fetch.calls).toHaveLength(5);
  });

  it('gives up at once when its caller aborts: in flight, between retries, or waiting for a rate-limit token; never retried', async () => {
    // In flight: the call hangs (its headers timeout is 1 s); the caller leaves after 200 ms.
    const hanging = fakeFetch('hang');
    const inFlight = new AbortController();
    const first = setup(hanging).request({ ...get, signal: inFlight.signal });
    setTimeout(() => inFlight.abort(), 200);
    const started = Date.now();
    expect(await settle(first, 10)).toBeInstanceOf(RequestAbortedError);
    expect(Date.now() - started).toBeLessThan(300);
    expect(hanging.calls).toHaveLength(1);
    // Between retries: a 503, then the back-off (just under 1 s) is cut short.
    const failing = fakeFetch(text(503, 'busy'), json(200, {}));
    const betweenRetries = new AbortController();
    const second = setup(failing, { random: () => 0.999 }).request({ ...get, signal: betweenRetries.signal });
    setTimeout(() => betweenRetries.abort(), 300);
    expect(await settle(second, 10)).toBeInstanceOf(RequestAbortedError);
    expect(failing.calls).toHaveLength(1);
    // Waiting for a token: the scope is blocked for 20 s (a 429's Retry-After seen by another replica).
    const limiter = new InMemoryRateLimiter();
    await limiter.block(plan.scope, 20_000);
    const idle = fakeFetch(json(200, {}));
    const waiting = new AbortController();
    const third = setup(idle, { limiter }).request({ ...get, signal: waiting.signal });
    setTimeout(() => waiting.abort(), 500);
    const waitStarted = Date.now();
    expect(await settle(third, 10)).toBeInstanceOf(RequestAbortedError);
    expect(Date.now() - waitStarted).toBeLessThan(600);
    expect(idle.calls).toHaveLength(0);
    // Already aborted: nothing is sent.
    expect(await settle(setup(idle).request({ ...get, signal: AbortSignal.abort() }), 10)).toBeInstanceOf(
      RequestAbortedError,
    );
    expect(idle.calls).toHaveLength(0);
  });

  it('times out a body that stops arriving', async () => {
    const fetch = fakeFetch(() => stalledBody(), json(200, { ok: true }));
    const { request } = setup(fetch);
    const response = await settle(request(get));
    expect(response).toMatchObject({ body: { ok: true } });
    expect(fetch.calls[1].atMs - fetch.calls[0].atMs).toBeGreaterThanOrEqual(2_000);
  });

  it('retries network errors on GET; a non-idempotent POST retries only when nothing was sent', async () => {
    let fetch = fakeFetch(networkError('ECONNRESET'), json(200, {}));
    let request = setup(fetch).request;
    expect(await settle(request(get))).toMatchObject({ status: 200 });
    expect(fetch.calls).toHaveLength(2);

    fetch = fakeFetch(networkError('ECONNRESET'), json(200, {}));
    request = setup(fetch).request;
    const error = await settle(request({ method: 'POST', path: '/token', form: { code: 'abc' } }));
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toContain('ECONNRESET');
    expect(fetch.calls).toHaveLength(1);

    fetch = fakeFetch(networkError('ECONNREFUSED'), json(200, {}));
    request = setup(fetch).request;
    expect(await settle(request({ method: 'POST', path: '/token', form: { code: 'abc' } }))).toMatchObject({
      status: 200,
    });
    expect(fetch.calls[0].headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(fetch.calls[0].body).toBe('code=abc');
  });

  it('does not retry a POST on 5xx', async () => {
    const fetch = fakeFetch(text(503, ''));
    const { request } = setup(fetch);
    expect(await settle(request({ method: 'POST', path: '/token', form: {} }))).toBeInstanceOf(UpstreamError);
    expect(fetch.calls).toHaveLength(1);
  });

  it('retries malformed JSON, then fails with MalformedResponseError', async () => {
    const fetch = fakeFetch(text(200, '{"truncated":'));
    const { request } = setup(fetch);
    const error = await settle(request(get));
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect(fetch.calls).toHaveLength(5);
  });

  it('caps the body size by Content-Length and while reading', async () => {
    const big = 'x'.repeat(64);
    const capped = (fetch: FetchLike) =>
      createRequester(
        { provider: 'printify', baseUrl: BASE, maxBodyBytes: 32 },
        { fetch, limiter: new InMemoryRateLimiter() },
      );
    let fetch = fakeFetch(text(200, big, { 'content-length': '64' }));
    expect(await settle(capped(fetch)(get))).toBeInstanceOf(MalformedResponseError);
    expect(fetch.calls).toHaveLength(1);
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < 8; i += 1) c.enqueue(new TextEncoder().encode(big.slice(0, 8)));
        c.close();
      },
    });
    fetch = fakeFetch(new Response(stream, { status: 200 }));
    const error = await settle(capped(fetch)(get));
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect((error as Error).message).toContain('larger than 32 bytes');
  });

  it('maps client errors to typed errors without retrying', async () => {
    const cases: [number, new (...args: never[]) => ProviderError, string][] = [
      [401, AuthError, 'invalid_token'],
      [404, NotFoundError, 'not_found'],
      [403, ProviderError, 'forbidden'],
      [400, ProviderError, 'bad_request'],
      [409, ProviderError, 'client_error'],
    ];
    for (const [status, type, code] of cases) {
      const fetch = fakeFetch(json(status, { error: `echo ${TOKEN} and ${SECRET}` }));
      const { request } = setup(fetch);
      const error = await settle(request(get));
      expect(error).toBeInstanceOf(type);
      expect(error).toMatchObject({ status, code, retryable: false });
      expect((error as ProviderError).upstreamMessage).toBe('echo [redacted] and [redacted]');
      expect(fetch.calls).toHaveLength(1);
    }
  });

  it('writes log lines without tokens, keys, secrets, codes or query strings', async () => {
    const fetch = fakeFetch(
      networkError('ECONNRESET'),
      json(429, {}, { 'retry-after': '1' }),
      text(500, TOKEN),
      json(401, { error: TOKEN }),
    );
    const { request, lines } = setup(fetch);
    await settle(request(get));
    expect(lines.length).toBe(5);
    const all = lines.join('\n');
    for (const forbidden of [
      TOKEN,
      SECRET,
      'keystring:',
      'abc-secret-code',
      '?',
      'authorization',
      'x-api-key',
      'Bearer',
    ]) {
      expect(all).not.toContain(forbidden);
    }
    const first = JSON.parse(lines[0]) as Record<string, unknown>;
    expect(first).toMatchObject({
      provider: 'etsy',
      method: 'GET',
      host: 'api.example.test',
      path: '/v3/things/{id}',
      attempt: 1,
    });
    expect(typeof first.durationMs).toBe('number');
  });
});
