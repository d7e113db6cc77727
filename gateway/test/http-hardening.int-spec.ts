import { connect } from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { SANDBOX_FORM_PATH } from '../src/http/security';
import {
  GatewayTestBed,
  ORIGIN,
  SAME_ORIGIN,
  register,
  sessionCookie,
  uniqueEmail,
  type TestGateway,
} from './support/test-gateway';

const bed = new GatewayTestBed();
let gw: TestGateway;
const stateChangingRoutes: Array<{ method: string; url: string }> = [];

beforeAll(async () => {
  await bed.setUp();
  gw = await bed.start(
    { HTTP_REQUEST_TIMEOUT_MS: '1500', HTTP_HEADERS_TIMEOUT_MS: '1000' },
    (app: NestFastifyApplication) => {
      // Enumerate every route as Nest registers it, so a new route cannot escape these checks.
      app
        .getHttpAdapter()
        .getInstance()
        .addHook('onRoute', (route) => {
          for (const method of [route.method].flat()) {
            if (!['GET', 'HEAD', 'OPTIONS'].includes(method)) stateChangingRoutes.push({ method, url: route.url });
          }
        });
    },
  );
});
afterAll(() => bed.tearDown());

/** A first name the database refuses while withDatabaseFault runs: a real fault deep inside the save. */
const FAULTY_NAME = 'Fault';
async function withDatabaseFault<T>(work: () => Promise<T>): Promise<T> {
  const db = new Client({ connectionString: bed.database.url });
  await db.connect();
  await db.query(`ALTER TABLE app_user ADD CONSTRAINT test_fault CHECK (first_name <> '${FAULTY_NAME}')`);
  try {
    return await work();
  } finally {
    await db.query('ALTER TABLE app_user DROP CONSTRAINT test_fault');
    await db.end();
  }
}

/** A sign-up that fails deep inside the save (a 500), so the generic error path runs. */
function signUpDuringDatabaseFault(label: string) {
  return withDatabaseFault(() =>
    gw.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: SAME_ORIGIN,
      payload: {
        email: uniqueEmail(label),
        password: 'Correct-Horse-7-Battery',
        confirmPassword: 'Correct-Horse-7-Battery',
        firstName: FAULTY_NAME,
        lastName: 'C',
      },
    }),
  );
}

const SECURITY_HEADERS = (headers: Record<string, unknown>) => {
  expect(headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  const csp = String(headers['content-security-policy']);
  expect(csp).toContain("object-src 'none'");
  expect(csp).toContain("base-uri 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toMatch(/script-src 'self'(;|$)/);
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['cross-origin-opener-policy']).toBe('same-origin');
  expect(headers['x-powered-by']).toBeUndefined();
  expect(headers.server).toBeUndefined();
  expect(headers['access-control-allow-origin']).toBeUndefined();
};

describe('CSRF on every state-changing route (item 21)', () => {
  it('found the routes', () => {
    expect(stateChangingRoutes.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining([
        'POST /api/auth/login',
        'POST /api/auth/register',
        'POST /api/auth/logout',
        'PATCH /api/user/settings',
      ]),
    );
  });

  it('exempts only the provider webhook routes, which refuse unsigned deliveries and non-JSON bodies instead', async () => {
    const webhookRoutes = stateChangingRoutes.filter((r) => r.url.startsWith('/api/webhooks/'));
    expect(webhookRoutes.map((r) => `${r.method} ${r.url}`).sort()).toEqual([
      'POST /api/webhooks/etsy',
      'POST /api/webhooks/printify/:connectionKey',
    ]);
    for (const { url } of webhookRoutes) {
      const path = url.replace(':connectionKey', 'k'.repeat(43));
      const unsigned = await gw.app.inject({
        method: 'POST',
        url: path,
        headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
        payload: '{}',
      });
      // No such connection (Printify), or Etsy webhooks not configured here: never accepted.
      expect(unsigned.statusCode).toBe(404);
      expect(
        (await gw.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'text/plain' }, payload: 'a=b' }))
          .statusCode,
      ).toBe(415);
    }
  });

  it('refuses cross-site, same-site, header-less and non-JSON requests', async () => {
    const cookie = sessionCookie(await register(gw.app, uniqueEmail('csrf')));
    // Provider webhooks come from servers and are authenticated by signature (test above, webhooks.int-spec.ts).
    for (const { method, url } of stateChangingRoutes.filter((r) => !r.url.startsWith('/api/webhooks/'))) {
      const path = url.replace(/:(\w+)/g, 'x');
      const send = (headers: Record<string, string>, payload = '{}') =>
        gw.app.inject({ method: method as 'POST', url: path, headers: { cookie, ...headers }, payload });
      const json = { 'content-type': 'application/json' };
      expect((await send({ ...json, origin: 'https://evil.example' })).statusCode).toBe(403);
      expect((await send({ ...json, origin: 'null' })).statusCode).toBe(403);
      expect((await send({ ...json, 'sec-fetch-site': 'cross-site', origin: ORIGIN })).statusCode).toBe(403);
      expect((await send({ ...json, 'sec-fetch-site': 'same-site' })).statusCode).toBe(403);
      expect((await send(json)).statusCode).toBe(403);
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
        // The one form route: the sandbox consent page's Allow/Deny (demo mode), same-origin only.
        if (path === SANDBOX_FORM_PATH && type === 'application/x-www-form-urlencoded') {
          expect((await send({ 'content-type': type, origin: 'https://evil.example' }, 'a=b')).statusCode).toBe(403);
          expect((await send({ 'content-type': type, 'sec-fetch-site': 'cross-site' }, 'a=b')).statusCode).toBe(403);
          continue;
        }
        expect([403, 415]).toContain((await send({ 'content-type': type, origin: ORIGIN }, 'a=b')).statusCode);
      }
    }
  });

  it('lets GET change nothing and same-origin JSON through', async () => {
    const email = uniqueEmail('csrf-ok');
    const cookie = sessionCookie(await register(gw.app, email));
    expect((await gw.app.inject({ method: 'GET', url: '/api/auth/logout', headers: { cookie } })).statusCode).toBe(404);
    expect((await gw.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } })).statusCode).toBe(200);
    const ok = await gw.app.inject({
      method: 'PATCH',
      url: '/api/user/settings',
      headers: { ...SAME_ORIGIN, cookie },
      payload: { currency: 'GBP' },
    });
    expect(ok.statusCode).toBe(200);
  });
});

describe('generic errors (item 29)', () => {
  it('hides a database failure behind a bare 500 with a request id, and logs the detail', async () => {
    const response = await signUpDuringDatabaseFault('fault');
    expect(response.statusCode).toBe(500);
    const body = response.json();
    expect(body).toEqual({
      statusCode: 500,
      error: 'Internal Server Error',
      message: 'Internal Server Error',
      code: 'internal',
      requestId: expect.any(String),
    });
    expect(response.body).not.toMatch(/sql|postgres|insert|app_user|at \w+ \(/i);
    expect(gw.logs.some((line) => line.includes(body.requestId) && line.includes('"level":"error"'))).toBe(true);
    expect((await gw.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });

  it('does not echo the path or query of an unknown route', async () => {
    const response = await gw.app.inject({ method: 'GET', url: '/api/nothing-here?token=secret-value' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Not Found', code: 'not_found' });
    expect(gw.logs.join('\n')).not.toContain('secret-value');
  });
});

describe('limits (item 31)', () => {
  it('answers 413 past the route limit, 415 for unknown types, 400 quickly for deep nesting', async () => {
    const big = JSON.stringify({ email: 'a'.repeat(1024 * 1024), password: 'x' });
    expect(
      (await gw.app.inject({ method: 'POST', url: '/api/auth/login', headers: SAME_ORIGIN, payload: big })).statusCode,
    ).toBe(413);
    // A sign-in takes 8 KiB at most (see body-limits.ts).
    const justOver = JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(8 * 1024) });
    const tooLarge = await gw.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: SAME_ORIGIN,
      payload: justOver,
    });
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().message).toBe('The request body is too large.');
    const weird = await gw.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { ...SAME_ORIGIN, 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(weird.statusCode).toBe(415);
    expect(weird.json().message).toBe('Send the request body as JSON (Content-Type: application/json).');
    // 10k levels no longer fit a sign-in (413); 3,000 levels do, and are refused before parsing.
    const deep = `{"email":${'['.repeat(3_000)}${']'.repeat(3_000)},"password":"x"}`;
    const started = Date.now();
    const nested = await gw.app.inject({ method: 'POST', url: '/api/auth/login', headers: SAME_ORIGIN, payload: deep });
    expect(nested.statusCode).toBe(400);
    expect(nested.json().message).toBe('The request body is nested too deeply.');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('closes connections that trickle their headers', async () => {
    await gw.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = gw.app.getHttpServer().address() as { port: number };
    const closedAfterMs = await new Promise<number>((resolve, reject) => {
      const started = Date.now();
      const socket = connect(port, '127.0.0.1', () => socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n'));
      const drip = setInterval(() => socket.write('X-Slow: 1\r\n'), 300);
      socket.on('close', () => {
        clearInterval(drip);
        resolve(Date.now() - started);
      });
      socket.on('error', () => undefined);
      setTimeout(() => reject(new Error('connection stayed open')), 10_000);
    });
    expect(closedAfterMs).toBeLessThan(5_000);
  });
});

describe('headers on every response (item 32)', () => {
  it('sends strict headers on the web app, its assets, the API, 404s, 429s and 500s', async () => {
    const responses = await Promise.all([
      gw.app.inject({ method: 'GET', url: '/' }),
      gw.app.inject({ method: 'GET', url: '/some/client/route', headers: { origin: 'https://evil.example' } }),
      gw.app.inject({ method: 'GET', url: '/assets/app.js' }),
      gw.app.inject({ method: 'GET', url: '/api/auth/user' }),
      gw.app.inject({ method: 'GET', url: '/api/missing' }),
      gw.app.inject({ method: 'GET', url: '/healthz' }),
      gw.app.inject({ method: 'GET', url: '/livez' }),
    ]);
    const [index, clientRoute, asset, api, missing, health, live] = responses;
    expect(index.statusCode).toBe(200);
    expect(index.headers['content-type']).toMatch(/text\/html/);
    expect(clientRoute.statusCode).toBe(200);
    expect(clientRoute.body).toBe(index.body);
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    expect(api.statusCode).toBe(204);
    expect(api.headers['cache-control']).toBe('no-store');
    expect(missing.statusCode).toBe(404);
    expect(health.statusCode).toBe(200);
    // Liveness is public, outside /api, and never cached.
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok', service: 'gateway' });
    expect(live.headers['cache-control']).toBe('no-store');
    for (const response of responses) SECURITY_HEADERS(response.headers);
  });

  it('adds them to 429 and 500 answers too', async () => {
    let throttled;
    for (let i = 0; i < 12; i += 1) {
      throttled = await gw.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: SAME_ORIGIN,
        remoteAddress: '10.5.5.5',
        payload: { email: 'nobody@example.com', password: 'Wrong-pass-1' },
      });
    }
    expect(throttled!.statusCode).toBe(429);
    SECURITY_HEADERS(throttled!.headers);
    const failed = await signUpDuringDatabaseFault('fault2');
    expect(failed.statusCode).toBe(500);
    SECURITY_HEADERS(failed.headers);
  });
});
