import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { API_ERROR_CODES, type ApiErrorBody } from '@pod/contracts';
import { TEST_OPERATOR_TOKEN } from '@pod/testing';
import {
  GatewayTestBed,
  ORIGIN,
  SAME_ORIGIN,
  register,
  sessionCookie,
  uniqueEmail,
  type TestGateway,
} from './support/test-gateway';

/**
 * Every error body the gateway sends carries a `code` from @pod/contracts' one list. The routes
 * are enumerated as Nest registers them, and each is sent the requests that go wrong in
 * ordinary life: signed out, from another site, with an unknown field, with a body that is not
 * JSON or not JSON-typed, with a route parameter that names nothing, as an operator without the
 * token; then the framework's own refusals (unknown route, bad URL, too large, too deep).
 */
const bed = new GatewayTestBed();
let gw: TestGateway;
const routes: Array<{ method: string; url: string }> = [];
const seen: Array<{ request: string; status: number; body: ApiErrorBody }> = [];

beforeAll(async () => {
  await bed.setUp();
  gw = await bed.start({}, (app: NestFastifyApplication) => {
    app
      .getHttpAdapter()
      .getInstance()
      .addHook('onRoute', (route) => {
        for (const method of [route.method].flat())
          if (method !== 'HEAD' && method !== 'OPTIONS') routes.push({ method, url: route.url });
      });
  });
});
afterAll(() => bed.tearDown());

type Inject = Parameters<NestFastifyApplication['inject']>[0] & object;
type AnyRequest = Omit<Inject, 'method' | 'url'> & { method: string; url: string };

/** Pages a browser navigates to (OAuth returns, the sandbox's consent page): they answer HTML, by design. */
const BROWSER_PAGES = [/^\/api\/connections\/etsy\/callback\b/, /^\/sandbox\/oauth\//];

/** Sends one request; any answer of 400 or more must be a JSON error body with a known code. */
async function expectCodedError(request: AnyRequest): Promise<void> {
  const response = await gw.app.inject(request as Inject);
  if (response.statusCode < 400) return;
  if (
    BROWSER_PAGES.some((page) => page.test(request.url)) &&
    String(response.headers['content-type']).startsWith('text/html')
  )
    return;
  const label = `${request.method} ${request.url} → ${response.statusCode}`;
  expect({ label, type: String(response.headers['content-type']) }).toEqual({
    label,
    type: expect.stringMatching(/^application\/json/),
  });
  const body = response.json<ApiErrorBody>();
  expect({ label, body }).toEqual({
    label,
    body: expect.objectContaining({
      statusCode: response.statusCode,
      error: expect.any(String),
      message: expect.any(String),
      code: expect.any(String),
    }),
  });
  expect({ label, known: (API_ERROR_CODES as readonly string[]).includes(body.code) }).toEqual({ label, known: true });
  seen.push({ request: label, status: response.statusCode, body });
}

/** A concrete URL for a route pattern: a real queue (so a job name is checked), every other parameter names nothing. */
const concrete = (url: string) =>
  url
    .replace(':queue', 'matcher')
    .replace(/:[A-Za-z_]+/g, 'nothing-here')
    .replace(/\*$/, 'nothing-here');

describe('every error body carries a code from API_ERROR_CODES', () => {
  it('found the routes', () => {
    expect(routes.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining([
        'POST /api/auth/login',
        'GET /api/connections/status',
        'POST /api/admin/queues/:queue/jobs',
      ]),
    );
  });

  it('on every route, for the ordinary ways a request goes wrong', async () => {
    const signedIn = sessionCookie(await register(gw.app, uniqueEmail('codes')));
    // Logging out ends the session the later requests use: it goes last.
    const ordered = [...routes].sort((a, b) => Number(a.url.endsWith('/logout')) - Number(b.url.endsWith('/logout')));
    for (const { method, url: pattern } of ordered) {
      const url = concrete(pattern);
      const withBody = method !== 'GET' && method !== 'DELETE';
      await expectCodedError({
        method,
        url,
        headers: SAME_ORIGIN,
        ...(withBody ? { payload: '{"unexpected":1}' } : {}),
      });
      await expectCodedError({
        method,
        url,
        headers: { ...SAME_ORIGIN, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site', cookie: signedIn },
      });
      await expectCodedError({
        method,
        url,
        headers: { ...SAME_ORIGIN, cookie: signedIn },
        ...(withBody ? { payload: '{"unexpected":1}' } : {}),
      });
      await expectCodedError({
        method,
        url,
        headers: { ...SAME_ORIGIN, authorization: 'Bearer wrong', cookie: signedIn },
        payload: '{"name":',
      });
      await expectCodedError({
        method,
        url,
        headers: { ...SAME_ORIGIN, 'content-type': 'text/plain', cookie: signedIn },
        payload: 'text',
      });
      await expectCodedError({
        method,
        url,
        headers: { ...SAME_ORIGIN, authorization: `Bearer ${TEST_OPERATOR_TOKEN}` },
        ...(withBody ? { payload: '{"name":"no-such-job"}' } : {}),
      });
    }
    const codes = new Set(seen.map((s) => s.body.code));
    // The requests above must really have gone wrong in these ways, or the test proves little.
    expect([...codes].sort()).toEqual(
      expect.arrayContaining([
        'body_not_json',
        'forbidden_origin',
        'not_found',
        'operator_credential_required',
        'unauthenticated',
        'unknown_job_name',
        'unsupported_media_type',
        'validation_failed',
      ]),
    );
  });

  it.each([
    ['an unknown route', { method: 'GET', url: '/api/no-such-route' }, 'not_found'],
    ['a malformed URL', { method: 'GET', url: '/api/%c0%ae' }, 'bad_url'],
    [
      'a route parameter past its length',
      { method: 'DELETE', url: `/api/connections/${'x'.repeat(600)}` },
      'url_too_long',
    ],
    [
      'a body past the limit',
      { method: 'POST', url: '/api/auth/login', headers: SAME_ORIGIN, payload: `{"email":"${'a'.repeat(2_000_000)}"}` },
      'body_too_large',
    ],
    [
      'a body nested too deeply',
      { method: 'POST', url: '/api/auth/login', headers: SAME_ORIGIN, payload: `${'['.repeat(200)}${']'.repeat(200)}` },
      'body_too_complex',
    ],
    [
      'wrong credentials',
      {
        method: 'POST',
        url: '/api/auth/login',
        headers: SAME_ORIGIN,
        payload: { email: 'nobody@example.com', password: 'wrong-password' },
      },
      'invalid_credentials',
    ],
  ] as const)('for %s', async (_label, request, code) => {
    await expectCodedError({
      ...request,
      headers: { ...('headers' in request ? request.headers : {}), origin: ORIGIN },
    } as AnyRequest);
    expect(seen.at(-1)?.body.code).toBe(code);
  });

  it('names the field of a sign-up refusal', async () => {
    const email = uniqueEmail('taken');
    await register(gw.app, email);
    const response = await register(gw.app, email);
    expect(response.json()).toEqual({
      statusCode: 409,
      error: 'Conflict',
      message: 'An account with this email already exists',
      code: 'conflict_email_taken',
      field: 'email',
    });
  });
});
