import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the sync workers bring in: Etsy receipts (with their lines), payments and ledger
 * entries, Printify orders (with their lines), and the records that failed the schema.
 *
 * Every table is keyed by its natural key under the owner: (user, shop, provider id). The
 * shop, not the connection row, so a disconnect and reconnect of the same shop finds its rows
 * again. Every row keeps the provider's payload as received (`payload`, jsonb) beside the
 * mapped columns, so figures can be recomputed when rules change without fetching again;
 * `payload_hash` lets an upsert of an unchanged record write nothing. Money is bigint minor
 * units beside its ISO currency.
 */
export class SyncedOrders1764300000000 implements MigrationInterface {
  name = 'SyncedOrders1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE etsy_receipt (
        user_id uuid NOT NULL CONSTRAINT etsy_receipt_user_id_fkey REFERENCES app_user (id) ON DELETE CASCADE,
        shop_id text NOT NULL,
        receipt_id text NOT NULL,
        status text NOT NULL,
        is_paid boolean NOT NULL,
        is_shipped boolean NOT NULL,
        buyer_name text NULL,
        buyer_user_id text NULL,
        zip text NULL,
        country_iso text NULL,
        currency char(3) NOT NULL,
        grandtotal_minor bigint NOT NULL,
        subtotal_minor bigint NOT NULL,
        total_price_minor bigint NOT NULL,
        total_shipping_minor bigint NOT NULL,
        total_tax_minor bigint NOT NULL,
        total_vat_minor bigint NULL,
        discount_minor bigint NULL,
        gift_wrap_minor bigint NULL,
        refunded_minor bigint NOT NULL DEFAULT 0,
        item_count integer NOT NULL,
        ordered_at timestamptz NOT NULL,
        source_updated_at timestamptz NOT NULL,
        payload jsonb NOT NULL,
        payload_hash text NOT NULL,
        fetched_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT etsy_receipt_pkey PRIMARY KEY (user_id, shop_id, receipt_id)
      )`);
    await queryRunner.query(`CREATE INDEX etsy_receipt_user_ordered_idx ON etsy_receipt (user_id, ordered_at)`);
    // Secondary indexes never start with (user_id, shop_id), the primary keys' prefix: on a table
    // too fresh for statistics the planner would take either for a key lookup and filter the
    // whole shop (seen: 2 s instead of 4 ms per page). Receipt and reference ids are unique per user.

    await queryRunner.query(`
      CREATE TABLE etsy_receipt_line (
        user_id uuid NOT NULL CONSTRAINT etsy_receipt_line_user_id_fkey REFERENCES app_user (id) ON DELETE CASCADE,
        shop_id text NOT NULL,
        transaction_id text NOT NULL,
        receipt_id text NOT NULL,
        listing_id text NULL,
        product_id text NULL,
        title text NULL,
        sku text NULL,
        quantity integer NOT NULL,
        currency char(3) NOT NULL,
        unit_price_minor bigint NOT NULL,
        shipping_minor bigint NULL,
        is_digital boolean NOT NULL,
        CONSTRAINT etsy_receipt_line_pkey PRIMARY KEY (user_id, shop_id, transaction_id)
      )`);
    await queryRunner.query(`CREATE INDEX etsy_receipt_line_receipt_idx ON etsy_receipt_line (user_id, receipt_id)`);

    await queryRunner.query(`
      CREATE TABLE etsy_payment (
        user_id uuid NOT NULL CONSTRAINT etsy_payment_user_id_fkey REFERENCES app_user (id) ON DELETE CASCADE,
        shop_id text NOT NULL,
        payment_id text NOT NULL,
        receipt_id text NOT NULL,
        currency char(3) NOT NULL,
        amount_gross_minor bigint NOT NULL,
        amount_fees_minor bigint NOT NULL,
        amount_net_minor bigint NOT NULL,
        posted_gross_minor bigint NULL,
        posted_fees_minor bigint NULL,
        posted_net_minor bigint NULL,
        adjusted_gross_minor bigint NULL,
        adjusted_fees_minor bigint NULL,
        adjusted_net_minor bigint NULL,
        status text NULL,
        source_updated_at timestamptz NULL,
        payload jsonb NOT NULL,
        payload_hash text NOT NULL,
        fetched_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT etsy_payment_pkey PRIMARY KEY (user_id, shop_id, payment_id)
      )`);
    await queryRunner.query(`CREATE INDEX etsy_payment_receipt_idx ON etsy_payment (user_id, receipt_id)`);

    await queryRunner.query(`
      CREATE TABLE etsy_ledger_entry (
        user_id uuid NOT NULL CONSTRAINT etsy_ledger_entry_user_id_fkey REFERENCES app_user (id) ON DELETE CASCADE,
        shop_id text NOT NULL,
        entry_id text NOT NULL,
        ledger_type text NOT NULL,
        reference_type text NULL,
        reference_id text NULL,
        parent_entry_id text NULL,
        currency char(3) NOT NULL,
        amount_minor bigint NOT NULL,
        entry_created_at timestamptz NOT NULL,
        receipt_id text NULL,
        link_pending boolean NOT NULL,
        payload jsonb NOT NULL,
        payload_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT etsy_ledger_entry_pkey PRIMARY KEY (user_id, shop_id, entry_id)
      )`);
    await queryRunner.query(`CREATE INDEX etsy_ledger_entry_receipt_idx ON etsy_ledger_entry (user_id, receipt_id)`);
    await queryRunner.query(
      `CREATE INDEX etsy_ledger_entry_reference_idx ON etsy_ledger_entry (user_id, reference_id)`,
    );
    // Only entries still waiting for their receipt are looked at after each page.
    await queryRunner.query(
      `CREATE INDEX etsy_ledger_entry_pending_idx ON etsy_ledger_entry (user_id, shop_id) WHERE link_pending`,
    );

    await queryRunner.query(`
      CREATE TABLE printify_order (
        user_id uuid NOT NULL CONSTRAINT printify_order_user_id_fkey REFERENCES app_user (id) ON DELETE CASCADE,
        shop_id text NOT NULL,
        order_id text NOT NULL,
        app_order_id text NULL,
        status text NOT NULL,
        order_type text NULL,
        shop_order_id text NULL,
        shop_order_label text NULL,
        buyer_name text NULL,
        zip text NULL,
        country text NULL,
        currency char(3) NOT NULL,
        total_price_minor bigint NOT NULL,
        total_shipping_minor bigint NOT NULL,
        total_tax_minor bigint NOT NULL,
        line_cost_minor bigint NOT NULL,
        line_shipping_minor bigint NOT NULL,
        item_count integer NOT NULL,
        is_reprint boolean NOT NULL,
        ordered_at timestamptz NOT NULL,
        sent_to_production_at timestamptz NULL,
        fulfilled_at timestamptz NULL,
        payload jsonb NOT NULL,
        payload_hash text NOT NULL,
        fetched_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT printify_order_pkey PRIMARY KEY (user_id, shop_id, order_id)
      )`);
    await queryRunner.query(`CREATE INDEX printify_order_user_ordered_idx ON printify_order (user_id, ordered_at)`);
    await queryRunner.query(`CREATE INDEX printify_order_shop_order_idx ON printify_order (user_id, shop_order_id)`);

    await queryRunner.query(`
      CREATE TABLE printify_order_line (
        user_id uuid NOT NULL CONSTRAINT printify_order_line_user_id_fkey REFERENCES app_user (id) ON DELETE CASCADE,
        shop_id text NOT NULL,
        order_id text NOT NULL,
        line_no integer NOT NULL,
        product_id text NULL,
        variant_id text NULL,
        sku text NULL,
        title text NULL,
        variant_label text NULL,
        quantity integer NOT NULL,
        currency char(3) NOT NULL,
        cost_minor bigint NOT NULL,
        shipping_minor bigint NOT NULL,
        retail_price_minor bigint NULL,
        status text NULL,
        CONSTRAINT printify_order_line_pkey PRIMARY KEY (user_id, shop_id, order_id, line_no)
      )`);

    await queryRunner.query(`
      CREATE TABLE sync_quarantine (
        user_id uuid NOT NULL CONSTRAINT sync_quarantine_user_id_fkey REFERENCES app_user (id) ON DELETE CASCADE,
        provider text NOT NULL CONSTRAINT sync_quarantine_provider_check CHECK (provider IN ('etsy', 'printify')),
        shop_id text NOT NULL,
        stream text NOT NULL,
        record_key text NOT NULL,
        field text NOT NULL,
        reason text NOT NULL,
        payload_excerpt text NULL,
        times_seen integer NOT NULL DEFAULT 1,
        first_seen_at timestamptz NOT NULL DEFAULT now(),
        last_seen_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT sync_quarantine_pkey PRIMARY KEY (user_id, provider, shop_id, stream, record_key)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'sync_quarantine',
      'printify_order_line',
      'printify_order',
      'etsy_ledger_entry',
      'etsy_payment',
      'etsy_receipt_line',
      'etsy_receipt',
    ]) {
      await queryRunner.query(`DROP TABLE ${table}`);
    }
  }
}
