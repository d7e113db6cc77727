import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Ledger reference types are stored trimmed and in lower case (docs/adr/0034-real-payloads.md):
 * entries stored before in another spelling are rewritten, and those that reference a
 * transaction, receipt, payment or payment adjustment and have no receipt yet wait again, so the
 * shop's next link pass attributes them. Under FORCE row-level security the update runs per user.
 */
export class LedgerReferenceTypesLowerCase1765700600001 implements MigrationInterface {
  name = 'LedgerReferenceTypesLowerCase1765700600001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DO $lower$
      DECLARE uid uuid;
      BEGIN
        FOR uid IN SELECT id FROM app_user LOOP
          PERFORM set_config('app.user_id', uid::text, true);
          UPDATE etsy_ledger_entry
          SET reference_type = nullif(lower(btrim(reference_type)), ''),
              link_pending = link_pending OR (receipt_id IS NULL AND reference_id IS NOT NULL
                AND lower(btrim(reference_type)) IN ('transaction', 'receipt', 'shop_payment', 'payment_adjustment'))
          WHERE user_id = uid AND reference_type IS DISTINCT FROM nullif(lower(btrim(reference_type)), '');
        END LOOP;
        PERFORM set_config('app.user_id', '', true);
      END
      $lower$`);
  }

  async down(): Promise<void> {
    // The spelling Etsy sent is kept in each entry's payload.
  }
}
