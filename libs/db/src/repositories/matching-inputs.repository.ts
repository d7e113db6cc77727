import { SideMap, type MatchLine, type PrintifyOrderToMatch, type ReceiptToMatch } from '@pod/domain';
import type { Db } from './database-session';
import { inTenantScope } from './tenant-scope';

export interface LineRow {
  shop_id: string;
  id: string;
  /** The line's order within its receipt or order: Etsy's transaction id, Printify's line number. */
  position: string | number;
  title: string | null;
  sku: string | null;
  quantity: number;
}

/**
 * What the matching engine reads for one user: every synced receipt and Printify order with
 * the line fields it scores. One plain SELECT per table, the lines grouped here in a stable
 * order (transaction id, line number), so the records' "first line" fields do not depend on
 * the plan. A correlated json_agg per order made the read about 3× a plain one at 100k orders.
 */
export class MatchingInputsRepository {
  constructor(private readonly db: Db) {}

  receiptsOf(userId: string): Promise<ReceiptToMatch[]> {
    return inTenantScope(this.db, userId, (db) => this.readReceipts(db, userId));
  }

  printifyOrdersOf(userId: string): Promise<PrintifyOrderToMatch[]> {
    return inTenantScope(this.db, userId, (db) => this.readPrintifyOrders(db, userId));
  }

  private async readReceipts(db: Db, userId: string): Promise<ReceiptToMatch[]> {
    const rows: { shop_id: string; id: string; buyer_name: string | null; ordered_at: Date }[] = await db.query(
      `SELECT shop_id, receipt_id AS id, buyer_name, ordered_at FROM etsy_receipt WHERE user_id = $1`,
      [userId],
    );
    const lines = groupLines(
      await db.query(
        `SELECT shop_id, receipt_id AS id, transaction_id AS position, title, sku, quantity FROM etsy_receipt_line WHERE user_id = $1`,
        [userId],
      ),
    );
    // Receipts with lines, every one digital: nothing for Printify to fulfil (few rows).
    const digital = new SideMap<true>();
    const digitalRows: { shop_id: string; id: string }[] = await db.query(
      `SELECT shop_id, receipt_id AS id FROM etsy_receipt_line WHERE user_id = $1 GROUP BY shop_id, receipt_id HAVING bool_and(is_digital)`,
      [userId],
    );
    for (const row of digitalRows) digital.set(row.shop_id, row.id, true);
    return rows.map((row) => ({
      shopId: row.shop_id,
      receiptId: row.id,
      buyerName: row.buyer_name,
      orderedAt: row.ordered_at,
      lines: lines.get(row.shop_id, row.id) ?? [],
      allDigital: digital.has(row.shop_id, row.id),
    }));
  }

  private async readPrintifyOrders(db: Db, userId: string): Promise<PrintifyOrderToMatch[]> {
    const rows: {
      shop_id: string;
      id: string;
      shop_order_id: string | null;
      shop_order_label: string | null;
      is_reprint: boolean;
      reprinted_order_ids: string[];
      child_reprinted_order_ids: string[];
      order_type: string | null;
      canceled: boolean;
      cost_minor: string;
      buyer_name: string | null;
      ordered_at: Date;
    }[] = await db.query(
      // reprinted_order_ids and child_reprinted_order_ids from the stored payload (integrations.md
      // b.4: metadata), each id as text whether Printify sent a string or a number.
      `SELECT shop_id, order_id AS id, shop_order_id, shop_order_label, is_reprint, lower(order_type) AS order_type,
         lower(status) = 'canceled' AS canceled, line_cost_minor + line_shipping_minor + total_tax_minor AS cost_minor,
         CASE WHEN jsonb_typeof(payload #> '{metadata,reprinted_order_ids}') = 'array'
           THEN ARRAY(SELECT jsonb_array_elements_text(payload #> '{metadata,reprinted_order_ids}')) ELSE '{}'::text[] END AS reprinted_order_ids,
         CASE WHEN jsonb_typeof(payload #> '{metadata,child_reprinted_order_ids}') = 'array'
           THEN ARRAY(SELECT jsonb_array_elements_text(payload #> '{metadata,child_reprinted_order_ids}')) ELSE '{}'::text[] END AS child_reprinted_order_ids,
         buyer_name, ordered_at
       FROM printify_order WHERE user_id = $1`,
      [userId],
    );
    const lines = groupLines(
      await db.query(
        `SELECT shop_id, order_id AS id, line_no AS position, title, sku, quantity FROM printify_order_line WHERE user_id = $1`,
        [userId],
      ),
    );
    return rows.map((row) => ({
      shopId: row.shop_id,
      orderId: row.id,
      shopOrderId: row.shop_order_id,
      shopOrderLabel: row.shop_order_label,
      isReprint: row.is_reprint,
      reprintedOrderIds: row.reprinted_order_ids,
      childReprintedOrderIds: row.child_reprinted_order_ids,
      orderType: row.order_type,
      canceled: row.canceled,
      costMinor: Number(row.cost_minor),
      buyerName: row.buyer_name,
      orderedAt: row.ordered_at,
      lines: lines.get(row.shop_id, row.id) ?? [],
    }));
  }
}

/** Lines per (shop, id), each list in position order (numbers numerically, ids as strings). */
export function groupLines(rows: readonly LineRow[]): SideMap<MatchLine[]> {
  const groups = new SideMap<LineRow[]>();
  const all: LineRow[][] = [];
  for (const row of rows) {
    const group = groups.get(row.shop_id, row.id);
    if (group) group.push(row);
    else {
      const started = [row];
      groups.set(row.shop_id, row.id, started);
      all.push(started);
    }
  }
  const lines = new SideMap<MatchLine[]>();
  for (const group of all) {
    if (group.length > 1) group.sort((a, b) => comparePositions(a.position, b.position));
    lines.set(
      group[0].shop_id,
      group[0].id,
      group.map((row) => ({ title: row.title, sku: row.sku, quantity: row.quantity })),
    );
  }
  return lines;
}

function comparePositions(a: string | number, b: string | number): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const [sa, sb] = [String(a), String(b)];
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}
