import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The figures' part-day reads (the Dashboard's and Analytics' sums, series and breakdowns, and
 * every rollup refresh) select a user's records by order_date alone, archived ones included:
 * archiving hides an order from the lists, never a cost from the totals (ADR 0027). The only
 * (user_id, order_date) indexes were the lists' partial ones (archived_at IS NULL / IS NOT NULL),
 * which such a read cannot use, so a seller holding much of the table got a sequential scan of
 * all of order_record for a few hours of orders: 26 ms per read for a 100k-order seller of a
 * 200k-record table, four times per Analytics page (bench:load, ADR 0038's third amendment).
 * This index covers every record, so those reads are a range of it whatever the seller's size.
 */
export class OrderRecordDatedIndex1765701400000 implements MigrationInterface {
  name = 'OrderRecordDatedIndex1765701400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX order_record_dated_idx ON order_record (user_id, order_date)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX order_record_dated_idx`);
  }
}
