import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Delete All Data (issue 19, ADR 0036): `app_user.data_epoch` counts the times the user's synced
 * data was deleted. The delete bumps it in its own transaction; a worker reads it when its job
 * starts and every write transaction of the job holds the user's row (FOR SHARE) and checks it
 * is unchanged, so a job that began before the delete cannot write after it, and a delete waits
 * for a write already under way and then removes what it wrote.
 */
export class UserDataEpoch1765701000000 implements MigrationInterface {
  name = 'UserDataEpoch1765701000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE app_user ADD COLUMN data_epoch integer NOT NULL DEFAULT 0`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE app_user DROP COLUMN data_epoch`);
  }
}
