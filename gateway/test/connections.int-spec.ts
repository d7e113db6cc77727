import { execFileSync } from 'node:child_process';
import Redis from 'ioredis';
import { Client } from 'pg';
import { PRINTIFY_SHOPS, PRINTIFY_TOKENS, ProviderStub, STUB_SHARED_SECRET } from '@pod/testing';
import { GatewayTestBed, ORIGIN, SAME_ORIGIN, login, register, sessionCookie, uniqueEmail, STRONG_PASSWORD, type TestGateway } from './support/test-gateway';

const REDIRECT_URI = `${ORIGIN}/api/connections/etsy/callback`;
const bed = new GatewayTestBed();
const stub = new ProviderStub();
let gw: TestGateway;
let replica: TestGateway;
/** Every response body the tests saw (no token may ever appear in one). */
const bodies: string[] = [];

beforeAll(async () => {
  await stub.start();
  await bed.setUp();
  gw = await bed.start(stub.env(REDIRECT_URI));
  replica = await bed.start(stub.env(REDIRECT_URI));
}, 60_000);
afterAll(async () => {
  await bed.tearDown();
  await stub.stop();
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

const callbackUrl = (query: Record<string, string>) => `/api/connections/etsy/callback?${new URLSearchParams(query).toString()}`;

async function connectEtsy(cookie: string) {
  const { code, state } = stub.consent(await startOAuth(cookie));
  const response = await get(callbackUrl({ code, state }), cookie);
  expect(response.headers.location).toBe('/connections?etsy=connected');
}

async function query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: bed.database.url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

describe('Etsy OAuth 2.0 + PKCE (item 22)', () => {
  it('round trip: consent URL, state bound to the session, PKCE verified by the provider, shop stored with encrypted tokens', async () => {
    const { cookie } = await newSeller('oauth');
    const authUrl = new URL(await startOAuth(cookie));
    expect(`${authUrl.origin}${authUrl.pathname}`).toBe(`${stub.baseUrl}/etsy/oauth/connect`);
    const params = Object.fromEntries(authUrl.searchParams);
    expect(params).toMatchObject({
      response_type: 'code',
      client_id: 'stub-keystring',
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

    const before = stub.tokenRequests();
    const { code, state } = stub.consent(authUrl.toString());
    const callback = await get(callbackUrl({ code, state, returnTo: 'https://evil.example/' }), cookie);
    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toBe('/connections?etsy=connected');
    expect(callback.headers['referrer-policy']).toBe('no-referrer');
    expect(callback.body).toBe('');
    expect(stub.tokenRequests()).toBe(before + 1);

    const status = (await get('/api/connections/status', cookie)).json();
    expect(status.etsy).toMatchObject({ connected: true, status: 'connected', needsReconnect: false, shopName: 'SunsetTeeCo', lastSync: null });
    expect(status.mode).toBe('live');
    const [row] = await query<{ access_token_enc: string; refresh_token_enc: string; shop_currency: string; external_account_id: string }>(
      "SELECT * FROM provider_connection WHERE provider = 'etsy' ORDER BY connected_at DESC LIMIT 1",
    );
    expect(row.access_token_enc).toMatch(/^v1\./);
    expect(row.refresh_token_enc).toMatch(/^v1\./);
    expect(row.shop_currency).toBe('USD');
  });

  it('refuses a replayed state with 400 and makes no token request', async () => {
    const { cookie } = await newSeller('replay');
    const { code, state } = stub.consent(await startOAuth(cookie));
    expect((await get(callbackUrl({ code, state }), cookie)).statusCode).toBe(302);
    const before = stub.tokenRequests();
    const replay = await get(callbackUrl({ code, state }), cookie);
    expect(replay.statusCode).toBe(400);
    expect(replay.headers['content-type']).toMatch(/^text\/html/);
    expect(replay.body).toContain('already used');
    expect(replay.body).toContain('href="/connections"');
    expect(replay.body).not.toMatch(/https?:\/\//);
    expect(replay.headers['referrer-policy']).toBe('no-referrer');
    expect(stub.tokenRequests()).toBe(before);
  });

  it('refuses missing, unknown, expired, signed-out and other-session states with 400 and no token request', async () => {
    const a = await newSeller('states-a');
    const b = await newSeller('states-b');
    const aSecondSession = sessionCookie(await login(gw.app, a.email, STRONG_PASSWORD));
    const { code, state } = stub.consent(await startOAuth(a.cookie));
    const before = stub.tokenRequests();
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
    expect(stub.tokenRequests()).toBe(before);
    // None of those consumed it: its own session still finishes.
    expect((await get(callbackUrl({ code, state }), a.cookie)).headers.location).toBe('/connections?etsy=connected');

    const late = stub.consent(await startOAuth(a.cookie));
    await query(`UPDATE oauth_state SET expires_at = now() - interval '1 second' WHERE consumed_at IS NULL`);
    const beforeExpired = stub.tokenRequests();
    const expired = await get(callbackUrl(late), a.cookie);
    expect(expired.statusCode).toBe(400);
    expect(expired.body).toContain('expired');
    expect(stub.tokenRequests()).toBe(beforeExpired);
  });

  it('finishes on another gateway replica (state lives in PostgreSQL)', async () => {
    const { cookie } = await newSeller('replica');
    const { code, state } = stub.consent(await startOAuth(cookie, gw.app));
    const response = await get(callbackUrl({ code, state }), cookie, replica.app);
    expect(response.headers.location).toBe('/connections?etsy=connected');
  });

  it('sends a seller who denied access back with etsy=denied, without a token request; a state is single use either way', async () => {
    const { cookie } = await newSeller('denied');
    const state = new URL(await startOAuth(cookie)).searchParams.get('state') ?? '';
    const before = stub.tokenRequests();
    const denied = await get(callbackUrl({ state, error: 'access_denied', error_description: 'The user denied the request' }), cookie);
    expect(denied.statusCode).toBe(302);
    expect(denied.headers.location).toBe('/connections?etsy=denied');
    expect(stub.tokenRequests()).toBe(before);
    expect((await get(callbackUrl({ state, code: 'abc' }), cookie)).statusCode).toBe(400);
    expect((await get('/api/connections/status', cookie)).json().etsy.connected).toBe(false);
  });

  it('sends the seller back with etsy=error when Etsy refuses the code (a verifier that does not match)', async () => {
    const { cookie } = await newSeller('pkce');
    const first = await startOAuth(cookie);
    const second = await startOAuth(cookie);
    // A code issued for the second authorization's challenge, presented with the first's state.
    const { code } = stub.consent(second);
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
    [{}, 'Please enter your Printify API token'],
    [{ token: '' }, 'Please enter your Printify API token'],
    [{ token: '   ' }, 'Please enter your Printify API token'],
    [{ token: 42 }, 'Please enter your Printify API token'],
    [{ token: 'not-a-real-token' }, 'Invalid Printify API token. Please check and try again.'],
    [{ token: PRINTIFY_TOKENS.noShops }, 'Invalid Printify API token. Please check and try again.'],
    [{ token: PRINTIFY_TOKENS.valid, extra: 1 }, 'property extra should not exist'],
  ])('validate refuses %j with 400', async (payload, message) => {
    const { cookie } = await newSeller('pv');
    const response = await post('/api/connections/printify/validate', cookie, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ statusCode: 400, error: 'Bad Request', message });
  });

  it('validate answers the shops of a good token (trimmed)', async () => {
    const { cookie } = await newSeller('pv-ok');
    const response = await post('/api/connections/printify/validate', cookie, { token: `  ${PRINTIFY_TOKENS.valid}\n` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ shops: PRINTIFY_SHOPS.map((s) => ({ id: String(s.id), title: s.title, sales_channel: s.sales_channel })) });
  });

  it.each([
    [{ token: PRINTIFY_TOKENS.valid }, 'Please select a shop'],
    [{ token: PRINTIFY_TOKENS.valid, shopId: '' }, 'Please select a shop'],
    [{ token: PRINTIFY_TOKENS.valid, shopId: 'abc' }, 'Please select a shop'],
    [{ token: PRINTIFY_TOKENS.valid, shopId: 999 }, 'Please select a shop'],
    [{ token: PRINTIFY_TOKENS.other, shopId: PRINTIFY_SHOPS[0].id }, 'Please select a shop'],
    [{ token: 'bad-token', shopId: PRINTIFY_SHOPS[0].id }, 'Invalid Printify API token. Please check and try again.'],
    [{ token: PRINTIFY_TOKENS.valid, shopId: PRINTIFY_SHOPS[0].id, syncFromDate: '2099-01-01' }, 'The sync start date cannot be in the future'],
    [{ token: PRINTIFY_TOKENS.valid, shopId: PRINTIFY_SHOPS[0].id, syncFromDate: '2025-02-30' }, 'Please enter a valid sync start date'],
    [{ token: PRINTIFY_TOKENS.valid, shopId: PRINTIFY_SHOPS[0].id, syncFromDate: '01/02/2025' }, 'Please enter the sync start date as YYYY-MM-DD'],
  ])('connect refuses %j with 400', async (payload, message) => {
    const { cookie } = await newSeller('pc');
    const response = await post('/api/connections/printify', cookie, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
    expect((await get('/api/connections/status', cookie)).json().printify.connected).toBe(false);
  });

  it('connects with a shop of the token and an optional start date, then lists the shops live', async () => {
    const { cookie } = await newSeller('pc-ok');
    const response = await post('/api/connections/printify', cookie, { token: PRINTIFY_TOKENS.valid, shopId: PRINTIFY_SHOPS[0].id, syncFromDate: '2025-01-15' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true, shop: { id: String(PRINTIFY_SHOPS[0].id), title: 'Sunset Tees', sales_channel: 'etsy' } });
    const status = (await get('/api/connections/status', cookie)).json();
    expect(status.printify).toMatchObject({
      connected: true,
      status: 'connected',
      shopTitle: 'Sunset Tees',
      salesChannel: 'etsy',
      syncFrom: '2025-01-15',
      lastSync: null,
      tokenExpiresSoon: false,
    });
    expect(new Date(status.printify.tokenExpiresAt).getTime()).toBeGreaterThan(Date.now() + 360 * 24 * 3600 * 1000);
    const shops = await get('/api/printify/shops', cookie);
    expect(shops.statusCode).toBe(200);
    expect(shops.json()).toEqual(PRINTIFY_SHOPS.map((s) => ({ id: String(s.id), title: s.title, sales_channel: s.sales_channel })));
    // An empty date means "sync all orders".
    await post('/api/connections/printify', cookie, { token: PRINTIFY_TOKENS.valid, shopId: String(PRINTIFY_SHOPS[1].id), syncFromDate: '' });
    expect((await get('/api/connections/status', cookie)).json().printify).toMatchObject({ shopTitle: 'Back Office', syncFrom: null });
  });

  it('answers 503 with a clear message when Printify does not answer', async () => {
    const { cookie } = await newSeller('pv-down');
    stub.printifyFailure = 503;
    try {
      const response = await post('/api/connections/printify/validate', cookie, { token: PRINTIFY_TOKENS.valid });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ statusCode: 503, error: 'Service Unavailable', message: 'Printify did not answer. Please try again.' });
    } finally {
      stub.printifyFailure = null;
    }
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
    await post('/api/connections/printify', cookie, { token: PRINTIFY_TOKENS.valid, shopId: PRINTIFY_SHOPS[0].id });
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
    await post('/api/connections/printify', a.cookie, { token: PRINTIFY_TOKENS.valid, shopId: PRINTIFY_SHOPS[0].id });
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
      expect([url, (await gw.app.inject({ method, url, headers: method === 'GET' ? {} : SAME_ORIGIN })).statusCode]).toEqual([url, 401]);
    }
    const { cookie } = await newSeller('csrf');
    const crossSite = await gw.app.inject({
      method: 'DELETE',
      url: '/api/connections/all',
      headers: { cookie, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' },
    });
    expect(crossSite.statusCode).toBe(403);
  });
});

describe('tokens never readable outside their ciphertext (items 26, 28)', () => {
  it('appear in no pg_dump, Redis key or value, log line or response', async () => {
    const { cookie } = await newSeller('leak');
    await connectEtsy(cookie);
    await post('/api/connections/printify', cookie, { token: PRINTIFY_TOKENS.valid, shopId: PRINTIFY_SHOPS[0].id });
    const secrets = [...stub.issuedTokens, PRINTIFY_TOKENS.valid, STUB_SHARED_SECRET];
    expect(secrets.length).toBeGreaterThan(3);

    const dump = execFileSync('pg_dump', ['--data-only', bed.database.url], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
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
