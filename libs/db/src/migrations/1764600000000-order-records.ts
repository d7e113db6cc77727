import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Order records: one row per order the seller sees (a receipt with its Printify order, a lone
 * receipt, or a lone Printify order), written by the matcher, and the match runs the web app
 * polls. See docs/adr/0009-matching.md.
 *
 * - Each side is in at most one record per user: two partial unique indexes, which also stop two
 *   matcher replicas (or a manual match racing the matcher) from pairing one order twice. Their
 *   columns run (user, provider id, shop), never (user, shop, …): ADR 0007's planner note.
 * - The sides reference the synced rows (composite foreign keys, cascading), so a record never
 *   names a receipt or order that is gone, and a writer that raced a deletion fails instead.
 * - CHECKs hold the pairing rules: a pair is matched (any method) or pending (fuzzy); a lone
 *   side has no confidence and no method but "manual" (the user unmatched it); only a receipt
 *   may be pending alone (waiting for its Printify order).
 * - List indexes are partial on `archived_at IS NULL` (lists hide archived orders) and lead with
 *   user_id; search is a trigram index over the text the spec searches (receipt id, Printify
 *   order id, customer name, product title), pg_trgm being a trusted extension.
 */
export class OrderRecords1764600000000 implements MigrationInterface {
  name = 'OrderRecords1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await queryRunner.query(`
      CREATE TABLE order_record (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL CONSTRAINT order_record_user_id_fkey REFERENCES app_user (id) ON DELETE CASCADE,
        etsy_shop_id text NULL,
        etsy_receipt_id text NULL,
        printify_shop_id text NULL,
        printify_order_id text NULL,
        status text NOT NULL CONSTRAINT order_record_status_check CHECK (status IN ('matched', 'pending', 'unmatched')),
        match_method text NULL CONSTRAINT order_record_match_method_check CHECK (match_method IN ('exact', 'fuzzy', 'manual')),
        match_confidence numeric(5,4) NULL CONSTRAINT order_record_match_confidence_check CHECK (match_confidence BETWEEN 0 AND 1),
        archived_at timestamptz NULL,
        order_date timestamptz NULL,
        customer_name text NULL,
        product_title text NULL,
        product_sku text NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT order_record_pkey PRIMARY KEY (id),
        CONSTRAINT order_record_sides_check CHECK (
          (etsy_shop_id IS NULL) = (etsy_receipt_id IS NULL)
          AND (printify_shop_id IS NULL) = (printify_order_id IS NULL)
          AND (etsy_receipt_id IS NOT NULL OR printify_order_id IS NOT NULL)),
        CONSTRAINT order_record_pairing_check CHECK (
          CASE WHEN etsy_receipt_id IS NOT NULL AND printify_order_id IS NOT NULL
            THEN match_method IS NOT NULL AND match_confidence IS NOT NULL
              AND (status = 'matched' OR (status = 'pending' AND match_method = 'fuzzy'))
            ELSE match_confidence IS NULL AND status <> 'matched' AND (match_method IS NULL OR match_method = 'manual')
              AND (status = 'unmatched' OR etsy_receipt_id IS NOT NULL)
          END),
        CONSTRAINT order_record_receipt_fkey FOREIGN KEY (user_id, etsy_shop_id, etsy_receipt_id)
          REFERENCES etsy_receipt (user_id, shop_id, receipt_id) ON DELETE CASCADE,
        CONSTRAINT order_record_printify_order_fkey FOREIGN KEY (user_id, printify_shop_id, printify_order_id)
          REFERENCES printify_order (user_id, shop_id, order_id) ON DELETE CASCADE
      )`);
    await queryRunner.query(`
      CREATE UNIQUE INDEX order_record_receipt_idx ON order_record (user_id, etsy_receipt_id, etsy_shop_id)
        WHERE etsy_receipt_id IS NOT NULL`);
    await queryRunner.query(`
      CREATE UNIQUE INDEX order_record_printify_order_idx ON order_record (user_id, printify_order_id, printify_shop_id)
        WHERE printify_order_id IS NOT NULL`);
    // Lists sort by date (newest first) and filter by date range or month; the status filter
    // and the dashboard's counters read the second.
    await queryRunner.query(
      `CREATE INDEX order_record_list_idx ON order_record (user_id, order_date, id) WHERE archived_at IS NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX order_record_status_idx ON order_record (user_id, status, order_date) WHERE archived_at IS NULL`,
    );
    await queryRunner.query(`
      CREATE INDEX order_record_search_idx ON order_record USING gin (
        (coalesce(etsy_receipt_id, '') || ' ' || coalesce(printify_order_id, '') || ' ' || coalesce(customer_name, '') || ' ' || coalesce(product_title, ''))
        gin_trgm_ops)`);

    await queryRunner.query(`
      CREATE TABLE match_run (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL CONSTRAINT match_run_user_id_fkey REFERENCES app_user (id) ON DELETE CASCADE,
        status text NOT NULL DEFAULT 'queued' CONSTRAINT match_run_status_check CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
        trigger text NOT NULL CONSTRAINT match_run_trigger_check CHECK (trigger IN ('user', 'sync', 'operator')),
        records_added integer NOT NULL DEFAULT 0,
        records_changed integer NOT NULL DEFAULT 0,
        records_removed integer NOT NULL DEFAULT 0,
        error_message text NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz NULL,
        finished_at timestamptz NULL,
        CONSTRAINT match_run_pkey PRIMARY KEY (id)
      )`);
    // One queued run per user: triggers while it waits join it. A run may be queued while
    // another runs, so orders synced during a run are matched by the next.
    await queryRunner.query(
      `CREATE UNIQUE INDEX match_run_one_queued_idx ON match_run (user_id) WHERE status = 'queued'`,
    );
    await queryRunner.query(`CREATE INDEX match_run_user_latest_idx ON match_run (user_id, created_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE match_run');
    await queryRunner.query('DROP TABLE order_record');
  }
}
