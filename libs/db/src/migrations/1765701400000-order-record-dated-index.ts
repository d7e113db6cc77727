import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The figures' part-day reads (the Dashboard's and Analytics' sums, series and breakdowns, and
 * every rollup refresh) select a user's records by order_date alone, archived ones included:
 * archiving hides an order from the lists, never a cost from the totals (ADR 0027). The only
 * (user_id, order_date) indexes were the lists' partial ones (archived_at IS NULL / IS NOT NULL),
 * which such a read cannot use, so a seller holding much of the table got a sequential scan of
 * all of order_record for a few hours of orders: 26 ms per read for a 100k-order seller of a
 * 200k-record table, four times per Analytics page (bench:load, ADR 0038's third amendment).
 * This index covers every dated record, so those reads are a range of it whatever the seller's
 * size. Partial on `order_date IS NOT NULL` on purpose: a date range implies it, so the
 * part-day reads use it, while a read with no date condition cannot — the search's
 * (user_id, trigram) GIN index stays the only candidate for a search, where a plain index on
 * user_id looked cheaper to the planner on a small table and read every record of the user.
 */
export class OrderRecordDatedIndex1765701400000 implements MigrationInterface {
  name = 'OrderRecordDatedIndex1765701400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX order_record_dated_idx ON order_record (user_id, order_date) WHERE order_date IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX order_record_dated_idx`);
  }
}
