import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Pending orders' Printify cost (issue 18, docs/adr/0031-pending-orders-cost.md):
 * - order_profit.printify_cost: where a record's Printify cost comes from (`printify`,
 *   `estimated` from the same SKU's recent Printify lines, `awaiting` with no history, `none`
 *   when no Printify order is expected). An `awaiting` record is left out of the dashboard's sums.
 *   Rows stored before read `printify` until the next compute-profits run (the inputs hash's v5)
 *   rewrites them.
 * - dashboard_day.awaiting_printify / estimated_printify: those records counted per day, so the
 *   dashboard says how many are left out and how many hold an estimate.
 * - printify_order_line_sku_idx: a SKU's latest Printify lines, read for each waiting receipt's SKUs.
 */
export class PendingPrintifyCost1765700300000 implements MigrationInterface {
  name = 'PendingPrintifyCost1765700300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE order_profit ADD COLUMN printify_cost text NOT NULL DEFAULT 'printify'`);
    await queryRunner.query(`ALTER TABLE order_profit ALTER COLUMN printify_cost DROP DEFAULT`);
    await queryRunner.query(
      `ALTER TABLE order_profit ADD CONSTRAINT order_profit_printify_cost_check CHECK (printify_cost IN ('printify', 'estimated', 'awaiting', 'none'))`,
    );
    for (const column of ['awaiting_printify', 'estimated_printify']) {
      await queryRunner.query(`ALTER TABLE dashboard_day ADD COLUMN ${column} integer NOT NULL DEFAULT 0`);
      await queryRunner.query(`ALTER TABLE dashboard_day ALTER COLUMN ${column} DROP DEFAULT`);
    }
    await queryRunner.query(
      `CREATE INDEX printify_order_line_sku_idx ON printify_order_line (user_id, sku) WHERE sku IS NOT NULL AND sku <> ''`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX printify_order_line_sku_idx`);
    await queryRunner.query(`ALTER TABLE dashboard_day DROP COLUMN estimated_printify`);
    await queryRunner.query(`ALTER TABLE dashboard_day DROP COLUMN awaiting_printify`);
    await queryRunner.query(`ALTER TABLE order_profit DROP CONSTRAINT order_profit_printify_cost_check`);
    await queryRunner.query(`ALTER TABLE order_profit DROP COLUMN printify_cost`);
  }
}
