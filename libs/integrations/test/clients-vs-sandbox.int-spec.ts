import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import Redis from 'ioredis';
import {
  createPkcePair,
  EtsyClient,
  PrintifyClient,
  randomState,
  RateLimitedError,
  ReauthRequiredError,
  RedirectRefusedError,
  RedisRateLimiter,
  type EtsyAuth,
  type EtsyReceipt,
  type EtsyTokenSet,
  type PrintifyOrder,
} from '@pod/integrations';
import { captureLogger } from './support/fake-fetch';

/**
 * The real clients against the sandbox (services/sandbox), run as its own process from the
 * build (`dist/services/sandbox/src/main.js`, or SANDBOX_ENTRY): a full OAuth grant through
 * the sandbox's admin API, then getMe → getShop → receipt pages → payments → ledger windows,
 * and Printify shops → order pages; then the fault knobs (429, 5xx, malformed JSON, hang,
 * redirect, expired and revoked tokens, exhausted quota). The shared limiter runs on the
 * local Redis under a fresh prefix. No code is shared with the sandbox: it is only spoken to.
 */
const ROOT = resolve(__dirname, '../../..');
const ENTRY = process.env.SANDBOX_ENTRY ?? resolve(ROOT, 'dist/services/sandbox/src/main.js');
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

const KEYSTRING = 'podprofit-int-keystring';
const SHARED_SECRET = `secret${randomBytes(8).toString('hex')}`;
const ADMIN_TOKEN = `admin-${randomBytes(8).toString('hex')}`;
const REDIRECT_URI = 'https://app.example.test/api/connections/etsy/callback';
const prefix = `podtest_sbx_${randomBytes(6).toString('hex')}`;

let sandbox: ChildProcess | undefined;
let baseUrl = '';
let redis: Redis;
let limiter: RedisRateLimiter;
const capture = captureLogger();

async function startSandbox(): Promise<string> {
  if (!existsSync(ENTRY)) throw new Error(`the sandbox is not built (${ENTRY}): run npm run build`);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    NODE_PATH: resolve(ROOT, 'node_modules'),
    SANDBOX_HOST: '127.0.0.1',
    SANDBOX_PORT: '0',
    SANDBOX_DEFAULT_TENANT: 'false',
    SANDBOX_ADMIN_TOKEN: ADMIN_TOKEN,
    SANDBOX_ETSY_KEYSTRING: KEYSTRING,
    SANDBOX_ETSY_SHARED_SECRET: SHARED_SECRET,
    SANDBOX_ETSY_REDIRECT_URIS: REDIRECT_URI,
  };
  const child = spawn(process.execPath, [ENTRY], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  sandbox = child;
  return new Promise<string>((resolvePromise, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`the sandbox did not start in 20 s:\n${out}\n${err}`)), 20_000);
    child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /sandbox listening on (http:\/\/[^"\s]+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolvePromise(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the sandbox exited with ${code}:\n${out}\n${err}`));
    });
  });
}

async function admin<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${baseUrl}/__sandbox${path}`, {
    method,
    headers: {
      authorization: `Bearer ${ADMIN_TOKEN}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`sandbox admin ${method} ${path}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

interface TenantInfo {
  tenantId: string;
  etsy: { userId: number | string; shopId: number | string; shopName: string; currency: string };
  printify: { token: string; accountId: number | string; shops: { id: number | string; title: string }[] };
  orders: number;
}

interface LoggedRequest {
  seq: number;
  timestampMs: number;
  target: string;
  path: string;
  status: number | null;
  fault: string | null;
}

function etsyClient() {
  return new EtsyClient(
    {
      apiUrl: baseUrl,
      connectUrl: `${baseUrl}/oauth/connect`,
      keystring: KEYSTRING,
      sharedSecret: SHARED_SECRET,
      redirectUri: REDIRECT_URI,
      timeouts: { headersMs: 1_000, bodyMs: 5_000 },
      retry: { baseDelayMs: 100, maxDelayMs: 1_000 },
    },
    { limiter, logger: capture.logger },
  );
}

function printifyClient() {
  return new PrintifyClient(
    { apiUrl: baseUrl, timeouts: { headersMs: 1_000, bodyMs: 5_000 }, retry: { baseDelayMs: 100, maxDelayMs: 1_000 } },
    { limiter, logger: capture.logger },
  );
}

/** A token provider as the connections library would be: it refreshes and keeps the newest tokens. */
function tokenHolder(
  client: EtsyClient,
  initial: EtsyTokenSet,
  connectionKey: string,
): EtsyAuth & { tokens: EtsyTokenSet; refreshes: number } {
  const holder = {
    connectionKey,
    tokens: initial,
    refreshes: 0,
    getAccessToken: async () => holder.tokens.accessToken,
    refreshAfterUnauthorized: async () => {
      holder.refreshes += 1;
      holder.tokens = await client.refreshTokens(holder.tokens.refreshToken);
      return holder.tokens.accessToken;
    },
  };
  return holder;
}

// No skip guard: the sandbox is part of this repository, so a missing build fails (startSandbox).
describe('Etsy and Printify clients against the sandbox', () => {
  let tenant: TenantInfo;
  let etsy: EtsyClient;
  let auth: ReturnType<typeof tokenHolder>;
  const receipts: EtsyReceipt[] = [];

  beforeAll(async () => {
    baseUrl = await startSandbox();
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    limiter = new RedisRateLimiter({ redis, keyPrefix: prefix });
    tenant = await admin<TenantInfo>('POST', '/tenants', {
      id: `int-${randomBytes(4).toString('hex')}`,
      months: 3,
      ordersPerMonth: 80,
      printifyShops: 1,
    });
    etsy = etsyClient();
  }, 30_000);

  afterAll(async () => {
    if (sandbox && sandbox.exitCode === null) {
      const exited = new Promise((r) => sandbox?.once('exit', r));
      sandbox.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, 5_000)))]);
      clearTimeout(timer);
      if (sandbox.exitCode === null) sandbox.kill('SIGKILL');
    }
    if (redis) {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
        if (keys.length) await redis.del(...keys);
        cursor = next;
      } while (cursor !== '0');
      await redis.quit();
    }
  });

  it('completes the OAuth grant: consent URL → admin grant → code exchange', async () => {
    const { verifier, challenge } = createPkcePair();
    const state = randomState();
    const consent = new URL(etsy.authorizationUrl({ state, codeChallenge: challenge }));
    expect(consent.origin).toBe(baseUrl);
    const p = Object.fromEntries(consent.searchParams);
    const granted = await admin<{ code: string; state: string; redirectUrl: string }>(
      'POST',
      `/tenants/${tenant.tenantId}/grant`,
      {
        clientId: p.client_id,
        redirectUri: p.redirect_uri,
        scope: p.scope,
        state: p.state,
        codeChallenge: p.code_challenge,
        codeChallengeMethod: p.code_challenge_method,
      },
    );
    expect(granted.state).toBe(state);
    const tokens = await etsy.exchangeCode({ code: granted.code, codeVerifier: verifier });
    expect(tokens.etsyUserId).toBe(String(tenant.etsy.userId));
    expect(tokens.accessTokenExpiresAt.getTime()).toBeGreaterThan(Date.now());
    auth = tokenHolder(etsy, tokens, `conn-${tenant.tenantId}`);
    // A code works once.
    await expect(etsy.exchangeCode({ code: granted.code, codeVerifier: verifier })).rejects.toBeInstanceOf(
      ReauthRequiredError,
    );
  });

  it('finds the shop: getMe → getShop', async () => {
    const me = await etsy.getMe(auth);
    expect(me).toEqual({ userId: String(tenant.etsy.userId), shopId: String(tenant.etsy.shopId) });
    const shop = await etsy.getShop(auth, me.shopId as string);
    expect(shop).toMatchObject({
      shopId: String(tenant.etsy.shopId),
      name: tenant.etsy.shopName,
      currency: tenant.etsy.currency,
    });
  });

  it('pages through every receipt with none rejected', async () => {
    let count = Infinity;
    for (let offset = 0; offset < count; offset += 100) {
      const page = await etsy.listReceipts(auth, String(tenant.etsy.shopId), {
        limit: 100,
        offset,
        sortOn: 'created',
        sortOrder: 'asc',
      });
      count = page.count;
      expect(page.rejected).toEqual([]);
      receipts.push(...page.receipts);
      if (page.receipts.length === 0) break;
    }
    expect(receipts.length).toBe(count);
    expect(new Set(receipts.map((r) => r.receiptId)).size).toBe(receipts.length);
    for (const r of receipts) {
      expect(r.status).toBe(r.status.toLowerCase());
      expect(Number.isSafeInteger(r.grandtotal.amountMinor)).toBe(true);
      expect(r.grandtotal.currency).toBe(tenant.etsy.currency);
    }
  }, 60_000);

  it('reads payments of shipped receipts and walks the ledger in 31-day windows', async () => {
    const shipped = receipts.filter((r) => r.isShipped).slice(0, 5);
    expect(shipped.length).toBeGreaterThan(0);
    for (const receipt of shipped) {
      const payments = await etsy.listReceiptPayments(auth, String(tenant.etsy.shopId), receipt.receiptId);
      for (const payment of payments) expect(payment.receiptId).toBe(receipt.receiptId);
    }
    const first = Math.min(...receipts.map((r) => r.createdAt.getTime() / 1000));
    const last = Date.now() / 1000;
    const entries: Array<{ ledgerType: string; referenceId: string | null }> = [];
    for (let from = Math.floor(first); from < last; from += 2_678_400) {
      for (let offset = 0; ; offset += 100) {
        const page = await etsy.listLedgerEntries(auth, String(tenant.etsy.shopId), {
          minCreated: from,
          maxCreated: from + 2_678_400,
          limit: 100,
          offset,
        });
        expect(page.rejected).toEqual([]);
        entries.push(...page.entries);
        if (offset + 100 >= page.count) break;
      }
    }
    expect(entries.length).toBeGreaterThan(0);
    // a.7: reference_id is "string, null" (the sandbox sends numbers, digit strings and nulls).
    expect(entries.some((e) => e.referenceId === null && e.ledgerType === 'prolist')).toBe(true);
    expect(entries.filter((e) => e.referenceId !== null).every((e) => /^\d+$/.test(e.referenceId as string))).toBe(
      true,
    );
  }, 60_000);

  it('lists Printify shops and pages through every order', async () => {
    const printify = printifyClient();
    const pauth = { token: tenant.printify.token, accountKey: String(tenant.printify.accountId) };
    const shops = await printify.listShops(pauth);
    expect(shops.map((s) => s.id)).toEqual(tenant.printify.shops.map((s) => String(s.id)));
    const orders: PrintifyOrder[] = [];
    let pages = 0;
    for (let page = 1; ; page += 1) {
      const result = await printify.listOrders(pauth, shops[0].id, { page });
      pages += 1;
      expect(result.rejected).toEqual([]);
      orders.push(...result.orders);
      if (!result.hasNextPage) break;
      expect(pages).toBeLessThan(1_000);
    }
    expect(orders.length).toBeGreaterThan(0);
    expect(new Set(orders.map((o) => o.id)).size).toBe(orders.length);
    const receiptIds = new Set(receipts.map((r) => r.receiptId));
    const linked = orders.filter((o) => o.shopOrderId !== null && receiptIds.has(o.shopOrderId));
    expect(linked.length).toBeGreaterThan(orders.length / 2);
    const one = await printify.getOrder(pauth, shops[0].id, orders[0].id);
    expect(one.id).toBe(orders[0].id);
    await expect(printify.listShops({ token: 'not-a-token', accountKey: 'x' })).rejects.toMatchObject({
      name: 'AuthError',
    });
  }, 60_000);

  // integrations.md b.4: "The orders examples in the docs show only `current_page` and `data`.
  // Read the other fields defensively and stop when `data` is empty or `current_page >= last_page`."
  it('pages Printify orders sent with only current_page and data, and stops at the end', async () => {
    const printify = printifyClient();
    const body = { months: 2, ordersPerMonth: 75, printifyShops: 1, seed: 'minimal-envelope' };
    const minimal = await admin<TenantInfo>('POST', '/tenants', {
      ...body,
      id: `int-min-${randomBytes(4).toString('hex')}`,
      printifyEnvelope: 'minimal',
    });
    const full = await admin<TenantInfo>('POST', '/tenants', {
      ...body,
      id: `int-full-${randomBytes(4).toString('hex')}`,
    });
    const everyOrder = async (t: TenantInfo) => {
      const pauth = { token: t.printify.token, accountKey: String(t.printify.accountId) };
      const ids: string[] = [];
      for (let page = 1; page < 100; page += 1) {
        const result = await printify.listOrders(pauth, String(t.printify.shops[0].id), { page });
        expect(result.rejected).toEqual([]);
        ids.push(...result.orders.map((o) => o.id));
        if (!result.hasNextPage) return { ids, pages: page, last: result };
      }
      throw new Error('the client never stopped paging');
    };
    const expected = await everyOrder(full);
    const got = await everyOrder(minimal);
    expect(got.last.lastPage).toBeNull();
    expect(got.last.total).toBeNull();
    expect(got.ids.length).toBe(expected.ids.length);
    expect(new Set(got.ids).size).toBe(got.ids.length);
    // At most one page more than the full envelope needs: the empty page that ends it.
    expect(got.pages).toBeLessThanOrEqual(expected.pages + 1);
    const { requests } = await admin<{ requests: LoggedRequest[] }>('GET', `/requests?tenantId=${minimal.tenantId}`);
    expect(requests.filter((r) => r.target === 'printify' && r.status !== 200)).toEqual([]);
  }, 60_000);

  it('stayed within the sandbox limits: no 429 it did not inject', async () => {
    const log = await admin<{ requests: LoggedRequest[] }>('GET', `/requests?tenantId=${tenant.tenantId}`);
    expect(log.requests.length).toBeGreaterThan(5);
    expect(log.requests.filter((r) => r.status === 429 && !r.fault)).toEqual([]);
  });

  it('recovers from injected 429, 5xx, malformed JSON and a hang; refuses a redirect', async () => {
    const me = '/v3/application/users/me';
    const fault = (kind: string, extra: Record<string, unknown> = {}) =>
      admin('POST', '/faults', {
        target: 'etsy',
        kind,
        match: { pathPrefix: me, tenantId: tenant.tenantId },
        ...extra,
      });
    const { requests: before } = await admin<{ requests: LoggedRequest[] }>(
      'GET',
      `/requests?tenantId=${tenant.tenantId}`,
    );
    const afterSeq = before.at(-1)?.seq ?? 0;

    await fault('429', { retryAfterSeconds: 1 });
    await fault('5xx');
    await fault('malformed-json');
    await fault('hang');
    const started = Date.now();
    await expect(etsy.getMe(auth)).resolves.toMatchObject({ userId: String(tenant.etsy.userId) });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    const { requests } = await admin<{ requests: LoggedRequest[] }>(
      'GET',
      `/requests?tenantId=${tenant.tenantId}&afterSeq=${afterSeq}`,
    );
    const calls = requests.filter((r) => r.path.startsWith(me));
    // 429 → (1 s) → 503 → bad JSON → hang (aborted after 1 s) → 200: five attempts in all.
    expect(
      calls
        .map((r) => r.fault)
        .filter(Boolean)
        .slice(0, 3),
    ).toEqual(['429', '5xx', 'malformed-json']);
    expect(calls.at(-1)?.status).toBe(200);
    expect(calls.length).toBeLessThanOrEqual(5);
    expect(calls[1].timestampMs - calls[0].timestampMs).toBeGreaterThanOrEqual(1_000);

    await fault('redirect', { location: 'https://evil.example/steal' });
    await expect(etsy.getMe(auth)).rejects.toBeInstanceOf(RedirectRefusedError);
  }, 60_000);

  it('refreshes once after an expired access token; a revoked grant needs reauthorization', async () => {
    await admin('POST', '/faults', {
      target: 'etsy',
      kind: 'expire-access-token',
      match: { tenantId: tenant.tenantId },
    });
    const refreshesBefore = auth.refreshes;
    const oldRefresh = auth.tokens.refreshToken;
    await expect(etsy.getMe(auth)).resolves.toMatchObject({ shopId: String(tenant.etsy.shopId) });
    expect(auth.refreshes).toBe(refreshesBefore + 1);
    expect(auth.tokens.refreshToken).not.toBe(oldRefresh);
    await expect(etsy.refreshTokens(oldRefresh)).rejects.toBeInstanceOf(ReauthRequiredError);

    await admin('POST', '/faults', {
      target: 'etsy',
      kind: 'revoke-refresh-token',
      match: { tenantId: tenant.tenantId },
    });
    await expect(etsy.refreshTokens(auth.tokens.refreshToken)).rejects.toBeInstanceOf(ReauthRequiredError);
  });

  it('parks the connection on an exhausted daily quota: one request, then fail-fast', async () => {
    await admin('POST', '/faults', {
      target: 'etsy',
      kind: 'quota-exhausted',
      retryAfterSeconds: 3600,
      match: { tenantId: tenant.tenantId },
    });
    const { requests: before } = await admin<{ requests: LoggedRequest[] }>(
      'GET',
      `/requests?tenantId=${tenant.tenantId}`,
    );
    const afterSeq = before.at(-1)?.seq ?? 0;
    const error = await etsy.getShop(auth, String(tenant.etsy.shopId)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ scope: 'day', retryAfterMs: 3_600_000 });
    await expect(etsy.getMe(auth)).rejects.toMatchObject({ scope: 'day' });
    const { requests } = await admin<{ requests: LoggedRequest[] }>(
      'GET',
      `/requests?tenantId=${tenant.tenantId}&afterSeq=${afterSeq}`,
    );
    expect(requests.filter((r) => r.target === 'etsy')).toHaveLength(1);
  });

  it('never logged a token, code, secret or query string', () => {
    const all = capture.lines.join('\n');
    expect(capture.lines.length).toBeGreaterThan(10);
    for (const secret of [SHARED_SECRET, auth.tokens.accessToken, auth.tokens.refreshToken, tenant.printify.token, '?'])
      expect(all).not.toContain(secret);
  });
});
