import { execFileSync } from 'node:child_process';
import Redis from 'ioredis';
import { createDataSource } from '@pod/db';
import { createEtsyTokenService } from '@pod/connections';
import { TokenCipher } from '@pod/crypto';
import { EtsyClient } from '@pod/integrations';
import { InMemoryRateLimiter } from '@pod/testing/oracles';
import { queryDatabase, TEST_APP_SECRET } from '@pod/testing';
import { SandboxProviders, type SandboxTenant } from './support/sandbox-providers';
import {
  GatewayTestBed,
  ORIGIN,
  SAME_ORIGIN,
  login,
  register,
  sessionCookie,
  uniqueEmail,
  STRONG_PASSWORD,
  type TestGateway,
} from './support/test-gateway';

const REDIRECT_URI = `${ORIGIN}/api/connections/etsy/callback`;
const bed = new GatewayTestBed();
const sandbox = new SandboxProviders();
/** The sandbox seller the tests connect: its Etsy shop and its Printify account (three shops). */
let seller: SandboxTenant;
/** Another Printify account (a token that does not see the seller's shops). */
let otherAccount: SandboxTenant;
const shopsView = () =>
  seller.printify.shops.map((s) => ({ id: String(s.id), title: s.title, sales_channel: s.sales_channel }));
let gw: TestGateway;
let replica: TestGateway;
/** Every response body the tests saw (no token may ever appear in one). */
const bodies: string[] = [];

beforeAll(async () => {
  await sandbox.start(REDIRECT_URI);
  seller = await sandbox.newTenant(3);
  sandbox.consentTenant = seller.tenantId;
  otherAccount = await sandbox.newTenant(1);
  await bed.setUp();
  gw = await bed.start(sandbox.env(REDIRECT_URI));
  replica = await bed.start(sandbox.env(REDIRECT_URI));
}, 60_000);
afterAll(async () => {
  await bed.tearDown();
  await sandbox.stop();
});

type App = TestGateway['app'];
async function call(app: App, method: 'GET' | 'POST' | 'DELETE', url: string, cookie?: string, payload?: unknown) {
  const headers: Record<string, string> = method === 'GET' ? {} : { ...SAME_ORIGIN };
  if (cookie) headers.cookie = cookie;
  const response = await app.inject({ method, url, headers, payload: payload as object });
  bodies.push(response.body);
  return response;
}
const get = (url: string, cookie?: string, app = gw.app) => call(app, 'GET', url, cookie);
const post = (url: string, cookie: string, payload?: unknown, app = gw.app) => call(app, 'POST', url, cookie, payload);
const del = (url: string, cookie: string, app = gw.app) => call(app, 'DELETE', url, cookie);

async function newSeller(label: string): Promise<{ email: string; cookie: string }> {
  const email = uniqueEmail(label);
  return { email, cookie: sessionCookie(await register(gw.app, email)) };
}

async function startOAuth(cookie: string, app = gw.app) {
  const response = await post('/api/connections/etsy/oauth', cookie, undefined, app);
  expect(response.statusCode).toBe(200);
  return response.json().authUrl as string;
}

const callbackUrl = (query: Record<string, string>) =>
  `/api/connections/etsy/callback?${new URLSearchParams(query).toString()}`;

async function connectEtsy(cookie: string) {
  const { code, state } = await sandbox.consent(await startOAuth(cookie));
  const response = await get(callbackUrl({ code, state }), cookie);
  expect(response.headers.location).toBe('/connections?etsy=connected');
}

const query = <T>(sql: string, params: unknown[] = []) => queryDatabase<T>(bed.database.url, sql, params);

describe('Etsy OAuth 2.0 + PKCE (item 22)', () => {
  it('round trip: consent URL, state bound to the session, PKCE verified by the sandbox, shop stored with encrypted tokens', async () => {
    const { cookie } = await newSeller('oauth');
    const authUrl = new URL(await startOAuth(cookie));
    // The sandbox listens on loopback: browsers reach its consent page through the gateway.
    expect(`${authUrl.origin}${authUrl.pathname}`).toBe(`${new URL(REDIRECT_URI).origin}/sandbox/oauth/connect`);
    const params = Object.fromEntries(authUrl.searchParams);
    expect(params).toMatchObject({
      response_type: 'code',
      client_id: 'sandbox-keystring',
      redirect_uri: REDIRECT_URI,
      scope: 'transactions_r shops_r',
      code_challenge_method: 'S256',
    });
    expect(params.state).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    expect(params.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only the state's hash is stored; the verifier is encrypted.
    const [stored] = await query<{ state_hash: string; code_verifier_enc: string; expires_at: Date; created_at: Date }>(
      'SELECT * FROM oauth_state ORDER BY created_at DESC LIMIT 1',
    );
    expect(stored.state_hash).not.toBe(params.state);
    expect(stored.code_verifier_enc).toMatch(/^v1\./);
    expect(stored.expires_at.getTime() - stored.created_at.getTime()).toBe(10 * 60 * 1000);

    const before = await sandbox.tokenRequests();
    const { code, state } = await sandbox.consent(authUrl.toString());
    const callback = await get(callbackUrl({ code, state, returnTo: 'https://evil.example/' }), cookie);
    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toBe('/connections?etsy=connected');
    expect(callback.headers['referrer-policy']).toBe('no-referrer');
    expect(callback.body).toBe('');
    expect(await sandbox.tokenRequests()).toBe(before + 1);

    const status = (await get('/api/connections/status', cookie)).json();
    expect(status.etsy).toMatchObject({
      connected: true,
      status: 'connected',
      needsReconnect: false,
      shopName: seller.etsy.shopName,
      lastSync: null,
    });
    expect(status.etsy.shopId).toBe(String(seller.etsy.shopId));
    expect(status.mode).toBe('sandbox');
    const [row] = await query<{
      access_token_enc: string;
      refresh_token_enc: string;
      shop_currency: string;
      external_account_id: string;
    }>("SELECT * FROM provider_connection WHERE provider = 'etsy' ORDER BY connected_at DESC LIMIT 1");
    expect(row.access_token_enc).toMatch(/^v1\./);
    expect(row.refresh_token_enc).toMatch(/^v1\./);
    expect(row.shop_currency).toBe(seller.etsy.currency);
    expect(row.external_account_id).toBe(String(seller.etsy.userId));
  });

  it('refuses a replayed state with 400 and makes no token request', async () => {
    const { cookie } = await newSeller('replay');
    const { code, state } = await sandbox.consent(await startOAuth(cookie));
    expect((await get(callbackUrl({ code, state }), cookie)).statusCode).toBe(302);
    const before = await sandbox.tokenRequests();
    const replay = await get(callbackUrl({ code, state }), cookie);
    expect(replay.statusCode).toBe(400);
    expect(replay.headers['content-type']).toMatch(/^text\/html/);
    expect(replay.body).toContain('already used');
    expect(replay.body).toContain('href="/connections"');
    expect(replay.body).not.toMatch(/https?:\/\//);
    expect(replay.headers['referrer-policy']).toBe('no-referrer');
    expect(await sandbox.tokenRequests()).toBe(before);
  });

  it('refuses missing, unknown, expired, signed-out and other-session states with 400 and no token request', async () => {
    const a = await newSeller('states-a');
    const b = await newSeller('states-b');
    const aSecondSession = sessionCookie(await login(gw.app, a.email, STRONG_PASSWORD));
    const { code, state } = await sandbox.consent(await startOAuth(a.cookie));
    const before = await sandbox.tokenRequests();
    const cases: Array<[string, string, string | undefined, string]> = [
      ['missing', callbackUrl({ code }), a.cookie, 'incomplete'],
      ['unknown', callbackUrl({ code, state: 'x'.repeat(43) }), a.cookie, 'not valid'],
      ['array', `${callbackUrl({ code, state })}&state=${state}`, a.cookie, 'incomplete'],
      ['signed out', callbackUrl({ code, state }), undefined, 'sign in'],
      ['other user', callbackUrl({ code, state }), b.cookie, 'another session'],
      ['other session of the same user', callbackUrl({ code, state }), aSecondSession, 'another session'],
    ];
    for (const [label, url, cookie, text] of cases) {
      const response = await get(url, cookie);
      expect([label, response.statusCode]).toEqual([label, 400]);
      expect(response.body).toContain(text);
    }
    expect(await sandbox.tokenRequests()).toBe(before);
    // None of those consumed it: its own session still finishes.
    expect((await get(callbackUrl({ code, state }), a.cookie)).headers.location).toBe('/connections?etsy=connected');

    const late = await sandbox.consent(await startOAuth(a.cookie));
    await query(`UPDATE oauth_state SET expires_at = now() - interval '1 second' WHERE consumed_at IS NULL`);
    const beforeExpired = await sandbox.tokenRequests();
    const expired = await get(callbackUrl(late), a.cookie);
    expect(expired.statusCode).toBe(400);
    expect(expired.body).toContain('expired');
    expect(await sandbox.tokenRequests()).toBe(beforeExpired);
  });

  it('finishes on another gateway replica (state lives in PostgreSQL)', async () => {
    const { cookie } = await newSeller('replica');
    const { code, state } = await sandbox.consent(await startOAuth(cookie, gw.app));
    const response = await get(callbackUrl({ code, state }), cookie, replica.app);
    expect(response.headers.location).toBe('/connections?etsy=connected');
  });

  it('sends a seller who denied access back with etsy=denied, without a token request; a state is single use either way', async () => {
    const { cookie } = await newSeller('denied');
    const state = new URL(await startOAuth(cookie)).searchParams.get('state') ?? '';
    const before = await sandbox.tokenRequests();
    const denied = await get(
      callbackUrl({ state, error: 'access_denied', error_description: 'The user denied the request' }),
      cookie,
    );
    expect(denied.statusCode).toBe(302);
    expect(denied.headers.location).toBe('/connections?etsy=denied');
    expect(await sandbox.tokenRequests()).toBe(before);
    expect((await get(callbackUrl({ state, code: 'abc' }), cookie)).statusCode).toBe(400);
    expect((await get('/api/connections/status', cookie)).json().etsy.connected).toBe(false);
  });

  it('sends the seller back with etsy=error when Etsy refuses the code (a verifier that does not match)', async () => {
    const { cookie } = await newSeller('pkce');
    const first = await startOAuth(cookie);
    const second = await startOAuth(cookie);
    // A code issued for the second authorization's challenge, presented with the first's state.
    const { code } = await sandbox.consent(second);
    const state = new URL(first).searchParams.get('state') ?? '';
    const response = await get(callbackUrl({ code, state }), cookie);
    expect(response.headers.location).toBe('/connections?etsy=error&reason=exchange');
    expect((await get('/api/connections/status', cookie)).json().etsy.connected).toBe(false);
  });

  it('needs a signed-in session to start', async () => {
    const response = await gw.app.inject({ method: 'POST', url: '/api/connections/etsy/oauth', headers: SAME_ORIGIN });
    expect(response.statusCode).toBe(401);
  });
});

describe('Printify by personal access token', () => {
  it.each([
    [{}, 'Please enter your Printify API token', 'validation_failed', 'token'],
    [{ token: '' }, 'Please enter your Printify API token', 'validation_failed', 'token'],
    [{ token: '   ' }, 'Please enter your Printify API token', 'validation_failed', 'token'],
    [{ token: 42 }, 'Please enter your Printify API token', 'validation_failed', 'token'],
    [
      { token: 'not-a-real-token' },
      'Invalid Printify API token. Please check and try again.',
      'printify_token_invalid',
      undefined,
    ],
    [{ token: 'any-token', extra: 1 }, 'property extra should not exist', 'validation_failed', 'extra'],
  ])('validate refuses %j with 400', async (payload, message, code, field) => {
    const { cookie } = await newSeller('pv');
    const response = await post('/api/connections/printify/validate', cookie, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message,
      code,
      ...(field ? { field } : {}),
    });
  });

  it('validate answers the shops of a good token (trimmed)', async () => {
    const { cookie } = await newSeller('pv-ok');
    const response = await post('/api/connections/printify/validate', cookie, {
      token: `  ${seller.printify.token}\n`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ shops: shopsView() });
  });

  it('limits token checks per user (20 per 10 minutes), so validate cannot test stolen tokens in bulk', async () => {
    const { cookie } = await newSeller('pv-limit');
    const statuses: number[] = [];
    for (let i = 0; i < 21; i += 1)
      statuses.push((await post('/api/connections/printify/validate', cookie, { token: `guess-${i}` })).statusCode);
    expect(statuses.slice(0, 20).every((status) => status === 400)).toBe(true);
    expect(statuses[20]).toBe(429);
    // Another seller is not affected.
    const other = await newSeller('pv-limit-other');
    expect(
      (await post('/api/connections/printify/validate', other.cookie, { token: seller.printify.token })).statusCode,
    ).toBe(200);
  });

  // Payloads are built lazily: the sandbox's tokens and shops exist only once it has started.
  const valid = () => seller.printify.token;
  const shop = (i = 0) => seller.printify.shops[i].id;
  it.each<[string, () => Record<string, unknown>, string]>([
    ['no shop', () => ({ token: valid() }), 'Please select a shop'],
    ['an empty shop', () => ({ token: valid(), shopId: '' }), 'Please select a shop'],
    ['a non-numeric shop', () => ({ token: valid(), shopId: 'abc' }), 'Please select a shop'],
    ['a shop the token does not see', () => ({ token: valid(), shopId: 999 }), 'Please select a shop'],
    ["another account's token", () => ({ token: otherAccount.printify.token, shopId: shop() }), 'Please select a shop'],
    [
      'a refused token',
      () => ({ token: 'bad-token', shopId: shop() }),
      'Invalid Printify API token. Please check and try again.',
    ],
    [
      'a future date',
      () => ({ token: valid(), shopId: shop(), syncFromDate: '2099-01-01' }),
      'The sync start date cannot be in the future',
    ],
    [
      'an impossible date',
      () => ({ token: valid(), shopId: shop(), syncFromDate: '2025-02-30' }),
      'Please enter a valid sync start date',
    ],
    [
      'a date in another format',
      () => ({ token: valid(), shopId: shop(), syncFromDate: '01/02/2025' }),
      'Please enter the sync start date as YYYY-MM-DD',
    ],
  ])('connect refuses %s with 400', async (_label, payload, message) => {
    const { cookie } = await newSeller('pc');
    const response = await post('/api/connections/printify', cookie, payload());
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
    expect((await get('/api/connections/status', cookie)).json().printify.connected).toBe(false);
  });

  it('connects with a shop of the token and an optional start date, then lists the shops live', async () => {
    const { cookie } = await newSeller('pc-ok');
    const first = seller.printify.shops[0];
    const response = await post('/api/connections/printify', cookie, {
      token: valid(),
      shopId: first.id,
      syncFromDate: '2025-01-15',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      ok: true,
      shop: { id: String(first.id), title: first.title, sales_channel: first.sales_channel },
    });
    const status = (await get('/api/connections/status', cookie)).json();
    expect(status.printify).toMatchObject({
      connected: true,
      status: 'connected',
      shopTitle: first.title,
      shopId: String(first.id),
      salesChannel: first.sales_channel,
      syncFrom: '2025-01-15',
      lastSync: null,
      tokenExpiresSoon: false,
      // WEBHOOK_PUBLIC_URL is unset here: webhooks are off.
      webhookStatus: null,
    });
    expect(new Date(status.printify.tokenExpiresAt).getTime()).toBeGreaterThan(Date.now() + 360 * 24 * 3600 * 1000);
    const shops = await get('/api/printify/shops', cookie);
    expect(shops.statusCode).toBe(200);
    expect(shops.json()).toEqual(shopsView());
    // An empty date means "sync all orders".
    const second = seller.printify.shops[1];
    await post('/api/connections/printify', cookie, { token: valid(), shopId: String(second.id), syncFromDate: '' });
    expect((await get('/api/connections/status', cookie)).json().printify).toMatchObject({
      shopTitle: second.title,
      syncFrom: null,
    });
  });

  it('answers 503 with a clear message when Printify does not answer', async () => {
    const { cookie } = await newSeller('pv-down');
    await sandbox.fault({ target: 'printify', kind: '5xx', status: 503, count: 10 });
    try {
      const response = await post('/api/connections/printify/validate', cookie, { token: valid() });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({
        statusCode: 503,
        error: 'Service Unavailable',
        message: 'Printify did not answer. Please try again.',
        code: 'provider_unavailable',
      });
    } finally {
      await sandbox.clearFaults();
    }
  });

  it('marks a stored token Printify no longer accepts as expired, and asks to reconnect', async () => {
    const { cookie } = await newSeller('pc-expired');
    const tenant = await sandbox.newTenant(1);
    await post('/api/connections/printify', cookie, {
      token: tenant.printify.token,
      shopId: tenant.printify.shops[0].id,
    });
    await sandbox.fault({ target: 'printify', kind: 'expire-access-token', match: { tenantId: tenant.tenantId } });
    const shops = await get('/api/printify/shops', cookie);
    expect(shops.statusCode).toBe(409);
    expect(shops.json().message).toBe('Your Printify token is no longer valid. Please reconnect Printify.');
    expect((await get('/api/connections/status', cookie)).json().printify).toMatchObject({
      connected: false,
      status: 'expired',
      needsReconnect: true,
    });
  });

  it('GET /api/printify/shops is 404 without a connection', async () => {
    const { cookie } = await newSeller('shops-none');
    const response = await get('/api/printify/shops', cookie);
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe('Printify is not connected.');
  });
});

describe('disconnecting, and one seller never touching another (item 23)', () => {
  it('disconnects one service, then all; unknown services are 404', async () => {
    const { cookie } = await newSeller('disc');
    await connectEtsy(cookie);
    await post('/api/connections/printify', cookie, {
      token: seller.printify.token,
      shopId: seller.printify.shops[0].id,
    });
    expect((await del('/api/connections/shopify', cookie)).statusCode).toBe(404);
    expect((await del('/api/connections/etsy', cookie)).json()).toEqual({ ok: true });
    let status = (await get('/api/connections/status', cookie)).json();
    expect([status.etsy.connected, status.printify.connected]).toEqual([false, true]);
    await connectEtsy(cookie);
    expect((await del('/api/connections/all', cookie)).json()).toEqual({ ok: true });
    status = (await get('/api/connections/status', cookie)).json();
    expect([status.etsy.connected, status.printify.connected]).toEqual([false, false]);
    expect(status.etsy).toMatchObject({ shopName: null, status: null });
    // Idempotent.
    expect((await del('/api/connections/printify', cookie)).statusCode).toBe(200);
  });

  it("B sees none of A's connections, cannot list A's shops, and B's disconnects leave A's intact", async () => {
    const a = await newSeller('idor-a');
    const b = await newSeller('idor-b');
    await connectEtsy(a.cookie);
    await post('/api/connections/printify', a.cookie, {
      token: seller.printify.token,
      shopId: seller.printify.shops[0].id,
    });
    const bStatus = (await get('/api/connections/status', b.cookie)).json();
    expect([bStatus.etsy.connected, bStatus.printify.connected, bStatus.etsy.shopName]).toEqual([false, false, null]);
    expect((await get('/api/printify/shops', b.cookie)).statusCode).toBe(404);
    await del('/api/connections/etsy', b.cookie);
    await del('/api/connections/all', b.cookie);
    const aStatus = (await get('/api/connections/status', a.cookie)).json();
    expect([aStatus.etsy.connected, aStatus.printify.connected]).toEqual([true, true]);
  });

  it('every connection route needs a session and refuses cross-site writes', async () => {
    for (const [method, url] of [
      ['GET', '/api/connections/status'],
      ['GET', '/api/printify/shops'],
      ['POST', '/api/connections/printify/validate'],
      ['POST', '/api/connections/printify'],
      ['DELETE', '/api/connections/etsy'],
      ['DELETE', '/api/connections/all'],
    ] as const) {
      expect([
        url,
        (await gw.app.inject({ method, url, headers: method === 'GET' ? {} : SAME_ORIGIN })).statusCode,
      ]).toEqual([url, 401]);
    }
    const { cookie } = await newSeller('csrf');
    const crossSite = await gw.app.inject({
      method: 'DELETE',
      url: '/api/connections/all',
      headers: {
        cookie,
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
        'content-type': 'application/json',
      },
    });
    expect(crossSite.statusCode).toBe(403);
  });
});

describe('Etsy token refresh with the real client against the sandbox (item 15)', () => {
  it('10 calls from 3 processes after Etsy expired the access token: one refresh, all succeed, the rotated tokens stored', async () => {
    const { cookie } = await newSeller('refresh');
    await connectEtsy(cookie);
    const [row] = await query<{ id: string; user_id: string; token_version: number; refresh_token_enc: string }>(
      "SELECT id, user_id, token_version, refresh_token_enc FROM provider_connection WHERE provider = 'etsy' ORDER BY connected_at DESC LIMIT 1",
    );
    const cipher = TokenCipher.fromAppSecret(TEST_APP_SECRET);
    const oldRefresh = cipher.decrypt(row.refresh_token_enc, {
      userId: row.user_id,
      provider: 'etsy',
      purpose: 'refresh',
    });
    const etsy = new EtsyClient(
      {
        apiUrl: sandbox.url,
        keystring: 'sandbox-keystring',
        sharedSecret: 'sandbox-shared-secret',
        redirectUri: REDIRECT_URI,
        retry: { baseDelayMs: 10, maxDelayMs: 50 },
      },
      { limiter: new InMemoryRateLimiter() },
    );
    // Three "replicas", each with its own database pool and token service.
    const pools = await Promise.all(
      [0, 1, 2].map((i) =>
        createDataSource({ DATABASE_URL: bed.database.url, DATABASE_POOL_SIZE: 3 }, `replica-${i}`).initialize(),
      ),
    );
    try {
      const services = pools.map((dataSource) => createEtsyTokenService({ dataSource, cipher, etsy }));
      await sandbox.fault({ target: 'etsy', kind: 'expire-access-token', match: { tenantId: seller.tenantId } });
      const before = await sandbox.tokenRequests();
      // getMe needs the OAuth token (getShop needs only the app key).
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => etsy.getMe(services[i % 3].forConnection(row.user_id, row.id))),
      );
      expect(answers.map((me) => me.shopId)).toEqual(Array(10).fill(String(seller.etsy.shopId)));
      expect(await sandbox.tokenRequests()).toBe(before + 1);
      const [after] = await query<{ token_version: number; refresh_token_enc: string; status: string }>(
        'SELECT token_version, refresh_token_enc, status FROM provider_connection WHERE id = $1',
        [row.id],
      );
      expect(after.token_version).toBe(row.token_version + 1);
      expect(after.status).toBe('connected');
      expect(
        cipher.decrypt(after.refresh_token_enc, { userId: row.user_id, provider: 'etsy', purpose: 'refresh' }),
      ).not.toBe(oldRefresh);

      // A revoked grant (a password change on Etsy): reauth_required, the error surfaces, no more token calls.
      await sandbox.fault({ target: 'etsy', kind: 'revoke-refresh-token', match: { tenantId: seller.tenantId } });
      await sandbox.fault({ target: 'etsy', kind: 'expire-access-token', match: { tenantId: seller.tenantId } });
      const revoked = await Promise.allSettled(
        Array.from({ length: 4 }, (_, i) => etsy.getMe(services[i % 3].forConnection(row.user_id, row.id))),
      );
      expect(
        revoked.every((r) => r.status === 'rejected' && (r.reason as { code?: string }).code === 'reauth_required'),
      ).toBe(true);
      expect(await sandbox.tokenRequests()).toBe(before + 2);
      const status = (await get('/api/connections/status', cookie)).json();
      expect(status.etsy).toMatchObject({ connected: false, status: 'reauth_required', needsReconnect: true });
    } finally {
      await Promise.all(pools.map((pool) => pool.destroy()));
    }
  });
});

describe('tokens never readable outside their ciphertext (items 26, 28)', () => {
  it('appear in no pg_dump, Redis key or value, log line or response', async () => {
    const { cookie } = await newSeller('leak');
    await connectEtsy(cookie);
    await post('/api/connections/printify', cookie, {
      token: seller.printify.token,
      shopId: seller.printify.shops[0].id,
    });
    // Every token we hold, in the clear (decrypted here with the test key), plus the app's shared secret.
    const cipher = TokenCipher.fromAppSecret(TEST_APP_SECRET);
    const rows = await query<{
      user_id: string;
      provider: 'etsy' | 'printify';
      access_token_enc: string;
      refresh_token_enc: string | null;
    }>('SELECT user_id, provider, access_token_enc, refresh_token_enc FROM provider_connection');
    const secrets = new Set<string>(['sandbox-shared-secret', seller.printify.token, otherAccount.printify.token]);
    for (const row of rows) {
      secrets.add(
        cipher.decrypt(row.access_token_enc, { userId: row.user_id, provider: row.provider, purpose: 'access' }),
      );
      if (row.refresh_token_enc)
        secrets.add(
          cipher.decrypt(row.refresh_token_enc, { userId: row.user_id, provider: row.provider, purpose: 'refresh' }),
        );
    }
    expect(secrets.size).toBeGreaterThan(10);

    const dump = execFileSync('pg_dump', ['--data-only', bed.database.url], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(dump).toContain('provider_connection');

    const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    const redisText: string[] = [];
    try {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${bed.redisPrefix}*`, 'COUNT', 500);
        cursor = next;
        for (const key of keys) {
          redisText.push(key);
          const type = await redis.type(key);
          if (type === 'string') redisText.push((await redis.get(key)) ?? '');
          if (type === 'hash') redisText.push(JSON.stringify(await redis.hgetall(key)));
          if (type === 'list') redisText.push(...(await redis.lrange(key, 0, -1)));
          if (type === 'zset') redisText.push(...(await redis.zrange(key, 0, -1)));
        }
      } while (cursor !== '0');
    } finally {
      redis.disconnect();
    }

    const logs = [...gw.logs, ...replica.logs].join('\n');
    const haystacks = { dump, redis: redisText.join('\n'), logs, responses: bodies.join('\n') };
    for (const secret of secrets) {
      for (const [where, text] of Object.entries(haystacks)) {
        expect([where, text.includes(secret)]).toEqual([where, false]);
      }
    }
    // OAuth codes and states never reach a log line (the request log drops the query).
    expect(logs).not.toMatch(/code=|state=/);
  });
});
