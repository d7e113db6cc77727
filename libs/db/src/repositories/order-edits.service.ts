import type { DataSource, EntityManager } from 'typeorm';
import { OrderRecordEntity } from '../entities/order-record.entity';
import {
  planManualMatch,
  planManualRemoval,
  type ManualRecord,
  type ManualRefusal,
  type MatchStatus,
  type SideRef,
} from '@pod/domain';
import { isLockWaitTimeout, isUuid, returnedRows } from './database-session';
import { OrderRecordsRepository, recordSidesOfRow } from './order-records.repository';
import { withTenant } from './tenant-scope';
import { DashboardRollupsRepository } from './dashboard-rollups.repository';
import { refreshDaySummaries } from './day-summaries';

/**
 * 'busy': the user's matching lock was not free within EDIT_LOCK_WAIT_MS (a matcher or profit run
 * holds it). 'conflict' with the manual-match rule's refusal: the change cannot be made as asked.
 */
export type EditOutcome = { ids: string[] } | 'not_found' | 'conflict' | { refused: ManualRefusal } | 'busy';

/**
 * How long an edit waits for the user's matching lock while holding a pooled connection. A
 * user's own edits take milliseconds under it, so they queue behind each other well within the
 * bound; a matcher run holds it for up to a minute on a large shop, and waiting that long would
 * hand the user's requests every connection of the gateway's pool (issue 16).
 */
export const EDIT_LOCK_WAIT_MS = 1_000;

/** The trigger's name for "a Printify order is on one receipt only" (migration 1765600000000). */
const ONE_RECEIPT_CONSTRAINT = 'order_record_printify_order_once';

/**
 * The user's own changes to their order records (spec Part 2 point 5; issue 17), applying the
 * domain's manual-match rule (manual-match.ts): a manual match (a pair, or one more Printify
 * order on a receipt that has one), removing a Printify order from a receipt, an unmatch,
 * archive and restore. Each runs in its own transaction scoped to the user (ADR 0015), under the
 * user's matching lock, so it takes turns with matcher runs and the profit writer. What the
 * seller decided is remembered with method `manual`, which every later matcher run keeps as it
 * is (attached orders included). A record whose Printify orders change loses its stored figures
 * (they count as still being calculated until the profit run it queues). Each refreshes the
 * dashboard's and the Orders counts' days it touched in that transaction.
 */
export class OrderEditsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly lockWaitMs = EDIT_LOCK_WAIT_MS,
  ) {}

  /** Matches two records by hand: the pair's (or the receipt's) id, or why not. */
  matchByHand(userId: string, recordId: string, otherId: string): Promise<EditOutcome> {
    return this.underUserLock(userId, async (manager) => {
      const [selected, other] = await this.manualRecords(manager, userId, [recordId, otherId]);
      if (!selected || !other) return 'not_found';
      const plan = planManualMatch(selected, other);
      if (typeof plan === 'string') return { refused: plan };
      const receiptRecord = plan.receiptRecordId === selected.id ? selected : other;
      const orderRecord = plan.orderRecordId === selected.id ? selected : other;
      const order = orderRecord.order as SideRef;
      const days = await new DashboardRollupsRepository(manager).daysOf(userId, [receiptRecord.id, orderRecord.id]);
      // The lone order's reprints come along; then its record goes, freeing its order for the receipt.
      await manager.query(
        `UPDATE order_record_printify_order SET order_record_id = $3 WHERE user_id = $1 AND order_record_id = $2`,
        [userId, orderRecord.id, receiptRecord.id],
      );
      await manager.query(`DELETE FROM order_record WHERE user_id = $1 AND id = $2`, [userId, orderRecord.id]);
      if (plan.kind === 'pair') {
        await manager.query(
          `UPDATE order_record r SET printify_shop_id = o.shop_id, printify_order_id = o.order_id, status = 'matched', not_needed_reason = NULL,
             match_method = 'manual', match_confidence = 1, customer_name = coalesce(r.customer_name, o.buyer_name), updated_at = now()
           FROM printify_order o WHERE r.user_id = $1 AND r.id = $2 AND o.user_id = $1 AND o.shop_id = $3 AND o.order_id = $4`,
          [userId, receiptRecord.id, order.shopId, order.id],
        );
      } else {
        await manager.query(
          `INSERT INTO order_record_printify_order (user_id, order_record_id, printify_shop_id, printify_order_id, reason)
           VALUES ($1, $2, $3, $4, 'manual')`,
          [userId, receiptRecord.id, order.shopId, order.id],
        );
        await this.keepAsDecided(manager, userId, receiptRecord.id);
      }
      await refreshDaySummaries(manager, userId, days);
      return { ids: [receiptRecord.id] };
    });
  }

  /**
   * Takes one Printify order off a receipt by hand: an added one leaves, the primary leaves (the
   * first added one takes its place), or, the only one, the plain unmatch. The order that leaves
   * becomes its own lone record, kept by later matcher runs.
   */
  removePrintifyOrder(userId: string, recordId: string, printifyOrderId: string): Promise<EditOutcome> {
    return this.underUserLock(userId, async (manager) => {
      const [record] = await this.manualRecords(manager, userId, [recordId]);
      if (!record) return 'not_found';
      const plan = planManualRemoval(record, printifyOrderId);
      if (typeof plan === 'string') return { refused: plan };
      if (plan.kind === 'unmatch') return this.unmatchRecord(manager, userId, record);
      const days = await new DashboardRollupsRepository(manager).daysOf(userId, [record.id]);
      if (plan.kind === 'detach') {
        await manager.query(
          `DELETE FROM order_record_printify_order WHERE user_id = $1 AND order_record_id = $2 AND printify_shop_id = $3 AND printify_order_id = $4`,
          [userId, record.id, plan.order.shopId, plan.order.id],
        );
      } else {
        await manager.query(
          `DELETE FROM order_record_printify_order WHERE user_id = $1 AND order_record_id = $2 AND printify_shop_id = $3 AND printify_order_id = $4`,
          [userId, record.id, plan.newPrimary.shopId, plan.newPrimary.id],
        );
        await manager.query(
          `UPDATE order_record SET printify_shop_id = $3, printify_order_id = $4, updated_at = now() WHERE user_id = $1 AND id = $2`,
          [userId, record.id, plan.newPrimary.shopId, plan.newPrimary.id],
        );
      }
      await this.keepAsDecided(manager, userId, record.id);
      const lone = await this.insertLoneOrders(manager, userId, [plan.order]);
      await refreshDaySummaries(manager, userId, [
        ...days,
        ...(await new DashboardRollupsRepository(manager).daysOf(userId, lone)),
      ]);
      return { ids: [record.id, ...lone] };
    });
  }

  /**
   * Splits a pair (matched or pending) into a lone receipt record (keeping the id) and a new lone
   * Printify record for each of its Printify orders, all `manual` so no matcher run pairs them
   * again. Archived orders are frozen.
   */
  unmatch(userId: string, recordId: string): Promise<EditOutcome> {
    return this.underUserLock(userId, async (manager) => {
      const [record] = await this.manualRecords(manager, userId, [recordId]);
      if (!record) return 'not_found';
      if (record.receipt === null || record.order === null || record.archived) return 'conflict';
      return this.unmatchRecord(manager, userId, record);
    });
  }

  private async unmatchRecord(manager: EntityManager, userId: string, record: ManualRecord): Promise<EditOutcome> {
    const orders = [...(record.order ? [record.order] : []), ...record.attached];
    await manager.query(`DELETE FROM order_record_printify_order WHERE user_id = $1 AND order_record_id = $2`, [
      userId,
      record.id,
    ]);
    await manager.query(
      `UPDATE order_record SET printify_shop_id = NULL, printify_order_id = NULL, status = 'unmatched', not_needed_reason = NULL,
         match_method = 'manual', match_confidence = NULL, updated_at = now() WHERE user_id = $1 AND id = $2`,
      [userId, record.id],
    );
    const ids = [record.id, ...(await this.insertLoneOrders(manager, userId, orders))];
    await refreshDaySummaries(manager, userId, await new DashboardRollupsRepository(manager).daysOf(userId, ids));
    return { ids };
  }

  /** A lone record (unmatched, manual: later runs keep it alone) for each Printify order; their ids. */
  private async insertLoneOrders(
    manager: EntityManager,
    userId: string,
    orders: readonly SideRef[],
  ): Promise<string[]> {
    if (orders.length === 0) return [];
    const inserted: { id: string }[] = await manager.query(
      `INSERT INTO order_record (user_id, printify_shop_id, printify_order_id, status, match_method, order_date, customer_name, product_title, product_sku)
       SELECT o.user_id, o.shop_id, o.order_id, 'unmatched', 'manual', o.ordered_at, o.buyer_name, l.title, l.sku
       FROM printify_order o
       JOIN jsonb_to_recordset($2::jsonb) AS s(shop_id text, order_id text) ON s.shop_id = o.shop_id AND s.order_id = o.order_id
       LEFT JOIN LATERAL (SELECT title, sku FROM printify_order_line pl
                          WHERE pl.user_id = o.user_id AND pl.shop_id = o.shop_id AND pl.order_id = o.order_id ORDER BY pl.line_no LIMIT 1) l ON true
       WHERE o.user_id = $1
       RETURNING id`,
      [userId, JSON.stringify(orders.map((order) => ({ shop_id: order.shopId, order_id: order.id })))],
    );
    return inserted.map((row) => row.id);
  }

  /**
   * The seller decided this receipt's Printify orders: a matched pair, method manual, which every
   * later run keeps with its attached orders; its stored figures no longer describe it.
   */
  private async keepAsDecided(manager: EntityManager, userId: string, recordId: string): Promise<void> {
    await manager.query(
      `UPDATE order_record SET status = 'matched', not_needed_reason = NULL, match_method = 'manual', match_confidence = 1, updated_at = now()
       WHERE user_id = $1 AND id = $2 AND printify_order_id IS NOT NULL AND etsy_receipt_id IS NOT NULL`,
      [userId, recordId],
    );
    await manager.query(`DELETE FROM order_profit WHERE user_id = $1 AND order_record_id = $2`, [userId, recordId]);
  }

  /** The records by id (the user's only), locked for the edit, with their attached orders; in the ids' order. */
  private async manualRecords(
    manager: EntityManager,
    userId: string,
    ids: readonly string[],
  ): Promise<(ManualRecord | undefined)[]> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return ids.map(() => undefined);
    const rows: {
      id: string;
      status: MatchStatus;
      archived: boolean;
      etsy_shop_id: string | null;
      etsy_receipt_id: string | null;
      printify_shop_id: string | null;
      printify_order_id: string | null;
    }[] = await manager.query(
      `SELECT id, status, archived_at IS NOT NULL AS archived, etsy_shop_id, etsy_receipt_id, printify_shop_id, printify_order_id
       FROM order_record WHERE user_id = $1 AND id = ANY($2::uuid[]) FOR UPDATE`,
      [userId, valid],
    );
    const attached = await new OrderRecordsRepository(manager).attachedOf(userId, valid);
    const byId = new Map(
      rows.map((row): [string, ManualRecord] => [
        row.id,
        {
          id: row.id,
          status: row.status,
          archived: row.archived,
          ...recordSidesOfRow(row),
          attached: (attached.get(row.id) ?? []).map((entry) => entry.order),
        },
      ]),
    );
    return ids.map((id) => byId.get(id));
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
      // A writer that slipped past the lock (it cannot: every writer takes it) still cannot put an order on two receipts.
      if ((error as { driverError?: { constraint?: string } })?.driverError?.constraint === ONE_RECEIPT_CONSTRAINT)
        return { refused: 'already_matched' };
      throw error;
    }
  }
}
