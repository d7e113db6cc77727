import type { Client } from 'pg';

/**
 * The bare SQL each read route is compared with: written by hand for the same answer, the
 * least a reader of these tables must ask PostgreSQL, fetched by the same driver.
 */

/** GET /api/dashboard/metrics: the window's sums of the stored figures and the status counters. */
export async function dashboardSql(client: Client, userId: string, currency: string, since: Date) {
  const { rows } = await client.query<{
    matched: string;
    pending: string;
    unmatched: string;
    without_rate: string;
    revenue: string;
    costs: string;
    profit: string;
    has_orders: boolean;
  }>(
    // As the dashboard counts (ADR 0027, 0031): counts over active records; sums over every
    // record's current figures (archived too), a lone Printify order's cost and a receipt still
    // awaiting its Printify cost left out of the order sums.
    `SELECT count(*) FILTER (WHERE r.archived_at IS NULL AND r.status = 'matched') AS matched,
       count(*) FILTER (WHERE r.archived_at IS NULL AND r.status = 'pending') AS pending,
       count(*) FILTER (WHERE r.archived_at IS NULL AND r.status = 'unmatched') AS unmatched,
       count(*) FILTER (WHERE r.archived_at IS NULL AND f.fresh AND p.figures = 'rate_unavailable') AS without_rate,
       coalesce(sum(p.revenue_minor) FILTER (WHERE f.counted), 0) AS revenue,
       coalesce(sum(p.costs_minor) FILTER (WHERE f.counted), 0) AS costs,
       coalesce(sum(p.net_profit_minor) FILTER (WHERE f.counted), 0) AS profit,
       EXISTS (SELECT 1 FROM etsy_receipt WHERE user_id = $1) AS has_orders
     FROM order_record r LEFT JOIN order_profit p ON p.order_record_id = r.id AND p.currency = $2
     CROSS JOIN LATERAL (SELECT coalesce(p.record_sides = coalesce(r.etsy_shop_id || ':' || r.etsy_receipt_id, '') || '|'
       || coalesce(r.printify_shop_id || ':' || r.printify_order_id, ''), false) AS fresh) f0
     CROSS JOIN LATERAL (SELECT f0.fresh, f0.fresh AND p.printify_cost <> 'awaiting'
       AND NOT (r.etsy_receipt_id IS NULL AND r.printify_order_id IS NOT NULL) AS counted) f
     WHERE r.user_id = $1 AND r.order_date >= $3`,
    [userId, currency, since],
  );
  const row = rows[0];
  return {
    matched: Number(row.matched),
    pending: Number(row.pending),
    unmatched: Number(row.unmatched),
    withoutRate: Number(row.without_rate),
    revenue: Number(row.revenue),
    costs: Number(row.costs),
    profit: Number(row.profit),
    hasOrders: row.has_orders,
  };
}

const SEARCH_TEXT = `(coalesce(r.etsy_receipt_id, '') || ' ' || coalesce(r.printify_order_id, '') || ' ' || coalesce(r.customer_name, '') || ' ' || coalesce(r.product_title, ''))`;

/**
 * GET /api/orders?search&status&page=1: the first page (newest first) with each row's figures,
 * and the counts the page shows (all orders of the view, the filtered ones per source tab).
 */
export async function ordersPageSql(
  client: Client,
  userId: string,
  currency: string,
  search: string,
  status: string,
  pageSize: number,
) {
  const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const page = await client.query<{ id: string }>(
    `SELECT r.id, r.status, r.match_method, r.match_confidence, r.etsy_receipt_id, r.printify_order_id, r.product_title, r.product_sku,
       r.customer_name, r.order_date, p.figures, p.revenue_minor, p.costs_minor, p.net_profit_minor, p.has_estimated_fees, p.breakdown -> 'margin' AS margin
     FROM order_record r LEFT JOIN order_profit p ON p.order_record_id = r.id AND p.currency = $2
     WHERE r.user_id = $1 AND r.archived_at IS NULL AND ${SEARCH_TEXT} ILIKE $3 AND r.status = $4
     ORDER BY r.order_date DESC NULLS LAST, r.id DESC LIMIT $5`,
    [userId, currency, pattern, status, pageSize],
  );
  const counts = await client.query<{ total: string; all_tab: string; etsy_tab: string; printify_tab: string }>(
    `SELECT count(*) AS total,
       count(*) FILTER (WHERE ${SEARCH_TEXT} ILIKE $2 AND r.status = $3) AS all_tab,
       count(*) FILTER (WHERE ${SEARCH_TEXT} ILIKE $2 AND r.status = $3 AND r.etsy_receipt_id IS NOT NULL) AS etsy_tab,
       count(*) FILTER (WHERE ${SEARCH_TEXT} ILIKE $2 AND r.status = $3 AND r.printify_order_id IS NOT NULL) AS printify_tab
     FROM order_record r WHERE r.user_id = $1 AND r.archived_at IS NULL`,
    [userId, pattern, status],
  );
  const row = counts.rows[0];
  return {
    ids: page.rows.map((r) => r.id),
    total: Number(row.total),
    filteredTotal: Number(row.all_tab),
    tabCounts: { all: Number(row.all_tab), etsy: Number(row.etsy_tab), printify: Number(row.printify_tab) },
  };
}
