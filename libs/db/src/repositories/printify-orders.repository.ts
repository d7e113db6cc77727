import type { CurrencyCode } from '@pod/domain';
import type { Db } from './database-session';
import { inTenantScope } from './tenant-scope';
import { countUpserts, jsonForPostgres, lastPerKey, payloadHash, type UpsertCounts } from './synced-rows';

export interface PrintifyOrderRow {
  orderId: string;
  appOrderId: string | null;
  status: string;
  orderType: string | null;
  shopOrderId: string | null;
  shopOrderLabel: string | null;
  buyerName: string | null;
  zip: string | null;
  country: string | null;
  currency: CurrencyCode;
  totalPriceMinor: number;
  totalShippingMinor: number;
  totalTaxMinor: number;
  isReprint: boolean;
  orderedAt: Date;
  sentToProductionAt: Date | null;
  fulfilledAt: Date | null;
  lines: PrintifyOrderLineRow[];
  payload: unknown;
}

export interface PrintifyOrderLineRow {
  productId: string | null;
  variantId: string | null;
  sku: string | null;
  title: string | null;
  variantLabel: string | null;
  quantity: number;
  currency: CurrencyCode;
  costMinor: number;
  shippingMinor: number;
  retailPriceMinor: number | null;
  status: string | null;
}

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
      order_id: row.orderId,
      app_order_id: row.appOrderId,
      status: row.status,
      order_type: row.orderType,
      shop_order_id: row.shopOrderId,
      shop_order_label: row.shopOrderLabel,
      buyer_name: row.buyerName,
      zip: row.zip,
      country: row.country,
      currency: row.currency,
      total_price_minor: row.totalPriceMinor,
      total_shipping_minor: row.totalShippingMinor,
      total_tax_minor: row.totalTaxMinor,
      line_cost_minor: row.lines.reduce((sum, line) => sum + line.costMinor, 0),
      line_shipping_minor: row.lines.reduce((sum, line) => sum + line.shippingMinor, 0),
      item_count: row.lines.reduce((sum, line) => sum + line.quantity, 0),
      is_reprint: row.isReprint,
      ordered_at: row.orderedAt.toISOString(),
      sent_to_production_at: row.sentToProductionAt?.toISOString() ?? null,
      fulfilled_at: row.fulfilledAt?.toISOString() ?? null,
      payload: row.payload,
      payload_hash: payloadHash(row.payload),
    }));
    const written: { key: string; inserted: boolean }[] = await db.query(
      `INSERT INTO printify_order (user_id, shop_id, order_id, app_order_id, status, order_type, shop_order_id, shop_order_label, buyer_name,
         zip, country, currency, total_price_minor, total_shipping_minor, total_tax_minor, line_cost_minor, line_shipping_minor,
         item_count, is_reprint, ordered_at, sent_to_production_at, fulfilled_at, payload, payload_hash, fetched_at)
       SELECT $1, $2, o.order_id, o.app_order_id, o.status, o.order_type, o.shop_order_id, o.shop_order_label, o.buyer_name, o.zip,
         o.country, o.currency, o.total_price_minor, o.total_shipping_minor, o.total_tax_minor, o.line_cost_minor, o.line_shipping_minor,
         o.item_count, o.is_reprint, o.ordered_at, o.sent_to_production_at, o.fulfilled_at, o.payload, o.payload_hash, $4
       FROM jsonb_to_recordset($3::jsonb) AS o(order_id text, app_order_id text, status text, order_type text, shop_order_id text,
         shop_order_label text, buyer_name text, zip text, country text, currency text, total_price_minor bigint,
         total_shipping_minor bigint, total_tax_minor bigint, line_cost_minor bigint, line_shipping_minor bigint, item_count integer,
         is_reprint boolean, ordered_at timestamptz, sent_to_production_at timestamptz, fulfilled_at timestamptz, payload jsonb,
         payload_hash text)
       ON CONFLICT (user_id, shop_id, order_id) DO UPDATE SET
         app_order_id = EXCLUDED.app_order_id, status = EXCLUDED.status, order_type = EXCLUDED.order_type,
         shop_order_id = EXCLUDED.shop_order_id, shop_order_label = EXCLUDED.shop_order_label, buyer_name = EXCLUDED.buyer_name,
         zip = EXCLUDED.zip, country = EXCLUDED.country, currency = EXCLUDED.currency, total_price_minor = EXCLUDED.total_price_minor,
         total_shipping_minor = EXCLUDED.total_shipping_minor, total_tax_minor = EXCLUDED.total_tax_minor,
         line_cost_minor = EXCLUDED.line_cost_minor, line_shipping_minor = EXCLUDED.line_shipping_minor, item_count = EXCLUDED.item_count,
         is_reprint = EXCLUDED.is_reprint, ordered_at = EXCLUDED.ordered_at, sent_to_production_at = EXCLUDED.sent_to_production_at,
         fulfilled_at = EXCLUDED.fulfilled_at, payload = EXCLUDED.payload, payload_hash = EXCLUDED.payload_hash,
         fetched_at = EXCLUDED.fetched_at, updated_at = now()
       WHERE EXCLUDED.payload_hash <> printify_order.payload_hash AND EXCLUDED.fetched_at >= printify_order.fetched_at
       RETURNING order_id AS key, (xmax = 0) AS inserted`,
      [userId, shopId, jsonForPostgres(input), fetchedAt.toISOString()],
    );
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
      order.lines.map((line, index) => ({
        order_id: order.orderId,
        line_no: index + 1,
        product_id: line.productId,
        variant_id: line.variantId,
        sku: line.sku,
        title: line.title,
        variant_label: line.variantLabel,
        quantity: line.quantity,
        currency: line.currency,
        cost_minor: line.costMinor,
        shipping_minor: line.shippingMinor,
        retail_price_minor: line.retailPriceMinor,
        status: line.status,
      })),
    );
    if (lines.length === 0) return;
    await db.query(
      `INSERT INTO printify_order_line (user_id, shop_id, order_id, line_no, product_id, variant_id, sku, title, variant_label, quantity,
         currency, cost_minor, shipping_minor, retail_price_minor, status)
       SELECT $1, $2, l.order_id, l.line_no, l.product_id, l.variant_id, l.sku, l.title, l.variant_label, l.quantity, l.currency,
         l.cost_minor, l.shipping_minor, l.retail_price_minor, l.status
       FROM jsonb_to_recordset($3::jsonb) AS l(order_id text, line_no integer, product_id text, variant_id text, sku text, title text,
         variant_label text, quantity integer, currency text, cost_minor bigint, shipping_minor bigint, retail_price_minor bigint, status text)`,
      [userId, shopId, jsonForPostgres(lines)],
    );
  }
}
