import { createHash, randomBytes } from 'node:crypto';
import { freePort, spawnService, waitForHttp, type ServiceProcess } from '@pod/testing';
import type { TenantInfo, Tokens } from './support/kit';

/**
 * The built sandbox as its own process: the consent page driven with plain HTTP (no browser),
 * the token endpoint, a receipts page and a Printify orders page.
 */
describe('the sandbox process (dist/services/sandbox/src/main.js)', () => {
  const SCRIPT = 'dist/services/sandbox/src/main.js';
  const ADMIN_TOKEN = 'process-test-admin';
  const REDIRECT_URI = 'http://localhost:5999/api/connections/etsy/callback';
  let sandbox: ServiceProcess;
  let base: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    sandbox = spawnService('sandbox', SCRIPT, {
      SANDBOX_PORT: String(port),
      SANDBOX_ADMIN_TOKEN: ADMIN_TOKEN,
      SANDBOX_ETSY_REDIRECT_URIS: REDIRECT_URI,
      SANDBOX_SEED: 'process-test',
    });
    await waitForHttp(`${base}/__sandbox/healthz`, { process: sandbox, timeoutMs: 20_000 });
  }, 30_000);

  afterAll(async () => {
    const exit = await sandbox.stop('SIGTERM');
    expect(exit.code).toBe(0);
  });

  it('connects through the consent page, then serves receipts and Printify orders', async () => {
    expect(sandbox.logs()).toContain(`sandbox listening on ${base}`);
    const created = await fetch(`${base}/__sandbox/tenants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ months: 3, ordersPerMonth: 150, shopCurrency: 'EUR', printifyShops: 2 }),
    });
    expect(created.status).toBe(201);
    const tenant = (await created.json()) as TenantInfo;

    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const state = randomBytes(16).toString('hex');
    const connect = new URL(`${base}/oauth/connect`);
    for (const [k, v] of Object.entries({
      response_type: 'code',
      client_id: 'sandbox-keystring',
      redirect_uri: REDIRECT_URI,
      scope: 'transactions_r shops_r',
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }))
      connect.searchParams.set(k, v);
    const page = await fetch(connect, { headers: { 'x-sandbox-tenant': tenant.tenantId } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).toContain(tenant.etsy.loginName);
    const action = /<form method="post" action="([^"]+)">/.exec(html)?.[1] as string;
    const fields = new URLSearchParams();
    for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
      fields.set(
        m[1],
        m[2]
          .replace(/&amp;/g, '&')
          .replace(/&quot;/g, '"')
          .replace(/&#39;/g, "'"),
      );
    fields.set('decision', 'allow');
    const decision = await fetch(new URL(action, connect), { method: 'POST', body: fields, redirect: 'manual' });
    expect(decision.status).toBe(302);
    const callback = new URL(decision.headers.get('location') as string);
    expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT_URI);
    expect(callback.searchParams.get('state')).toBe(state);

    const token = await fetch(`${base}/v3/public/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: 'sandbox-keystring',
        redirect_uri: REDIRECT_URI,
        code: callback.searchParams.get('code') as string,
        code_verifier: verifier,
      }),
    });
    expect(token.status).toBe(200);
    const tokens = (await token.json()) as Tokens;
    expect(tokens.expires_in).toBe(3600);

    const headers = {
      'x-api-key': 'sandbox-keystring:sandbox-shared-secret',
      authorization: `Bearer ${tokens.access_token}`,
    };
    const me = (await (await fetch(`${base}/v3/application/users/me`, { headers })).json()) as {
      user_id: number;
      shop_id: number;
    };
    expect(me).toEqual({ user_id: tenant.etsy.userId, shop_id: tenant.etsy.shopId });
    const receipts = await fetch(
      `${base}/v3/application/shops/${me.shop_id}/receipts?limit=100&sort_on=created&sort_order=asc`,
      { headers },
    );
    expect(receipts.status).toBe(200);
    expect(receipts.headers.get('x-limit-per-second')).toBe('10');
    expect(receipts.headers.get('x-remaining-this-second')).toBeTruthy();
    const body = (await receipts.json()) as {
      count: number;
      results: Array<{ grandtotal: { currency_code: string } }>;
    };
    expect(body.count).toBe(450);
    expect(body.results).toHaveLength(100);
    expect(body.results[0].grandtotal.currency_code).toBe('EUR');

    const orders = await fetch(`${base}/v1/shops/${tenant.printify.shops[0].id}/orders.json?page=2`, {
      headers: { authorization: `Bearer ${tenant.printify.token}`, 'user-agent': 'podprofit-process-test' },
    });
    expect(orders.status).toBe(200);
    const envelope = (await orders.json()) as { data: unknown[] };
    expect(envelope).toMatchObject({ current_page: 2, per_page: 10, prev_page_url: '/?page=1' });
    expect(envelope.data).toHaveLength(10);

    const log = (await (
      await fetch(`${base}/__sandbox/requests?tenantId=${tenant.tenantId}`, {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      })
    ).json()) as { requests: unknown[] };
    expect(log.requests.length).toBeGreaterThanOrEqual(4);
    expect(JSON.stringify(log)).not.toContain(tokens.access_token);
    expect(JSON.stringify(log)).not.toContain(state);
  }, 30_000);

  it('refuses to start when real Etsy credentials are configured', async () => {
    const live = spawnService('sandbox-live', SCRIPT, {
      SANDBOX_PORT: String(await freePort()),
      ETSY_API_KEY: 'realkeystring123',
      ETSY_SHARED_SECRET: 'real-secret',
    });
    const exit = await live.exited;
    expect(exit.code).toBe(1);
    expect(live.logs()).toContain('real Etsy credentials are configured');
  }, 15_000);
});
