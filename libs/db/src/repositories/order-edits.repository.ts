import type { DataSource, EntityManager } from 'typeorm';
import { OrderRecordEntity } from '../entities/order-record.entity';
import { isLockWaitTimeout, returnedRows } from './database-session';
import { OrderRecordsRepository } from './order-records.repository';
import { withTenant } from './tenant-scope';
import { DashboardRollupsRepository } from './dashboard-rollups.repository';
import { refreshDaySummaries } from './day-summaries';

/** 'busy': the user's matching lock was not free within EDIT_LOCK_WAIT_MS (a matcher or profit run holds it). */
export type EditOutcome = { ids: string[] } | 'not_found' | 'conflict' | 'busy';

/**
 * How long an edit waits for the user's matching lock while holding a pooled connection. A
 * user's own edits take milliseconds under it, so they queue behind each other well within the
 * bound; a matcher run holds it for up to a minute on a large shop, and waiting that long would
 * hand the user's requests every connection of the gateway's pool (issue 16).
 */
export const EDIT_LOCK_WAIT_MS = 1_000;

/**
 * The user's own changes to their order records (spec Part 2 point 5): a manual match, an
 * unmatch, archive and restore. Each runs in its own transaction scoped to the user (ADR 0015),
 * under the user's matching lock, so it takes turns with matcher runs and the profit writer. A
 * manual match and an unmatch are remembered with method `manual`, which every later matcher run
 * keeps as it is. Each refreshes the dashboard rollup of the days it touched in that transaction.
 */
export class OrderEditsRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly lockWaitMs = EDIT_LOCK_WAIT_MS,
  ) {}

  /** The pair's id, or why not: 'not_found' (either id is not the user's), 'conflict' (not a lone receipt and a lone Printify order). */
  matchByHand(userId: string, recordId: string, otherId: string): Promise<EditOutcome> {
    return this.underUserLock(userId, async (_manager, records) => {
      const outcome = await records.matchByHand(userId, recordId, otherId);
      if (outcome === 'not_pairable') return 'conflict';
      if (outcome === 'not_found')
        return recordId === otherId && (await records.findById(userId, recordId)) ? 'conflict' : 'not_found';
      return { ids: [outcome.id] };
    });
  }

  /**
   * Splits a pair (matched or pending) into a lone receipt record (keeping the id) and a new lone
   * Printify record, both `manual` so no matcher run pairs them again. Archived orders are frozen.
   */
  unmatch(userId: string, recordId: string): Promise<EditOutcome> {
    return this.underUserLock(userId, async (manager, records) => {
      const record = await records.findById(userId, recordId);
      if (!record) return 'not_found';
      if (record.etsyReceiptId === null || record.printifyOrderId === null || record.archivedAt !== null)
        return 'conflict';
      await manager.query(
        `UPDATE order_record SET printify_shop_id = NULL, printify_order_id = NULL, status = 'unmatched', match_method = 'manual',
           match_confidence = NULL, updated_at = now() WHERE user_id = $1 AND id = $2`,
        [userId, recordId],
      );
      const inserted: { id: string }[] = await manager.query(
        `INSERT INTO order_record (user_id, printify_shop_id, printify_order_id, status, match_method, order_date, customer_name, product_title, product_sku)
         SELECT o.user_id, o.shop_id, o.order_id, 'unmatched', 'manual', o.ordered_at, o.buyer_name, l.title, l.sku
         FROM printify_order o
         LEFT JOIN LATERAL (SELECT title, sku FROM printify_order_line pl
                            WHERE pl.user_id = o.user_id AND pl.shop_id = o.shop_id AND pl.order_id = o.order_id ORDER BY pl.line_no LIMIT 1) l ON true
         WHERE o.user_id = $1 AND o.shop_id = $2 AND o.order_id = $3
         RETURNING id`,
        [userId, record.printifyShopId, record.printifyOrderId],
      );
      const ids = [recordId, ...inserted.map((row) => row.id)];
      await refreshDaySummaries(manager, userId, await new DashboardRollupsRepository(manager).daysOf(userId, ids));
      return { ids };
    });
  }

  /** Archives or restores one record; doing it twice changes nothing. */
  setArchived(userId: string, recordId: string, archived: boolean): Promise<EditOutcome> {
    return this.underUserLock(userId, async (manager, records) => {
      if (!(await records.findById(userId, recordId))) return 'not_found';
      const updated: OrderRecordEntity[] = returnedRows(
        await manager.query(
          `UPDATE order_record SET archived_at = ${archived ? 'coalesce(archived_at, now())' : 'NULL'}, updated_at = now()
           WHERE user_id = $1 AND id = $2 RETURNING id`,
          [userId, recordId],
        ),
      );
      const ids = updated.map((row) => row.id);
      await refreshDaySummaries(manager, userId, await new DashboardRollupsRepository(manager).daysOf(userId, ids));
      return { ids };
    });
  }

  /** One edit in a transaction scoped to the user, under the user's lock waited for at most lockWaitMs; 'busy' past it. */
  private async underUserLock(
    userId: string,
    work: (manager: EntityManager, records: OrderRecordsRepository) => Promise<EditOutcome>,
  ): Promise<EditOutcome> {
    try {
      return await withTenant(this.dataSource, userId, async (manager) => {
        const records = new OrderRecordsRepository(manager);
        await records.lockUserForEdit(userId, this.lockWaitMs);
        return work(manager, records);
      });
    } catch (error) {
      if (isLockWaitTimeout(error)) return 'busy';
      throw error;
    }
  }
}
