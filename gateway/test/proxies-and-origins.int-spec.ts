import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { GatewayTestBed, SAME_ORIGIN, uniqueEmail, type TestGateway } from './support/test-gateway';

const bed = new GatewayTestBed();
beforeAll(() => bed.setUp());
afterAll(() => bed.tearDown());

/** A failed sign-in as a browser behind the proxy at `proxy` would send it, for client `client`. */
const failedSignInVia = (app: NestFastifyApplication, proxy: string, forwardedFor: string) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: proxy,
    headers: { ...SAME_ORIGIN, 'x-forwarded-for': forwardedFor },
    payload: { email: uniqueEmail('proxied'), password: 'Wrong-pass-123' },
  });

/** The client address the gateway logged for its sign-in failures. */
const loggedIps = (gw: TestGateway) =>
  gw.logs
    .filter((line) => line.includes('"event":"auth.login_failed"'))
    .map((line) => (JSON.parse(line) as { ip: string }).ip);

describe('trusted proxies (TRUST_PROXY)', () => {
  it('behind one proxy hop, per-IP limits count each client, not the proxy', async () => {
    const gw = await bed.start({ TRUST_PROXY: '1' });
    const ingress = '10.42.0.7';
    const statuses: number[] = [];
    for (let i = 0; i < 31; i += 1) statuses.push((await failedSignInVia(gw.app, ingress, '198.51.100.1')).statusCode);
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(401));
    expect(statuses[30]).toBe(429);
    // Another visitor through the same Ingress is not affected by the first one's limit.
    expect((await failedSignInVia(gw.app, ingress, '198.51.100.2')).statusCode).toBe(401);
    // The proxy appends the peer it saw: the right-most entry is the client, a forged left one is ignored.
    await failedSignInVia(gw.app, ingress, '203.0.113.66, 198.51.100.3');
    expect(loggedIps(gw).slice(-2)).toEqual(['198.51.100.2', '198.51.100.3']);
  });

  it('with CIDRs, believes X-Forwarded-For only from those peers', async () => {
    const gw = await bed.start({ TRUST_PROXY: '10.0.0.0/8' });
    await failedSignInVia(gw.app, '10.1.2.3', '198.51.100.20');
    await failedSignInVia(gw.app, '192.0.2.50', '198.51.100.21');
    expect(loggedIps(gw)).toEqual(['198.51.100.20', '192.0.2.50']);
  });

  it('is off by default: a client cannot choose its address with X-Forwarded-For', async () => {
    const gw = await bed.start();
    await failedSignInVia(gw.app, '192.0.2.60', '198.51.100.30');
    expect(loggedIps(gw)).toEqual(['192.0.2.60']);
  });
});

describe('same-origin checks compare with PUBLIC_ORIGIN (item 21)', () => {
  const signUp = (app: NestFastifyApplication, headers: Record<string, string>) =>
    app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { 'content-type': 'application/json', ...headers },
      payload: {
        email: uniqueEmail('origin'),
        password: 'Correct-Horse-7-Battery',
        confirmPassword: 'Correct-Horse-7-Battery',
        firstName: 'A',
        lastName: 'B',
      },
    });

  it('refuses an Origin that merely matches the Host header', async () => {
    const gw = await bed.start();
    expect((await signUp(gw.app, { host: 'evil.example', origin: 'http://evil.example' })).statusCode).toBe(403);
    expect((await signUp(gw.app, { host: 'evil.example:80', origin: 'http://evil.example:80' })).statusCode).toBe(403);
    // A DNS-rebound name is "same-origin" to the browser, but its Origin is not ours.
    expect(
      (
        await signUp(gw.app, {
          host: 'rebound.example',
          origin: 'http://rebound.example',
          'sec-fetch-site': 'same-origin',
        })
      ).statusCode,
    ).toBe(403);
    // A same-origin form post under Referrer-Policy: no-referrer says Origin: null; alone, null is refused.
    expect((await signUp(gw.app, { origin: 'null', 'sec-fetch-site': 'same-origin' })).statusCode).toBe(201);
    expect((await signUp(gw.app, { origin: 'null' })).statusCode).toBe(403);
  });

  it('accepts the https public origin behind a TLS-terminating proxy that speaks http to us', async () => {
    const gw = await bed.start({ PUBLIC_ORIGIN: 'https://podprofit.example.com', TRUST_PROXY: '1' });
    const browser = { host: 'podprofit.example.com', origin: 'https://podprofit.example.com' };
    expect((await signUp(gw.app, browser)).statusCode).toBe(201);
    expect(
      (await signUp(gw.app, { ...browser, 'x-forwarded-proto': 'https', 'sec-fetch-site': 'same-origin' })).statusCode,
    ).toBe(201);
    expect((await signUp(gw.app, { ...browser, origin: 'http://podprofit.example.com' })).statusCode).toBe(403);
  });
});

describe('one public origin', () => {
  const get = (app: NestFastifyApplication, url: string, host: string, method: 'GET' | 'HEAD' | 'POST' = 'GET') =>
    app.inject({ method, url, headers: { host } });

  it('sends a page request on another local name to the same path and query on the public origin', async () => {
    const gw = await bed.start({ PUBLIC_ORIGIN: 'http://localhost:5000' });
    for (const host of ['127.0.0.1:5000', '[::1]:5000', '127.0.0.1']) {
      const response = await get(gw.app, '/connections?etsy=connected&x=%2F', host);
      expect(response.statusCode).toBe(307);
      expect(response.headers.location).toBe('http://localhost:5000/connections?etsy=connected&x=%2F');
    }
    const head = await get(gw.app, '/', '127.0.0.1:5000', 'HEAD');
    expect(head.statusCode).toBe(307);
    expect(head.headers.location).toBe('http://localhost:5000/');
    const consent = await get(gw.app, '/sandbox/oauth/connect?state=abc', '127.0.0.1:5000');
    expect(consent.headers.location).toBe('http://localhost:5000/sandbox/oauth/connect?state=abc');
  });

  it('leaves the API, the probes, other methods and the public name itself alone', async () => {
    const gw = await bed.start({ PUBLIC_ORIGIN: 'http://localhost:5000' });
    expect((await get(gw.app, '/api/auth/user', '127.0.0.1:5000')).statusCode).toBe(204); // answered (signed out), not redirected
    expect((await get(gw.app, '/healthz', '127.0.0.1:5000')).statusCode).toBe(200);
    expect((await get(gw.app, '/livez', '127.0.0.1:5000')).statusCode).toBe(200);
    expect((await get(gw.app, '/api/auth/logout', '127.0.0.1:5000', 'POST')).statusCode).toBe(403);
    expect((await get(gw.app, '/', 'localhost:5000')).statusCode).toBe(200);
  });

  it('never redirects to, or builds a URL from, any other Host', async () => {
    const local = await bed.start({ PUBLIC_ORIGIN: 'http://localhost:5000' });
    const other = await get(local.app, '/some/page', 'evil.example');
    expect(other.statusCode).toBe(200);
    expect(other.headers.location).toBeUndefined();
    // A public origin that is not local: every Host is served as is, 127.0.0.1 included.
    const hosted = await bed.start({ PUBLIC_ORIGIN: 'https://podprofit.example.com' });
    for (const host of ['127.0.0.1:5000', 'localhost', 'evil.example', '10.42.0.9:5000']) {
      const response = await get(hosted.app, '/dashboard', host);
      expect(response.statusCode).toBe(200);
      expect(response.headers.location).toBeUndefined();
    }
  });
});
