import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Payouts read by window (issue 17, docs/adr/0027, amendment of 2026-11-28): the deposits
 * (DISBURSE2, matched case-insensitively as the classification does) of a user by date, so the
 * Payouts page finds its page's deposits and each one's previous deposit without walking the
 * ledger; each window's entries are then read by range on etsy_ledger_entry_created_idx.
 */
export class PayoutWindows1765640000000 implements MigrationInterface {
  name = 'PayoutWindows1765640000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX etsy_ledger_entry_deposit_idx ON etsy_ledger_entry (user_id, entry_created_at, shop_id) WHERE lower(ledger_type) = 'disburse2'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX etsy_ledger_entry_deposit_idx`);
  }
}
