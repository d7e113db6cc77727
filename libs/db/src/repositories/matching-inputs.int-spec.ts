import type { DataSource } from 'typeorm';
import { createFixtureUser, createTestDatabase, storeSyncedOrders, type TestDatabase } from '@pod/testing';
import { createDataSource } from '../data-source';
import { prepareDatabase } from '../prepare-database';
import { MatchingInputsRepository } from './matching-inputs.repository';
import { OrderRecordsRepository } from './order-records.repository';

/**
 * What the matcher reads: each side with its own lines (their order whatever the plan is
 * groupLines' unit test), the owner's rows only, and records with their confidence as a number.
 */
let database: TestDatabase;
let dataSource: DataSource;

beforeAll(async () => {
  database = await createTestDatabase('match_inputs');
  await prepareDatabase({ DATABASE_URL: database.url });
  dataSource = await createDataSource(
    { DATABASE_URL: database.url, DATABASE_POOL_SIZE: 2 },
    'matching-inputs',
  ).initialize();
}, 60_000);

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
});

/** Eleven lines L0…L10: the fixtures' transaction ids are `<receipt>-<index>`, so "…-10" sorts between "…-1" and "…-2". */
const elevenLines = Array.from({ length: 11 }, (_, index) => ({
  title: `L${index}`,
  sku: `SKU-${index}`,
  quantity: 1,
}));
const at = new Date('2026-06-01T10:00:00Z');

describe('MatchingInputsRepository', () => {
  it("reads each side with its lines in order, and only the owner's", async () => {
    const [owner, other] = [
      await createFixtureUser(dataSource, 'inputs-a'),
      await createFixtureUser(dataSource, 'inputs-b'),
    ];
    await storeSyncedOrders(
      dataSource,
      owner,
      [
        { shopId: 'e1', id: '501', buyerName: 'Ada Lovelace', orderedAt: at, lines: elevenLines },
        { shopId: 'e1', id: '502', buyerName: null, orderedAt: at, lines: [] },
      ],
      [{ shopId: 'p1', id: 'ord-1', buyerName: 'Ada Lovelace', orderedAt: at, lines: elevenLines, shopOrderId: '501' }],
    );
    await storeSyncedOrders(
      dataSource,
      other,
      [{ shopId: 'e1', id: '501', buyerName: 'Someone Else', orderedAt: at, lines: elevenLines.slice(0, 1) }],
      [],
    );

    const inputs = new MatchingInputsRepository(dataSource);
    const receipts = (await inputs.receiptsOf(owner)).sort((a, b) => a.receiptId.localeCompare(b.receiptId));
    expect(receipts.map((receipt) => [receipt.receiptId, receipt.buyerName, receipt.orderedAt.toISOString()])).toEqual([
      ['501', 'Ada Lovelace', at.toISOString()],
      ['502', null, at.toISOString()],
    ]);
    expect(receipts[0].lines.map((line) => line.title)).toEqual([
      'L0',
      'L1',
      'L10',
      'L2',
      'L3',
      'L4',
      'L5',
      'L6',
      'L7',
      'L8',
      'L9',
    ]);
    expect(receipts[0].lines[0]).toEqual({ title: 'L0', sku: 'SKU-0', quantity: 1 });
    expect(receipts[1].lines).toEqual([]);

    const [order] = await inputs.printifyOrdersOf(owner);
    expect(order).toMatchObject({
      shopId: 'p1',
      orderId: 'ord-1',
      shopOrderId: '501',
      isReprint: false,
      buyerName: 'Ada Lovelace',
    });
    expect(order.lines.map((line) => line.title)).toEqual(elevenLines.map((line) => line.title));
    expect(await inputs.printifyOrdersOf(other)).toEqual([]);
  });

  it('lists records for matching with their sides, archived flag and numeric confidence', async () => {
    const owner = await createFixtureUser(dataSource, 'inputs-records');
    await storeSyncedOrders(
      dataSource,
      owner,
      [{ shopId: 'e1', id: '601', buyerName: 'Grace Hopper', orderedAt: at, lines: elevenLines.slice(0, 1) }],
      [{ shopId: 'p1', id: 'ord-6', buyerName: 'Grace Hopper', orderedAt: at, lines: elevenLines.slice(0, 1) }],
    );
    const records = new OrderRecordsRepository(dataSource);
    const pair = {
      receipt: { shopId: 'e1', id: '601' },
      order: { shopId: 'p1', id: 'ord-6' },
      status: 'matched' as const,
      method: 'fuzzy' as const,
      confidence: 0.9123,
      attached: [],
      notNeededReason: null,
      orderDate: at,
      customerName: 'Grace Hopper',
      productTitle: 'L0',
      productSku: 'SKU-0',
    };
    await records.applyChanges(owner, { inserts: [pair], updates: [], deletes: [] });
    const [listed] = await records.listForMatching(owner);
    expect(listed).toEqual({ ...pair, id: expect.any(String), archived: false });
  });
});
