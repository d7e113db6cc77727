import type { MatchStatus } from '@pod/domain';
import type { Db } from './database-session';
import { inTenantScope } from './tenant-scope';
import { DAY_SQL, dayWindow, firstWholeDayAfter, isoDay, safeInteger } from './day-rollups';

/** What the Orders page counts: its view, and the filters of its tabs (search aside). */
export interface CountFilter {
  archived: boolean;
  status: MatchStatus | null;
  /** Records dated on or after this instant; null: all, undated included. */
  since: Date | null;
}

export interface RecordCounts {
  /** Every record of the view. */
  total: number;
  /** Of those, the ones the status and date filters keep, and of these the ones with each side. */
  all: number;
  etsy: number;
  printify: number;
}

/**
 * order_count_day: how many records a user has per UTC day, archived or not, status and sides
 * (migration 1765520000000), so the Orders page counts a few rows per day of history instead of
 * every record. Kept like dashboard_day (docs/adr/0018-rollups.md): every writer of order_record
 * recomputes the days it touched from the rows, in its own transaction, under the user's
 * matching lock (OrderRecordsRepository: matcher runs and manual matches; OrderEditsService:
 * unmatch, archive, restore). Undated records are not in it: they are counted from the rows
 * (order_record_undated_idx, empty in practice).
 */
export class OrderCountsRepository {
  constructor(private readonly db: Db) {}

  /** Recomputes the user's count rows of `days` ('YYYY-MM-DD') from the records. Run it after the writes. */
  async refreshDays(userId: string, days: Iterable<string>): Promise<void> {
    const window = dayWindow(days);
    if (!window) return;
    const { days: sorted, from, to } = window;
    await inTenantScope(this.db, userId, async (db) => {
      await db.query(`DELETE FROM order_count_day WHERE user_id = $1 AND day = ANY($2::date[])`, [userId, sorted]);
      await db.query(
        `INSERT INTO order_count_day (user_id, day, archived, status, etsy, printify, n)
         SELECT $1, ${DAY_SQL}, r.archived_at IS NOT NULL, r.status, r.etsy_receipt_id IS NOT NULL, r.printify_order_id IS NOT NULL, count(*)
         FROM order_record r
         WHERE r.user_id = $1 AND r.order_date >= $3 AND r.order_date < $4 AND ${DAY_SQL} = ANY($2::date[])
         GROUP BY 2, 3, 4, 5, 6`,
        [userId, sorted, from, to],
      );
    });
  }

  /** Recomputes every count row of the user (a repair after plain SQL: tests, an operator). */
  async refreshUser(userId: string): Promise<void> {
    const rows: { day: string }[] = await inTenantScope(this.db, userId, (db) =>
      db.query(
        `SELECT DISTINCT ${DAY_SQL}::text AS day FROM order_record r WHERE r.user_id = $1 AND r.order_date IS NOT NULL
         UNION SELECT day::text FROM order_count_day WHERE user_id = $1`,
        [userId],
      ),
    );
    await this.refreshDays(
      userId,
      rows.map((row) => row.day),
    );
  }

  /**
   * The Orders page's counts without a search: the view's total, and the filtered counts per tab.
   * Whole UTC days from order_count_day; with a date filter, the part-day from `since` to the next
   * midnight from the rows (that day's records, through the list indexes), and undated records
   * from the rows: exactly a count of the rows, in O(days of history).
   */
  async counts(userId: string, filter: CountFilter): Promise<RecordCounts> {
    const since = filter.since;
    const firstWholeDay = since ? firstWholeDayAfter(since) : null;
    const view = filter.archived ? 'r.archived_at IS NOT NULL' : 'r.archived_at IS NULL';
    // Only with a date filter: left in with null bounds, its estimate alone got the whole
    // statement a parallel plan, whose start-up cost many times the few rows read.
    const partDay = since
      ? `UNION ALL
           SELECT r.status, r.etsy_receipt_id IS NOT NULL, r.printify_order_id IS NOT NULL, 0, 1
           FROM order_record r WHERE r.user_id = $1 AND ${view} AND r.order_date >= $5 AND r.order_date < $6`
      : '';
    const rows: Record<string, unknown>[] = await inTenantScope(this.db, userId, (db) =>
      db.query(
        `SELECT coalesce(sum(n_total), 0) AS total,
           coalesce(sum(n_range) FILTER (WHERE $3::text IS NULL OR status = $3), 0) AS all_tab,
           coalesce(sum(n_range) FILTER (WHERE ($3::text IS NULL OR status = $3) AND etsy), 0) AS etsy_tab,
           coalesce(sum(n_range) FILTER (WHERE ($3::text IS NULL OR status = $3) AND printify), 0) AS printify_tab
         FROM (
           SELECT c.status, c.etsy, c.printify, c.n AS n_total, CASE WHEN $4::date IS NULL OR c.day >= $4::date THEN c.n ELSE 0 END AS n_range
           FROM order_count_day c WHERE c.user_id = $1 AND c.archived = $2
           UNION ALL
           SELECT r.status, r.etsy_receipt_id IS NOT NULL, r.printify_order_id IS NOT NULL, 1, CASE WHEN $4::date IS NULL THEN 1 ELSE 0 END
           FROM order_record r WHERE r.user_id = $1 AND ${view} AND r.order_date IS NULL
           ${partDay}
         ) parts`,
        [
          userId,
          filter.archived,
          filter.status,
          firstWholeDay ? isoDay(firstWholeDay) : null,
          ...(since ? [since, firstWholeDay] : []),
        ],
      ),
    );
    const row = rows[0] ?? {};
    return {
      total: safeInteger(row.total),
      all: safeInteger(row.all_tab),
      etsy: safeInteger(row.etsy_tab),
      printify: safeInteger(row.printify_tab),
    };
  }
}
