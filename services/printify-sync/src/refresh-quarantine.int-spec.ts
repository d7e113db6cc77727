import type { DataSource } from 'typeorm';
import { createDataSource, prepareDatabase, type ConnectionsRepository } from '@pod/db';
import { mapPrintifyOrder, type PrintifyClient } from '@pod/integrations';
import type { DomainEventPublisher } from '@pod/queue';
import { DEFAULT_LOOKBACKS } from '@pod/sync';
import { createFixtureUser, createTestDatabase, queryDatabase, type TestDatabase } from '@pod/testing';
import { PrintifySyncService } from './printify-sync.service';

/**
 * A webhook's refresh-order that stores an order a sync had quarantined takes it out of the
 * quarantine (issue 16: quarantine keys accumulating), as a clean fetch in a sync run does. The
 * service runs on migrated PostgreSQL with the provider and the connection served from memory.
 */
let database: TestDatabase;
let dataSource: DataSource;
const SHOP = '815256';

beforeAll(async () => {
  database = await createTestDatabase('refreshquarantine');
  await prepareDatabase({ DATABASE_URL: database.url });
  dataSource = await createDataSource({ DATABASE_URL: database.url, DATABASE_POOL_SIZE: 2 }, 'refresh').initialize();
}, 60_000);

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
});

it('a refreshed order that now maps cleanly leaves sync_quarantine; the shop’s other refused orders stay', async () => {
  const userId = await createFixtureUser(dataSource, 'refresh');
  await queryDatabase(
    database.url,
    `INSERT INTO sync_quarantine (user_id, provider, shop_id, stream, record_key, field, reason)
     VALUES ($1, 'printify', $2, 'printify:orders', '9001', 'total_price', 'is not whole cents'),
            ($1, 'printify', $2, 'printify:orders', '9002', 'total_price', 'is not whole cents')`,
    [userId, SHOP],
  );
  const payload = {
    id: '9001',
    status: 'fulfilled',
    total_price: 1250,
    total_shipping: 400,
    total_tax: 0,
    created_at: '2026-05-01 10:00:00+00:00',
    line_items: [],
  };
  const printify = {
    getOrderWithPayload: async () => ({ order: mapPrintifyOrder(payload, 'USD'), payload }),
  } as unknown as PrintifyClient;
  const connections = {
    readPrintifyToken: async () => ({
      connection: { shopId: SHOP, status: 'connected', externalAccountId: null, syncFrom: null },
      token: 'token',
    }),
  } as unknown as ConnectionsRepository;
  const events = { publish: async () => true } as unknown as DomainEventPublisher;
  const service = new PrintifySyncService(
    printify,
    DEFAULT_LOOKBACKS,
    connections,
    dataSource,
    events,
    async () => undefined,
  );

  await expect(service.refreshOrder({ userId, shopId: SHOP, orderId: '9001' })).resolves.toEqual({ outcome: 'added' });
  const left = await queryDatabase<{ record_key: string }>(
    database.url,
    `SELECT record_key FROM sync_quarantine WHERE user_id = $1`,
    [userId],
  );
  expect(left.map((row) => row.record_key)).toEqual(['9002']);
});
