import { SideMap } from '@pod/domain';
import type {
  AttachedOrder,
  AttachmentReason,
  ExistingOrderRecord,
  OrderRecordShape,
  RecordChanges,
} from '@pod/domain';
import { OrderRecordEntity } from '../entities/order-record.entity';
import { isUuid, type Db } from './database-session';
import { inTenantScope } from './tenant-scope';
import { DashboardRollupsRepository } from './dashboard-rollups.repository';
import { refreshDaySummaries } from './day-summaries';
import { jsonForPostgres } from './synced-rows';

/** Records inserted per statement by a matcher run. */
const INSERT_BATCH = 10_000;

/** The per-user lock every rewrite of a user's records takes (the matcher, the profit writer, the user's edits). */
const USER_LOCK_SQL = `SELECT pg_advisory_xact_lock(hashtextextended('order_record:' || $1, 0))`;

export interface AppliedChanges {
  added: number;
  changed: number;
  removed: number;
}

/**
 * order_record: the orders the seller sees. The matcher replaces a user's records by a diff
 * under the user's matching lock (see lockUserForMatching); the partial unique indexes keep
 * each receipt and Printify order in one record even if two writers ever slip past it.
 */
export class OrderRecordsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Serializes everything that rewrites one user's records (matcher runs on any replica, manual
   * matches) until the transaction ends. Must run inside withTransaction.
   */
  async lockUserForMatching(userId: string): Promise<void> {
    await inTenantScope(this.db, userId, (db) => db.query(USER_LOCK_SQL, [userId]));
  }

  /**
   * The same lock for a request path, which holds one of the gateway's few pooled connections
   * while it waits: every lock wait for the rest of the transaction (this one and any row lock
   * after it) is bounded by `waitMs`. Past it PostgreSQL raises lock_not_available, the
   * transaction rolls back, and the caller answers 409 (see isLockWaitTimeout). The matcher
   * keeps waiting without a bound (lockUserForMatching): it is a background job.
   */
  async lockUserForEdit(userId: string, waitMs: number): Promise<void> {
    if (!Number.isInteger(waitMs) || waitMs <= 0) throw new Error('lockUserForEdit: waitMs must be a positive integer');
    await inTenantScope(this.db, userId, async (db) => {
      await db.query(`SELECT set_config('lock_timeout', $1, true)`, [`${waitMs}ms`]);
      await db.query(USER_LOCK_SQL, [userId]);
    });
  }

  /**
   * Every record of the user, archived ones included, with the fields the engine reads. Plain
   * SQL rather than the entity API: hydrating 100k entities cost several times the read itself.
   */
  async listForMatching(userId: string): Promise<ExistingOrderRecord[]> {
    const rows: MatchingRecordRow[] = await inTenantScope(this.db, userId, (db) =>
      db.query(
        `SELECT id, archived_at IS NOT NULL AS archived, etsy_shop_id, etsy_receipt_id, printify_shop_id, printify_order_id, status, match_method,
         match_confidence, order_date, customer_name, product_title, product_sku, not_needed_reason
       FROM order_record WHERE user_id = $1`,
        [userId],
      ),
    );
    const attached = await this.attachedOf(userId);
    return rows.map((row) => ({
      id: row.id,
      archived: row.archived,
      ...recordSidesOfRow(row),
      attached: attached.get(row.id) ?? [],
      status: row.status,
      notNeededReason: row.not_needed_reason,
      method: row.match_method,
      // numeric(5,4) arrives as a string, as in the entity's transformer.
      confidence: row.match_confidence === null ? null : Number(row.match_confidence),
      orderDate: row.order_date,
      customerName: row.customer_name,
      productTitle: row.product_title,
      productSku: row.product_sku,
    }));
  }

  /** Every record's attached Printify orders (few: reprints, splits, added by hand), by record id, in side order. */
  async attachedOf(userId: string, recordIds?: readonly string[]): Promise<Map<string, AttachedOrder[]>> {
    const rows: {
      order_record_id: string;
      printify_shop_id: string;
      printify_order_id: string;
      reason: AttachmentReason;
    }[] = await inTenantScope(this.db, userId, (db) =>
      db.query(
        `SELECT order_record_id, printify_shop_id, printify_order_id, reason FROM order_record_printify_order
           WHERE user_id = $1 AND ($2::uuid[] IS NULL OR order_record_id = ANY($2::uuid[]))
           ORDER BY printify_shop_id COLLATE "C", printify_order_id COLLATE "C"`,
        [userId, recordIds ?? null],
      ),
    );
    const byRecord = new Map<string, AttachedOrder[]>();
    for (const row of rows) {
      const entry = { order: { shopId: row.printify_shop_id, id: row.printify_order_id }, reason: row.reason };
      const list = byRecord.get(row.order_record_id);
      if (list) list.push(entry);
      else byRecord.set(row.order_record_id, [entry]);
    }
    return byRecord;
  }

  async findById(userId: string, id: string): Promise<OrderRecordEntity | null> {
    if (!isUuid(id)) return null;
    return inTenantScope(this.db, userId, (db) =>
      db.getRepository(OrderRecordEntity).findOne({ where: { userId, id } }),
    );
  }

  /**
   * Writes a diff from planRecordChanges in an order the unique indexes accept: deletions, then
   * freeing the Printify side of every record whose side changes (two records may swap orders),
   * then the updates, then the new records.
   */
  applyChanges(userId: string, changes: RecordChanges): Promise<AppliedChanges> {
    return inTenantScope(this.db, userId, (db) => this.writeChanges(db, userId, changes));
  }

  private async writeChanges(db: Db, userId: string, changes: RecordChanges): Promise<AppliedChanges> {
    const rollups = new DashboardRollupsRepository(db);
    // The days the changes leave (read before the rows go or move) and the days they arrive at.
    const days = new Set(
      await rollups.daysOf(userId, [...changes.deletes, ...changes.updates.map((update) => update.id)]),
    );
    for (const { record } of [...changes.updates, ...changes.inserts.map((record) => ({ record }))]) {
      if (record.orderDate) days.add(record.orderDate.toISOString().slice(0, 10));
    }
    // Attached orders of records that change them (or go) are freed first, so any record may take them below.
    const reattached = changes.updates.filter((update) => update.attachedChanges).map((update) => update.id);
    if (reattached.length > 0) {
      await db.query(
        `DELETE FROM order_record_printify_order WHERE user_id = $1 AND order_record_id = ANY($2::uuid[])`,
        [userId, reattached],
      );
      // Their stored figures no longer describe them: gone, the record reads as "still being
      // calculated" until the profit run that follows every match run figures it again.
      await db.query(`DELETE FROM order_profit WHERE user_id = $1 AND order_record_id = ANY($2::uuid[])`, [
        userId,
        reattached,
      ]);
    }
    if (changes.deletes.length > 0) {
      await db.query(`DELETE FROM order_record WHERE user_id = $1 AND id = ANY($2::uuid[])`, [userId, changes.deletes]);
    }
    const freed = changes.updates.filter((update) => update.orderSideChanges).map((update) => update.id);
    if (freed.length > 0) {
      // Only records that keep a receipt move their Printify side (planRecordChanges), so the sides CHECK holds.
      await db.query(
        `UPDATE order_record SET printify_shop_id = NULL, printify_order_id = NULL, status = 'unmatched', not_needed_reason = NULL,
           match_method = NULL, match_confidence = NULL
         WHERE user_id = $1 AND id = ANY($2::uuid[])`,
        [userId, freed],
      );
    }
    if (changes.updates.length > 0) {
      await db.query(
        `UPDATE order_record t SET etsy_shop_id = s.etsy_shop_id, etsy_receipt_id = s.etsy_receipt_id, printify_shop_id = s.printify_shop_id,
           printify_order_id = s.printify_order_id, status = s.status, not_needed_reason = s.not_needed_reason, match_method = s.match_method, match_confidence = s.match_confidence,
           order_date = s.order_date, customer_name = s.customer_name, product_title = s.product_title, product_sku = s.product_sku, updated_at = now()
         FROM jsonb_to_recordset($2::jsonb) AS s(${RECORD_COLUMNS}, id uuid)
         WHERE t.user_id = $1 AND t.id = s.id`,
        [userId, jsonForPostgres(changes.updates.map((update) => ({ ...toRow(update.record), id: update.id })))],
      );
    }
    // In batches: with the search's GIN index, a seller's first 100k records in one statement took
    // 20-30 s on a busy 2-core machine, near the pool's statement_timeout (30 s).
    const attachments: {
      order_record_id: string;
      printify_shop_id: string;
      printify_order_id: string;
      reason: string;
    }[] = [];
    const attachTo = (id: string, record: OrderRecordShape) => {
      for (const extra of record.attached)
        attachments.push({
          order_record_id: id,
          printify_shop_id: extra.order.shopId,
          printify_order_id: extra.order.id,
          reason: extra.reason,
        });
    };
    for (const update of changes.updates) if (update.attachedChanges) attachTo(update.id, update.record);
    for (let start = 0; start < changes.inserts.length; start += INSERT_BATCH) {
      const batch = changes.inserts.slice(start, start + INSERT_BATCH);
      const ids: { id: string; printify_shop_id: string | null; printify_order_id: string | null }[] = await db.query(
        `INSERT INTO order_record (user_id, etsy_shop_id, etsy_receipt_id, printify_shop_id, printify_order_id, status, not_needed_reason,
           match_method, match_confidence, order_date, customer_name, product_title, product_sku)
         SELECT $1, s.etsy_shop_id, s.etsy_receipt_id, s.printify_shop_id, s.printify_order_id, s.status, s.not_needed_reason,
           s.match_method, s.match_confidence, s.order_date, s.customer_name, s.product_title, s.product_sku
         FROM jsonb_to_recordset($2::jsonb) AS s(${RECORD_COLUMNS})
         RETURNING id, printify_shop_id, printify_order_id`,
        [userId, jsonForPostgres(batch.map(toRow))],
      );
      // A record with attached orders has a primary one, unique per user: the new id by it.
      const idByOrder = new SideMap<string>();
      for (const row of ids)
        if (row.printify_shop_id !== null && row.printify_order_id !== null)
          idByOrder.set(row.printify_shop_id, row.printify_order_id, row.id);
      for (const record of batch) {
        const id = record.order && record.attached.length > 0 ? idByOrder.getRef(record.order) : undefined;
        if (id) attachTo(id, record);
      }
    }
    if (attachments.length > 0) {
      await db.query(
        `INSERT INTO order_record_printify_order (user_id, order_record_id, printify_shop_id, printify_order_id, reason)
         SELECT $1, s.order_record_id, s.printify_shop_id, s.printify_order_id, s.reason
         FROM jsonb_to_recordset($2::jsonb) AS s(order_record_id uuid, printify_shop_id text, printify_order_id text, reason text)`,
        [userId, jsonForPostgres(attachments)],
      );
    }
    await refreshDaySummaries(db, userId, days);
    return { added: changes.inserts.length, changed: changes.updates.length, removed: changes.deletes.length };
  }
}

interface MatchingRecordRow {
  id: string;
  archived: boolean;
  etsy_shop_id: string | null;
  etsy_receipt_id: string | null;
  printify_shop_id: string | null;
  printify_order_id: string | null;
  status: OrderRecordShape['status'];
  match_method: OrderRecordShape['method'];
  match_confidence: string | null;
  not_needed_reason: OrderRecordShape['notNeededReason'];
  order_date: Date | null;
  customer_name: string | null;
  product_title: string | null;
  product_sku: string | null;
}

const RECORD_COLUMNS = `etsy_shop_id text, etsy_receipt_id text, printify_shop_id text, printify_order_id text, status text, not_needed_reason text,
  match_method text, match_confidence numeric, order_date timestamptz, customer_name text, product_title text, product_sku text`;

function toRow(record: OrderRecordShape) {
  return {
    etsy_shop_id: record.receipt?.shopId ?? null,
    etsy_receipt_id: record.receipt?.id ?? null,
    printify_shop_id: record.order?.shopId ?? null,
    printify_order_id: record.order?.id ?? null,
    status: record.status,
    not_needed_reason: record.notNeededReason,
    match_method: record.method,
    match_confidence: record.confidence,
    order_date: record.orderDate?.toISOString() ?? null,
    customer_name: record.customerName,
    product_title: record.productTitle,
    product_sku: record.productSku,
  };
}

/** A record row's two sides as the matching code names them: its receipt and its Printify order, or null. */
export function recordSidesOfRow(row: {
  etsy_shop_id: string | null;
  etsy_receipt_id: string | null;
  printify_shop_id: string | null;
  printify_order_id: string | null;
}): { receipt: { shopId: string; id: string } | null; order: { shopId: string; id: string } | null } {
  return {
    receipt:
      row.etsy_shop_id !== null && row.etsy_receipt_id !== null
        ? { shopId: row.etsy_shop_id, id: row.etsy_receipt_id }
        : null,
    order:
      row.printify_shop_id !== null && row.printify_order_id !== null
        ? { shopId: row.printify_shop_id, id: row.printify_order_id }
        : null,
  };
}
