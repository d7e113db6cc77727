import type { MigrationInterface, QueryRunner } from 'typeorm';

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
const SCOPED_USER = `nullif(current_setting('app.user_id', true), '')::uuid`;

/**
 * Every user's dashboard_day rows from their records and figures, in this migration's shape: a
 * frozen copy of DashboardRollupsRepository.refreshDays' aggregate of 2026-11-28 (sums over
 * every record, archived included; counts over active ones; a lone Printify record's cost in
 * its own column by order type, not in the order sums).
 */
const DASHBOARD_DAY_RECOMPUTE_SQL = `
      INSERT INTO dashboard_day
        (user_id, currency, day, matched, pending, unmatched, summed, provisional, without_rate, not_computed,
         revenue_minor, costs_minor, net_profit_minor, printify_sample_minor, printify_manual_minor, printify_unattached_minor)
      SELECT r.user_id, c.currency, (r.order_date AT TIME ZONE 'UTC')::date,
        count(*) FILTER (WHERE r.archived_at IS NULL AND r.status = 'matched'),
        count(*) FILTER (WHERE r.archived_at IS NULL AND r.status = 'pending'),
        count(*) FILTER (WHERE r.archived_at IS NULL AND r.status = 'unmatched'),
        count(*) FILTER (WHERE r.archived_at IS NULL AND f.fresh AND p.figures <> 'rate_unavailable'),
        count(*) FILTER (WHERE r.archived_at IS NULL AND f.fresh AND p.figures = 'provisional'),
        count(*) FILTER (WHERE r.archived_at IS NULL AND f.fresh AND p.figures = 'rate_unavailable'),
        count(*) FILTER (WHERE r.archived_at IS NULL AND NOT f.fresh),
        coalesce(sum(p.revenue_minor) FILTER (WHERE f.fresh AND NOT f.lone), 0),
        coalesce(sum(p.costs_minor) FILTER (WHERE f.fresh AND NOT f.lone), 0),
        coalesce(sum(p.net_profit_minor) FILTER (WHERE f.fresh AND NOT f.lone), 0),
        coalesce(sum(p.costs_minor) FILTER (WHERE f.fresh AND f.lone AND f.kind = 'sample'), 0),
        coalesce(sum(p.costs_minor) FILTER (WHERE f.fresh AND f.lone AND f.kind = 'manual'), 0),
        coalesce(sum(p.costs_minor) FILTER (WHERE f.fresh AND f.lone AND f.kind = 'unattached'), 0)
      FROM order_record r
      CROSS JOIN (VALUES ('USD'::char(3)), ('EUR'::char(3)), ('GBP'::char(3))) AS c(currency)
      LEFT JOIN order_profit p ON p.order_record_id = r.id AND p.currency = c.currency
      LEFT JOIN printify_order po ON po.user_id = r.user_id AND po.shop_id = r.printify_shop_id AND po.order_id = r.printify_order_id
      CROSS JOIN LATERAL (SELECT
        coalesce(p.record_sides = (coalesce(r.etsy_shop_id || ':' || r.etsy_receipt_id, '') || '|'
          || coalesce(r.printify_shop_id || ':' || r.printify_order_id, '')), false) AS fresh,
        r.etsy_receipt_id IS NULL AND r.printify_order_id IS NOT NULL AS lone,
        CASE lower(coalesce(po.order_type, '')) WHEN 'sample' THEN 'sample' WHEN 'manual' THEN 'manual' ELSE 'unattached' END AS kind) f
      WHERE r.order_date IS NOT NULL
      GROUP BY r.user_id, c.currency, (r.order_date AT TIME ZONE 'UTC')::date`;

/**
 * Shop costs and payouts (issue 17, docs/adr/0027-shop-costs-and-payouts.md).
 *
 * - `shop_cost_day`: per user, display currency, UTC day and shop-cost kind, the costs of the
 *   ledger entries no order carries (Etsy Ads, listing fees, subscriptions, labels, credits,
 *   unclassified types…), each converted at its own date's rate; `without_rate` counts the
 *   entries not converted yet. Written by the matcher's compute-profits run (ShopCosts), in its
 *   transaction under the user's matching lock; read by the dashboard through its key. Under
 *   row-level security like every tenant table.
 * - `dashboard_day`: the lone Printify records' costs (samples, manual orders, orders attached
 *   to no receipt) in columns of their own, out of the order sums; sums now include archived
 *   records (archiving hides an order from the lists, never a cost from the totals), counts
 *   stay over active records. Every row recomputed.
 * - `etsy_ledger_entry_created_idx`: the Payouts page walks a shop's ledger in created order.
 */
export class ShopCostsAndPayouts1765620000000 implements MigrationInterface {
  name = 'ShopCostsAndPayouts1765620000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const [{ schema }] = (await queryRunner.query(`SELECT current_schema() AS schema`)) as { schema: string }[];
    const s = quoteIdent(schema);
    await queryRunner.query(`
      CREATE TABLE shop_cost_day (
        user_id uuid NOT NULL CONSTRAINT shop_cost_day_user_id_fkey REFERENCES app_user (id) ON DELETE CASCADE,
        currency char(3) NOT NULL CONSTRAINT shop_cost_day_currency_check CHECK (currency IN ('USD', 'EUR', 'GBP')),
        day date NOT NULL,
        kind text NOT NULL,
        cost_minor bigint NOT NULL,
        entries integer NOT NULL,
        without_rate integer NOT NULL,
        CONSTRAINT shop_cost_day_pkey PRIMARY KEY (user_id, currency, day, kind)
      )`);
    await queryRunner.query(`ALTER TABLE ${s}.shop_cost_day ENABLE ROW LEVEL SECURITY`);
    await queryRunner.query(`ALTER TABLE ${s}.shop_cost_day FORCE ROW LEVEL SECURITY`);
    await queryRunner.query(
      `CREATE POLICY tenant_scope ON ${s}.shop_cost_day USING (user_id = ${SCOPED_USER}) WITH CHECK (user_id = ${SCOPED_USER})`,
    );
    await queryRunner.query(
      `CREATE INDEX etsy_ledger_entry_created_idx ON etsy_ledger_entry (user_id, shop_id, entry_created_at)`,
    );
    for (const column of ['printify_sample_minor', 'printify_manual_minor', 'printify_unattached_minor']) {
      await queryRunner.query(`ALTER TABLE dashboard_day ADD COLUMN ${column} bigint NOT NULL DEFAULT 0`);
      await queryRunner.query(`ALTER TABLE dashboard_day ALTER COLUMN ${column} DROP DEFAULT`);
    }
    // Every user's rows (as 1765520000000's backfill, the migrating login reads across users).
    await queryRunner.query(`DELETE FROM dashboard_day`);
    await queryRunner.query(DASHBOARD_DAY_RECOMPUTE_SQL);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const column of ['printify_sample_minor', 'printify_manual_minor', 'printify_unattached_minor']) {
      await queryRunner.query(`ALTER TABLE dashboard_day DROP COLUMN ${column}`);
    }
    await queryRunner.query(`DROP INDEX etsy_ledger_entry_created_idx`);
    await queryRunner.query(`DROP TABLE shop_cost_day`);
  }
}
