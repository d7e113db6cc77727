import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sync runs (what the UI polls, one active per user and provider) and per-stream cursors
 * (where the next page starts). Both are keyed by the shop, not the connection row: a
 * disconnect deletes the connection, and reconnecting the same shop resumes its cursors.
 */
export class SyncRuns1764200000000 implements MigrationInterface {
  name = 'SyncRuns1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE sync_run (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL CONSTRAINT sync_run_user_id_fkey REFERENCES app_user (id) ON DELETE CASCADE,
        provider text NOT NULL CONSTRAINT sync_run_provider_check CHECK (provider IN ('etsy', 'printify')),
        shop_id text NOT NULL,
        status text NOT NULL DEFAULT 'queued'
          CONSTRAINT sync_run_status_check CHECK (status IN ('queued', 'running', 'waiting_for_quota', 'succeeded', 'failed', 'interrupted')),
        trigger text NOT NULL CONSTRAINT sync_run_trigger_check CHECK (trigger IN ('user', 'schedule', 'nightly', 'connect', 'demo', 'operator')),
        mode text NOT NULL DEFAULT 'incremental' CONSTRAINT sync_run_mode_check CHECK (mode IN ('incremental', 'nightly')),
        stream text NULL,
        pages_done integer NOT NULL DEFAULT 0,
        orders_added integer NOT NULL DEFAULT 0,
        orders_changed integer NOT NULL DEFAULT 0,
        requests_made integer NOT NULL DEFAULT 0,
        expected_pages integer NULL,
        resume_at timestamptz NULL,
        error_code text NULL,
        error_message text NULL,
        version integer NOT NULL DEFAULT 1,
        created_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz NULL,
        finished_at timestamptz NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // At most one queued/running/waiting run per user and provider: concurrent triggers meet here.
    await queryRunner.query(`
      CREATE UNIQUE INDEX sync_run_one_active_idx ON sync_run (user_id, provider)
      WHERE status IN ('queued', 'running', 'waiting_for_quota')`);
    await queryRunner.query(`CREATE INDEX sync_run_user_latest_idx ON sync_run (user_id, provider, created_at)`);
    await queryRunner.query(
      `CREATE INDEX sync_run_active_idx ON sync_run (updated_at) WHERE status IN ('queued', 'running', 'waiting_for_quota')`,
    );
    await queryRunner.query(`
      CREATE TABLE sync_cursor (
        user_id uuid NOT NULL CONSTRAINT sync_cursor_user_id_fkey REFERENCES app_user (id) ON DELETE CASCADE,
        provider text NOT NULL CONSTRAINT sync_cursor_provider_check CHECK (provider IN ('etsy', 'printify')),
        shop_id text NOT NULL,
        stream text NOT NULL,
        position jsonb NOT NULL,
        version integer NOT NULL DEFAULT 1,
        run_id uuid NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT sync_cursor_pkey PRIMARY KEY (user_id, provider, shop_id, stream)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE sync_cursor');
    await queryRunner.query('DROP TABLE sync_run');
  }
}
