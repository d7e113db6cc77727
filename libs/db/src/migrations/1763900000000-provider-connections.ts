import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ProviderConnections1763900000000 implements MigrationInterface {
  name = 'ProviderConnections1763900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE provider_connection (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
        provider text NOT NULL CHECK (provider IN ('etsy', 'printify')),
        status text NOT NULL DEFAULT 'connected' CHECK (status IN ('connected', 'reauth_required', 'expired')),
        external_account_id text,
        shop_id text,
        shop_name text,
        shop_currency text,
        shop_country text,
        sales_channel text,
        sync_from date,
        access_token_enc text NOT NULL,
        refresh_token_enc text,
        access_token_expires_at timestamptz,
        token_expires_at timestamptz,
        token_version integer NOT NULL DEFAULT 1,
        key_version integer NOT NULL,
        last_sync_at timestamptz,
        connected_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT provider_connection_user_provider_key UNIQUE (user_id, provider)
      )`);
    await queryRunner.query(`
      CREATE TABLE oauth_state (
        state_hash text PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
        session_id_hash text NOT NULL,
        code_verifier_enc text NOT NULL,
        redirect_uri text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        consumed_at timestamptz
      )`);
    await queryRunner.query(`CREATE INDEX oauth_state_user_id_idx ON oauth_state (user_id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE oauth_state');
    await queryRunner.query('DROP TABLE provider_connection');
  }
}
