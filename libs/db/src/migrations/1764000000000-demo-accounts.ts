import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Demo visitors get their own account and sandbox seller, removed after 24 hours. */
export class DemoAccounts1764000000000 implements MigrationInterface {
  name = 'DemoAccounts1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE app_user
        ADD COLUMN is_demo boolean NOT NULL DEFAULT false,
        ADD COLUMN demo_expires_at timestamptz NULL,
        ADD COLUMN sandbox_tenant_id text NULL,
        ADD CONSTRAINT app_user_demo_expiry CHECK (NOT is_demo OR demo_expires_at IS NOT NULL)`);
    await queryRunner.query(`CREATE INDEX app_user_demo_expires_idx ON app_user (demo_expires_at) WHERE is_demo`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX app_user_demo_expires_idx');
    await queryRunner.query(`
      ALTER TABLE app_user
        DROP CONSTRAINT app_user_demo_expiry,
        DROP COLUMN sandbox_tenant_id,
        DROP COLUMN demo_expires_at,
        DROP COLUMN is_demo`);
  }
}
