import { createHmac } from 'node:crypto';
import { HttpException } from '@nestjs/common';
import type { PinoLogger } from 'nestjs-pino';
import type { AppConfig } from '@pod/config';
import { TokenDecryptError } from '@pod/crypto';
import type { ConnectionsRepository, PrintifyWebhookTarget } from '@pod/db';
import { ApiException } from '../http/api-exception';
import type { QueueProducer } from '../queues/queue-producer';
import type { DeliveryLedger } from './delivery-ledger';
import { WebhookIntakeService } from './webhook-intake.service';

const KEY = 'k'.repeat(43);
const SECRET = 'f3a1c2b4d5e6f708192a3b4c5d6e7f8091a2b3c4';
const ETSY_KEY = Buffer.from('etsy-portal-secret-for-tests-01');
const ETSY_SECRET = `whsec_${ETSY_KEY.toString('base64')}`;
const NOW = Date.parse('2026-11-24T10:00:30Z');

function newTestService(
  target: PrintifyWebhookTarget | null = {
    connectionId: 'conn-1',
    userId: 'user-1',
    status: 'connected',
    shopId: '815256',
    secret: SECRET,
  },
) {
  const seen = new Set<string>();
  const ledger = {
    claim: jest.fn(
      async (provider: string, scope: string, id: string) =>
        !seen.has(`${provider}|${scope}|${id}`) && Boolean(seen.add(`${provider}|${scope}|${id}`)),
    ),
    release: jest.fn(
      async (provider: string, scope: string, id: string) => void seen.delete(`${provider}|${scope}|${id}`),
    ),
  };
  const producer = { enqueue: jest.fn(async () => ({ id: 'job', queue: 'printify-sync', name: 'refresh-order' })) };
  const connections = {
    findPrintifyWebhookTarget: jest.fn(async (key: string) => (key === KEY ? target : null)),
    listEtsyConnectionsOfShop: jest.fn(async (shopId: string) =>
      shopId === '12345678'
        ? [
            { connectionId: 'etsy-1', userId: 'user-1' },
            { connectionId: 'etsy-2', userId: 'user-2' },
          ]
        : [],
    ),
  };
  const lines: string[] = [];
  const log = (level: string) => (fields: object, message: string) =>
    lines.push(JSON.stringify({ level, ...fields, message }));
  const logger = { setContext: jest.fn(), info: log('info'), warn: log('warn') } as unknown as PinoLogger;
  const config = { ETSY_WEBHOOK_SECRET: ETSY_SECRET } as AppConfig;
  const sut = new WebhookIntakeService(
    connections as unknown as ConnectionsRepository,
    ledger as unknown as DeliveryLedger,
    producer as unknown as QueueProducer,
    config,
    logger,
  );
  return { sut, ledger, producer, connections, lines, config };
}

const envelope = (
  overrides: Record<string, unknown> = {},
  data: Record<string, unknown> = { shop_id: 815256, status: 'fulfilled' },
) =>
  Buffer.from(
    JSON.stringify({
      id: '653b6be8-2ff7-4ab5-a7a6-6889a8b3bbf5',
      type: 'order:updated',
      created_at: '2026-11-24 10:00:00+00:00',
      resource: { id: '5a96f649b2439217d070f507', type: 'order', data },
      ...overrides,
    }),
  );
const pfySign = (body: Buffer, secret = SECRET) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

const etsyBody = (event = 'order.paid', shop = 12345678) =>
  Buffer.from(
    JSON.stringify({
      event_type: event,
      resource_url: `https://openapi.etsy.com/v3/application/shops/${shop}/receipts/3456789012`,
      shop_id: shop,
    }),
  );
const etsyHeaders = (body: Buffer, id = 'msg_1', timestamp = String(Math.floor(NOW / 1000))) => ({
  id,
  timestamp,
  signature: `v1,${createHmac('sha256', ETSY_KEY).update(`${id}.${timestamp}.`).update(body).digest('base64')}`,
});

async function refusal(promise: Promise<unknown>): Promise<{ status: number; code: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiException) return { status: error.getStatus(), code: error.code };
    if (error instanceof HttpException) return { status: error.getStatus(), code: 'http' };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('Printify deliveries', () => {
  it("enqueues one refresh-order for the connection's user and shop, with a job id per order and delivery", async () => {
    const { sut, producer } = newTestService();
    const body = envelope();
    expect(await sut.printify(KEY, pfySign(body), body, NOW)).toEqual({ received: true, outcome: 'enqueued' });
    expect(producer.enqueue).toHaveBeenCalledWith(
      'printify-sync',
      'refresh-order',
      { userId: 'user-1', shopId: '815256', orderId: '5a96f649b2439217d070f507' },
      { jobId: expect.stringMatching(/^refresh-order-[A-Za-z0-9_-]{32}$/) },
    );
  });

  it('acknowledges a replayed delivery id without enqueueing it again', async () => {
    const { sut, producer } = newTestService();
    const body = envelope();
    await sut.printify(KEY, pfySign(body), body, NOW);
    expect(await sut.printify(KEY, pfySign(body), body, NOW)).toEqual({ received: true, outcome: 'duplicate' });
    expect(producer.enqueue).toHaveBeenCalledTimes(1);
  });

  it('refuses an unknown key (404), a bad or missing signature (401) and a signed malformed body (400)', async () => {
    const { sut, producer } = newTestService();
    const body = envelope();
    expect(await refusal(sut.printify('x'.repeat(43), pfySign(body), body, NOW))).toEqual({
      status: 404,
      code: 'not_found',
    });
    expect(await refusal(sut.printify('short', pfySign(body), body, NOW))).toEqual({ status: 404, code: 'not_found' });
    expect(await refusal(sut.printify(KEY, pfySign(body, 'wrong'), body, NOW))).toEqual({
      status: 401,
      code: 'webhook_signature_invalid',
    });
    expect(await refusal(sut.printify(KEY, undefined, body, NOW))).toEqual({
      status: 401,
      code: 'webhook_signature_invalid',
    });
    const junk = Buffer.from('{"id":');
    expect(await refusal(sut.printify(KEY, pfySign(junk), junk, NOW))).toEqual({
      status: 400,
      code: 'webhook_payload_invalid',
    });
    expect(producer.enqueue).not.toHaveBeenCalled();
  });

  it('answers 503 when PostgreSQL does not answer, and 401 when the stored secret no longer decrypts', async () => {
    const { sut, connections } = newTestService();
    const body = envelope();
    connections.findPrintifyWebhookTarget.mockRejectedValueOnce(
      Object.assign(new Error('connect ECONNREFUSED'), { name: 'QueryFailedError' }),
    );
    expect(await refusal(sut.printify(KEY, pfySign(body), body, NOW))).toEqual({
      status: 503,
      code: 'service_unavailable',
    });
    connections.findPrintifyWebhookTarget.mockRejectedValueOnce(new TokenDecryptError('authentication-failed'));
    expect(await refusal(sut.printify(KEY, pfySign(body), body, NOW))).toEqual({
      status: 401,
      code: 'webhook_signature_invalid',
    });
    const etsy = etsyBody();
    connections.listEtsyConnectionsOfShop.mockRejectedValueOnce(new Error('timeout'));
    expect(await refusal(sut.etsy(etsyHeaders(etsy), etsy, NOW))).toEqual({ status: 503, code: 'service_unavailable' });
  });

  it('answers 404 for a connection without a secret (webhooks never set up)', async () => {
    const { sut } = newTestService({ connectionId: 'c', userId: 'u', status: 'connected', shopId: '1', secret: null });
    const body = envelope();
    expect(await refusal(sut.printify(KEY, pfySign(body), body, NOW))).toEqual({ status: 404, code: 'not_found' });
  });

  it.each<[string, Buffer, PrintifyWebhookTarget | undefined]>([
    ['a product topic', envelope({ type: 'product:updated', resource: { id: 'p1', type: 'product' } }), undefined],
    ['another shop of the account', envelope({}, { shop_id: 999, status: 'fulfilled' }), undefined],
    ['an event older than a day', envelope({ created_at: '2026-11-23 09:00:00+00:00' }), undefined],
    [
      'a connection that needs reconnecting',
      envelope(),
      { connectionId: 'c', userId: 'u', status: 'expired', shopId: '815256', secret: SECRET },
    ],
  ])('acknowledges %s without a job', async (_label, body, target) => {
    const { sut, producer } = newTestService(target);
    expect(await sut.printify(KEY, pfySign(body), body, NOW)).toEqual({ received: true, outcome: 'ignored' });
    expect(producer.enqueue).not.toHaveBeenCalled();
  });

  it("answers 503 when the job cannot be enqueued, and takes the provider's retry in afterwards", async () => {
    const { sut, producer, ledger } = newTestService();
    producer.enqueue.mockRejectedValueOnce(
      new ApiException(503, 'service_unavailable', 'The job queue is unavailable; try again shortly.'),
    );
    const body = envelope();
    expect(await refusal(sut.printify(KEY, pfySign(body), body, NOW))).toEqual({
      status: 503,
      code: 'service_unavailable',
    });
    expect(ledger.release).toHaveBeenCalled();
    expect(await sut.printify(KEY, pfySign(body), body, NOW)).toMatchObject({ outcome: 'enqueued' });
  });

  it('logs neither the secret, the signature nor the key', async () => {
    const { sut, lines } = newTestService();
    const body = envelope();
    await sut.printify(KEY, pfySign(body), body, NOW);
    await refusal(sut.printify(KEY, pfySign(body, 'wrong'), body, NOW));
    const text = lines.join('\n');
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const secret of [SECRET, KEY, pfySign(body).slice(7), pfySign(body, 'wrong').slice(7)])
      expect(text).not.toContain(secret);
  });
});

describe('Etsy deliveries', () => {
  it('enqueues a refresh-receipt for every user connected to the shop', async () => {
    const { sut, producer } = newTestService();
    const body = etsyBody();
    expect(await sut.etsy(etsyHeaders(body), body, NOW)).toEqual({ received: true, outcome: 'enqueued' });
    expect(producer.enqueue.mock.calls.map((call: unknown[]) => call.slice(0, 3))).toEqual([
      ['etsy-sync', 'refresh-receipt', { userId: 'user-1', shopId: '12345678', receiptId: '3456789012' }],
      ['etsy-sync', 'refresh-receipt', { userId: 'user-2', shopId: '12345678', receiptId: '3456789012' }],
    ]);
  });

  it('skips a webhook-id seen before, a shop nobody connected and events it does not use', async () => {
    const { sut, producer } = newTestService();
    const body = etsyBody();
    await sut.etsy(etsyHeaders(body), body, NOW);
    expect(
      await sut.etsy(etsyHeaders(body, 'msg_1', String(Math.floor(NOW / 1000) + 60)), body, NOW + 60_000),
    ).toMatchObject({ outcome: 'duplicate' });
    const stranger = etsyBody('order.paid', 777);
    expect(await sut.etsy(etsyHeaders(stranger, 'msg_2'), stranger, NOW)).toMatchObject({ outcome: 'ignored' });
    const other = etsyBody('listing.updated');
    expect(await sut.etsy(etsyHeaders(other, 'msg_3'), other, NOW)).toMatchObject({ outcome: 'ignored' });
    expect(producer.enqueue).toHaveBeenCalledTimes(2);
  });

  it('refuses stale and future timestamps, bad signatures, missing headers, malformed bodies', async () => {
    const { sut, producer } = newTestService();
    const body = etsyBody();
    const seconds = Math.floor(NOW / 1000);
    expect(await refusal(sut.etsy(etsyHeaders(body, 'msg_a', String(seconds - 301)), body, NOW))).toEqual({
      status: 401,
      code: 'webhook_stale',
    });
    expect(await refusal(sut.etsy(etsyHeaders(body, 'msg_b', String(seconds + 301)), body, NOW))).toEqual({
      status: 401,
      code: 'webhook_stale',
    });
    expect(
      await refusal(
        sut.etsy({ ...etsyHeaders(body), signature: etsyHeaders(etsyBody('order.shipped')).signature }, body, NOW),
      ),
    ).toEqual({ status: 401, code: 'webhook_signature_invalid' });
    expect(await refusal(sut.etsy({ id: 'msg_c', timestamp: String(seconds) }, body, NOW))).toEqual({
      status: 401,
      code: 'webhook_signature_invalid',
    });
    expect(await refusal(sut.etsy({ ...etsyHeaders(body), id: 'has space' }, body, NOW))).toEqual({
      status: 401,
      code: 'webhook_signature_invalid',
    });
    const junk = Buffer.from('{"event_type":"order.paid"}');
    expect(await refusal(sut.etsy(etsyHeaders(junk, 'msg_d'), junk, NOW))).toEqual({
      status: 400,
      code: 'webhook_payload_invalid',
    });
    expect(producer.enqueue).not.toHaveBeenCalled();
  });

  it('answers 404 while ETSY_WEBHOOK_SECRET is not set', async () => {
    const { sut, config } = newTestService();
    (config as { ETSY_WEBHOOK_SECRET?: string }).ETSY_WEBHOOK_SECRET = undefined;
    const body = etsyBody();
    expect(await refusal(sut.etsy(etsyHeaders(body), body, NOW))).toEqual({ status: 404, code: 'not_found' });
  });
});
