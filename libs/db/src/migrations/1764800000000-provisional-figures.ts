import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * order_profit.figures may be 'provisional' (docs/adr/0014-provisional-rates.md): an order whose
 * ECB day is not loaded yet is figured at the latest loaded day's rates, with its sums present
 * as for 'ok', and figured again when the rates come. The partial index the fx re-figuring reads
 * now covers every row that is not final (`figures <> 'ok'`), provisional rows included.
 */
export class ProvisionalFigures1764800000000 implements MigrationInterface {
  name = 'ProvisionalFigures1764800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE order_profit DROP CONSTRAINT order_profit_figures_check, DROP CONSTRAINT order_profit_amounts_check`,
    );
    await queryRunner.query(`
      ALTER TABLE order_profit
        ADD CONSTRAINT order_profit_figures_check CHECK (figures IN ('ok', 'provisional', 'rate_unavailable')),
        ADD CONSTRAINT order_profit_amounts_check CHECK (
          (figures <> 'rate_unavailable') = (revenue_minor IS NOT NULL AND costs_minor IS NOT NULL AND net_profit_minor IS NOT NULL)
          AND (figures <> 'rate_unavailable' OR (revenue_minor IS NULL AND costs_minor IS NULL AND net_profit_minor IS NULL)))`);
    await queryRunner.query(`DROP INDEX order_profit_unavailable_idx`);
    await queryRunner.query(`CREATE INDEX order_profit_not_final_idx ON order_profit (user_id) WHERE figures <> 'ok'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // Provisional figures become "not computed": the next profit run figures them again.
    await queryRunner.query(`DELETE FROM order_profit WHERE figures = 'provisional'`);
    await queryRunner.query(`DROP INDEX order_profit_not_final_idx`);
    await queryRunner.query(
      `CREATE INDEX order_profit_unavailable_idx ON order_profit (user_id) WHERE figures = 'rate_unavailable'`,
    );
    await queryRunner.query(
      `ALTER TABLE order_profit DROP CONSTRAINT order_profit_figures_check, DROP CONSTRAINT order_profit_amounts_check`,
    );
    await queryRunner.query(`
      ALTER TABLE order_profit
        ADD CONSTRAINT order_profit_figures_check CHECK (figures IN ('ok', 'rate_unavailable')),
        ADD CONSTRAINT order_profit_amounts_check CHECK (
          (figures = 'ok') = (revenue_minor IS NOT NULL AND costs_minor IS NOT NULL AND net_profit_minor IS NOT NULL)
          AND (figures = 'ok' OR (revenue_minor IS NULL AND costs_minor IS NULL AND net_profit_minor IS NULL)))`);
  }
}
