import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { Queue, type Job } from 'bullmq';
import { loadConfig } from '@pod/config';
import { TokenCipher } from '@pod/crypto';
import { tokenContext } from '@pod/db';
import { bullConnection, bullPrefix } from '@pod/queue';
import { queryDatabase, TEST_APP_SECRET } from '@pod/testing';
import { SandboxProviders, type SandboxTenant } from './support/sandbox-providers';
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
 * Provider webhooks end to end: the gateway listens on a real port, the sandbox (in this process)
 * posts to it over HTTP. Printify subscriptions are made on connect and removed on disconnect;
 * deliveries from the sandbox's mutations API arrive signed and become exactly one refresh job
 * each (inspected in BullMQ under this run's prefix); forged, stale, replayed, malformed and
 * misaddressed deliveries get their own answers, always JSON in our error shape; no secret,
 * signature or key reaches the logs.
 */
const REDIRECT_URI = `${ORIGIN}/api/connections/etsy/callback`;
const ETSY_SECRET = `whsec_${Buffer.from('etsy-portal-secret-for-gateway-tests').toString('base64')}`;
const bed = new GatewayTestBed();
const sandbox = new SandboxProviders();
const cipher = TokenCipher.fromAppSecret(TEST_APP_SECRET);
let gw: TestGateway;
let base: string;
let printifyQueue: Queue;
let etsyQueue: Queue;
/** Every webhook secret and key this run stored: none may reach a log line. */
const secretsSeen: string[] = [];

/** A free loopback port for the gateway, known before it starts (WEBHOOK_PUBLIC_URL names it). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  await sandbox.start(REDIRECT_URI, { webhookTimeScale: 0.001 });
  await bed.setUp();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  gw = await bed.start({ ...sandbox.env(REDIRECT_URI), WEBHOOK_PUBLIC_URL: base, ETSY_WEBHOOK_SECRET: ETSY_SECRET });
  await gw.app.listen({ port, host: '127.0.0.1' });
  const config = loadConfig({ REDIS_PREFIX: bed.redisPrefix });
  printifyQueue = new Queue('printify-sync', {
    connection: bullConnection(config, 'producer'),
    prefix: bullPrefix(config),
  });
  etsyQueue = new Queue('etsy-sync', { connection: bullConnection(config, 'producer'), prefix: bullPrefix(config) });
}, 60_000);
afterAll(async () => {
  await Promise.all([printifyQueue?.close(), etsyQueue?.close()]);
  await bed.tearDown();
  await sandbox.stop();
});

const sql = <T>(text: string, params: unknown[] = []) => queryDatabase<T>(bed.database.url, text, params);
const post = (url: string, cookie: string, payload?: unknown) =>
  gw.app.inject({ method: 'POST', url, headers: { ...SAME_ORIGIN, cookie }, payload: payload as object });

async function jobs(queue: Queue, name: string): Promise<Job[]> {
  return (await queue.getJobs(['waiting', 'delayed', 'active', 'prioritized', 'paused', 'completed', 'failed'])).filter(
    (job) => job.name === name,
  );
}

interface Delivery {
  provider: string;
  event: string;
  deliveryId: string;
  status: number | null;
  outcome: string;
}
async function deliveriesOf(tenantId: string): Promise<Delivery[]> {
  return (await sandbox.admin<{ deliveries: Delivery[] }>('GET', `/webhook-deliveries?tenantId=${tenantId}`))
    .deliveries;
}
/** Waits until the sandbox has finished `count` deliveries of the tenant (delivered or not). */
async function settled(tenantId: string, count: number, timeoutMs = 10_000): Promise<Delivery[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const done = (await deliveriesOf(tenantId)).filter((d) => d.outcome !== 'failed');
    if (done.length >= count || Date.now() > until) return done;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

interface Seller {
  cookie: string;
  userId: string;
  tenant: SandboxTenant;
  shopId: number;
}
async function sellerWithPrintify(label: string): Promise<Seller> {
  const tenant = await sandbox.newTenant(2);
  const cookie = sessionCookie(await register(gw.app, uniqueEmail(label)));
  const shopId = tenant.printify.shops[0].id;
  expect(
    (await post('/api/connections/printify', cookie, { token: tenant.printify.token, shopId: String(shopId) }))
      .statusCode,
  ).toBe(200);
  const [{ user_id: userId }] = await sql<{ user_id: string }>(
    `SELECT user_id FROM provider_connection WHERE provider = 'printify' AND shop_id = $1`,
    [String(shopId)],
  );
  return { cookie, userId, tenant, shopId };
}

/** The connection's webhook key and (decrypted) secret, as the gateway stored them. */
async function webhookOf(userId: string): Promise<{ key: string; secret: string; status: string }> {
  const [row] = await sql<{ webhook_key: string; webhook_secret_enc: string; webhook_status: string }>(
    `SELECT webhook_key, webhook_secret_enc, webhook_status FROM provider_connection WHERE user_id = $1 AND provider = 'printify'`,
    [userId],
  );
  const secret = cipher.decrypt(row.webhook_secret_enc, tokenContext(userId, 'printify', 'webhook'));
  secretsSeen.push(secret, row.webhook_key);
  return { key: row.webhook_key, secret, status: row.webhook_status };
}

const expectErrorShape = (
  response: { statusCode: number; headers: Record<string, unknown>; json: () => unknown },
  status: number,
  code: string,
) => {
  expect(response.statusCode).toBe(status);
  expect(String(response.headers['content-type'])).toMatch(/^application\/json/);
  expect(response.json()).toEqual({ statusCode: status, error: expect.any(String), message: expect.any(String), code });
};

describe('Printify', () => {
  let seller: Seller;
  let hook: { key: string; secret: string; status: string };

  beforeAll(async () => {
    seller = await sellerWithPrintify('pfy-hooks');
    hook = await webhookOf(seller.userId);
  });

  it("subscribes the five order topics on connect, with a secret, to the connection's own URL", async () => {
    expect(hook.status).toBe('registered');
    expect(hook.key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(hook.secret).toMatch(/^[0-9a-f]{40}$/);
    const { webhooks } = await sandbox.admin<{
      webhooks: Array<{ topic: string; url: string; shop_id: number; secretSet: boolean }>;
    }>('GET', `/tenants/${seller.tenant.tenantId}/printify-webhooks`);
    expect(webhooks.map((w) => w.topic).sort()).toEqual([
      'order:created',
      'order:sent-to-production',
      'order:shipment:created',
      'order:shipment:delivered',
      'order:updated',
    ]);
    expect(
      webhooks.every(
        (w) => w.url === `${base}/api/webhooks/printify/${hook.key}` && w.secretSet && w.shop_id === seller.shopId,
      ),
    ).toBe(true);
    const [raw] = await sql<{ webhook_secret_enc: string }>(
      `SELECT webhook_secret_enc FROM provider_connection WHERE user_id = $1 AND provider = 'printify'`,
      [seller.userId],
    );
    expect(raw.webhook_secret_enc).not.toContain(hook.secret);
    // The Connections page shows it.
    const status = await gw.app.inject({
      method: 'GET',
      url: '/api/connections/status',
      headers: { cookie: seller.cookie },
    });
    expect(status.json().printify).toMatchObject({ connected: true, webhookStatus: 'registered' });
  });

  it('turns each signed delivery from the sandbox into exactly one refresh-order job', async () => {
    const before = (await jobs(printifyQueue, 'refresh-order')).length;
    const inserted = await sandbox.admin<{ inserted: number[] }>(
      'POST',
      `/tenants/${seller.tenant.tenantId}/mutations`,
      { insert: 5, unpaid: true, printify: true },
    );
    // Paying them brings their Printify orders: one order:created each (digital-only orders have none).
    const paid = await sandbox.admin<{ deliveries: number }>('POST', `/tenants/${seller.tenant.tenantId}/mutations`, {
      update: { receiptIds: inserted.inserted, change: 'pay' },
    });
    expect(paid.deliveries).toBeGreaterThan(0);
    const done = await settled(seller.tenant.tenantId, paid.deliveries);
    expect(done.map((d) => [d.event, d.status, d.outcome])).toEqual(
      Array.from({ length: paid.deliveries }, () => ['order:created', 200, 'delivered']),
    );
    const all = await jobs(printifyQueue, 'refresh-order');
    expect(all.length - before).toBe(paid.deliveries);
    for (const job of all)
      expect(job.data).toEqual({
        userId: seller.userId,
        shopId: String(seller.shopId),
        orderId: expect.stringMatching(/^[0-9a-f]{24}$/),
      });
    expect(new Set(all.map((job) => job.data.orderId)).size).toBe(all.length);
  });

  it('acknowledges a replayed delivery (200) without a second job, and refuses forged, malformed and misaddressed ones', async () => {
    const orderId = 'ab'.repeat(12);
    const body = JSON.stringify({
      id: randomUUID(),
      type: 'order:updated',
      created_at: new Date().toISOString().slice(0, 19).replace('T', ' ') + '+00:00',
      resource: { id: orderId, type: 'order', data: { shop_id: seller.shopId, status: 'canceled' } },
    });
    const signature = `sha256=${createHmac('sha256', hook.secret).update(body).digest('hex')}`;
    const deliver = (payload: string, headers: Record<string, string> = {}, key = hook.key) =>
      gw.app.inject({
        method: 'POST',
        url: `/api/webhooks/printify/${key}`,
        headers: { 'content-type': 'application/json', 'x-pfy-signature': signature, ...headers },
        payload,
      });
    const forOrder = async () =>
      (await jobs(printifyQueue, 'refresh-order')).filter((job) => job.data.orderId === orderId);

    const first = await deliver(body);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ received: true, outcome: 'enqueued' });
    const replay = await deliver(body);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual({ received: true, outcome: 'duplicate' });
    expect(await forOrder()).toHaveLength(1);

    const forged = body.replace('canceled', 'fulfilled');
    expectErrorShape(await deliver(forged), 401, 'webhook_signature_invalid');
    expectErrorShape(await deliver(forged, { 'x-pfy-signature': '' }), 401, 'webhook_signature_invalid');
    const junk = '{"id":"x","type":';
    expectErrorShape(
      await deliver(junk, {
        'x-pfy-signature': `sha256=${createHmac('sha256', hook.secret).update(junk).digest('hex')}`,
      }),
      400,
      'webhook_payload_invalid',
    );
    expectErrorShape(await deliver(body, {}, 'A'.repeat(43)), 404, 'not_found');
    expectErrorShape(await deliver(`{"pad":"${'x'.repeat(70 * 1024)}"}`), 413, 'body_too_large');
    expectErrorShape(await deliver(body, { 'content-type': 'text/plain' }), 415, 'unsupported_media_type');
    expect(await forOrder()).toHaveLength(1);
  });

  it('takes deliveries from any origin, since the signature authenticates them, while other writes still need ours', async () => {
    const body = JSON.stringify({
      id: randomUUID(),
      type: 'order:updated',
      resource: { id: 'cd'.repeat(12), type: 'order', data: { shop_id: seller.shopId, status: 'fulfilled' } },
    });
    const response = await gw.app.inject({
      method: 'POST',
      url: `/api/webhooks/printify/${hook.key}`,
      headers: {
        'content-type': 'application/json',
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
        'x-pfy-signature': `sha256=${createHmac('sha256', hook.secret).update(body).digest('hex')}`,
      },
      payload: body,
    });
    expect(response.json()).toEqual({ received: true, outcome: 'enqueued' });
    // Every other write still needs our origin.
    expect(
      (
        await gw.app.inject({
          method: 'POST',
          url: '/api/sync/printify',
          headers: { 'content-type': 'application/json', origin: 'https://evil.example', cookie: seller.cookie },
          payload: '{}',
        })
      ).statusCode,
    ).toBe(403);
  });

  it('a connect whose subscriptions fail still connects (status failed), and a disconnect removes them', async () => {
    // A second gateway whose public URL the sandbox refuses to post to: the subscriptions fail.
    const replica = await bed.start({
      ...sandbox.env(REDIRECT_URI),
      WEBHOOK_PUBLIC_URL: 'https://unreachable.example',
    });
    const tenant = await sandbox.newTenant(1);
    const cookie = sessionCookie(await register(replica.app, uniqueEmail('pfy-fail')));
    const connected = await replica.app.inject({
      method: 'POST',
      url: '/api/connections/printify',
      headers: { ...SAME_ORIGIN, cookie },
      payload: { token: tenant.printify.token, shopId: String(tenant.printify.shops[0].id) },
    });
    expect(connected.statusCode).toBe(200);
    const [row] = await sql<{ webhook_status: string }>(
      `SELECT c.webhook_status FROM provider_connection c WHERE c.shop_id = $1`,
      [String(tenant.printify.shops[0].id)],
    );
    expect(row.webhook_status).toBe('failed');
    const status = await replica.app.inject({ method: 'GET', url: '/api/connections/status', headers: { cookie } });
    expect(status.json().printify).toMatchObject({ connected: true, webhookStatus: 'failed' });

    // Disconnecting the first seller removes its five subscriptions (DELETE with the host).
    expect(
      (
        await gw.app.inject({
          method: 'DELETE',
          url: '/api/connections/printify',
          headers: { ...SAME_ORIGIN, cookie: seller.cookie },
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await sandbox.admin<{ webhooks: unknown[] }>('GET', `/tenants/${seller.tenant.tenantId}/printify-webhooks`))
        .webhooks,
    ).toEqual([]);
    const late = JSON.stringify({
      id: randomUUID(),
      type: 'order:updated',
      resource: { id: 'ef'.repeat(12), type: 'order' },
    });
    const response = await gw.app.inject({
      method: 'POST',
      url: `/api/webhooks/printify/${hook.key}`,
      headers: {
        'content-type': 'application/json',
        'x-pfy-signature': `sha256=${createHmac('sha256', hook.secret).update(late).digest('hex')}`,
      },
      payload: late,
    });
    expectErrorShape(response, 404, 'not_found');
  });
});

describe('Printify subscriptions when the connection moves (issue 16)', () => {
  type Hook = { topic: string; url: string; shop_id: number };
  const hooksOf = async (tenant: SandboxTenant) =>
    (await sandbox.admin<{ webhooks: Hook[] }>('GET', `/tenants/${tenant.tenantId}/printify-webhooks`)).webhooks;
  const fiveTopicsAt = (hooks: Hook[], shopId: number, key: string) =>
    expect({
      count: hooks.length,
      everyAtKeyAndShop: hooks.every((h) => h.shop_id === shopId && h.url === `${base}/api/webhooks/printify/${key}`),
    }).toEqual({ count: 5, everyAtKeyAndShop: true });

  it("reconnecting another Printify account deletes the old account's subscriptions at Printify", async () => {
    const seller = await sellerWithPrintify('pfy-move-account');
    const first = await webhookOf(seller.userId);
    fiveTopicsAt(await hooksOf(seller.tenant), seller.shopId, first.key);
    const other = await sandbox.newTenant(1);
    const otherShop = other.printify.shops[0].id;
    expect(
      (
        await post('/api/connections/printify', seller.cookie, {
          token: other.printify.token,
          shopId: String(otherShop),
        })
      ).statusCode,
    ).toBe(200);
    expect(await hooksOf(seller.tenant)).toEqual([]);
    const second = await webhookOf(seller.userId);
    expect(second).toMatchObject({ status: 'registered' });
    fiveTopicsAt(await hooksOf(other), otherShop, second.key);
  });

  it('reconnecting another shop of the same account, or choosing it to sync, moves the subscriptions to that shop', async () => {
    const seller = await sellerWithPrintify('pfy-move-shop');
    const [shopA, shopB] = seller.tenant.printify.shops.map((shop) => shop.id);
    expect(
      (
        await post('/api/connections/printify', seller.cookie, {
          token: seller.tenant.printify.token,
          shopId: String(shopB),
        })
      ).statusCode,
    ).toBe(200);
    fiveTopicsAt(await hooksOf(seller.tenant), shopB, (await webhookOf(seller.userId)).key);
    // "Select Printify Shop": the sync of another shop of the connected account.
    expect((await post('/api/sync/printify', seller.cookie, { shopId: String(shopA) })).statusCode).toBe(202);
    const now = await webhookOf(seller.userId);
    expect(now.status).toBe('registered');
    fiveTopicsAt(await hooksOf(seller.tenant), shopA, now.key);
  });
});

describe('Etsy', () => {
  let cookie: string;
  let userId: string;
  let tenant: SandboxTenant;

  beforeAll(async () => {
    tenant = await sandbox.newTenant(1);
    sandbox.consentTenant = tenant.tenantId;
    const response = await register(gw.app, uniqueEmail('etsy-hooks'));
    cookie = sessionCookie(response);
    const start = await post('/api/connections/etsy/oauth', cookie);
    const { code, state } = await sandbox.consent(start.json().authUrl, tenant.tenantId);
    const callback = await gw.app.inject({
      method: 'GET',
      url: `/api/connections/etsy/callback?${new URLSearchParams({ code, state })}`,
      headers: { cookie },
    });
    expect(callback.headers.location).toBe('/connections?etsy=connected');
    [{ user_id: userId }] = await sql<{ user_id: string }>(
      `SELECT user_id FROM provider_connection WHERE provider = 'etsy' AND shop_id = $1`,
      [String(tenant.etsy.shopId)],
    );
    // What the developer portal would hold: the app's one webhook, to our URL, with our secret.
    await sandbox.admin('PUT', '/etsy-webhook', { url: `${base}/api/webhooks/etsy`, secret: ETSY_SECRET });
  });
  afterAll(() => sandbox.admin('DELETE', '/etsy-webhook'));

  const sign = (body: string, id: string, timestamp: number) => {
    const key = Buffer.from(ETSY_SECRET.slice('whsec_'.length), 'base64');
    return {
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`,
    };
  };
  const deliver = (body: string, headers: Record<string, string>) =>
    gw.app.inject({
      method: 'POST',
      url: '/api/webhooks/etsy',
      headers: { 'content-type': 'application/json', ...headers },
      payload: body,
    });

  it("turns each signed sandbox delivery into one refresh-receipt job for the shop's user", async () => {
    const { inserted, deliveries } = await sandbox.admin<{ inserted: number[]; deliveries: number }>(
      'POST',
      `/tenants/${tenant.tenantId}/mutations`,
      { insert: 1 },
    );
    expect(deliveries).toBeGreaterThan(0);
    const done = await settled(tenant.tenantId, deliveries);
    expect(done.every((d) => d.provider === 'etsy' && d.status === 200 && d.outcome === 'delivered')).toBe(true);
    const receipts = (await jobs(etsyQueue, 'refresh-receipt')).filter(
      (job) => job.data.receiptId === String(inserted[0]),
    );
    expect(receipts).toHaveLength(deliveries);
    for (const job of receipts)
      expect(job.data).toEqual({ userId, shopId: String(tenant.etsy.shopId), receiptId: String(inserted[0]) });
  });

  it('refuses stale and forged deliveries and acknowledges a replayed webhook-id without a second job', async () => {
    const receiptId = '4000000001';
    const body = JSON.stringify({
      event_type: 'order.shipped',
      resource_url: `https://openapi.etsy.com/v3/application/shops/${tenant.etsy.shopId}/receipts/${receiptId}`,
      shop_id: tenant.etsy.shopId,
    });
    const now = Math.floor(Date.now() / 1000);
    expectErrorShape(await deliver(body, sign(body, 'msg_stale', now - 600)), 401, 'webhook_stale');
    expectErrorShape(await deliver(body, sign(body, 'msg_future', now + 600)), 401, 'webhook_stale');
    expectErrorShape(
      await deliver(body.replace('shipped', 'paid'), sign(body, 'msg_forged', now)),
      401,
      'webhook_signature_invalid',
    );
    expectErrorShape(await deliver(body, {}), 401, 'webhook_signature_invalid');
    const junk = '{"event_type":"order.paid","shop_id":1}';
    expectErrorShape(await deliver(junk, sign(junk, 'msg_junk', now)), 400, 'webhook_payload_invalid');
    expect((await deliver(body, sign(body, 'msg_once', now))).json()).toEqual({ received: true, outcome: 'enqueued' });
    // Etsy's retry: same webhook-id, a new timestamp and signature.
    expect((await deliver(body, sign(body, 'msg_once', now + 5))).json()).toEqual({
      received: true,
      outcome: 'duplicate',
    });
    expect((await jobs(etsyQueue, 'refresh-receipt')).filter((job) => job.data.receiptId === receiptId)).toHaveLength(
      1,
    );
  });

  it('acknowledges deliveries for a shop nobody here connected, without a job', async () => {
    const body = JSON.stringify({
      event_type: 'order.paid',
      resource_url: 'https://openapi.etsy.com/v3/application/shops/1/receipts/2',
      shop_id: 1,
    });
    expect((await deliver(body, sign(body, 'msg_stranger', Math.floor(Date.now() / 1000)))).json()).toEqual({
      received: true,
      outcome: 'ignored',
    });
  });
});

describe('logs', () => {
  it('hold no webhook secret, signature or connection key', async () => {
    const text = gw.logs.join('\n');
    const [{ webhook_key: key }] = await sql<{ webhook_key: string }>(
      `SELECT webhook_key FROM provider_connection WHERE provider = 'printify' AND webhook_key IS NOT NULL LIMIT 1`,
    );
    expect(text).toContain('/api/webhooks/printify/[key]');
    expect(text).toContain('"event":"webhook.received"');
    for (const secret of [ETSY_SECRET, ETSY_SECRET.slice('whsec_'.length), key, ...secretsSeen, 'sha256=', 'v1,'])
      expect(text).not.toContain(secret);
    expect(secretsSeen.length).toBeGreaterThan(0);
  });
});
