import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The margin sort's key as order-list-sort.ts reads it: the exact fraction, to 30 decimals. */
const EXACT_MARGIN = `(((breakdown -> 'margin' ->> 'numerator')::numeric(50, 30)) / ((breakdown -> 'margin' ->> 'denominator')::numeric))`;

/**
 * The Orders list sorted by margin (issue 18) follows the percent the page shows. Sorting by the
 * stored basis points did not: two margins of 7745 basis points can read 77.4% (77.4499…) and
 * 77.5% (77.4501…), since the page rounds once from the exact fraction, and their tie was
 * broken by record id, so 77.4% could come before 77.5% in "highest first". The key is now the
 * fraction itself (profit ÷ revenue in minor units), whose order any rounding of it keeps.
 */
export class MarginSortExact1765700700000 implements MigrationInterface {
  name = 'MarginSortExact1765700700000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX order_profit_margin_sort_idx`);
    await queryRunner.query(
      `CREATE INDEX order_profit_margin_sort_idx ON order_profit (user_id, currency, ${EXACT_MARGIN}, order_record_id)
         INCLUDE (record_sides) WHERE figures <> 'rate_unavailable' AND ${EXACT_MARGIN} IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const points = `((breakdown -> 'margin' ->> 'basisPoints')::integer)`;
    await queryRunner.query(`DROP INDEX order_profit_margin_sort_idx`);
    await queryRunner.query(
      `CREATE INDEX order_profit_margin_sort_idx ON order_profit (user_id, currency, ${points}, order_record_id)
         INCLUDE (record_sides) WHERE figures <> 'rate_unavailable' AND ${points} IS NOT NULL`,
    );
  }
}
