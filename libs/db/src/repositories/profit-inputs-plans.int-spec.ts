import type { DataSource } from 'typeorm';
import {
  createFixtureUser,
  createTestDatabase,
  queryDatabase,
  rowsLookedAtBy,
  statementsSentBy,
  storeSyncedOrders,
  type SideFixture,
  type TestDatabase,
} from '@pod/testing';
import { createDataSource } from '../data-source';
import { prepareDatabase } from '../prepare-database';
import { ProfitInputsRepository } from './profit-inputs.repository';

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

/** A paid receipt of the shop S1 with its lines, as a sync stores it. */
function receipt(index: number): SideFixture {
  return {
    shopId: 'S1',
    id: String(4_000_000 + index),
    buyerName: `Buyer ${index}`,
    orderedAt: new Date(Date.UTC(2026, 0, 1) + index * 3_600_000),
    lines: Array.from({ length: LINES_PER_RECEIPT }, (_, line) => ({ title: 'Tee', sku: `TEE-${line}`, quantity: 1 })),
  };
}

it('reads each receipt line a bounded number of times on tables without statistics (no per-receipt pass over the shop)', async () => {
  const userId = await createFixtureUser(dataSource, 'plans');
  await storeSyncedOrders(
    dataSource,
    userId,
    Array.from({ length: RECEIPTS }, (_, index) => receipt(index)),
    [],
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
