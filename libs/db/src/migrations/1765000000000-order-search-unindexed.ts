import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Drops the trigram index on the Orders search text (docs/adr/0009-matching.md, amendment of
 * 2026-11-27). Since row-level security (ADR 0015) the search runs inside the user's policy, and
 * PostgreSQL never uses a non-leakproof condition such as ILIKE as an index condition there: the
 * index answered no query, yet every record written (100k on a seller's first match run) paid
 * for it, about two thirds of that write. The search filters the user's rows read through
 * order_record_list_idx, as it already did. pg_trgm stays installed: dropping an extension is
 * not this migration's to decide, and `down` needs it.
 */
export class OrderSearchUnindexed1765000000000 implements MigrationInterface {
  name = 'OrderSearchUnindexed1765000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX IF EXISTS order_record_search_idx`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE INDEX order_record_search_idx ON order_record USING gin (
        (coalesce(etsy_receipt_id, '') || ' ' || coalesce(printify_order_id, '') || ' ' || coalesce(customer_name, '') || ' ' || coalesce(product_title, ''))
        gin_trgm_ops)`);
  }
}
