import type { Db } from './database-session';

/** The tables a sync fills in bulk; the per-page statements (upserts, ledger links) plan on their statistics. */
export const SYNCED_TABLES = ['etsy_receipt', 'etsy_receipt_line', 'etsy_payment', 'etsy_ledger_entry', 'printify_order', 'printify_order_line'] as const;
export type SyncedTable = (typeof SYNCED_TABLES)[number];

/** Rows changed since the last analyze, beyond `MIN_CHANGES + SCALE × rows`, make statistics stale. */
const MIN_CHANGES = 100;
const SCALE = 0.5;

/**
 * Planner statistics of the synced tables. PostgreSQL's autovacuum refreshes them once a table
 * changed by a tenth (checked every minute), but a first sync grows a table from nothing to
 * tens of thousands of rows faster than that, and some servers run without autovacuum. A table
 * never analyzed is planned as if it held a row or two: the pending-ledger links then read every
 * payment of the shop once per pending entry (0.5 s a ledger page at 1,000 payments, 1.3 s at
 * 30,000 ledger entries). This is the backstop: it analyzes a table only when its statistics
 * lag far behind its rows (by half its size and 100 rows), so it rarely fires where autovacuum
 * keeps up, and about fifteen times during a first sync of 10,000 orders where it does not.
 */
export class TableStatisticsRepository {
  constructor(private readonly db: Db) {}

  /**
   * ANALYZEs those of `tables` whose statistics are stale, skipping any another session is
   * analyzing; returns their names. ANALYZE needs the tables' owner, which the runtime role is
   * not: `analyze_synced_tables` (SECURITY DEFINER, migration 1764900000000) runs it as the owner,
   * for these tables only.
   */
  async analyzeStale(tables: readonly SyncedTable[] = SYNCED_TABLES): Promise<SyncedTable[]> {
    const rows: { relname: string }[] = await this.db.query(
      `SELECT s.relname FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
       WHERE s.schemaname = current_schema() AND s.relname = ANY($1::text[])
         AND s.n_mod_since_analyze > $2 + $3 * greatest(c.reltuples, 0)`,
      [[...tables], MIN_CHANGES, SCALE],
    );
    const stale = tables.filter((table) => rows.some((row) => row.relname === table));
    if (stale.length > 0) await this.db.query(`SELECT analyze_synced_tables($1::text[])`, [stale]);
    return stale;
  }
}
