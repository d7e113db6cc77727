/**
 * The Analytics page's breakdowns kept by day (migration 1765701300000-analytics-rollups, ADR
 * 0038): cost_kind_day (signed cost lines by kind) and product_day (orders, revenue and profit by
 * product title), refreshed with dashboard_day and read like it, whole days from the tables and
 * part-days from the rows, through the one selection below so both sum exactly the same orders.
 */
import type { Db } from './database-session';
import { FIGURES_JOIN_SQL, LONE_PRINTIFY_JOIN_SQL } from './figures-sql';
import { DAY_SQL } from './day-rollups';

/** The per-record figures the breakdowns read (with what `f.counted` needs). */
const BREAKDOWN_FIGURES =
  'p.record_sides, p.figures, p.printify_cost, p.revenue_minor, p.net_profit_minor, p.breakdown';

/**
 * The orders the Dashboard sums (current figures that count, of a receipt, not awaiting their
 * Printify cost) that have a rate: with `r` an order_record, their figures in `currencySql`,
 * their day and product title ('' for none: a key column cannot be null, and an empty title is
 * no title either). `currenciesSql`: a FROM item giving `currencySql`'s column, joined before the figures.
 */
export const BREAKDOWN_ORDERS_SQL = (currencySql: string, currenciesSql = '') => `
  FROM order_record r ${currenciesSql} ${FIGURES_JOIN_SQL(currencySql, BREAKDOWN_FIGURES)} ${LONE_PRINTIFY_JOIN_SQL}`;
export const BREAKDOWN_ORDERS_WHERE = `f.counted AND l.kind IS NULL AND p.figures <> 'rate_unavailable'`;
export const BREAKDOWN_COLUMNS = `${DAY_SQL} AS day, coalesce(r.product_title, '') AS product, p.revenue_minor, p.net_profit_minor, p.breakdown`;

/** A stored cost line `line` (jsonb) in display minor units, negative when it gives money back (a refunded fee). */
export const SIGNED_LINE_MINOR_SQL = `(line->'display'->>'minor')::bigint * coalesce((line->>'sign')::int, 1)`;

/**
 * Recomputes the user's cost_kind_day and product_day rows of `days` (each once, in order)
 * spanning [from, to) from the records and their figures: one read of the rows in all three
 * currencies feeding both tables. Run inside the user's tenant scope, in the writer's
 * transaction, under its matching lock (as dashboard_day's refresh, which calls it).
 */
export async function refreshBreakdownDays(
  db: Db,
  userId: string,
  days: string[],
  from: Date,
  to: Date,
): Promise<void> {
  await db.query(`DELETE FROM cost_kind_day WHERE user_id = $1 AND day = ANY($2::date[])`, [userId, days]);
  await db.query(`DELETE FROM product_day WHERE user_id = $1 AND day = ANY($2::date[])`, [userId, days]);
  await db.query(
    `WITH summed AS MATERIALIZED (
       SELECT c.currency, ${BREAKDOWN_COLUMNS}
       ${BREAKDOWN_ORDERS_SQL('c.currency', `CROSS JOIN (VALUES ('USD'::char(3)), ('EUR'::char(3)), ('GBP'::char(3))) AS c(currency)`)}
       WHERE r.user_id = $1 AND r.order_date >= $3 AND r.order_date < $4 AND ${DAY_SQL} = ANY($2::date[])
         AND ${BREAKDOWN_ORDERS_WHERE}
     ), products AS (
       INSERT INTO product_day (user_id, currency, day, product, orders, revenue_minor, net_profit_minor)
       SELECT $1::uuid, currency, day, product, count(*), coalesce(sum(revenue_minor), 0), coalesce(sum(net_profit_minor), 0)
       FROM summed GROUP BY currency, day, product
     )
     INSERT INTO cost_kind_day (user_id, currency, day, kind, cost_minor)
     SELECT $1::uuid, currency, day, line->>'kind', coalesce(sum(${SIGNED_LINE_MINOR_SQL}), 0)
     FROM summed, jsonb_array_elements(summed.breakdown->'costLines') line
     GROUP BY currency, day, line->>'kind'`,
    [userId, days, from, to],
  );
}
