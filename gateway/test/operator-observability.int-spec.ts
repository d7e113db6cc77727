import { hostname } from 'node:os';
import { TEST_OPERATOR_TOKEN } from '@pod/testing';
import { BULL_BOARD_PATH } from '../src/admin/bull-board';
import { GatewayTestBed, ORIGIN, register, sessionCookie, uniqueEmail, type TestGateway } from './support/test-gateway';

/**
 * The operator's observability surface on the gateway: Prometheus metrics at /api/admin/metrics,
 * the workers view at /api/admin/workers and Bull Board at /api/admin/bull-board, all behind
 * OPERATOR_TOKEN (404 without one configured), never reachable with a seller's session, and no
 * metrics anywhere else on the public port.
 */
const bed = new GatewayTestBed();
let gw: TestGateway;
let closed: TestGateway;
/** A replica with BULL_BOARD_MODE=retry: the board may promote and retry (see bull-board-actions.int-spec.ts). */
let retrying: TestGateway;
let sellerCookie: string;
const bearer = { authorization: `Bearer ${TEST_OPERATOR_TOKEN}` };
/** What a same-origin fetch from the board's page carries. */
const fromBoardPage = { origin: ORIGIN, 'sec-fetch-site': 'same-origin' };

beforeAll(async () => {
  await bed.setUp();
  gw = await bed.start();
  // An empty value counts as unset: the operator routes are closed.
  closed = await bed.start({ OPERATOR_TOKEN: '' });
  retrying = await bed.start({ BULL_BOARD_MODE: 'retry' });
  sellerCookie = sessionCookie(await register(gw.app, uniqueEmail('seller')));
});
afterAll(() => bed.tearDown());

const get = (app: TestGateway, url: string, headers: Record<string, string> = {}) =>
  app.app.inject({ method: 'GET', url, headers });

describe('GET /api/admin/metrics', () => {
  it('serves the gateway’s Prometheus metrics to the operator token', async () => {
    const response = await get(gw, '/api/admin/metrics', bearer);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toMatch(/^process_cpu_user_seconds_total\{service="gateway"\} /m);
    // Every queue's depth, read from Redis at scrape time.
    for (const queue of ['etsy-sync', 'printify-sync', 'matcher', 'fx-rate', 'maintenance']) {
      expect(response.body).toMatch(
        new RegExp(`^podprofit_queue_jobs\\{queue="${queue}",state="waiting",service="gateway"\\} \\d+$`, 'm'),
      );
    }
    expect(response.body).toContain('# TYPE podprofit_provider_requests_total counter');
  });

  it.each([
    ['no credential', {}],
    ['a wrong token', { authorization: 'Bearer test-operator-token-wrong-00' }],
    ['the token in the query', {}, `?token=${TEST_OPERATOR_TOKEN}`],
  ])('answers 401 to %s', async (_, headers: Record<string, string>, query = '') => {
    const response = await get(gw, `/api/admin/metrics${query}`, headers);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'operator_credential_required' });
    expect(response.body).not.toContain('process_cpu');
  });

  it('refuses a seller’s session', async () => {
    const response = await get(gw, '/api/admin/metrics', { cookie: sellerCookie });
    expect(response.statusCode).toBe(401);
    expect(response.body).not.toContain('process_cpu');
  });

  it('answers 404 while OPERATOR_TOKEN is unset, whatever is presented', async () => {
    expect((await get(closed, '/api/admin/metrics', bearer)).statusCode).toBe(404);
    expect((await get(closed, '/api/admin/metrics')).statusCode).toBe(404);
  });

  it('is the only place the public port serves metrics', async () => {
    for (const url of [
      '/metrics',
      '/api/metrics',
      '/metrics/',
      '/api/admin/metrics/',
      '/healthz',
      '/livez',
      '/api/admin/bull-board/metrics',
    ]) {
      for (const headers of [{}, { cookie: sellerCookie }] as Array<Record<string, string>>) {
        const response = await get(gw, url, headers);
        expect(`${url} ${response.statusCode} ${response.body}`).not.toMatch(/process_cpu|# TYPE|podprofit_queue_jobs/);
      }
    }
  });
});

describe('GET /api/admin/workers', () => {
  it('lists per queue the workers BullMQ knows, the job counts and the completion rates', async () => {
    const response = await get(gw, '/api/admin/workers', bearer);
    expect(response.statusCode).toBe(200);
    const queues = response.json<
      Array<{
        queue: string;
        counts: Record<string, number>;
        workers: Array<{ name: string | null }>;
        rates: Record<string, unknown>;
      }>
    >();
    expect(queues.map((q) => q.queue)).toEqual(['etsy-sync', 'printify-sync', 'matcher', 'fx-rate', 'maintenance']);
    for (const queue of queues) {
      expect(queue.counts).toEqual(
        expect.objectContaining({
          waiting: expect.any(Number),
          active: expect.any(Number),
          failed: expect.any(Number),
        }),
      );
      expect(queue.rates).toEqual({
        completed: expect.objectContaining({
          total: expect.any(Number),
          lastMinute: expect.any(Number),
          lastHour: expect.any(Number),
          perMinute: expect.any(Number),
        }),
        failed: expect.objectContaining({ total: expect.any(Number) }),
      });
    }
    // The gateway itself consumes `maintenance`; its worker is named hostname:pid.
    const maintenance = queues.find((q) => q.queue === 'maintenance');
    expect(maintenance?.workers.map((w) => w.name)).toContain(`${hostname()}:${process.pid}`);
  });

  it('is closed to everyone else', async () => {
    expect((await get(gw, '/api/admin/workers')).statusCode).toBe(401);
    expect((await get(gw, '/api/admin/workers', { cookie: sellerCookie })).statusCode).toBe(401);
    expect((await get(closed, '/api/admin/workers', bearer)).statusCode).toBe(404);
  });
});

describe('Bull Board', () => {
  const boardCookieOf = (response: { headers: Record<string, unknown> }) => {
    const raw = [response.headers['set-cookie']]
      .flat()
      .find((c) => typeof c === 'string' && c.startsWith('podprofit_board='));
    if (typeof raw !== 'string') throw new Error('no board cookie was set');
    return raw;
  };

  it('opens to the operator token, with a CSP that lets its page use <base href> and nothing looser', async () => {
    const page = await get(gw, `${BULL_BOARD_PATH}/`, { ...bearer, accept: 'text/html' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain(`<base href="${BULL_BOARD_PATH}/"`);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("base-uri 'self'");
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).toContain("frame-ancestors 'none'");
    // The rest of the gateway keeps base-uri 'none'.
    expect(String((await get(gw, '/api/admin/queues', bearer)).headers['content-security-policy'])).toContain(
      "base-uri 'none'",
    );
    const queues = await get(gw, `${BULL_BOARD_PATH}/api/queues`, bearer);
    expect(queues.statusCode).toBe(200);
    expect(
      queues
        .json<{ queues: Array<{ name: string }> }>()
        .queues.map((q) => q.name)
        .sort(),
    ).toEqual(['etsy-sync', 'fx-rate', 'maintenance', 'matcher', 'printify-sync']);
  });

  it('answers 401 without the token (a sign-in form to a browser), to a wrong token and to a seller’s session', async () => {
    const api = `${BULL_BOARD_PATH}/api/queues`;
    for (const headers of [
      {},
      { authorization: 'Bearer test-operator-token-wrong-00' },
      { cookie: sellerCookie },
    ] as Array<Record<string, string>>) {
      const response = await get(gw, api, headers);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ code: 'operator_credential_required' });
    }
    const page = await get(gw, `${BULL_BOARD_PATH}/`, { accept: 'text/html', cookie: sellerCookie });
    expect(page.statusCode).toBe(401);
    expect(page.body).toContain('type="password"');
    expect(page.body).not.toContain('__UI_CONFIG__');
    const asset = await get(gw, `${BULL_BOARD_PATH}/static/favicon-32x32.png`);
    expect(asset.statusCode).toBe(401);
  });

  it('is closed (404) while OPERATOR_TOKEN is unset', async () => {
    for (const url of [
      `${BULL_BOARD_PATH}/`,
      `${BULL_BOARD_PATH}/api/queues`,
      `${BULL_BOARD_PATH}/login`,
      `${BULL_BOARD_PATH}/static/favicon-32x32.png`,
    ]) {
      expect((await get(closed, url, bearer)).statusCode).toBe(404);
    }
  });

  it('signs a browser in with the token posted once, then serves the page, assets and API on a short-lived path cookie', async () => {
    const form = { ...fromBoardPage, 'content-type': 'application/x-www-form-urlencoded' };
    const wrong = await gw.app.inject({
      method: 'POST',
      url: `${BULL_BOARD_PATH}/login`,
      headers: form,
      payload: 'token=not-the-token',
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['set-cookie']).toBeUndefined();
    const login = await gw.app.inject({
      method: 'POST',
      url: `${BULL_BOARD_PATH}/login`,
      headers: form,
      payload: `token=${encodeURIComponent(TEST_OPERATOR_TOKEN)}`,
    });
    expect(login.statusCode).toBe(303);
    expect(login.headers.location).toBe(`${BULL_BOARD_PATH}/`);
    const setCookie = boardCookieOf(login);
    expect(setCookie).toMatch(/; Max-Age=3600/);
    expect(setCookie).toMatch(/; Path=\/api\/admin\/bull-board/);
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Strict/);
    expect(setCookie).not.toContain(TEST_OPERATOR_TOKEN);
    const cookie = setCookie.split(';')[0];
    expect((await get(gw, `${BULL_BOARD_PATH}/`, { cookie, accept: 'text/html' })).body).toContain('__UI_CONFIG__');
    expect((await get(gw, `${BULL_BOARD_PATH}/static/favicon-32x32.png`, { cookie })).statusCode).toBe(200);
    expect((await get(gw, `${BULL_BOARD_PATH}/api/queues`, { cookie })).statusCode).toBe(200);
    // The board cookie opens the board only.
    expect((await get(gw, '/api/admin/metrics', { cookie })).statusCode).toBe(401);
    // A forged or altered cookie opens nothing.
    const [expires] = cookie.split('=')[1].split('.');
    const forged = `podprofit_board=${Number(expires) + 60}.${'A'.repeat(43)}`;
    expect((await get(gw, `${BULL_BOARD_PATH}/api/queues`, { cookie: forged })).statusCode).toBe(401);
    // Signing out clears it.
    const logout = await get(gw, `${BULL_BOARD_PATH}/logout`, { cookie });
    expect(logout.statusCode).toBe(303);
    expect(String(logout.headers['set-cookie'])).toMatch(/^podprofit_board=;.*Expires=Thu, 01 Jan 1970/);
  });

  it('refuses changes from another site, even with the board cookie; allows them from its own page and to a bearer script', async () => {
    const cookie = boardCookieOf(await get(retrying, `${BULL_BOARD_PATH}/`, { ...bearer, accept: 'text/html' })).split(
      ';',
    )[0];
    // Promoting every delayed job of a queue: a change the retry mode allows.
    const promote = (headers: Record<string, string>) =>
      retrying.app.inject({ method: 'PUT', url: `${BULL_BOARD_PATH}/api/queues/fx-rate/promote`, headers });
    const crossSiteHeaders: Array<Record<string, string>> = [
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site', origin: ORIGIN },
      { 'sec-fetch-site': 'same-site' },
      {},
    ];
    for (const crossSite of crossSiteHeaders) {
      const response = await promote({ cookie, ...crossSite });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ code: 'forbidden_origin' });
    }
    const loginFromElsewhere = await gw.app.inject({
      method: 'POST',
      url: `${BULL_BOARD_PATH}/login`,
      headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
      payload: `token=${TEST_OPERATOR_TOKEN}`,
    });
    expect(loginFromElsewhere.statusCode).toBe(403);
    const ours = await promote({ cookie, ...fromBoardPage });
    expect(ours.statusCode).toBe(200);
    const script = await promote(bearer);
    expect(script.statusCode).toBe(200);
  });

  it('takes urlencoded bodies at the sign-in form only', async () => {
    const cookie = boardCookieOf(await get(retrying, `${BULL_BOARD_PATH}/`, { ...bearer, accept: 'text/html' })).split(
      ';',
    )[0];
    const response = await retrying.app.inject({
      method: 'PUT',
      url: `${BULL_BOARD_PATH}/api/queues/fx-rate/promote`,
      headers: { cookie, ...fromBoardPage, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'name=ping',
    });
    expect(response.statusCode).toBe(415);
  });
});
