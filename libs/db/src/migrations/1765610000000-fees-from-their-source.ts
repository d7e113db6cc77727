import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 17, every Etsy fee from its source (docs/adr/0026-fees-from-their-source.md):
 * - provider_connection.vat_registered: a profit setting of the Etsy shop (the VAT Etsy adds to
 *   its fees is reclaimed, not a cost), set on the Settings page beside the Printify cost reading.
 * - etsy_receipt_line_listing_idx: sold renewals (`renew_sold`, `renew_sold_auto`) reference a
 *   listing, and are attributed to the latest sale of that listing (linkSoldRenewals).
 * - Sold renewals stored before this were never linked: they wait again, so the next link pass of
 *   the shop's sync attributes them. Under FORCE row-level security the update runs per user.
 */
export class FeesFromTheirSource1765610000000 implements MigrationInterface {
  name = 'FeesFromTheirSource1765610000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE provider_connection ADD COLUMN vat_registered boolean NOT NULL DEFAULT false`);
    await queryRunner.query(
      `CREATE INDEX etsy_receipt_line_listing_idx ON etsy_receipt_line (user_id, shop_id, listing_id)`,
    );
    await queryRunner.query(`
      DO $relink$
      DECLARE uid uuid;
      BEGIN
        FOR uid IN SELECT id FROM app_user LOOP
          PERFORM set_config('app.user_id', uid::text, true);
          UPDATE etsy_ledger_entry SET link_pending = true
          WHERE user_id = uid AND receipt_id IS NULL AND NOT link_pending AND reference_id IS NOT NULL
            AND lower(ledger_type) IN ('renew_sold', 'renew_sold_auto');
          UPDATE etsy_ledger_entry v SET link_pending = true
          WHERE v.user_id = uid AND v.receipt_id IS NULL AND NOT v.link_pending AND v.parent_entry_id IS NOT NULL
            AND EXISTS (SELECT 1 FROM etsy_ledger_entry p WHERE p.user_id = v.user_id AND p.shop_id = v.shop_id
                        AND p.entry_id = v.parent_entry_id AND p.link_pending);
        END LOOP;
        PERFORM set_config('app.user_id', '', true);
      END
      $relink$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX etsy_receipt_line_listing_idx`);
    await queryRunner.query(`ALTER TABLE provider_connection DROP COLUMN vat_registered`);
  }
}
