import { utcMidnightOf, type DisplayCurrencyCode, type ShopCostKind } from '@pod/domain';
import type { Db } from './database-session';
import { inTenantScope } from './tenant-scope';
import { DAY_SQL, dayWindow, firstWholeDayAfter, isoDay, safeInteger } from './day-rollups';
import { refreshBreakdownDays } from './analytics-rollups';
import { runRead, type SqlRead } from './sql-read';
import { FIGURE_AGGREGATES_SQL, FIGURES_JOIN_SQL, LONE_PRINTIFY_JOIN_SQL } from './figures-sql';

export { FIGURE_AGGREGATES_SQL, FIGURES_JOIN_SQL, LONE_PRINTIFY_JOIN_SQL } from './figures-sql';

/** The dashboard's counts and sums, from rows or rollups alike (bigint sums as text). */
export const SUM_COLUMNS = [
  'matched',
  'pending',
  'unmatched',
  'summed',
  'provisional',
  'without_rate',
  'not_computed',
  'awaiting_printify',
  'estimated_printify',
  'revenue_minor',
  'costs_minor',
  'net_profit_minor',
  'printify_sample_minor',
  'printify_manual_minor',
  'printify_unattached_minor',
] as const;

/** One kind of shop cost over a range, in the display currency (ADR 0027). */
export interface ShopCostSum {
  kind: ShopCostKind;
  costMinor: number;
  entries: number;
  withoutRate: number;
  /** Entries converted at a stand-in day's rates (migration 1765640000000). */
  provisional: number;
}

/** The `shop_costs` column (a json_agg of shop_cost_day sums by kind) of a sums row. */
export function shopCostsOf(row: Record<string, unknown>): ShopCostSum[] {
  const costs = (row.shop_costs ?? []) as {
    kind: ShopCostKind;
    cost_minor: string;
    entries: number;
    without_rate: number;
    provisional: number;
  }[];
  return costs.map((cost) => ({
    kind: cost.kind,
    costMinor: safeInteger(cost.cost_minor),
    entries: cost.entries,
    withoutRate: cost.without_rate,
    provisional: cost.provisional,
  }));
}

/** Orders dated in [from, to); on or after `from` when `to` is left out. */
export interface OrderDateRange {
  from: Date;
  to?: Date;
}

/** The dashboard's counts and sums: integers (a sum past 2^53 is refused, never rounded). */
export type DashboardFigureSums = Record<(typeof SUM_COLUMNS)[number], number>;

/**
 * dashboard_day: the dashboard's counts and sums per user, UTC day and display currency
 * (docs/adr/0018-rollups.md), so the dashboard reads O(days) rows instead of every order.
 * Every writer of order_record or order_profit refreshes the days it touched, in its own
 * transaction and under the user's matching lock (which serializes the delete-and-insert):
 * OrderRecordsRepository (matcher runs, manual match), OrderEditsService (unmatch,
 * archive, restore), the profit writer. A refresh recomputes a day from the rows, so it is
 * exact whatever changed; an account's deletion cascades here too.
 */
export class DashboardRollupsRepository {
  constructor(private readonly db: Db) {}

  /** The UTC days of some of the user's records (dated ones), e.g. before they change or go. */
  async daysOf(userId: string, recordIds: readonly string[]): Promise<string[]> {
    if (recordIds.length === 0) return [];
    const rows: { day: string }[] = await inTenantScope(this.db, userId, (db) =>
      db.query(
        `SELECT DISTINCT ${DAY_SQL}::text AS day FROM order_record r WHERE r.user_id = $1 AND r.id = ANY($2::uuid[]) AND r.order_date IS NOT NULL`,
        [userId, [...recordIds]],
      ),
    );
    return rows.map((row) => row.day);
  }

  /**
   * Recomputes the user's rollup rows of `days` from the records and their figures, and the
   * Analytics page's breakdowns of those days (cost_kind_day, product_day) with them. Run it in
   * the writer's transaction, after its writes, under lockUserForMatching.
   */
  async refreshDays(userId: string, days: Iterable<string>): Promise<void> {
    const window = dayWindow(days);
    if (!window) return;
    const { days: sorted, from, to } = window;
    await inTenantScope(this.db, userId, async (db) => {
      await db.query(`DELETE FROM dashboard_day WHERE user_id = $1 AND day = ANY($2::date[])`, [userId, sorted]);
      await db.query(
        `INSERT INTO dashboard_day (user_id, currency, day, ${SUM_COLUMNS.join(', ')})
         SELECT $1, c.currency, ${DAY_SQL}, ${FIGURE_AGGREGATES_SQL}
         FROM order_record r
         CROSS JOIN (VALUES ('USD'::char(3)), ('EUR'::char(3)), ('GBP'::char(3))) AS c(currency)
         ${FIGURES_JOIN_SQL('c.currency')} ${LONE_PRINTIFY_JOIN_SQL}
         WHERE r.user_id = $1 AND r.order_date >= $3 AND r.order_date < $4 AND ${DAY_SQL} = ANY($2::date[])
         GROUP BY c.currency, ${DAY_SQL}`,
        [userId, sorted, from, to],
      );
      await refreshBreakdownDays(db, userId, sorted, from, to);
    });
  }

  /**
   * Recomputes every rollup row of the user: the days of their records and the days
   * stored. For a repair after a change made outside the repositories (tests, an operator's SQL).
   */
  async refreshUser(userId: string): Promise<void> {
    const rows: { day: string }[] = await inTenantScope(this.db, userId, (db) =>
      db.query(
        `SELECT ${DAY_SQL}::text AS day FROM order_record r WHERE r.user_id = $1 AND r.order_date IS NOT NULL
         UNION SELECT day::text FROM dashboard_day WHERE user_id = $1
         UNION SELECT day::text FROM cost_kind_day WHERE user_id = $1
         UNION SELECT day::text FROM product_day WHERE user_id = $1`,
        [userId],
      ),
    );
    await this.refreshDays(
      userId,
      rows.map((row) => row.day),
    );
  }

  /** Refreshes the days of the given records (after their figures changed). */
  async refreshRecords(userId: string, recordIds: readonly string[]): Promise<void> {
    await this.refreshDays(userId, await this.daysOf(userId, recordIds));
  }

  /** The dashboard's sums over orders dated in [from, to) (dashboardSumsRead), in one round trip inside its scope. */
  async sums(userId: string, currency: DisplayCurrencyCode, range: OrderDateRange): Promise<DashboardRangeSums> {
    return inTenantScope(this.db, userId, (db) => runRead(db, dashboardSumsRead(userId, currency, range)));
  }
}

/** The dashboard's counts and sums over a range, whether the user has orders, and their shop costs. */
export type DashboardRangeSums = DashboardFigureSums & { hasOrders: boolean; shopCosts: ShopCostSum[] };

/**
 * The dashboard's sums over orders dated in [from, to), or on or after `from` when `to` is
 * left out (the Dashboard's range; the Analytics page's previous period is bounded): whole
 * UTC days from the rollup, and the part-days at either end from the rows (a few hundred at
 * most), so the answer is the rows' sum over exactly that instant range. Shop costs
 * (shop_cost_day, kept by day only) over the whole UTC days from `from`'s first midnight to
 * `to`'s, so adjacent ranges share no day. With it, whether the user has any synced order at
 * all (the empty dashboard's prompt): one statement.
 */
export function dashboardSumsRead(
  userId: string,
  currency: DisplayCurrencyCode,
  range: OrderDateRange,
): SqlRead<DashboardRangeSums> {
  const { from, to } = range;
  const wholeFrom = firstWholeDayAfter(from);
  // The head part-day ends at the first midnight, or at `to` when the range ends before it.
  const headTo = to && to < wholeFrom ? to : wholeFrom;
  const values: unknown[] = [userId, currency, from, isoDay(wholeFrom), headTo];
  let daysBound = '';
  let shopDaysBound = '';
  let tailPartDay = '';
  if (to) {
    const wholeTo = new Date(Math.max(utcMidnightOf(isoDay(to)).getTime(), wholeFrom.getTime()));
    values.push(isoDay(wholeTo), isoDay(firstWholeDayAfter(to)), wholeTo, to);
    daysBound = ' AND day < $6::date';
    shopDaysBound = ' AND day < $7::date';
    tailPartDay = ' OR (r.order_date >= $8 AND r.order_date < $9)';
  }
  const sums = SUM_COLUMNS.map((column) => `coalesce(sum(${column}), 0)::text AS ${column}`).join(', ');
  return {
    text: `SELECT ${sums},
           EXISTS (SELECT 1 FROM etsy_receipt WHERE user_id = $1) OR EXISTS (SELECT 1 FROM printify_order WHERE user_id = $1) AS has_orders,
           (SELECT coalesce(json_agg(k ORDER BY k.kind), '[]') FROM (
              SELECT kind, sum(cost_minor)::text AS cost_minor, sum(entries)::int AS entries, sum(without_rate)::int AS without_rate,
                sum(provisional)::int AS provisional
              FROM shop_cost_day WHERE user_id = $1 AND currency = $2 AND day >= $4::date${shopDaysBound} GROUP BY kind) k) AS shop_costs
         FROM (
           SELECT ${SUM_COLUMNS.join(', ')} FROM dashboard_day WHERE user_id = $1 AND currency = $2 AND day >= $4::date${daysBound}
           UNION ALL
           SELECT ${FIGURE_AGGREGATES_SQL}
           FROM order_record r ${FIGURES_JOIN_SQL('$2::char(3)')} ${LONE_PRINTIFY_JOIN_SQL}
           WHERE r.user_id = $1 AND ((r.order_date >= $3 AND r.order_date < $5)${tailPartDay})
         ) parts`,
    values,
    shape: 'row',
    parse(rows) {
      const row = rows[0] ?? {};
      const figures = Object.fromEntries(SUM_COLUMNS.map((column) => [column, safeInteger(row[column])]));
      return { ...(figures as DashboardFigureSums), hasOrders: row.has_orders === true, shopCosts: shopCostsOf(row) };
    },
  };
}

/** The Dashboard's totals over a range (OrderViewsRepository.dashboard), named for the views. */
export interface DashboardSums {
  matched: number;
  pending: number;
  unmatched: number;
  summed: number;
  /** Of the summed: figures at provisional rates. */
  provisional: number;
  withoutRate: number;
  notComputed: number;
  /** Receipts awaiting their Printify order with no estimate: out of the sums (ADR 0031). */
  awaitingPrintify: number;
  /** Receipts awaiting their Printify order, summed with an estimated Printify cost. */
  estimatedPrintify: number;
  revenueMinor: number;
  costsMinor: number;
  netProfitMinor: number;
  /** Costs of lone Printify records by their order type, out of the order sums above. */
  printifyOnly: { sample: number; manual: number; unattached: number };
  shopCosts: ShopCostSum[];
  hasOrders: boolean;
}

/** The sums of a range as the views name them. */
export function dashboardSumsOf(sums: DashboardRangeSums): DashboardSums {
  return {
    matched: sums.matched,
    pending: sums.pending,
    unmatched: sums.unmatched,
    summed: sums.summed,
    provisional: sums.provisional,
    withoutRate: sums.without_rate,
    notComputed: sums.not_computed,
    awaitingPrintify: sums.awaiting_printify,
    estimatedPrintify: sums.estimated_printify,
    revenueMinor: sums.revenue_minor,
    costsMinor: sums.costs_minor,
    netProfitMinor: sums.net_profit_minor,
    printifyOnly: {
      sample: sums.printify_sample_minor,
      manual: sums.printify_manual_minor,
      unattached: sums.printify_unattached_minor,
    },
    shopCosts: sums.shopCosts,
    hasOrders: sums.hasOrders,
  };
}
