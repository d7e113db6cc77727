import type { DisplayCurrencyCode } from '@pod/domain';
import { addDaysToIsoDate, utcMidnightOf } from '@pod/domain';
import type { Db } from './database-session';
import { inTenantScope } from './tenant-scope';
import { FIGURE_AGGREGATES_SQL, FIGURES_JOIN_SQL, LONE_PRINTIFY_JOIN_SQL } from './dashboard-rollups.repository';
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

const ORDER_SUMS = ['revenue_minor', 'costs_minor', 'net_profit_minor'] as const;

/** The per-record figures the composition reads: the dashboard's, plus the stored breakdown's cost lines. */
const COMPOSITION_FIGURES =
  'p.record_sides, p.figures, p.printify_cost, p.revenue_minor, p.costs_minor, p.net_profit_minor, p.breakdown';

/**
 * The Analytics page's reads (docs/adr/0038-analytics.md), from the same sources as the
 * Dashboard so its totals equal the Dashboard's to the cent: whole UTC days from dashboard_day
 * and shop_cost_day, part-days from the rows through the dashboard's own aggregates.
 */
export class AnalyticsRepository {
  constructor(private readonly db: Db) {}

  /**
   * The orders' sums per bucket over orders dated on or after `since` (the Dashboard's range):
   * the rollup's whole days, and the part-day before the first midnight from the rows, dated on
   * `since`'s day. Only buckets with a row are returned; the caller fills the gaps.
   */
  async series(
    userId: string,
    currency: DisplayCurrencyCode,
    since: Date,
    unit: AnalyticsBucketUnit,
  ): Promise<AnalyticsSeriesRow[]> {
    const firstWholeDay = firstWholeDayAfter(since);
    const rows: Record<string, string>[] = await inTenantScope(this.db, userId, (db) =>
      db.query(
        `SELECT to_char(date_trunc($6, parts.day::timestamp), 'YYYY-MM-DD') AS start,
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
        [userId, currency, since, isoDay(firstWholeDay), firstWholeDay, unit],
      ),
    );
    return rows.map((row) => ({
      start: row.start,
      revenueMinor: safeInteger(row.revenue_minor),
      costsMinor: safeInteger(row.costs_minor),
      netProfitMinor: safeInteger(row.net_profit_minor),
    }));
  }

  /**
   * The orders summed by the Dashboard since `since` (current figures, a receipt, not awaiting
   * their Printify cost), read once: their stored cost lines summed by kind (the lines of an
   * order add up to its costs, so the kinds add up to the Dashboard's total costs), and their
   * profit by product title, best and worst ten. One pass over the range's rows through the
   * record date index, one order_profit probe each; aggregated in SQL.
   *
   * JIT off for it, as for the export (ADR 0039): its estimated cost (a probe per record, then
   * jsonb walks) passes jit_optimize_above_cost, and compiling the plan took 313 of its 410 ms
   * for a 100k-order seller's year whose execution is 80 ms (EXPLAIN ANALYZE, bench:load's
   * database); compiled code barely speeds up the per-row jsonb work.
   */
  async composition(userId: string, currency: DisplayCurrencyCode, since: Date): Promise<AnalyticsComposition> {
    const rows: Record<string, unknown>[] = await inTenantScope(this.db, userId, async (db) => {
      await db.query('SET LOCAL jit = off');
      return db.query(
        `WITH summed AS MATERIALIZED (
           SELECT r.product_title, p.revenue_minor, p.net_profit_minor, p.breakdown
           FROM order_record r ${FIGURES_JOIN_SQL('$2::char(3)', COMPOSITION_FIGURES)} ${LONE_PRINTIFY_JOIN_SQL}
           WHERE r.user_id = $1 AND r.order_date >= $3 AND f.counted AND l.kind IS NULL AND p.figures <> 'rate_unavailable'
         ), products AS (
           SELECT product_title AS product, count(*)::int AS orders, sum(revenue_minor)::text AS revenue_minor,
             sum(net_profit_minor)::text AS net_profit_minor, sum(net_profit_minor) AS profit
           FROM summed GROUP BY product_title
         )
         SELECT
           (SELECT coalesce(json_agg(c ORDER BY c.kind), '[]') FROM (
              SELECT line->>'kind' AS kind,
                sum((line->'display'->>'minor')::bigint * coalesce((line->>'sign')::int, 1))::text AS cost_minor
              FROM summed, jsonb_array_elements(summed.breakdown->'costLines') line
              GROUP BY 1) c) AS costs,
           (SELECT coalesce(json_agg(b), '[]') FROM (
              SELECT product, orders, revenue_minor, net_profit_minor FROM products ORDER BY profit DESC, product LIMIT 10) b) AS best,
           (SELECT coalesce(json_agg(w), '[]') FROM (
              SELECT product, orders, revenue_minor, net_profit_minor FROM products ORDER BY profit ASC, product LIMIT 10) w) AS worst`,
        [userId, currency, since],
      );
    });
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
  }
}

/** The first day of the bucket holding `isoDate` (weeks start on Monday, like PostgreSQL's date_trunc). */
export function bucketStartOf(isoDate: string, unit: AnalyticsBucketUnit): string {
  if (unit === 'day') return isoDate;
  if (unit === 'month') return `${isoDate.slice(0, 7)}-01`;
  const weekday = (utcMidnightOf(isoDate).getUTCDay() + 6) % 7;
  return addDaysToIsoDate(isoDate, -weekday);
}
