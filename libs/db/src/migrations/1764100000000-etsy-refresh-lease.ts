import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The Etsy token refresh lease: who is refreshing a connection's tokens, and until when. It
 * replaces a row lock held across the HTTP call to Etsy (which held a pooled connection too).
 */
export class EtsyRefreshLease1764100000000 implements MigrationInterface {
  name = 'EtsyRefreshLease1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE provider_connection
        ADD COLUMN refresh_lease_id uuid NULL,
        ADD COLUMN refresh_lease_until timestamptz NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE provider_connection
        DROP COLUMN refresh_lease_until,
        DROP COLUMN refresh_lease_id`);
  }
}
