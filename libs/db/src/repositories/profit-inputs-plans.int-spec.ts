import type { DataSource } from 'typeorm';
import { createTestDatabase, queryDatabase, rowsLookedAtBy, statementsSentBy, type TestDatabase } from '@pod/testing';
import { createDataSource } from '../data-source';
import { prepareDatabase } from '../prepare-database';
import { EtsyOrdersRepository, type EtsyReceiptRow } from './etsy-orders.repository';
import { ProfitInputsRepository } from './profit-inputs.repository';
import { UsersRepository } from './users.repository';

/**
 * The profit inputs' reads on tables without statistics, as a first sync leaves them (its bulk
 * writes come before any ANALYZE; autovacuum may be off or late): each read of the receipt
 * lines must stay one pass over them, whatever plan the planner picks without statistics. A
 * per-receipt subquery once filtered each receipt's lines out of the whole shop's, quadratic:
 * a 100k-order seller's compute-profits ran past the statement timeout on every attempt and the
 * seller had no figures (ADR 0038, second amendment). Checked on the plans PostgreSQL ran
 * (EXPLAIN ANALYZE of every statement the repository sends, as the app role, in the user's
 * scope): rows a node on etsy_receipt_line looked at, over all its loops.
 */
let database: TestDatabase;
let dataSource: DataSource;
const RECEIPTS = 800;
const LINES_PER_RECEIPT = 2;

beforeAll(async () => {
  database = await createTestDatabase('inputs_plans');
  await prepareDatabase({ DATABASE_URL: database.url });
  // No statistics but the ones the product itself would gather: none yet.
  for (const table of ['etsy_receipt', 'etsy_receipt_line', 'order_record'])
    await queryDatabase(database.url, `ALTER TABLE ${table} SET (autovacuum_enabled = false)`);
  dataSource = await createDataSource(
    { DATABASE_URL: database.url, DATABASE_POOL_SIZE: 2 },
    'inputs-plans',
  ).initialize();
}, 60_000);

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
});

function receipt(index: number): EtsyReceiptRow {
  const receiptId = String(4_000_000 + index);
  const orderedAt = new Date(Date.UTC(2026, 0, 1) + index * 3_600_000);
  return {
    receiptId,
    status: 'paid',
    isPaid: true,
    isShipped: true,
    buyerName: `Buyer ${index}`,
    buyerUserId: null,
    zip: null,
    countryIso: 'US',
    currency: 'USD',
    grandtotalMinor: 5000,
    subtotalMinor: 5000,
    totalPriceMinor: 5000,
    totalShippingMinor: 0,
    totalTaxMinor: 0,
    totalVatMinor: null,
    discountMinor: 0,
    giftWrapMinor: null,
    refundedMinor: 0,
    orderedAt,
    sourceUpdatedAt: orderedAt,
    lines: Array.from({ length: LINES_PER_RECEIPT }, (_, line) => ({
      transactionId: `${receiptId}${line}`,
      // Few listings, many receipts each: what the (user, shop, listing) index sees in a real shop.
      listingId: String(900 + ((index + line) % 7)),
      productId: null,
      title: 'Tee',
      sku: `TEE-${line}`,
      quantity: 1,
      currency: 'USD',
      unitPriceMinor: 2500,
      shippingMinor: null,
      isDigital: false,
    })),
    payload: { refunds: [] },
  };
}

it('reads each receipt line a bounded number of times on tables without statistics (no per-receipt pass over the shop)', async () => {
  const user = await new UsersRepository(dataSource).create({
    email: `plans-${Math.random().toString(36).slice(2)}@example.com`,
    passwordHash: 'x',
    firstName: 'P',
    lastName: 'L',
  });
  const userId = user!.id;
  const etsy = new EtsyOrdersRepository(dataSource);
  for (let start = 0; start < RECEIPTS; start += 200)
    await etsy.upsertReceipts(
      userId,
      'S1',
      Array.from({ length: 200 }, (_, i) => receipt(start + i)),
      new Date(),
    );
  const [{ analyzed }] = await queryDatabase<{ analyzed: string | null }>(
    database.url,
    `SELECT greatest(last_analyze, last_autoanalyze)::text AS analyzed FROM pg_stat_user_tables WHERE relname = 'etsy_receipt_line'`,
  );
  expect(analyzed).toBeNull();

  const { result: inputs, sent } = await statementsSentBy(
    () => new ProfitInputsRepository(dataSource).load(userId),
    /etsy_receipt_line/,
  );
  expect(inputs.receipts.size).toBe(RECEIPTS);
  expect(inputs.receipts.get(`S1:${4_000_000 + 5}`)?.lines).toHaveLength(LINES_PER_RECEIPT);
  expect(sent.length).toBeGreaterThan(0);

  // One pass over the lines, or an index probe per row reading only that row's lines, looks at
  // about `lines` rows; the per-receipt filter of the whole shop looked at receipts × lines.
  const lines = RECEIPTS * LINES_PER_RECEIPT;
  const looked = await rowsLookedAtBy(dataSource, userId, sent, 'etsy_receipt_line');
  expect(looked.filter((statement) => statement.lookedAt > 3 * lines)).toEqual([]);
}, 120_000);
