import fc from 'fast-check';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { createDataSource, OrderEditsService, OrderViewsRepository, prepareDatabase } from '@pod/db';
import {
  createFixtureUser,
  createTestDatabase,
  storeSyncedOrders,
  type SideFixture,
  type TestDatabase,
} from '@pod/testing';
import { UserMatcher } from '@pod/orders';

/**
 * The Orders page's counts from order_count_day (migration 1765520000000) against a recount of
 * the rows, on real PostgreSQL: random orders around UTC midnights, then random sequences of new
 * orders, match runs, archive/restore, unmatch and manual match; after every step, for both
 * views, every status, several instants (midnights and random ones, so part-days) and no date
 * filter, the counts equal a count of the rows, and every stored count row equals its group's.
 */
let database: TestDatabase;
let dataSource: DataSource;
let owner: Client;

beforeAll(async () => {
  database = await createTestDatabase('order_counts');
  await prepareDatabase({ DATABASE_URL: database.url });
  dataSource = await createDataSource(
    { DATABASE_URL: database.url, DATABASE_POOL_SIZE: 3 },
    'order-counts-test',
  ).initialize();
  owner = new Client({ connectionString: database.url });
  await owner.connect();
}, 60_000);

afterAll(async () => {
  await owner?.end();
  await dataSource?.destroy();
  await database?.drop();
});

const HOUR_MS = 3_600_000;
const BASE = Date.parse('2026-03-12T00:00:00Z');
const NOW = new Date('2026-03-16T12:00:00Z');

async function recount(userId: string, archived: boolean, status: string | null, since: Date | null) {
  const [row] = (
    await owner.query<Record<string, string>>(
      `SELECT count(*) AS total,
         count(*) FILTER (WHERE ($3::text IS NULL OR status = $3) AND ($4::timestamptz IS NULL OR order_date >= $4)) AS all_tab,
         count(*) FILTER (WHERE ($3::text IS NULL OR status = $3) AND ($4::timestamptz IS NULL OR order_date >= $4) AND etsy_receipt_id IS NOT NULL) AS etsy,
         count(*) FILTER (WHERE ($3::text IS NULL OR status = $3) AND ($4::timestamptz IS NULL OR order_date >= $4) AND printify_order_id IS NOT NULL) AS printify
       FROM order_record WHERE user_id = $1 AND (archived_at IS NOT NULL) = $2`,
      [userId, archived, status, since],
    )
  ).rows;
  return {
    total: Number(row.total),
    tabCounts: { all: Number(row.all_tab), etsy: Number(row.etsy), printify: Number(row.printify) },
  };
}

async function expectCountRowsExact(userId: string): Promise<void> {
  const rows = `SELECT day::text AS day, archived, status, etsy, printify, n FROM %s ORDER BY 1, 2, 3, 4, 5`;
  const stored = await owner.query(rows.replace('%s', `order_count_day WHERE user_id = $1`), [userId]);
  const expected = await owner.query(
    rows.replace(
      '%s',
      `(SELECT (order_date AT TIME ZONE 'UTC')::date AS day, archived_at IS NOT NULL AS archived, status,
          etsy_receipt_id IS NOT NULL AS etsy, printify_order_id IS NOT NULL AS printify, count(*)::int AS n
        FROM order_record WHERE user_id = $1 GROUP BY 1, 2, 3, 4, 5) grouped`,
    ),
    [userId],
  );
  expect(stored.rows).toEqual(expected.rows);
}

type Step =
  | { kind: 'new'; hours: number; withPrintify: boolean }
  | { kind: 'match' }
  | { kind: 'archive'; pick: number; archived: boolean }
  | { kind: 'unmatch'; pick: number }
  | { kind: 'manual'; pick: number; other: number };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc
    .record({ hours: fc.integer({ min: -20, max: 4 * 24 }), withPrintify: fc.boolean() })
    .map<Step>((s) => ({ kind: 'new', ...s })),
  fc.constant<Step>({ kind: 'match' }),
  fc.record({ pick: fc.nat(40), archived: fc.boolean() }).map<Step>((s) => ({ kind: 'archive', ...s })),
  fc.nat(40).map<Step>((pick) => ({ kind: 'unmatch', pick })),
  fc.record({ pick: fc.nat(40), other: fc.nat(40) }).map<Step>((s) => ({ kind: 'manual', ...s })),
);

/** A receipt at BASE + hours, with its Printify order (named by the receipt, so an exact match) or without. */
function order(n: number, hours: number, withPrintify: boolean): { receipt: SideFixture; order: SideFixture | null } {
  const orderedAt = new Date(BASE + hours * HOUR_MS + (n % 60) * 60_000);
  const lines = [{ title: `Mug ${n % 3}`, sku: `SKU-${n % 3}`, quantity: 1 }];
  const receipt = { shopId: 'shop', id: `r${n}`, buyerName: `Buyer ${n % 4}`, orderedAt, lines };
  return {
    receipt,
    // Every third order names no receipt and another buyer: it stays lone (for a manual match).
    order: withPrintify
      ? n % 3 === 0
        ? {
            shopId: 'pfy',
            id: `p${n}`,
            buyerName: `Other ${n}`,
            orderedAt,
            lines: [{ title: 'Poster', sku: null, quantity: 2 }],
          }
        : { shopId: 'pfy', id: `p${n}`, buyerName: receipt.buyerName, orderedAt, lines, shopOrderId: `r${n}` }
      : null,
  };
}

it('the Orders counts equal a recount of the rows in every view, status and range, after any sequence of changes', async () => {
  const views = new OrderViewsRepository(dataSource);
  const edits = new OrderEditsService(dataSource);
  let run = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.record({ hours: fc.integer({ min: -20, max: 4 * 24 }), withPrintify: fc.boolean() }), {
        minLength: 1,
        maxLength: 8,
      }),
      fc.array(stepArb, { minLength: 1, maxLength: 8 }),
      fc.array(fc.integer({ min: -30 * 60, max: 5 * 24 * 60 }), { minLength: 2, maxLength: 2 }),
      async (initial, steps, sinceMinutes) => {
        run += 1;
        const userId = await createFixtureUser(dataSource, `counts-${run}`);
        let next = 0;
        const store = async (orders: { hours: number; withPrintify: boolean }[]) => {
          const made = orders.map((o) => order((next += 1), o.hours, o.withPrintify));
          await storeSyncedOrders(
            dataSource,
            userId,
            made.map((m) => m.receipt),
            made.flatMap((m) => (m.order ? [m.order] : [])),
          );
        };
        await store(initial);
        await new UserMatcher(dataSource).matchUser(userId, NOW);
        const sinces = [
          null,
          new Date('2026-03-01T00:00:00Z'),
          ...[1, 3].map((day) => new Date(BASE + day * 24 * HOUR_MS)),
          ...sinceMinutes.map((minutes) => new Date(BASE + minutes * 60_000)),
        ];
        for (const step of steps) {
          const ids = (
            await owner.query<{ id: string }>(
              `SELECT id FROM order_record WHERE user_id = $1 ORDER BY order_date, id`,
              [userId],
            )
          ).rows.map((row) => row.id);
          const pick = (n: number) => ids[n % Math.max(ids.length, 1)];
          if (step.kind === 'new') await store([step]);
          else if (step.kind === 'match') await new UserMatcher(dataSource).matchUser(userId, NOW);
          else if (ids.length > 0 && step.kind === 'archive')
            await edits.setArchived(userId, pick(step.pick), step.archived);
          else if (ids.length > 0 && step.kind === 'unmatch') await edits.unmatch(userId, pick(step.pick));
          else if (step.kind === 'manual') {
            // A lone receipt and a lone Printify order (random ones of each: any two records would rarely pair).
            const lone = async (side: string) =>
              (
                await owner.query<{ id: string }>(
                  `SELECT id FROM order_record WHERE user_id = $1 AND ${side} AND status <> 'matched' AND archived_at IS NULL ORDER BY id`,
                  [userId],
                )
              ).rows.map((row) => row.id);
            const receipts = await lone('printify_order_id IS NULL');
            const orders = await lone('etsy_receipt_id IS NULL');
            if (receipts.length > 0 && orders.length > 0)
              expect(
                await edits.matchByHand(
                  userId,
                  receipts[step.pick % receipts.length],
                  orders[step.other % orders.length],
                ),
              ).toMatchObject({ ids: expect.any(Array) });
          }
          for (const archived of [false, true]) {
            for (const status of [null, 'matched', 'pending', 'unmatched'] as const) {
              for (const since of sinces) {
                const counts = await views.listCounts(userId, { search: null, status, since, source: 'all', archived });
                expect({ step, archived, status, since, total: counts.total, tabCounts: counts.tabCounts }).toEqual({
                  step,
                  archived,
                  status,
                  since,
                  ...(await recount(userId, archived, status, since)),
                });
              }
            }
          }
          await expectCountRowsExact(userId);
        }
      },
    ),
    { numRuns: 15 },
  );
}, 600_000);
