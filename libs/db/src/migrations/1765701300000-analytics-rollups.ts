import type { MigrationInterface, QueryRunner } from 'typeorm';

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
const SCOPED_USER = `nullif(current_setting('app.user_id', true), '')::uuid`;

/**
 * The orders the Analytics page breaks down, per user, display currency and UTC day: receipts
 * with current figures that count in the Dashboard's sums and have a rate (a frozen copy of
 * AnalyticsRollups' selection, written out without the repositories' SQL helpers so this
 * migration stays what it was when they change).
 */
const SUMMED_ORDERS_SQL = `
      SELECT r.user_id, c.currency, (r.order_date AT TIME ZONE 'UTC')::date AS day, coalesce(r.product_title, '') AS product,
        p.revenue_minor, p.net_profit_minor, p.breakdown
      FROM order_record r
      CROSS JOIN (VALUES ('USD'::char(3)), ('EUR'::char(3)), ('GBP'::char(3))) AS c(currency)
      JOIN order_profit p ON p.order_record_id = r.id AND p.currency = c.currency AND p.user_id = r.user_id
      WHERE r.order_date IS NOT NULL AND (r.etsy_receipt_id IS NOT NULL OR r.printify_order_id IS NULL)
        AND p.record_sides = (coalesce(r.etsy_shop_id || ':' || r.etsy_receipt_id, '') || '|' || coalesce(r.printify_shop_id || ':' || r.printify_order_id, ''))
        AND p.printify_cost <> 'awaiting' AND p.figures <> 'rate_unavailable'`;

export const ANALYTICS_ROLLUPS_BACKFILL_SQL = `
      WITH summed AS MATERIALIZED (${SUMMED_ORDERS_SQL}),
      products AS (
        INSERT INTO product_day (user_id, currency, day, product, orders, revenue_minor, net_profit_minor)
        SELECT user_id, currency, day, product, count(*), coalesce(sum(revenue_minor), 0), coalesce(sum(net_profit_minor), 0)
        FROM summed GROUP BY 1, 2, 3, 4)
      INSERT INTO cost_kind_day (user_id, currency, day, kind, cost_minor)
      SELECT user_id, currency, day, line->>'kind',
        coalesce(sum((line->'display'->>'minor')::bigint * coalesce((line->>'sign')::int, 1)), 0)
      FROM summed, jsonb_array_elements(summed.breakdown->'costLines') line
      GROUP BY 1, 2, 3, 4`;

/**
 * The Analytics page's breakdowns kept by day, as the Dashboard's sums are (ADR 0018; ADR 0038's
 * amendment of 2026-11-29): read from the orders, "where the money goes" and "profit by product"
 * walked every order of the range and its stored cost lines, 0.65–0.84 s for a 100k-order
 * seller's year. With these tables the page reads O(days × kinds) and O(days × products) rows.
 *
 * - `cost_kind_day`: per user, display currency, UTC day and cost line kind, the sum of the
 *   summed orders' signed cost lines (a refund's reversed fee counts negative).
 * - `product_day`: per user, currency, day and product title ('' for an order without one),
 *   the summed orders' count, revenue and net profit.
 * - Kept by every writer of order_record and order_profit with dashboard_day, in the same
 *   refresh (DashboardRollupsRepository.refreshDays), in its transaction, under the user's
 *   matching lock; backfilled here; under row-level security like the other tenant tables (the
 *   app role's grants come from the schema's default privileges, 1765400000000).
 */
export class AnalyticsRollups1765701300000 implements MigrationInterface {
  name = 'AnalyticsRollups1765701300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const [{ schema }] = (await queryRunner.query(`SELECT current_schema() AS schema`)) as { schema: string }[];
    const s = quoteIdent(schema);
    await queryRunner.query(`
      CREATE TABLE cost_kind_day (
        user_id uuid NOT NULL CONSTRAINT cost_kind_day_user_id_fkey REFERENCES app_user (id) ON DELETE CASCADE,
        currency char(3) NOT NULL CONSTRAINT cost_kind_day_currency_check CHECK (currency IN ('USD', 'EUR', 'GBP')),
        day date NOT NULL,
        kind text NOT NULL,
        cost_minor bigint NOT NULL,
        CONSTRAINT cost_kind_day_pkey PRIMARY KEY (user_id, currency, day, kind)
      )`);
    await queryRunner.query(`
      CREATE TABLE product_day (
        user_id uuid NOT NULL CONSTRAINT product_day_user_id_fkey REFERENCES app_user (id) ON DELETE CASCADE,
        currency char(3) NOT NULL CONSTRAINT product_day_currency_check CHECK (currency IN ('USD', 'EUR', 'GBP')),
        day date NOT NULL,
        product text NOT NULL,
        orders integer NOT NULL CONSTRAINT product_day_orders_check CHECK (orders > 0),
        revenue_minor bigint NOT NULL,
        net_profit_minor bigint NOT NULL,
        CONSTRAINT product_day_pkey PRIMARY KEY (user_id, currency, day, product)
      )`);
    await queryRunner.query(`SELECT set_config('app.all_tenants', 'on', true)`);
    await queryRunner.query(ANALYTICS_ROLLUPS_BACKFILL_SQL);
    await queryRunner.query(`SELECT set_config('app.all_tenants', '', true)`);
    for (const table of ['cost_kind_day', 'product_day']) {
      await queryRunner.query(`ALTER TABLE ${s}.${table} ENABLE ROW LEVEL SECURITY`);
      await queryRunner.query(`ALTER TABLE ${s}.${table} FORCE ROW LEVEL SECURITY`);
      await queryRunner.query(
        `CREATE POLICY tenant_scope ON ${s}.${table} USING (user_id = ${SCOPED_USER}) WITH CHECK (user_id = ${SCOPED_USER})`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const [{ schema }] = (await queryRunner.query(`SELECT current_schema() AS schema`)) as { schema: string }[];
    const s = quoteIdent(schema);
    await queryRunner.query(`DROP TABLE ${s}.product_day`);
    await queryRunner.query(`DROP TABLE ${s}.cost_kind_day`);
  }
}
