import type { MatchLine, PrintifyOrderToMatch, ReceiptToMatch } from '@pod/domain';
import type { Db } from './database-session';

interface SideRow {
  shop_id: string;
  id: string;
  buyer_name: string | null;
  ordered_at: Date;
  lines: MatchLine[];
}

/**
 * What the matching engine reads for one user: every synced receipt and Printify order with
 * the line fields it scores, one set-based statement each (lines aggregated per order in a
 * stable order, so the records' "first line" fields do not depend on the plan).
 */
export class MatchingInputsRepository {
  constructor(private readonly db: Db) {}

  async receiptsOf(userId: string): Promise<ReceiptToMatch[]> {
    const rows: SideRow[] = await this.db.query(
      `SELECT r.shop_id, r.receipt_id AS id, r.buyer_name, r.ordered_at,
         coalesce((SELECT json_agg(json_build_object('title', l.title, 'sku', l.sku, 'quantity', l.quantity) ORDER BY l.transaction_id)
                   FROM etsy_receipt_line l WHERE l.user_id = r.user_id AND l.receipt_id = r.receipt_id AND l.shop_id = r.shop_id), '[]') AS lines
       FROM etsy_receipt r WHERE r.user_id = $1`,
      [userId],
    );
    return rows.map((row) => ({ shopId: row.shop_id, receiptId: row.id, buyerName: row.buyer_name, orderedAt: new Date(row.ordered_at), lines: row.lines }));
  }

  async printifyOrdersOf(userId: string): Promise<PrintifyOrderToMatch[]> {
    const rows: (SideRow & { shop_order_id: string | null; shop_order_label: string | null; is_reprint: boolean })[] = await this.db.query(
      `SELECT o.shop_id, o.order_id AS id, o.shop_order_id, o.shop_order_label, o.is_reprint, o.buyer_name, o.ordered_at,
         coalesce((SELECT json_agg(json_build_object('title', l.title, 'sku', l.sku, 'quantity', l.quantity) ORDER BY l.line_no)
                   FROM printify_order_line l WHERE l.user_id = o.user_id AND l.shop_id = o.shop_id AND l.order_id = o.order_id), '[]') AS lines
       FROM printify_order o WHERE o.user_id = $1`,
      [userId],
    );
    return rows.map((row) => ({
      shopId: row.shop_id,
      orderId: row.id,
      shopOrderId: row.shop_order_id,
      shopOrderLabel: row.shop_order_label,
      isReprint: row.is_reprint,
      buyerName: row.buyer_name,
      orderedAt: new Date(row.ordered_at),
      lines: row.lines,
    }));
  }
}
