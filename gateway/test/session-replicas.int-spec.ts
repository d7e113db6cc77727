import {
  freePort,
  queryDatabase,
  refuseDatabaseConnections,
  spawnService,
  startTestStack,
  TEST_APP_SECRET,
  waitForHttp,
  type ServiceProcess,
  type TestStack,
} from '@pod/testing';

/**
 * The session check across two built gateways sharing PostgreSQL and Redis: each keeps the
 * sessions it read (SESSION_CACHE_TTL_MS, a minute here so that only the broadcast, never the
 * TTL, can end a kept session within a test), yet a session ended through one is refused by
 * the other at once, and a database that does not answer the check
 * is a 503 `service_busy` (the session stands), never a 401 (which signs the user out).
 */
jest.setTimeout(120_000);

let stack: TestStack;
let second: ServiceProcess;
let gateways: [string, string];
const ORIGIN_HEADERS = (base: string) => ({
  origin: base,
  'sec-fetch-site': 'same-origin',
  'content-type': 'application/json',
});
const PASSWORD = 'Correct-Horse-7-Battery';

/** Both gateways: a long TTL (see above) and the demo cleanup every second. */
const GATEWAY_ENV = { SESSION_CACHE_TTL_MS: '60000', DEMO_CLEANUP_EVERY_SECONDS: '1' };

beforeAll(async () => {
  stack = await startTestStack(GATEWAY_ENV);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // The same database, Redis prefix and secret as the stack's gateway: a second replica.
  second = spawnService('gateway-2', 'dist/gateway/src/main.js', {
    PORT: String(port),
    PUBLIC_ORIGIN: base,
    DATABASE_URL: stack.database.url,
    REDIS_PREFIX: stack.redisPrefix,
    APP_SECRET: TEST_APP_SECRET,
    ...GATEWAY_ENV,
  });
  await waitForHttp(`${base}/healthz`, { process: second, timeoutMs: 60_000 });
  gateways = [stack.baseUrl, base];
}, 180_000);

afterAll(async () => {
  await second?.stop();
  await stack?.stop();
});

let counter = 0;
const uniqueEmail = (label: string) => `${label}.${Date.now().toString(36)}.${(counter += 1)}@example.com`;

async function call(base: string, method: string, path: string, cookie?: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { ...(method === 'GET' ? {} : ORIGIN_HEADERS(base)), ...(cookie ? { cookie } : {}) },
    body: body === undefined ? (method === 'GET' ? undefined : '{}') : JSON.stringify(body),
    redirect: 'manual',
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    json: text ? (JSON.parse(text) as Record<string, unknown>) : undefined,
  };
}

function cookieOf(response: { headers: Headers }): string {
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith('podprofit_session='));
  if (!cookie) throw new Error('no session cookie');
  return cookie.split(';')[0];
}

async function signUp(label: string): Promise<{ email: string; cookie: string }> {
  const email = uniqueEmail(label);
  const answer = await call(gateways[0], 'POST', '/api/auth/register', undefined, {
    email,
    password: PASSWORD,
    confirmPassword: PASSWORD,
    firstName: 'Two',
    lastName: 'Replicas',
  });
  if (answer.status !== 201) throw new Error(`sign-up: ${answer.status}`);
  return { email, cookie: cookieOf(answer) };
}

async function signIn(email: string): Promise<string> {
  const answer = await call(gateways[1], 'POST', '/api/auth/login', undefined, { email, password: PASSWORD });
  if (answer.status !== 200) throw new Error(`sign-in: ${answer.status}`);
  return cookieOf(answer);
}

/** The current-user answer on each gateway: 200 signed in, 204 signed out. */
async function statusOnBoth(cookie: string): Promise<number[]> {
  return Promise.all(gateways.map(async (base) => (await call(base, 'GET', '/api/auth/user', cookie)).status));
}

describe('session revocation across two gateways', () => {
  it('logout through gateway 1 ends the session on gateway 2 at once, though both had it cached', async () => {
    const { cookie } = await signUp('logout');
    expect(await statusOnBoth(cookie)).toEqual([200, 200]);
    expect(await statusOnBoth(cookie)).toEqual([200, 200]);
    expect((await call(gateways[0], 'POST', '/api/auth/logout', cookie)).status).toBe(200);
    expect((await call(gateways[1], 'GET', '/api/auth/user', cookie)).status).toBe(204);
    expect((await call(gateways[1], 'GET', '/api/orders', cookie)).status).toBe(401);
    expect((await call(gateways[0], 'GET', '/api/auth/user', cookie)).status).toBe(204);
  });

  it('a password change through gateway 1 ends the other sessions on gateway 2 at once, and keeps its own', async () => {
    const { email, cookie: here } = await signUp('password');
    const elsewhere = await signIn(email);
    expect(await statusOnBoth(here)).toEqual([200, 200]);
    expect(await statusOnBoth(elsewhere)).toEqual([200, 200]);
    const changed = await call(gateways[0], 'POST', '/api/user/change-password', here, {
      currentPassword: PASSWORD,
      newPassword: 'Brand-new-pass-9',
    });
    expect(changed.status).toBe(200);
    expect(await statusOnBoth(elsewhere)).toEqual([204, 204]);
    expect(await statusOnBoth(here)).toEqual([200, 200]);
  });

  it('a currency change through gateway 1 shows on gateway 2 at once', async () => {
    const { cookie } = await signUp('currency');
    expect((await call(gateways[1], 'GET', '/api/auth/user', cookie)).json?.currency).toBe('USD');
    expect((await call(gateways[0], 'PATCH', '/api/user/settings', cookie, { currency: 'GBP' })).status).toBe(200);
    expect((await call(gateways[1], 'GET', '/api/auth/user', cookie)).json?.currency).toBe('GBP');
  });
});

describe('accounts removed by the demo cleanup', () => {
  it('are signed out on both gateways as soon as the sweep removed them', async () => {
    const { email, cookie } = await signUp('removed');
    expect(await statusOnBoth(cookie)).toEqual([200, 200]);
    // An expired demo account: the next sweep (every second, on either gateway) removes it.
    await queryDatabase(
      stack.database.url,
      `UPDATE app_user SET is_demo = true, demo_expires_at = now() - interval '1 minute' WHERE email = $1`,
      [email],
    );
    const deadline = Date.now() + 20_000;
    while ((await queryDatabase(stack.database.url, 'SELECT 1 FROM app_user WHERE email = $1', [email])).length > 0) {
      if (Date.now() > deadline) throw new Error('the demo cleanup did not remove the account');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // The sweep publishes right after its commit: allow it half a second, far below the TTL.
    let statuses = await statusOnBoth(cookie);
    for (let i = 0; i < 10 && statuses.some((status) => status !== 204); i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      statuses = await statusOnBoth(cookie);
    }
    expect(statuses).toEqual([204, 204]);
  });
});

describe('when the database does not answer the session check', () => {
  it('answers 503 service_busy with Retry-After (not 401), serves sessions it already checked, and recovers', async () => {
    const { email, cookie: warm } = await signUp('busy');
    const cold = await signIn(email);
    expect((await call(gateways[0], 'GET', '/api/auth/user', warm)).status).toBe(200);
    const outage = await refuseDatabaseConnections(stack.database.url);
    try {
      for (const path of ['/api/auth/user', '/api/connections/status']) {
        const busy = await call(gateways[0], 'GET', path, cold);
        expect([path, busy.status]).toEqual([path, 503]);
        expect(busy.headers.get('retry-after')).toBe('2');
        expect(busy.json).toEqual({
          statusCode: 503,
          error: 'Service Unavailable',
          code: 'service_busy',
          message: 'Service busy, retrying. Please wait a moment.',
          requestId: expect.any(String),
        });
      }
      // Checked a moment ago: no database round trip needed (within SESSION_CACHE_TTL_MS).
      expect((await call(gateways[0], 'GET', '/api/auth/user', warm)).status).toBe(200);
      // A route's own database work that gets no connection is busy too (it was a 500).
      const data = await call(gateways[0], 'GET', '/api/dashboard/metrics?days=30&currency=USD', warm);
      expect([data.status, data.json?.code, data.headers.get('retry-after')]).toEqual([503, 'service_busy', '2']);
      // Signed out needs no database either.
      expect((await call(gateways[0], 'GET', '/api/auth/user')).status).toBe(204);
      // A logout the store could not record is refused, cookie kept: the session would live on.
      const logout = await call(gateways[0], 'POST', '/api/auth/logout', warm);
      expect([logout.status, logout.json?.code, logout.headers.get('set-cookie')]).toEqual([503, 'service_busy', null]);
    } finally {
      await outage.restore();
    }
    expect((await call(gateways[0], 'GET', '/api/auth/user', cold)).status).toBe(200);
    expect((await call(gateways[0], 'POST', '/api/auth/logout', warm)).status).toBe(200);
    expect((await call(gateways[1], 'GET', '/api/auth/user', warm)).status).toBe(204);
    expect(stack.gateway.logs()).not.toContain(cold.split('=')[1]);
  });
});
