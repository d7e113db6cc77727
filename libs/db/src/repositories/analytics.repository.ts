import type { DisplayCurrencyCode } from '@pod/domain';
import { addDaysToIsoDate, utcMidnightOf } from '@pod/domain';
import { DataSource, type EntityManager } from 'typeorm';
import type { Db } from './database-session';
import { inTenantScope, withTenant } from './tenant-scope';
import { readsAsOne, runRead, type SqlRead } from './sql-read';
import { dashboardSumsRead, type DashboardRangeSums } from './dashboard-rollups.repository';
import { FIGURE_AGGREGATES_SQL, FIGURES_JOIN_SQL, LONE_PRINTIFY_JOIN_SQL } from './figures-sql';
import {
  BREAKDOWN_COLUMNS,
  BREAKDOWN_ORDERS_SQL,
  BREAKDOWN_ORDERS_WHERE,
  SIGNED_LINE_MINOR_SQL,
} from './analytics-rollups';
import { DAY_SQL, firstWholeDayAfter, isoDay, safeInteger } from './day-rollups';

export type AnalyticsBucketUnit = 'day' | 'week' | 'month';

/** One bucket of the series: its first UTC day ('YYYY-MM-DD') and the orders' sums in it. */
export interface AnalyticsSeriesRow {
  start: string;
  revenueMinor: number;
  costsMinor: number;
  netProfitMinor: number;
}

/** The orders' costs by line kind, and their profit by product title (best and worst ten). */
export interface AnalyticsComposition {
  costsByKind: { kind: string; costMinor: number }[];
  best: AnalyticsProductRow[];
  worst: AnalyticsProductRow[];
}

export interface AnalyticsProductRow {
  product: string | null;
  orders: number;
  revenueMinor: number;
  netProfitMinor: number;
}

/** The Analytics page's range: since `since`, the previous period [previousSince, since), and the series' buckets. */
export interface AnalyticsPageRange {
  since: Date;
  previousSince: Date;
  bucket: AnalyticsBucketUnit;
}

/** What the Analytics page reads, all of one snapshot. */
export interface AnalyticsPageReads {
  current: DashboardRangeSums;
  previous: DashboardRangeSums;
  series: AnalyticsSeriesRow[];
  composition: AnalyticsComposition;
}

const ORDER_SUMS = ['revenue_minor', 'costs_minor', 'net_profit_minor'] as const;

/** The transactions inSnapshot started, whose JIT is off already (the composition skips its SET). */
const JIT_OFF = new WeakSet<EntityManager>();

/**
 * The Analytics page's reads (docs/adr/0038-analytics.md), from the same sources as the
 * Dashboard so its totals equal the Dashboard's to the cent: whole UTC days from dashboard_day,
 * shop_cost_day and the breakdowns' cost_kind_day and product_day, part-days from the rows
 * through the same aggregates.
 */
export class AnalyticsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Runs the page's reads (`work`, through repositories built on the manager it is given) in one
   * read-only transaction scoped to the user, at REPEATABLE READ and with JIT off:
   * - one snapshot, so the headline, the previous period, the series and the breakdowns are of
   *   the same state even when a profit run commits between two of them (the series and the cost
   *   lines then still add up to the headline);
   * - one connection and scope for all of them instead of a transaction each (three round trips
   *   and a pool checkout per read saved);
   * - no JIT: a big seller's year estimates past jit_above_cost, and compiling took longer than
   *   running (the composition's 313 ms, ADR 0038).
   * Inside a caller's transaction `work` runs in it as it is.
   */
  async inSnapshot<T>(userId: string, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (!(this.db instanceof DataSource)) return inTenantScope(this.db, userId, work);
    return withTenant(
      this.db,
      userId,
      (manager) => {
        JIT_OFF.add(manager);
        return work(manager);
      },
      { snapshot: true, settings: 'SET LOCAL jit = off' },
    );
  }

  /** The orders' sums per bucket since `since` (analyticsSeriesRead). */
  async series(
    userId: string,
    currency: DisplayCurrencyCode,
    since: Date,
    unit: AnalyticsBucketUnit,
  ): Promise<AnalyticsSeriesRow[]> {
    return inTenantScope(this.db, userId, (db) => runRead(db, analyticsSeriesRead(userId, currency, since, unit)));
  }

  /** The orders since `since` broken down by cost kind and product (analyticsCompositionRead), JIT off. */
  async composition(userId: string, currency: DisplayCurrencyCode, since: Date): Promise<AnalyticsComposition> {
    return inTenantScope(this.db, userId, async (db) => {
      if (!JIT_OFF.has(db)) await db.query('SET LOCAL jit = off');
      return runRead(db, analyticsCompositionRead(userId, currency, since));
    });
  }

  /**
   * Everything the Analytics page reads, as one statement (readsAsOne) in one read-only
   * transaction (inSnapshot): the range's sums and the previous period's (the Dashboard's
   * read, so they equal its totals), the series and the breakdowns. One round trip for the four
   * instead of one each (ADR 0038, fifth amendment).
   */
  async page(userId: string, currency: DisplayCurrencyCode, range: AnalyticsPageRange): Promise<AnalyticsPageReads> {
    const read = readsAsOne({
      current: dashboardSumsRead(userId, currency, { from: range.since }),
      previous: dashboardSumsRead(userId, currency, { from: range.previousSince, to: range.since }),
      series: analyticsSeriesRead(userId, currency, range.since, range.bucket),
      composition: analyticsCompositionRead(userId, currency, range.since),
    });
    return this.inSnapshot(userId, (manager) => runRead(manager, read));
  }
}

/**
 * The orders' sums per bucket over orders dated on or after `since` (the Dashboard's range):
 * the rollup's whole days, and the part-day before the first midnight from the rows, dated on
 * `since`'s day. Only buckets with a row are returned, oldest first; the caller fills the gaps.
 */
export function analyticsSeriesRead(
  userId: string,
  currency: DisplayCurrencyCode,
  since: Date,
  unit: AnalyticsBucketUnit,
): SqlRead<AnalyticsSeriesRow[]> {
  const firstWholeDay = firstWholeDayAfter(since);
  return {
    text: `SELECT to_char(date_trunc($6, parts.day::timestamp), 'YYYY-MM-DD') AS start,
           ${ORDER_SUMS.map((column) => `sum(${column})::text AS ${column}`).join(', ')}
         FROM (
           SELECT day, ${ORDER_SUMS.join(', ')} FROM dashboard_day WHERE user_id = $1 AND currency = $2 AND day >= $4::date
           UNION ALL
           SELECT ${DAY_SQL} AS day, ${ORDER_SUMS.join(', ')} FROM (
             SELECT r.order_date, ${FIGURE_AGGREGATES_SQL}
             FROM order_record r ${FIGURES_JOIN_SQL('$2::char(3)')} ${LONE_PRINTIFY_JOIN_SQL}
             WHERE r.user_id = $1 AND r.order_date >= $3 AND r.order_date < $5
             GROUP BY r.order_date) r
         ) parts
         GROUP BY 1 ORDER BY 1`,
    values: [userId, currency, since, isoDay(firstWholeDay), firstWholeDay, unit],
    shape: 'rows',
    parse: (rows) =>
      rows
        .map((row) => ({
          start: String(row.start),
          revenueMinor: safeInteger(row.revenue_minor),
          costsMinor: safeInteger(row.costs_minor),
          netProfitMinor: safeInteger(row.net_profit_minor),
        }))
        // As one part of a statement its rows come through json_agg, which promises no order.
        .sort((left, right) => (left.start < right.start ? -1 : left.start > right.start ? 1 : 0)),
  };
}

/**
 * The orders summed by the Dashboard since `since` (current figures, a receipt, not awaiting
 * their Printify cost, with a rate), broken down: their stored cost lines summed by kind (the
 * lines of an order add up to its costs, so the kinds add up to the Dashboard's total costs),
 * and their profit by product title, best and worst ten. Whole UTC days from cost_kind_day and
 * product_day, the part-day before the first midnight from the rows through the same
 * selection (analytics-rollups.ts), as `series` does: O(days × kinds + days × products) rows
 * instead of every order of the range and its cost lines (0.65–0.84 s for a 100k-order
 * seller's year before the rollups; ADR 0038's amendment).
 *
 * JIT off, as for the export (ADR 0039): a big seller's year of product days still estimates
 * past jit_above_cost, and compiling a plan of this shape took 313 ms where running it takes
 * a fraction of that (EXPLAIN ANALYZE, bench:load's database).
 */
export function analyticsCompositionRead(
  userId: string,
  currency: DisplayCurrencyCode,
  since: Date,
): SqlRead<AnalyticsComposition> {
  const firstWholeDay = firstWholeDayAfter(since);
  return {
    text: `WITH part_day AS MATERIALIZED (
           SELECT ${BREAKDOWN_COLUMNS} ${BREAKDOWN_ORDERS_SQL('$2::char(3)')}
           WHERE r.user_id = $1 AND r.order_date >= $3 AND r.order_date < $5 AND ${BREAKDOWN_ORDERS_WHERE}
         ), products AS (
           SELECT nullif(product, '') AS product, sum(orders)::int AS orders, sum(revenue_minor)::text AS revenue_minor,
             sum(net_profit_minor)::text AS net_profit_minor, sum(net_profit_minor) AS profit
           FROM (
             SELECT product, orders, revenue_minor, net_profit_minor FROM product_day
             WHERE user_id = $1 AND currency = $2 AND day >= $4::date
             UNION ALL
             SELECT product, 1, coalesce(revenue_minor, 0), coalesce(net_profit_minor, 0) FROM part_day
           ) parts GROUP BY product
         )
         SELECT
           (SELECT coalesce(json_agg(c ORDER BY c.kind), '[]') FROM (
              SELECT kind, sum(cost_minor)::text AS cost_minor FROM (
                SELECT kind, cost_minor FROM cost_kind_day WHERE user_id = $1 AND currency = $2 AND day >= $4::date
                UNION ALL
                SELECT line->>'kind', ${SIGNED_LINE_MINOR_SQL} FROM part_day, jsonb_array_elements(part_day.breakdown->'costLines') line
              ) parts GROUP BY kind) c) AS costs,
           (SELECT coalesce(json_agg(b), '[]') FROM (
              SELECT product, orders, revenue_minor, net_profit_minor FROM products ORDER BY profit DESC, product LIMIT 10) b) AS best,
           (SELECT coalesce(json_agg(w), '[]') FROM (
              SELECT product, orders, revenue_minor, net_profit_minor FROM products ORDER BY profit ASC, product LIMIT 10) w) AS worst`,
    values: [userId, currency, since, isoDay(firstWholeDay), firstWholeDay],
    shape: 'row',
    parse(rows) {
      const row = rows[0] ?? {};
      const products = (list: unknown) =>
        (list as { product: string | null; orders: number; revenue_minor: string; net_profit_minor: string }[]).map(
          (product) => ({
            product: product.product,
            orders: product.orders,
            revenueMinor: safeInteger(product.revenue_minor),
            netProfitMinor: safeInteger(product.net_profit_minor),
          }),
        );
      return {
        costsByKind: (row.costs as { kind: string; cost_minor: string }[]).map((cost) => ({
          kind: cost.kind,
          costMinor: safeInteger(cost.cost_minor),
        })),
        best: products(row.best),
        worst: products(row.worst),
      };
    },
  };
}

/** The first day of the bucket holding `isoDate` (weeks start on Monday, like PostgreSQL's date_trunc). */
export function bucketStartOf(isoDate: string, unit: AnalyticsBucketUnit): string {
  if (unit === 'day') return isoDate;
  if (unit === 'month') return `${isoDate.slice(0, 7)}-01`;
  const weekday = (utcMidnightOf(isoDate).getUTCDay() + 6) % 7;
  return addDaysToIsoDate(isoDate, -weekday);
}
