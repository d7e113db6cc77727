import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Provider webhooks. A Printify connection gets its own unguessable path key (deliveries arrive at
 * /api/webhooks/printify/<key>, which names the connection) and its own signing secret, stored
 * encrypted like the tokens; `webhook_status` says whether the subscriptions were made. Etsy
 * deliveries name a shop: an index finds the connections of a shop.
 */
export class PrintifyWebhooks1764400000000 implements MigrationInterface {
  name = 'PrintifyWebhooks1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE provider_connection
        ADD COLUMN webhook_key text NULL,
        ADD COLUMN webhook_secret_enc text NULL,
        ADD COLUMN webhook_status text NULL
          CONSTRAINT provider_connection_webhook_status_check CHECK (webhook_status IN ('pending', 'registered', 'failed'))`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX provider_connection_webhook_key_idx ON provider_connection (webhook_key)`,
    );
    await queryRunner.query(`CREATE INDEX provider_connection_shop_idx ON provider_connection (provider, shop_id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX provider_connection_shop_idx');
    await queryRunner.query('DROP INDEX provider_connection_webhook_key_idx');
    await queryRunner.query(`
      ALTER TABLE provider_connection
        DROP COLUMN webhook_status,
        DROP COLUMN webhook_secret_enc,
        DROP COLUMN webhook_key`);
  }
}
