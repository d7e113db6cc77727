import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Stored profit per order record and display currency (USD, EUR, GBP), written by the
 * matcher's `compute-profits` job, read by the Orders, Order Matching and Dashboard pages. See
 * docs/adr/0011-order-figures.md.
 *
 * - A table of its own, keyed by (record, currency), not columns on order_record: the matcher
 *   rewrites records and the profit writer rewrites figures, each without touching the other's
 *   rows; a record that goes takes its figures along (cascade). `record_sides` copies the sides
 *   the figures were computed for, so a read can tell figures of a record whose sides changed
 *   since ("not_computed") without a hash.
 * - Figures are bigint minor units in `currency`, null exactly when no rate converts the order
 *   (`figures = 'rate_unavailable'`, a CHECK). The engine's breakdown (components, sources,
 *   estimates, originals, rates and dates) is jsonb for the details dialog only: nothing sums it.
 * - `(user_id, currency, order_record_id)` INCLUDE the sums serves the writer's "what is stored"
 *   read and the dashboard's join as an index-only scan (measured at 100k orders a user, ADR 0011);
 *   list pages join by primary key (50 rows). Never a (user_id, shop_id)
 *   prefix (ADR 0007's planner note); `figures` has a partial index for the fx re-figuring.
 * - provider_connection.printify_cost_reading: how to read Printify's line `cost` (ADR 0010),
 *   per Printify connection, `per_unit` until the seller says otherwise.
 */
export class OrderProfits1764700000000 implements MigrationInterface {
  name = 'OrderProfits1764700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE order_profit (
        order_record_id uuid NOT NULL CONSTRAINT order_profit_record_fkey REFERENCES order_record (id) ON DELETE CASCADE,
        currency char(3) NOT NULL CONSTRAINT order_profit_currency_check CHECK (currency IN ('USD', 'EUR', 'GBP')),
        user_id uuid NOT NULL CONSTRAINT order_profit_user_id_fkey REFERENCES app_user (id) ON DELETE CASCADE,
        record_sides text NOT NULL,
        figures text NOT NULL CONSTRAINT order_profit_figures_check CHECK (figures IN ('ok', 'rate_unavailable')),
        revenue_minor bigint NULL,
        costs_minor bigint NULL,
        net_profit_minor bigint NULL,
        has_estimated_fees boolean NOT NULL,
        breakdown jsonb NOT NULL,
        inputs_hash text NOT NULL,
        computed_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT order_profit_pkey PRIMARY KEY (order_record_id, currency),
        CONSTRAINT order_profit_amounts_check CHECK (
          (figures = 'ok') = (revenue_minor IS NOT NULL AND costs_minor IS NOT NULL AND net_profit_minor IS NOT NULL)
          AND (figures = 'ok' OR (revenue_minor IS NULL AND costs_minor IS NULL AND net_profit_minor IS NULL)))
      )`);
    // Covering: the dashboard's join reads the sums from the index alone (index-only scan).
    await queryRunner.query(`
      CREATE INDEX order_profit_user_idx ON order_profit (user_id, currency, order_record_id)
        INCLUDE (record_sides, figures, revenue_minor, costs_minor, net_profit_minor, has_estimated_fees)`);
    await queryRunner.query(
      `CREATE INDEX order_profit_unavailable_idx ON order_profit (user_id) WHERE figures = 'rate_unavailable'`,
    );
    await queryRunner.query(`
      ALTER TABLE provider_connection ADD COLUMN printify_cost_reading text NOT NULL DEFAULT 'per_unit'
        CONSTRAINT provider_connection_printify_cost_reading_check CHECK (printify_cost_reading IN ('per_unit', 'per_line'))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE provider_connection DROP COLUMN printify_cost_reading');
    await queryRunner.query('DROP TABLE order_profit');
  }
}
