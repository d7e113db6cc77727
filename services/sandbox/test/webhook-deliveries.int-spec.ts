import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import {
  ADMIN,
  connectEtsy,
  createTenant,
  etsyGet,
  newSandbox,
  printifyGet,
  startReceiver,
  type Clock,
  type TenantInfo,
} from './support/kit';

/**
 * Webhook deliveries, rule by rule from integrations.md: Printify (b.5) envelopes, the
 * X-Pfy-Signature HMAC of the raw body, 200-only acceptance, 3 retries then a 1-hour block, the
 * order topics a change sends; Etsy (a.12) flat bodies with resource_url, the Standard Webhooks
 * headers and signature, a webhook-id that survives retries.
 */
const PRINTIFY_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\+00:00$/;
const ORDER_TOPICS = [
  'order:created',
  'order:updated',
  'order:sent-to-production',
  'order:shipment:created',
  'order:shipment:delivered',
];
const SECRET = 'f3a1c2b4d5e6f708192a3b4c5d6e7f8091a2b3c4';
const ETSY_SECRET = `whsec_${Buffer.from('etsy-portal-secret-for-tests-01').toString('base64')}`;

interface Envelope {
  id: string;
  type: string;
  created_at: string;
  resource: { id: string; type: string; data: Record<string, unknown> };
}

let app: FastifyInstance;
let clock: Clock;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let tenant: TenantInfo;

beforeEach(async () => {
  ({ app, clock } = await newSandbox({
    printifyRpm: 100_000,
    webhookTimeScale: 0.0001,
    publicUrl: 'http://sandbox.test:5200',
  }));
  receiver = await startReceiver();
  tenant = await createTenant(app, { seed: 'deliveries', months: 2, ordersPerMonth: 60 });
});
afterEach(async () => {
  await app.close();
  await receiver.close();
});

const shopId = () => tenant.printify.shops[0].id;
const printify = (method: 'POST' | 'GET', url: string, payload?: unknown) =>
  app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${tenant.printify.token}`, 'user-agent': 'tests' },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const subscribe = async (topic: string, secret?: string, path = '/printify') =>
  (
    await printify('POST', `/v1/shops/${shopId()}/webhooks.json`, {
      topic,
      url: `${receiver.url}${path}`,
      ...(secret ? { secret } : {}),
    })
  ).json<{ id: string }>();
const mutate = (body: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: `/__sandbox/tenants/${tenant.tenantId}/mutations`, headers: ADMIN, payload: body });
const deliveries = async (provider: string) =>
  (await app.inject({ url: `/__sandbox/webhook-deliveries?provider=${provider}`, headers: ADMIN })).json<{
    deliveries: Array<{ outcome: string; attempt: number; status: number | null; deliveryId: string }>;
  }>().deliveries;
const envelopes = () => receiver.received.map((r) => JSON.parse(r.body) as Envelope);
/**
 * Inserts orders until one holds a physical item (digital-only orders complete at once and never
 * reach Printify), then returns its receipt id; the others stay behind, inserted before any
 * subscription exists.
 */
async function insertPhysical(options: { unpaid?: boolean } = {}): Promise<number> {
  const tokens = await connectEtsy(app, tenant.tenantId);
  for (let i = 0; i < 20; i++) {
    const [receiptId] = (await mutate({ insert: 1, printify: true, ...options })).json().inserted as number[];
    const receipt = (
      await etsyGet(app, `/v3/application/shops/${tenant.etsy.shopId}/receipts/${receiptId}`, tokens.access_token)
    ).json();
    if (receipt.transactions.some((t: { is_digital: boolean }) => !t.is_digital)) return receiptId;
  }
  throw new Error('no physical order in 20 inserts');
}
const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

describe('Printify deliveries', () => {
  it('simulate sends the envelope with the request body as resource, signed over the raw body', async () => {
    const hook = await subscribe('order:updated', SECRET);
    const resource = {
      id: '5a96f649b2439217d070f507',
      type: 'order',
      data: { shop_id: shopId(), status: 'fulfilled' },
    };
    expect((await printify('POST', `/v1/shops/${shopId()}/webhooks/${hook.id}/simulate`, resource)).statusCode).toBe(
      200,
    );
    const [delivery] = await receiver.waitFor(1);
    const envelope = JSON.parse(delivery.body) as Envelope;
    expect(envelope).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'order:updated',
      created_at: expect.stringMatching(PRINTIFY_TIME),
      resource,
    });
    expect(delivery.headers['content-type']).toBe('application/json');
    expect(delivery.headers['x-pfy-signature']).toBe(
      `sha256=${createHmac('sha256', SECRET).update(delivery.body).digest('hex')}`,
    );
    // Without a secret there is no signature.
    const unsigned = await subscribe('order:updated');
    await printify('POST', `/v1/shops/${shopId()}/webhooks/${unsigned.id}/simulate`, resource);
    const [, second] = await receiver.waitFor(2);
    expect(second.headers['x-pfy-signature']).toBeUndefined();
  });

  it('sends the order topics when the mutations API changes orders, each to its subscribers', async () => {
    // Paid on insert, on Printify once paid: an unpaid insert's payment sends order:created.
    const receiptId = await insertPhysical({ unpaid: true });
    for (const topic of ORDER_TOPICS) await subscribe(topic, SECRET, `/${topic}`);
    expect((await mutate({ update: { receiptIds: [receiptId], change: 'pay' } })).json().deliveries).toBe(1);
    const [first] = await receiver.waitFor(1);
    const createdEnvelope = JSON.parse(first.body) as Envelope;
    expect(createdEnvelope).toMatchObject({
      type: 'order:created',
      resource: { type: 'order', data: { shop_id: shopId() } },
    });
    const order = (await printify('GET', `/v1/shops/${shopId()}/orders/${createdEnvelope.resource.id}.json`)).json();
    expect(order).toMatchObject({ id: createdEnvelope.resource.id, status: 'on-hold' });
    // Shipping it: sent to production, updated to fulfilled, shipment created.
    expect((await mutate({ update: { receiptIds: [receiptId], change: 'ship' } })).json().deliveries).toBe(3);
    await receiver.waitFor(4);
    const shipped = envelopes().slice(1);
    expect(shipped.map((e) => e.type)).toEqual(['order:sent-to-production', 'order:updated', 'order:shipment:created']);
    expect(shipped.every((e) => e.resource.id === createdEnvelope.resource.id)).toBe(true);
    expect(shipped[1].resource.data).toEqual({ shop_id: shopId(), status: 'fulfilled' });
    expect(shipped[2].resource.data).toEqual({
      shop_id: shopId(),
      shipped_at: expect.stringMatching(PRINTIFY_TIME),
      carrier: {
        code: expect.any(String),
        tracking_number: expect.any(String),
        tracking_url: expect.stringMatching(/^https:\/\//),
      },
      skus: expect.arrayContaining([expect.any(String)]),
    });
    expect(receiver.received.slice(1).map((r) => r.headers['x-pfy-signature'])).toEqual(
      receiver.received.slice(1).map((r) => `sha256=${createHmac('sha256', SECRET).update(r.body).digest('hex')}`),
    );
    // Delivered.
    expect((await mutate({ update: { receiptIds: [receiptId], change: 'deliver' } })).json().deliveries).toBe(1);
    await receiver.waitFor(5);
    expect(envelopes()[4]).toMatchObject({
      type: 'order:shipment:delivered',
      resource: { data: { shop_id: shopId(), delivered_at: expect.stringMatching(PRINTIFY_TIME) } },
    });
    const delivered = (
      await printify('GET', `/v1/shops/${shopId()}/orders/${createdEnvelope.resource.id}.json`)
    ).json();
    expect(delivered.shipments[0].delivered_at).toMatch(PRINTIFY_TIME);
    // A plain insert never reaches Printify: no Printify delivery.
    expect((await mutate({ insert: 5 })).json().deliveries).toBe(0);
  });

  it('cancels keep the Printify order and say so with order:updated', async () => {
    const receiptId = await insertPhysical();
    await subscribe('order:updated');
    expect((await mutate({ update: { receiptIds: [receiptId], change: 'cancel' } })).json().deliveries).toBe(1);
    const [delivery] = await receiver.waitFor(1);
    expect(JSON.parse(delivery.body)).toMatchObject({
      type: 'order:updated',
      resource: { data: { status: 'canceled' } },
    });
  });

  it('counts only 200 as delivered: retries 3 times, then blocks the webhook for the hour (scaled)', async () => {
    const hook = await subscribe('order:updated', SECRET);
    receiver.answer(() => 500);
    await printify('POST', `/v1/shops/${shopId()}/webhooks/${hook.id}/simulate`, { id: 'x' });
    await receiver.waitFor(4);
    await settle();
    expect(receiver.received).toHaveLength(4);
    // The same envelope (same id, same bytes) every time.
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
    expect((await deliveries('printify')).map((d) => [d.attempt, d.outcome])).toEqual([
      [1, 'failed'],
      [2, 'failed'],
      [3, 'failed'],
      [4, 'blocked'],
    ]);
    const view = (
      await app.inject({ url: `/__sandbox/tenants/${tenant.tenantId}/printify-webhooks`, headers: ADMIN })
    ).json();
    expect(view.webhooks[0].blockedUntil).toBe(new Date(clock.ms + 360).toISOString());
    // Blocked: nothing arrives, test events included.
    receiver.answer(() => 200);
    await printify('POST', `/v1/shops/${shopId()}/webhooks/${hook.id}/simulate`, { id: 'y' });
    await settle();
    expect(receiver.received).toHaveLength(4);
    expect((await deliveries('printify')).at(-1)?.outcome).toBe('dropped');
    // An hour (scaled: 360 ms) later it delivers again; 201 is not 200, so it is retried.
    clock.advance(1);
    let answers = 0;
    receiver.answer(() => (++answers === 1 ? 201 : 200));
    await printify('POST', `/v1/shops/${shopId()}/webhooks/${hook.id}/simulate`, { id: 'z' });
    await receiver.waitFor(6);
    await settle();
    expect(receiver.received.slice(4).map((r) => r.status)).toEqual([201, 200]);
    expect((await deliveries('printify')).slice(-2).map((d) => d.outcome)).toEqual(['failed', 'delivered']);
  });
});

describe('Etsy deliveries', () => {
  const verify = (headers: Record<string, unknown>, body: string) => {
    const key = Buffer.from(ETSY_SECRET.slice('whsec_'.length), 'base64');
    const expected = createHmac('sha256', key)
      .update(`${String(headers['webhook-id'])}.${String(headers['webhook-timestamp'])}.${body}`)
      .digest('base64');
    return String(headers['webhook-signature'])
      .split(' ')
      .some((entry) => entry === `v1,${expected}`);
  };

  const subscribeEtsy = async () => {
    const res = await app.inject({
      method: 'PUT',
      url: '/__sandbox/etsy-webhook',
      headers: ADMIN,
      payload: { url: `${receiver.url}/etsy`, secret: ETSY_SECRET },
    });
    expect(res.statusCode).toBe(200);
  };

  it('sends order.paid, order.shipped, order.delivered and order.canceled as flat, signed bodies', async () => {
    const unpaid = await insertPhysical({ unpaid: true });
    const other = await insertPhysical({ unpaid: true });
    await subscribeEtsy();
    const steps: Array<[number, string]> = [
      [other, 'pay'],
      [unpaid, 'pay'],
      [unpaid, 'ship'],
      [unpaid, 'deliver'],
      [other, 'cancel'],
    ];
    for (const [index, [receiptId, change]] of steps.entries()) {
      expect((await mutate({ update: { receiptIds: [receiptId], change } })).json().deliveries).toBe(1);
      await receiver.waitFor(index + 1);
    }
    await settle();
    const bodies = receiver.received.map(
      (r) => JSON.parse(r.body) as { event_type: string; resource_url: string; shop_id: number },
    );
    const receiptUrl = (id: number) =>
      `http://sandbox.test:5200/v3/application/shops/${tenant.etsy.shopId}/receipts/${id}`;
    expect(bodies).toEqual([
      { event_type: 'order.paid', resource_url: receiptUrl(other), shop_id: tenant.etsy.shopId },
      { event_type: 'order.paid', resource_url: receiptUrl(unpaid), shop_id: tenant.etsy.shopId },
      { event_type: 'order.shipped', resource_url: receiptUrl(unpaid), shop_id: tenant.etsy.shopId },
      { event_type: 'order.delivered', resource_url: receiptUrl(unpaid), shop_id: tenant.etsy.shopId },
      { event_type: 'order.canceled', resource_url: receiptUrl(other), shop_id: tenant.etsy.shopId },
    ]);
    for (const { headers, body } of receiver.received) {
      expect(headers['webhook-id']).toMatch(/^msg_[A-Za-z0-9_-]+$/);
      expect(headers['webhook-timestamp']).toBe(String(Math.floor(clock.ms / 1000)));
      expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(verify(headers, body)).toBe(true);
    }
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(5);
    // resource_url names a receipt the sandbox serves.
    const tokens = await connectEtsy(app, tenant.tenantId);
    const path = new URL(bodies[1].resource_url).pathname;
    expect((await etsyGet(app, path, tokens.access_token)).json()).toMatchObject({
      receipt_id: unpaid,
      is_shipped: true,
    });
  });

  it('retries a refused delivery with the same webhook-id and a fresh, re-signed timestamp each time', async () => {
    const receiptId = await insertPhysical({ unpaid: true });
    await subscribeEtsy();
    let answers = 0;
    receiver.answer(() => {
      clock.advance(7);
      return ++answers < 3 ? 503 : 204;
    });
    await mutate({ update: { receiptIds: [receiptId], change: 'pay' } });
    await receiver.waitFor(3);
    await settle();
    expect(receiver.received.map((r) => r.status)).toEqual([503, 503, 204]);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-timestamp'])).size).toBe(3);
    for (const { headers, body } of receiver.received) expect(verify(headers, body)).toBe(true);
    expect((await deliveries('etsy')).map((d) => d.outcome)).toEqual(['failed', 'failed', 'delivered']);
  });

  it('gives up after the documented schedule (the first attempt and 8 retries), and a tenant subscription wins over the app-wide one', async () => {
    const receiptId = await insertPhysical({ unpaid: true });
    await subscribeEtsy();
    await app.inject({
      method: 'PATCH',
      url: '/__sandbox/settings',
      headers: ADMIN,
      payload: { webhookTimeScale: 0.00001 },
    });
    receiver.answer(() => 500);
    await mutate({ update: { receiptIds: [receiptId], change: 'pay' } });
    await receiver.waitFor(9, 10_000);
    await settle();
    expect(receiver.received).toHaveLength(9);
    expect((await deliveries('etsy')).at(-1)?.outcome).toBe('gave-up');
    receiver.answer(() => 200);
    await app.inject({
      method: 'PUT',
      url: `/__sandbox/tenants/${tenant.tenantId}/etsy-webhook`,
      headers: ADMIN,
      payload: { url: `${receiver.url}/tenant-own`, secret: ETSY_SECRET, events: ['order.shipped'] },
    });
    await mutate({ update: { receiptIds: [receiptId], change: 'ship' } });
    await receiver.waitFor(10);
    await settle();
    expect(receiver.received.slice(9).map((r) => JSON.parse(r.body).event_type)).toEqual(['order.shipped']);
  });
});

describe('nothing is sent without subscribers', () => {
  it('keeps mutations free of webhook work', async () => {
    expect((await mutate({ insert: 3, printify: true, update: { count: 5, change: 'ship' } })).json().deliveries).toBe(
      0,
    );
    await settle();
    expect(receiver.received).toHaveLength(0);
    expect((await printifyGet(app, `/v1/shops/${shopId()}/webhooks.json`, tenant.printify.token)).json()).toEqual([]);
  });
});
