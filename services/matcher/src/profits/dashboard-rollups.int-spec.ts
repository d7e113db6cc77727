import fc from 'fast-check';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import {
  AnalyticsRepository,
  createDataSource,
  DashboardRollupsRepository,
  FxRatesRepository,
  OrderEditsService,
  OrderViewsRepository,
  prepareDatabase,
  type AnalyticsBucketUnit,
  type DashboardSums,
} from '@pod/db';
import { DISPLAY_CURRENCY_CODES, type DisplayCurrencyCode } from '@pod/domain';
import {
  createFixtureUser,
  createTestDatabase,
  goldenUsdOrder,
  storeGoldenRates,
  storeProfitOrder,
  type TestDatabase,
} from '@pod/testing';
import { UserMatcher, UserProfits } from '@pod/orders';

/**
 * The dashboard from rollups (docs/adr/0018-rollups.md) against the sum of the rows, on real
 * PostgreSQL: random orders around UTC midnights (with and without rates: ok, provisional and
 * rate-unavailable figures), random sequences of match runs, profit runs (forced or not), new
 * rates, refunds, archive/restore, manual match and unmatch; after every step, every display
 * currency and a range of instants (midnights and random ones), the dashboard equals the old
 * row query to the cent, from each instant on and between each and the next, and every rollup
 * row equals its day's rows. The Analytics page's breakdowns (cost_kind_day, product_day, ADR
 * 0038) likewise: from each instant on, costs by kind and best and worst products equal the same
 * breakdown read from the rows.
 */
let database: TestDatabase;
let dataSource: DataSource;
/** The owner's connection for the reference reads (one client: a connection per query would dominate the run). */
let owner: Client;

beforeAll(async () => {
  database = await createTestDatabase('rollups');
  await prepareDatabase({ DATABASE_URL: database.url });
  dataSource = await createDataSource(
    { DATABASE_URL: database.url, DATABASE_POOL_SIZE: 4 },
    'rollups-test',
  ).initialize();
  await storeGoldenRates(dataSource, ['2026-03-13']);
  owner = new Client({ connectionString: database.url });
  await owner.connect();
}, 60_000);

afterAll(async () => {
  await owner?.end();
  await dataSource?.destroy();
  await database?.drop();
});

const HOUR_MS = 3_600_000;
/** Orders fall from 2026-03-11 to 2026-03-16 (rates stored for 03-13 only at first: none before, provisional after). */
const BASE = Date.parse('2026-03-12T00:00:00Z');
const NOW = new Date('2026-03-20T12:00:00Z');
const BUCKETS: AnalyticsBucketUnit[] = ['day', 'week', 'month'];

const ownerQuery = async <T>(sql: string, params: unknown[] = []): Promise<T[]> =>
  (await owner.query(sql, params)).rows as T[];

/**
 * The dashboard's sums as the rows give them, as the table owner: counts over active records,
 * sums over every record (archived too) apart from lone Printify records, whose costs are summed
 * apart by order type (ADR 0027). Shop costs are not in this test's ledger-free orders.
 */
async function rowSums(
  userId: string,
  currency: DisplayCurrencyCode,
  since: Date,
  until?: Date,
): Promise<Omit<DashboardSums, 'hasOrders'>> {
  const [row] = await ownerQuery<Record<string, string>>(
    `SELECT count(*) FILTER (WHERE r.archived_at IS NULL AND r.status = 'matched') AS matched,
       count(*) FILTER (WHERE r.archived_at IS NULL AND r.status = 'pending') AS pending,
       count(*) FILTER (WHERE r.archived_at IS NULL AND r.status = 'unmatched') AS unmatched,
       count(*) FILTER (WHERE r.archived_at IS NULL AND f.counted AND p.figures <> 'rate_unavailable') AS summed,
       count(*) FILTER (WHERE r.archived_at IS NULL AND f.counted AND p.figures = 'provisional') AS provisional,
       count(*) FILTER (WHERE r.archived_at IS NULL AND f.fresh AND p.figures = 'rate_unavailable') AS without_rate,
       count(*) FILTER (WHERE r.archived_at IS NULL AND NOT f.fresh) AS not_computed,
       count(*) FILTER (WHERE r.archived_at IS NULL AND f.fresh AND p.printify_cost = 'awaiting') AS awaiting,
       count(*) FILTER (WHERE r.archived_at IS NULL AND f.fresh AND p.printify_cost = 'estimated') AS estimated,
       coalesce(sum(p.revenue_minor) FILTER (WHERE f.counted AND NOT f.lone), 0) AS revenue,
       coalesce(sum(p.costs_minor) FILTER (WHERE f.counted AND NOT f.lone), 0) AS costs,
       coalesce(sum(p.net_profit_minor) FILTER (WHERE f.counted AND NOT f.lone), 0) AS profit,
       coalesce(sum(p.costs_minor) FILTER (WHERE f.fresh AND f.lone AND po.order_type = 'sample'), 0) AS sample,
       coalesce(sum(p.costs_minor) FILTER (WHERE f.fresh AND f.lone AND po.order_type = 'manual'), 0) AS manual,
       coalesce(sum(p.costs_minor) FILTER (WHERE f.fresh AND f.lone AND coalesce(po.order_type, '') NOT IN ('sample', 'manual')), 0) AS unattached
     FROM order_record r
     LEFT JOIN order_profit p ON p.order_record_id = r.id AND p.currency = $2
     LEFT JOIN printify_order po ON po.user_id = r.user_id AND po.shop_id = r.printify_shop_id AND po.order_id = r.printify_order_id
     CROSS JOIN LATERAL (SELECT coalesce(p.record_sides = (coalesce(r.etsy_shop_id || ':' || r.etsy_receipt_id, '') || '|' || coalesce(r.printify_shop_id || ':' || r.printify_order_id, '')), false) AS fresh,
       r.etsy_receipt_id IS NULL AND r.printify_order_id IS NOT NULL AS lone) f0
     CROSS JOIN LATERAL (SELECT f0.fresh, f0.lone, f0.fresh AND p.printify_cost <> 'awaiting' AS counted) f
     WHERE r.user_id = $1 AND r.order_date >= $3 AND ($4::timestamptz IS NULL OR r.order_date < $4)`,
    [userId, currency, since, until ?? null],
  );
  return {
    matched: Number(row.matched),
    pending: Number(row.pending),
    unmatched: Number(row.unmatched),
    summed: Number(row.summed),
    provisional: Number(row.provisional),
    withoutRate: Number(row.without_rate),
    notComputed: Number(row.not_computed),
    awaitingPrintify: Number(row.awaiting),
    estimatedPrintify: Number(row.estimated),
    revenueMinor: Number(row.revenue),
    costsMinor: Number(row.costs),
    netProfitMinor: Number(row.profit),
    printifyOnly: { sample: Number(row.sample), manual: Number(row.manual), unattached: Number(row.unattached) },
    shopCosts: [],
  };
}

/**
 * The Analytics breakdown since `since` as the rows give it, as the table owner: the orders the
 * Dashboard sums that have a rate, their signed cost lines by kind, their profit by product title
 * (an empty title is none), best and worst ten.
 */
async function rowComposition(userId: string, currency: DisplayCurrencyCode, since: Date) {
  const [row] = await ownerQuery<Record<string, unknown>>(
    `WITH summed AS (
       SELECT nullif(r.product_title, '') AS product, p.revenue_minor, p.net_profit_minor, p.breakdown
       FROM order_record r
       JOIN order_profit p ON p.order_record_id = r.id AND p.currency = $2
       WHERE r.user_id = $1 AND r.order_date >= $3 AND NOT (r.etsy_receipt_id IS NULL AND r.printify_order_id IS NOT NULL)
         AND p.record_sides = (coalesce(r.etsy_shop_id || ':' || r.etsy_receipt_id, '') || '|' || coalesce(r.printify_shop_id || ':' || r.printify_order_id, ''))
         AND p.printify_cost <> 'awaiting' AND p.figures <> 'rate_unavailable'
     ), products AS (
       SELECT product, count(*)::int AS orders, sum(revenue_minor) AS revenue, sum(net_profit_minor) AS profit FROM summed GROUP BY product
     )
     SELECT
       (SELECT coalesce(json_agg(c ORDER BY c.kind), '[]') FROM (
          SELECT line->>'kind' AS kind, sum((line->'display'->>'minor')::bigint * coalesce((line->>'sign')::int, 1))::text AS cost
          FROM summed, jsonb_array_elements(summed.breakdown->'costLines') line GROUP BY 1) c) AS costs,
       (SELECT coalesce(json_agg(b), '[]') FROM (SELECT product, orders, revenue::text AS revenue_text, profit::text AS profit_text FROM products ORDER BY profit DESC, product LIMIT 10) b) AS best,
       (SELECT coalesce(json_agg(w), '[]') FROM (SELECT product, orders, revenue::text AS revenue_text, profit::text AS profit_text FROM products ORDER BY profit ASC, product LIMIT 10) w) AS worst`,
    [userId, currency, since],
  );
  // Sorted by the numeric sums, returned as text (named apart: an output column named `profit`
  // would make ORDER BY sort the text).
  type Product = { product: string | null; orders: number; revenue_text: string; profit_text: string };
  const products = (list: unknown) =>
    (list as Product[]).map((product) => ({
      product: product.product,
      orders: product.orders,
      revenueMinor: Number(product.revenue_text),
      netProfitMinor: Number(product.profit_text),
    }));
  return {
    costsByKind: (row.costs as { kind: string; cost: string }[]).map((cost) => ({
      kind: cost.kind,
      costMinor: Number(cost.cost),
    })),
    best: products(row.best),
    worst: products(row.worst),
  };
}

/** Each stored rollup row against its day's rows (and no row for a day without orders). */
async function expectRollupRowsExact(userId: string): Promise<void> {
  const stored = await ownerQuery<Record<string, string>>(
    `SELECT currency, day::text AS day, matched, pending, unmatched, summed, provisional, without_rate, not_computed,
       revenue_minor::text AS revenue, costs_minor::text AS costs, net_profit_minor::text AS profit,
       printify_sample_minor::text AS sample, printify_manual_minor::text AS manual, printify_unattached_minor::text AS unattached
     FROM dashboard_day WHERE user_id = $1 ORDER BY currency, day`,
    [userId],
  );
  const days = await ownerQuery<{ day: string }>(
    `SELECT DISTINCT (order_date AT TIME ZONE 'UTC')::date::text AS day FROM order_record WHERE user_id = $1 ORDER BY 1`,
    [userId],
  );
  const expected = [];
  for (const currency of [...DISPLAY_CURRENCY_CODES].sort()) {
    for (const { day } of days) {
      const since = new Date(`${day}T00:00:00Z`);
      const [whole, after] = [
        await rowSums(userId, currency, since),
        await rowSums(userId, currency, new Date(since.getTime() + 24 * HOUR_MS)),
      ];
      expected.push({
        currency,
        day,
        matched: whole.matched - after.matched,
        pending: whole.pending - after.pending,
        unmatched: whole.unmatched - after.unmatched,
        summed: whole.summed - after.summed,
        provisional: whole.provisional - after.provisional,
        without_rate: whole.withoutRate - after.withoutRate,
        not_computed: whole.notComputed - after.notComputed,
        revenue: String(whole.revenueMinor - after.revenueMinor),
        costs: String(whole.costsMinor - after.costsMinor),
        profit: String(whole.netProfitMinor - after.netProfitMinor),
        sample: String(whole.printifyOnly.sample - after.printifyOnly.sample),
        manual: String(whole.printifyOnly.manual - after.printifyOnly.manual),
        unattached: String(whole.printifyOnly.unattached - after.printifyOnly.unattached),
      });
    }
  }
  expect(stored).toEqual(expected);
}

type Step =
  | { kind: 'match' }
  | { kind: 'profits'; force: boolean }
  | { kind: 'rates'; day: string }
  | { kind: 'refund'; order: number; refundedMinor: number }
  | { kind: 'archive'; pick: number; archived: boolean }
  | { kind: 'unmatch'; pick: number }
  | { kind: 'manual'; pick: number; other: number };

const orderArb = fc.record({
  hours: fc.integer({ min: -20, max: 5 * 24 }),
  minutes: fc.integer({ min: 0, max: 59 }),
  currency: fc.constantFrom('USD' as const, 'EUR' as const),
  totalPriceMinor: fc.integer({ min: 100, max: 50_000 }),
  costMinor: fc.integer({ min: 50, max: 20_000 }),
  withPrintify: fc.boolean(),
  title: fc.constantFrom('Cat Mug 11oz', 'Dog Tee', ''),
});

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.constant<Step>({ kind: 'match' }),
  fc.boolean().map<Step>((force) => ({ kind: 'profits', force })),
  fc.constantFrom('2026-03-11', '2026-03-12', '2026-03-16').map<Step>((day) => ({ kind: 'rates', day })),
  fc
    .record({ order: fc.nat(20), refundedMinor: fc.integer({ min: 1, max: 5_000 }) })
    .map<Step>((s) => ({ kind: 'refund', ...s })),
  fc.record({ pick: fc.nat(40), archived: fc.boolean() }).map<Step>((s) => ({ kind: 'archive', ...s })),
  fc.nat(40).map<Step>((pick) => ({ kind: 'unmatch', pick })),
  fc.record({ pick: fc.nat(40), other: fc.nat(40) }).map<Step>((s) => ({ kind: 'manual', ...s })),
);

async function recordIds(userId: string): Promise<string[]> {
  const rows = await ownerQuery<{ id: string }>(
    `SELECT id FROM order_record WHERE user_id = $1 ORDER BY order_date, id`,
    [userId],
  );
  return rows.map((row) => row.id);
}

it('dashboard totals from rollups equal the sum of the rows, to the cent, in every currency and range, after any sequence of changes', async () => {
  const views = new OrderViewsRepository(dataSource);
  const analytics = new AnalyticsRepository(dataSource);
  const dashboardRollups = new DashboardRollupsRepository(dataSource);
  const edits = new OrderEditsService(dataSource);
  const fxRates = new FxRatesRepository(dataSource);
  let run = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(orderArb, { minLength: 1, maxLength: 6 }),
      fc.array(stepArb, { minLength: 1, maxLength: 8 }),
      fc.array(fc.integer({ min: -30 * 60, max: 6 * 24 * 60 }), { minLength: 2, maxLength: 2 }),
      fc.integer({ min: 1, max: 6 * 60 }),
      async (orders, steps, sinceMinutes, rangeMinutes) => {
        run += 1;
        // Rates stored by an earlier run are shared: start every run from the 03-13 rates alone.
        await ownerQuery(`DELETE FROM fx_rate WHERE rate_date <> '2026-03-13'`);
        const userId = await createFixtureUser(dataSource, `rollup-${run}`);
        const fixtures = orders.map((order, i) =>
          goldenUsdOrder(`r${i}`, {
            currency: order.currency,
            orderedAt: new Date(BASE + order.hours * HOUR_MS + order.minutes * 60_000),
            totalPriceMinor: order.totalPriceMinor,
            title: order.title,
            printify: order.withPrintify
              ? {
                  shopId: 'pfy',
                  orderId: `pfy-${i}`,
                  currency: 'USD',
                  lines: [{ quantity: 1, costMinor: order.costMinor, shippingMinor: 300 }],
                }
              : undefined,
          }),
        );
        for (const fixture of fixtures) await storeProfitOrder(dataSource, userId, fixture);
        const sinces = [
          new Date('2026-03-01T00:00:00Z'),
          ...[0, 2, 4].map((day) => new Date(BASE + day * 24 * HOUR_MS)),
          ...sinceMinutes.map((minutes) => new Date(BASE + minutes * 60_000)),
        ];
        // Bounded ranges (as the Analytics page's previous period): from each instant to the next
        // (across midnights, or empty), and a few hours from each random one (often within one day).
        const ascending = [...sinces].sort((a, b) => a.getTime() - b.getTime());
        const ranges = [
          ...ascending.slice(1).map((until, i) => ({ from: ascending[i], until })),
          ...sinceMinutes.map((minutes) => ({
            from: new Date(BASE + minutes * 60_000),
            until: new Date(BASE + (minutes + rangeMinutes) * 60_000),
          })),
        ];
        for (const step of steps) {
          const ids = await recordIds(userId);
          const pick = (n: number) => ids[n % Math.max(ids.length, 1)];
          if (step.kind === 'match') await new UserMatcher(dataSource).matchUser(userId, NOW);
          else if (step.kind === 'profits')
            await new UserProfits(dataSource, () => NOW, 2).computeUser(userId, { force: step.force });
          else if (step.kind === 'rates')
            await fxRates.upsertRates(
              [
                { date: step.day, currency: 'GBP', perEur: '0.86' },
                { date: step.day, currency: 'USD', perEur: '1.07' },
              ],
              'test',
              NOW,
            );
          else if (step.kind === 'refund') {
            const index = step.order % fixtures.length;
            fixtures[index] = {
              ...fixtures[index],
              refundedMinor: step.refundedMinor,
              version: (fixtures[index].version ?? 0) + 1,
            };
            await storeProfitOrder(dataSource, userId, fixtures[index]);
          } else if (ids.length > 0 && step.kind === 'archive')
            await edits.setArchived(userId, pick(step.pick), step.archived);
          else if (ids.length > 0 && step.kind === 'unmatch') await edits.unmatch(userId, pick(step.pick));
          else if (ids.length > 0 && step.kind === 'manual')
            await edits.matchByHand(userId, pick(step.pick), pick(step.other));
          for (const currency of DISPLAY_CURRENCY_CODES) {
            for (const since of sinces) {
              const { hasOrders, ...fromRollups } = await views.dashboard(userId, currency, since);
              expect({ step, currency, since, sums: fromRollups }).toEqual({
                step,
                currency,
                since,
                sums: await rowSums(userId, currency, since),
              });
              expect(hasOrders).toBe(true);
              expect({
                step,
                currency,
                since,
                breakdown: await analytics.composition(userId, currency, since),
              }).toEqual({
                step,
                currency,
                since,
                breakdown: await rowComposition(userId, currency, since),
              });
            }
            for (const { from, until } of ranges) {
              const { hasOrders, ...fromRollups } = await views.dashboard(userId, currency, from, until);
              expect({ step, currency, from, until, sums: fromRollups }).toEqual({
                step,
                currency,
                from,
                until,
                sums: await rowSums(userId, currency, from, until),
              });
              expect(hasOrders).toBe(true);
              // The Analytics page reads the same as one statement: each part as its read alone.
              const bucket = BUCKETS[(from.getTime() / 60_000) % BUCKETS.length];
              expect({
                step,
                currency,
                from,
                until,
                page: await analytics.page(userId, currency, { since: until, previousSince: from, bucket }),
              }).toEqual({
                step,
                currency,
                from,
                until,
                page: {
                  current: await dashboardRollups.sums(userId, currency, { from: until }),
                  previous: await dashboardRollups.sums(userId, currency, { from, to: until }),
                  series: await analytics.series(userId, currency, until, bucket),
                  composition: await analytics.composition(userId, currency, until),
                },
              });
            }
          }
          await expectRollupRowsExact(userId);
        }
      },
    ),
    {
      numRuns: 20,
      // Report the first failing run with its seed: shrinking one (each try a fresh seller and
      // its steps) outlasted the test's 10 minutes once in CI and printed nothing of it.
      endOnFailure: true,
      // Random runs often end with no figures summed (no profit run after the match, or no
      // rate): one run that always has them, with several titles, none, a refund and an archive.
      examples: [
        [
          [
            {
              hours: 0,
              minutes: 0,
              currency: 'USD',
              totalPriceMinor: 3000,
              costMinor: 1200,
              withPrintify: true,
              title: 'Cat Mug 11oz',
            },
            {
              hours: 26,
              minutes: 30,
              currency: 'EUR',
              totalPriceMinor: 4500,
              costMinor: 900,
              withPrintify: true,
              title: 'Dog Tee',
            },
            {
              hours: 27,
              minutes: 0,
              currency: 'USD',
              totalPriceMinor: 2500,
              costMinor: 800,
              withPrintify: true,
              title: '',
            },
            {
              hours: 50,
              minutes: 15,
              currency: 'USD',
              totalPriceMinor: 1000,
              costMinor: 1900,
              withPrintify: true,
              title: 'Dog Tee',
            },
          ],
          [
            { kind: 'match' },
            { kind: 'profits', force: false },
            { kind: 'refund', order: 1, refundedMinor: 700 },
            { kind: 'profits', force: false },
            { kind: 'archive', pick: 0, archived: true },
            { kind: 'unmatch', pick: 2 },
            { kind: 'profits', force: true },
          ],
          [30, 26 * 60 + 45],
          120,
        ],
      ],
    },
  );
}, 600_000);
