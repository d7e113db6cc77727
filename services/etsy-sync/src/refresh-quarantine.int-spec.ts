import type { DataSource } from 'typeorm';
import type { EtsyTokenService } from '@pod/connections';
import { createDataSource, prepareDatabase, type ConnectionsRepository } from '@pod/db';
import { mapEtsyPayments, mapEtsyReceipt, type EtsyClient } from '@pod/integrations';
import type { DomainEventPublisher } from '@pod/queue';
import { DEFAULT_LOOKBACKS } from '@pod/sync';
import { createFixtureUser, createTestDatabase, queryDatabase, type TestDatabase } from '@pod/testing';
import paymentsPage from '../../../libs/integrations/test-fixtures/etsy/payments.json';
import receiptsPage from '../../../libs/integrations/test-fixtures/etsy/receipts-page.json';
import { EtsySyncService } from './etsy-sync.service';

/**
 * A webhook's refresh-receipt that stores a receipt (and its payments) a sync had quarantined
 * takes them out of the quarantine (issue 16: quarantine keys accumulating), as a clean fetch in
 * a sync run does. The service runs on migrated PostgreSQL with Etsy (the recorded fixtures) and
 * the connection served from memory.
 */
let database: TestDatabase;
let dataSource: DataSource;
const SHOP = '12345678';

beforeAll(async () => {
  database = await createTestDatabase('etsyrefreshquarantine');
  await prepareDatabase({ DATABASE_URL: database.url });
  dataSource = await createDataSource({ DATABASE_URL: database.url, DATABASE_POOL_SIZE: 2 }, 'refresh').initialize();
}, 60_000);

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
});

it('a refreshed receipt that now maps cleanly leaves sync_quarantine with its payments; other refused records stay', async () => {
  const userId = await createFixtureUser(dataSource, 'etsy-refresh');
  const receiptPayload = receiptsPage.results[0];
  const page = mapEtsyPayments(paymentsPage);
  const payments = { payments: page.records, payloads: page.payloads, rejected: page.rejected };
  const receiptId = String(receiptPayload.receipt_id);
  const paymentId = payments.payments[0].paymentId;
  await queryDatabase(
    database.url,
    `INSERT INTO sync_quarantine (user_id, provider, shop_id, stream, record_key, field, reason) VALUES
       ($1, 'etsy', $2, 'etsy:receipts', $3, 'grandtotal', 'is missing'),
       ($1, 'etsy', $2, 'etsy:ledger', $4, 'amount_gross', 'is missing'),
       ($1, 'etsy', $2, 'etsy:receipts', '999', 'grandtotal', 'is missing')`,
    [userId, SHOP, receiptId, paymentId],
  );
  const etsy = {
    getReceipt: async () => ({ receipt: mapEtsyReceipt(receiptPayload), payload: receiptPayload }),
    receiptPayments: async () => payments,
  } as unknown as EtsyClient;
  const connections = {
    listForUser: async () => [{ id: 'c1', provider: 'etsy', shopId: SHOP, status: 'connected' }],
  } as unknown as ConnectionsRepository;
  const tokens = { forConnection: () => ({}) } as unknown as EtsyTokenService;
  const events = { publish: async () => true } as unknown as DomainEventPublisher;
  const service = new EtsySyncService(
    etsy,
    tokens,
    DEFAULT_LOOKBACKS,
    connections,
    dataSource,
    events,
    async () => undefined,
  );

  await expect(service.refreshReceipt({ userId, shopId: SHOP, receiptId })).resolves.toEqual({ outcome: 'added' });
  const left = await queryDatabase<{ record_key: string }>(
    database.url,
    `SELECT record_key FROM sync_quarantine WHERE user_id = $1`,
    [userId],
  );
  expect(left.map((row) => row.record_key)).toEqual(['999']);
});
