import type { MigrationInterface, QueryRunner } from 'typeorm';
import { APP_ROLE } from './1764900000000-tenant-scope';

/** The tables the order pages read that the matcher fills in bulk, analyzed by `analyze_order_tables`. */
export const ORDER_ANALYZABLE_TABLES = ['order_record', 'order_profit', 'dashboard_day'] as const;

/**
 * Every user's rollup rows from their records and figures: a frozen copy of
 * DashboardRollupsRepository.refreshDays' aggregate (the orders bench seeds with it too).
 */
export const DASHBOARD_DAY_BACKFILL_SQL = `
      INSERT INTO dashboard_day
      SELECT r.user_id, c.currency, (r.order_date AT TIME ZONE 'UTC')::date,
        count(*) FILTER (WHERE r.status = 'matched'), count(*) FILTER (WHERE r.status = 'pending'), count(*) FILTER (WHERE r.status = 'unmatched'),
        count(*) FILTER (WHERE f.fresh AND p.figures <> 'rate_unavailable'), count(*) FILTER (WHERE f.fresh AND p.figures = 'provisional'),
        count(*) FILTER (WHERE f.fresh AND p.figures = 'rate_unavailable'), count(*) FILTER (WHERE NOT f.fresh),
        coalesce(sum(p.revenue_minor) FILTER (WHERE f.fresh), 0), coalesce(sum(p.costs_minor) FILTER (WHERE f.fresh), 0),
        coalesce(sum(p.net_profit_minor) FILTER (WHERE f.fresh), 0)
      FROM order_record r
      CROSS JOIN (VALUES ('USD'::char(3)), ('EUR'::char(3)), ('GBP'::char(3))) AS c(currency)
      LEFT JOIN order_profit p ON p.order_record_id = r.id AND p.currency = c.currency
      CROSS JOIN LATERAL (SELECT coalesce(p.record_sides = (coalesce(r.etsy_shop_id || ':' || r.etsy_receipt_id, '') || '|'
        || coalesce(r.printify_shop_id || ':' || r.printify_order_id, '')), false) AS fresh) f
      WHERE r.archived_at IS NULL AND r.order_date IS NOT NULL
      GROUP BY r.user_id, c.currency, (r.order_date AT TIME ZONE 'UTC')::date`;

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
const quoteLiteral = (text: string) => `'${text.replace(/'/g, "''")}'`;
const SCOPED_USER = `nullif(current_setting('app.user_id', true), '')::uuid`;

/**
 * Dashboard rollups and the order tables' statistics (docs/adr/0018-rollups.md).
 *
 * - `dashboard_day`: per user, UTC day of order_date and display currency, the dashboard's
 *   counts and sums over the user's active records of that day, exactly as the dashboard's row
 *   query sums them. Kept by every writer of order_record and order_profit in its own
 *   transaction, under the user's matching lock (DashboardRollupsRepository.refreshDays). Under
 *   row-level security like the other tenant tables (1764900000000-tenant-scope).
 * - Backfilled here from the stored rows, read across users (`app.all_tenants`, as the login may
 *   be the owner under FORCEd security) before its own security is turned on.
 * - `analyze_order_tables(text[])`: as analyze_synced_tables, for the tables above, which the
 *   matcher writes in bulk and the order pages plan on.
 */
export class DashboardRollups1765300000000 implements MigrationInterface {
  name = 'DashboardRollups1765300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const [{ schema }] = (await queryRunner.query(`SELECT current_schema() AS schema`)) as { schema: string }[];
    const s = quoteIdent(schema);
    await queryRunner.query(`
      CREATE TABLE dashboard_day (
        user_id uuid NOT NULL CONSTRAINT dashboard_day_user_id_fkey REFERENCES app_user (id) ON DELETE CASCADE,
        currency char(3) NOT NULL CONSTRAINT dashboard_day_currency_check CHECK (currency IN ('USD', 'EUR', 'GBP')),
        day date NOT NULL,
        matched integer NOT NULL,
        pending integer NOT NULL,
        unmatched integer NOT NULL,
        summed integer NOT NULL,
        provisional integer NOT NULL,
        without_rate integer NOT NULL,
        not_computed integer NOT NULL,
        revenue_minor bigint NOT NULL,
        costs_minor bigint NOT NULL,
        net_profit_minor bigint NOT NULL,
        CONSTRAINT dashboard_day_pkey PRIMARY KEY (user_id, currency, day)
      )`);
    await queryRunner.query(`SELECT set_config('app.all_tenants', 'on', true)`);
    await queryRunner.query(DASHBOARD_DAY_BACKFILL_SQL);
    await queryRunner.query(`SELECT set_config('app.all_tenants', '', true)`);
    await queryRunner.query(`ALTER TABLE ${s}.dashboard_day ENABLE ROW LEVEL SECURITY`);
    await queryRunner.query(`ALTER TABLE ${s}.dashboard_day FORCE ROW LEVEL SECURITY`);
    await queryRunner.query(
      `CREATE POLICY tenant_scope ON ${s}.dashboard_day USING (user_id = ${SCOPED_USER}) WITH CHECK (user_id = ${SCOPED_USER})`,
    );
    await queryRunner.query(`
      CREATE FUNCTION ${s}.analyze_order_tables(tables text[]) RETURNS void
      LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog AS $fn$
      DECLARE
        name text;
      BEGIN
        FOREACH name IN ARRAY tables LOOP
          IF name = ANY (ARRAY[${ORDER_ANALYZABLE_TABLES.map(quoteLiteral).join(', ')}]) THEN
            EXECUTE format('ANALYZE (SKIP_LOCKED) %I.%I', ${quoteLiteral(schema)}, name);
          END IF;
        END LOOP;
      END $fn$`);
    await queryRunner.query(`REVOKE ALL ON FUNCTION ${s}.analyze_order_tables(text[]) FROM PUBLIC`);
    await queryRunner.query(`GRANT EXECUTE ON FUNCTION ${s}.analyze_order_tables(text[]) TO ${APP_ROLE}`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const [{ schema }] = (await queryRunner.query(`SELECT current_schema() AS schema`)) as { schema: string }[];
    await queryRunner.query(`DROP FUNCTION ${quoteIdent(schema)}.analyze_order_tables(text[])`);
    await queryRunner.query(`DROP TABLE dashboard_day`);
  }
}
