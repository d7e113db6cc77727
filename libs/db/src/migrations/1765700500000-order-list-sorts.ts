import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Each figure sort's key on order_profit, as order-list-sort.ts reads it. */
const SORT_KEYS: Record<string, string> = {
  revenue: 'revenue_minor',
  costs: 'costs_minor',
  net_profit: 'net_profit_minor',
  margin: `((breakdown -> 'margin' ->> 'basisPoints')::integer)`,
};

/**
 * The Orders list sorted by revenue, cost, profit or margin in the display currency (issue 18,
 * docs/adr/0033-list-sorting.md): one index per key over a user's figures in one currency, in
 * key then record order, so a page is the first rows of a scan (forward or backward) joined to
 * their records by primary key, never a sort of the seller's every order. Partial: only the
 * figures that have the key (not "no rate"; for the margin, not without revenue); INCLUDE
 * record_sides, so the freshness check reads the index alone. Sorting by date either way is
 * order_record_list_idx / order_record_archived_idx already.
 */
export class OrderListSorts1765700500000 implements MigrationInterface {
  name = 'OrderListSorts1765700500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const [name, key] of Object.entries(SORT_KEYS)) {
      const margin = name === 'margin' ? ` AND ${key} IS NOT NULL` : '';
      await queryRunner.query(
        `CREATE INDEX order_profit_${name}_sort_idx ON order_profit (user_id, currency, ${key}, order_record_id)
           INCLUDE (record_sides) WHERE figures <> 'rate_unavailable'${margin}`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const name of Object.keys(SORT_KEYS)) await queryRunner.query(`DROP INDEX order_profit_${name}_sort_idx`);
  }
}
