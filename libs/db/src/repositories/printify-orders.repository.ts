import type { PrintifyOrderEntity, PrintifyOrderLineEntity } from '../entities';
import type { Db } from './database-session';
import { inTenantScope } from './tenant-scope';
import { countUpserts, lastPerKey, payloadHash, type UpsertCounts } from './synced-rows';
import { SYNCED_UPSERTS } from './synced-tables';
import type { SyncedRowOf } from './synced-upsert';

export interface PrintifyOrderRow extends SyncedRowOf<
  PrintifyOrderEntity,
  | 'userId'
  | 'shopId'
  | 'lineCostMinor'
  | 'lineShippingMinor'
  | 'itemCount'
  | 'payloadHash'
  | 'fetchedAt'
  | 'createdAt'
  | 'updatedAt'
> {
  lines: PrintifyOrderLineRow[];
}

export type PrintifyOrderLineRow = SyncedRowOf<PrintifyOrderLineEntity, 'userId' | 'shopId' | 'orderId' | 'lineNo'>;

/**
 * The synced Printify orders of one user and shop. Printify sends no update time, so the
 * version an upsert compares is when its fetch began: a changed payload from a later fetch
 * overwrites, an unchanged one writes nothing.
 */
export class PrintifyOrdersRepository {
  constructor(private readonly db: Db) {}

  upsertOrders(
    userId: string,
    shopId: string,
    orders: readonly PrintifyOrderRow[],
    fetchedAt: Date,
  ): Promise<UpsertCounts> {
    return inTenantScope(this.db, userId, (db) => this.writeOrders(db, userId, shopId, orders, fetchedAt));
  }

  private async writeOrders(
    db: Db,
    userId: string,
    shopId: string,
    orders: readonly PrintifyOrderRow[],
    fetchedAt: Date,
  ): Promise<UpsertCounts> {
    const rows = lastPerKey(orders, (row) => row.orderId);
    if (rows.length === 0) return { added: 0, changed: 0, writtenKeys: [] };
    const input = rows.map((row) => ({
      ...row,
      lineCostMinor: row.lines.reduce((sum, line) => sum + line.costMinor, 0),
      lineShippingMinor: row.lines.reduce((sum, line) => sum + line.shippingMinor, 0),
      itemCount: row.lines.reduce((sum, line) => sum + line.quantity, 0),
      payloadHash: payloadHash(row.payload),
    }));
    const upsert = SYNCED_UPSERTS.printifyOrder;
    const written: { key: string; inserted: boolean }[] = await db.query(upsert.sql, [
      userId,
      shopId,
      upsert.recordsetJson(input),
      fetchedAt.toISOString(),
    ]);
    const counts = countUpserts(written);
    await this.replaceLines(
      db,
      userId,
      shopId,
      rows.filter((row) => counts.writtenKeys.includes(row.orderId)),
    );
    return counts;
  }

  private async replaceLines(
    db: Db,
    userId: string,
    shopId: string,
    orders: readonly PrintifyOrderRow[],
  ): Promise<void> {
    if (orders.length === 0) return;
    await db.query(
      `DELETE FROM printify_order_line WHERE user_id = $1 AND shop_id = $2 AND order_id = ANY($3::text[])`,
      [userId, shopId, orders.map((order) => order.orderId)],
    );
    const lines = orders.flatMap((order) =>
      order.lines.map((line, index) => ({ ...line, orderId: order.orderId, lineNo: index + 1 })),
    );
    if (lines.length === 0) return;
    const upsert = SYNCED_UPSERTS.printifyOrderLine;
    await db.query(upsert.sql, [userId, shopId, upsert.recordsetJson(lines)]);
  }
}
