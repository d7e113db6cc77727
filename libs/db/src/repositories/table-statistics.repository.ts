import type { Db } from './database-session';

/** The tables a sync fills in bulk; the per-page statements (upserts, ledger links) plan on their statistics. */
export const SYNCED_TABLES = [
  'etsy_receipt',
  'etsy_receipt_line',
  'etsy_payment',
  'etsy_ledger_entry',
  'printify_order',
  'printify_order_line',
] as const;
export type SyncedTable = (typeof SYNCED_TABLES)[number];

/** The tables the order pages read that the matcher fills in bulk (analyze_order_tables, migration 1765300000000). */
export const ORDER_TABLES = ['order_record', 'order_profit', 'dashboard_day'] as const;
export type OrderTable = (typeof ORDER_TABLES)[number];

/** As autovacuum's default analyze threshold (50 rows and a tenth of the table), from the writer's own count too. */
const ORDER_MIN_CHANGES = 100;
const ORDER_SCALE = 0.1;

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
  analyzeStale(tables: readonly SyncedTable[] = SYNCED_TABLES): Promise<SyncedTable[]> {
    return this.analyzeLagging(tables, { minChanges: MIN_CHANGES, scale: SCALE }, 'analyze_synced_tables');
  }

  /**
   * After a matcher job: ANALYZEs those of the order tables whose rows changed by more than
   * `ORDER_MIN_CHANGES + ORDER_SCALE × rows` since their last analyze (a never-analyzed table:
   * past 100 rows), counting both what the server reports and `changedNow`, the rows the job
   * itself just wrote (the server reports a session's changes to pg_stat only seconds after its
   * commit). The matcher writes order_record and order_profit in bulk; the order pages plan on
   * their statistics, and without them a seller's first 100k orders are planned as a handful.
   */
  analyzeOrderTables(changedNow: Partial<Record<OrderTable, number>> = {}): Promise<OrderTable[]> {
    return this.analyzeLagging(
      ORDER_TABLES,
      { minChanges: ORDER_MIN_CHANGES, scale: ORDER_SCALE, changedNow },
      'analyze_order_tables',
    );
  }

  /**
   * ANALYZEs, through `definer` (the SECURITY DEFINER function for that list of tables), those of
   * `tables` whose changes since their last analyze — the server's count, or the caller's own
   * `changedNow` when larger — pass `minChanges + scale × rows`; returns their names.
   */
  private async analyzeLagging<T extends string>(
    tables: readonly T[],
    lag: { minChanges: number; scale: number; changedNow?: Partial<Record<T, number>> },
    definer: 'analyze_synced_tables' | 'analyze_order_tables',
  ): Promise<T[]> {
    const rows: { relname: string }[] = await this.db.query(
      `SELECT s.relname FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
       CROSS JOIN LATERAL (SELECT coalesce(($4::jsonb ->> s.relname)::bigint, 0) AS now_changed) w
       WHERE s.schemaname = current_schema() AND s.relname = ANY($1::text[])
         AND greatest(s.n_mod_since_analyze, w.now_changed) > $2 + $3 * greatest(c.reltuples, 0)`,
      [[...tables], lag.minChanges, lag.scale, JSON.stringify(lag.changedNow ?? {})],
    );
    const stale = tables.filter((table) => rows.some((row) => row.relname === table));
    if (stale.length > 0) await this.db.query(`SELECT ${definer}($1::text[])`, [stale]);
    return stale;
  }
}
