import type { DataSource } from 'typeorm';
import { createFixtureUser, createTestDatabase, storeSyncedOrders, type TestDatabase } from '@pod/testing';
import { createDataSource } from '../data-source';
import { prepareDatabase } from '../prepare-database';
import { MatchingInputsRepository } from './matching-inputs.repository';

/**
 * integrations.md §b.4: an order's metadata carries `reprinted_order_ids[]` and
 * `child_reprinted_order_ids[]`. The matcher reads both from the stored payload, so a reprint
 * named only by its original's child list still goes on the original's receipt.
 */
let database: TestDatabase;
let dataSource: DataSource;

beforeAll(async () => {
  database = await createTestDatabase('reprint_links');
  await prepareDatabase({ DATABASE_URL: database.url });
  dataSource = await createDataSource(
    { DATABASE_URL: database.url, DATABASE_POOL_SIZE: 2 },
    'reprint-links',
  ).initialize();
}, 60_000);

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
});

const at = new Date('2026-06-01T10:00:00Z');
const lines = [{ title: 'Cat Mug 11oz', sku: 'MUG-CAT-11', quantity: 1 }];

it('reads child_reprinted_order_ids beside reprinted_order_ids', async () => {
  const owner = await createFixtureUser(dataSource, 'reprint-links');
  await storeSyncedOrders(
    dataSource,
    owner,
    [],
    [
      { shopId: 'p1', id: 'orig-1', buyerName: 'Ada', orderedAt: at, lines, shopOrderId: '501', reprints: ['rep-1'] },
      { shopId: 'p1', id: 'rep-1', buyerName: 'Ada', orderedAt: at, lines, reprintOf: 'orig-1' },
    ],
  );
  const orders = await new MatchingInputsRepository(dataSource).printifyOrdersOf(owner);
  const byId = new Map(orders.map((order) => [order.orderId, order]));
  expect(byId.get('orig-1')).toMatchObject({ reprintedOrderIds: [], childReprintedOrderIds: ['rep-1'] });
  expect(byId.get('rep-1')).toMatchObject({ reprintedOrderIds: ['orig-1'], childReprintedOrderIds: [] });
});
