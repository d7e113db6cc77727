import type { DataSource } from 'typeorm';
import {
  createFixtureUser,
  createTestDatabase,
  queryDatabase,
  rowsLookedAtBy,
  statementsSentBy,
  type TestDatabase,
} from '@pod/testing';
import { createDataSource } from '../data-source';
import { prepareDatabase } from '../prepare-database';
import { AnalyticsRepository } from './analytics.repository';
import { DashboardRollupsRepository } from './dashboard-rollups.repository';

/**
 * The figures' part-day reads (the Dashboard's sums, and the Analytics page's previous period,
 * series and breakdowns) read the records of a few hours from the rows, archived ones included.
 * For a seller holding most of order_record that must still be those hours' records, not the
 * whole table: before migration 1765701400000 the only (user, order_date) indexes were the lists'
 * partial ones, which such a read cannot use, and a 100k-order seller's reads scanned all 200k
 * records, four times per Analytics page (ADR 0038, third amendment). Checked on the plans
 * PostgreSQL ran, before the tables' first ANALYZE and after it.
 */
let database: TestDatabase;
let dataSource: DataSource;
let big: string;
const BIG_RECORDS = 6_000;
const HOUR_MS = 3_600_000;
/** Records are two hours apart: a part-day (under 24 hours) holds at most 12 of them. */
const PART_DAY_MOST = 12;

beforeAll(async () => {
  database = await createTestDatabase('figures_plans');
  await prepareDatabase({ DATABASE_URL: database.url });
  await queryDatabase(database.url, `ALTER TABLE order_record SET (autovacuum_enabled = false)`);
  dataSource = await createDataSource(
    { DATABASE_URL: database.url, DATABASE_POOL_SIZE: 2 },
    'figures-plans',
  ).initialize();
  big = await createFixtureUser(dataSource, 'plans-big');
  const small = await createFixtureUser(dataSource, 'plans-small');
  // The big seller holds most of the table, a few of their records archived.
  for (const [userId, count] of [
    [big, BIG_RECORDS],
    [small, 300],
  ] as const)
    await queryDatabase(
      database.url,
      `WITH receipts AS (
         INSERT INTO etsy_receipt (user_id, shop_id, receipt_id, status, is_paid, is_shipped, currency, grandtotal_minor,
           subtotal_minor, total_price_minor, total_shipping_minor, total_tax_minor, item_count, ordered_at,
           source_updated_at, payload, payload_hash, fetched_at)
         SELECT $1, 'S', 'R' || n, 'paid', true, true, 'USD', 2500, 2500, 2500, 0, 0, 1, now() - n * interval '2 hours',
           now(), '{}', 'h', now()
         FROM generate_series(1, $2::int) n
         RETURNING receipt_id, ordered_at)
       INSERT INTO order_record (user_id, etsy_shop_id, etsy_receipt_id, status, order_date, archived_at)
       SELECT $1, 'S', receipt_id, 'unmatched', ordered_at, CASE WHEN random() < 0.02 THEN now() END FROM receipts`,
      [userId, count],
    );
}, 60_000);

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
});

async function partDayReads(days: number) {
  const now = new Date();
  const since = new Date(now.getTime() - days * 24 * HOUR_MS);
  const before = new Date(since.getTime() - days * 24 * HOUR_MS);
  const { sent } = await statementsSentBy(
    () =>
      new AnalyticsRepository(dataSource).inSnapshot(big, async (manager) => {
        const rollups = new DashboardRollupsRepository(manager);
        const analytics = new AnalyticsRepository(manager);
        await rollups.sums(big, 'USD', { from: since });
        await rollups.sums(big, 'USD', { from: before, to: since });
        await analytics.series(big, 'USD', since, 'day');
        await analytics.composition(big, 'USD', since);
      }),
    /order_record/,
  );
  expect(sent).toHaveLength(4);
  return rowsLookedAtBy(dataSource, big, sent, 'order_record');
}

/** The same reads as the Analytics page sends them: one statement (AnalyticsRepository.page). */
async function pageRead(days: number) {
  const since = new Date(Date.now() - days * 24 * HOUR_MS);
  const previousSince = new Date(since.getTime() - days * 24 * HOUR_MS);
  const { sent } = await statementsSentBy(
    () => new AnalyticsRepository(dataSource).page(big, 'USD', { since, previousSince, bucket: 'week' }),
    /order_record/,
  );
  expect(sent).toHaveLength(1);
  return rowsLookedAtBy(dataSource, big, sent, 'order_record');
}

describe('the part-day reads of a seller holding most of order_record', () => {
  it.each([
    ['before the first ANALYZE', false],
    ['after ANALYZE', true],
  ])('look at the part-days’ records only, %s', async (_label, analyzed) => {
    if (analyzed) await queryDatabase(database.url, 'ANALYZE order_record');
    for (const days of [30, 365]) {
      const looked = await partDayReads(days);
      // The previous period's read has a part-day at each end.
      expect(looked.filter((statement) => statement.lookedAt > 2 * PART_DAY_MOST)).toEqual([]);
      // As one statement: five part-days (the range's in three parts, the previous period's two).
      const [page] = await pageRead(days);
      expect(page.lookedAt).toBeLessThanOrEqual(5 * PART_DAY_MOST);
    }
  });
});
