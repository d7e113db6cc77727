import type { MigrationInterface, QueryRunner } from 'typeorm';

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** users_to_refigure as 1765400000000 defined it, and now: with the users whose shop costs wait for a rate day. */
const REFIGURE_ORDERS = (s: string) => `SELECT p.user_id FROM ${s}.order_profit p WHERE p.figures <> 'ok'
        UNION
        SELECT r.user_id FROM ${s}.order_record r
          WHERE users_to_refigure.previous_latest_rate_date IS NULL OR r.order_date >= (users_to_refigure.previous_latest_rate_date + 1)`;
const REFIGURE_SHOP_COSTS = (s: string) => `
        UNION
        SELECT d.user_id FROM ${s}.shop_cost_day d WHERE d.provisional > 0 OR d.without_rate > 0`;
const replaceRefigure = (s: string, body: string) =>
  `CREATE OR REPLACE FUNCTION ${s}.users_to_refigure(previous_latest_rate_date date) RETURNS SETOF uuid
     LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$ ${body}
        ORDER BY 1 $fn$`;

/**
 * Payouts read by window (issue 17, docs/adr/0027, amendment of 2026-11-28): the deposits
 * (DISBURSE2, matched case-insensitively as the classification does) of a user by date, so the
 * Payouts page finds its page's deposits and each one's previous deposit without walking the
 * ledger; each window's entries are then read by range on etsy_ledger_entry_created_idx.
 *
 * Provisional shop costs: shop_cost_day counts the entries converted at a stand-in day's rates
 * (`provisional`, as order figures are marked), and users_to_refigure (run after new ECB rates)
 * also answers the users whose shop costs are provisional or wait for a rate, by
 * shop_cost_day_not_final_idx, read as the tables' owner through a `definer_access` policy as
 * the other tables it reads (1765400000000). Rows written before hold 0 until the user's next
 * compute-profits run rewrites them.
 */
export class PayoutWindows1765640000000 implements MigrationInterface {
  name = 'PayoutWindows1765640000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const [{ schema, owner }] = (await queryRunner.query(
      `SELECT current_schema() AS schema, current_user AS owner`,
    )) as { schema: string; owner: string }[];
    const s = quoteIdent(schema);
    await queryRunner.query(
      `CREATE INDEX etsy_ledger_entry_deposit_idx ON etsy_ledger_entry (user_id, entry_created_at, shop_id) WHERE lower(ledger_type) = 'disburse2'`,
    );
    await queryRunner.query(`ALTER TABLE shop_cost_day ADD COLUMN provisional integer NOT NULL DEFAULT 0`);
    await queryRunner.query(`ALTER TABLE shop_cost_day ALTER COLUMN provisional DROP DEFAULT`);
    await queryRunner.query(
      `CREATE INDEX shop_cost_day_not_final_idx ON shop_cost_day (user_id) WHERE provisional > 0 OR without_rate > 0`,
    );
    await queryRunner.query(
      `CREATE POLICY definer_access ON ${s}.shop_cost_day TO ${quoteIdent(owner)} USING (true) WITH CHECK (true)`,
    );
    await queryRunner.query(replaceRefigure(s, REFIGURE_ORDERS(s) + REFIGURE_SHOP_COSTS(s)));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const [{ schema }] = (await queryRunner.query(`SELECT current_schema() AS schema`)) as { schema: string }[];
    const s = quoteIdent(schema);
    await queryRunner.query(replaceRefigure(s, REFIGURE_ORDERS(s)));
    await queryRunner.query(`DROP POLICY definer_access ON ${s}.shop_cost_day`);
    await queryRunner.query(`DROP INDEX shop_cost_day_not_final_idx`);
    await queryRunner.query(`ALTER TABLE shop_cost_day DROP COLUMN provisional`);
    await queryRunner.query(`DROP INDEX etsy_ledger_entry_deposit_idx`);
  }
}
