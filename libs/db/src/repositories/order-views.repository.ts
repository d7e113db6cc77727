import type { DisplayCurrencyCode, StoredOrderBreakdown } from '@pod/domain';
import type { Db } from './database-session';
import { RECORD_SIDES_SQL } from './order-profits.repository';
import { ORDER_SEARCH_TEXT_SQL } from './order-records.repository';

/** One order record with its stored figures in one display currency, as the lists read it. */
export interface OrderViewRow {
  id: string;
  status: 'matched' | 'pending' | 'unmatched';
  matchMethod: 'exact' | 'fuzzy' | 'manual' | null;
  matchConfidence: number | null;
  archived: boolean;
  etsyReceiptId: string | null;
  printifyOrderId: string | null;
  productTitle: string | null;
  productSku: string | null;
  customerName: string | null;
  orderDate: Date | null;
  /** Null when no figures are stored for the record's current sides (not computed yet). */
  figures: 'ok' | 'rate_unavailable' | null;
  revenueMinor: number | null;
  costsMinor: number | null;
  netProfitMinor: number | null;
  hasEstimatedFees: boolean;
  margin: StoredOrderBreakdown['margin'];
}

export interface OrderListFilter {
  search: string | null;
  status: 'matched' | 'pending' | 'unmatched' | null;
  /** Orders dated on or after this instant; null: all time (undated included). */
  since: Date | null;
  source: 'all' | 'etsy' | 'printify';
  archived: boolean;
}

export interface OrderListCounts {
  total: number;
  filteredTotal: number;
  tabCounts: { all: number; etsy: number; printify: number };
}

export interface DashboardSums {
  matched: number;
  pending: number;
  unmatched: number;
  summed: number;
  withoutRate: number;
  notComputed: number;
  revenueMinor: number;
  costsMinor: number;
  netProfitMinor: number;
  hasOrders: boolean;
}

const ROW_SELECT = (currencyParam: string) => `
  SELECT r.id, r.status, r.match_method, r.match_confidence::text AS match_confidence, r.archived_at IS NOT NULL AS archived,
    r.etsy_receipt_id, r.printify_order_id, r.product_title, r.product_sku, r.customer_name, r.order_date,
    CASE WHEN p.record_sides = ${RECORD_SIDES_SQL('r')} THEN p.figures END AS figures,
    CASE WHEN p.record_sides = ${RECORD_SIDES_SQL('r')} THEN p.revenue_minor::text END AS revenue_minor,
    CASE WHEN p.record_sides = ${RECORD_SIDES_SQL('r')} THEN p.costs_minor::text END AS costs_minor,
    CASE WHEN p.record_sides = ${RECORD_SIDES_SQL('r')} THEN p.net_profit_minor::text END AS net_profit_minor,
    coalesce(p.record_sides = ${RECORD_SIDES_SQL('r')} AND p.has_estimated_fees, false) AS has_estimated_fees,
    CASE WHEN p.record_sides = ${RECORD_SIDES_SQL('r')} THEN p.breakdown -> 'margin' END AS margin
  FROM order_record r LEFT JOIN order_profit p ON p.order_record_id = r.id AND p.currency = ${currencyParam}`;

/** Integer text from SQL (bigint, a sum) to a number; a sum past 2^53 would be refused, never rounded. */
function safeInteger(value: unknown): number {
  const parsed = Number(value ?? 0);
  if (!Number.isSafeInteger(parsed)) throw new RangeError(`not a safe integer: ${String(value)}`);
  return parsed;
}
const integerOrNull = (value: unknown) => (value === null || value === undefined ? null : safeInteger(value));

function toRow(row: Record<string, unknown>): OrderViewRow {
  return {
    id: String(row.id),
    status: row.status as OrderViewRow['status'],
    matchMethod: (row.match_method as OrderViewRow['matchMethod']) ?? null,
    matchConfidence: row.match_confidence === null ? null : Number(row.match_confidence),
    archived: row.archived === true,
    etsyReceiptId: (row.etsy_receipt_id as string | null) ?? null,
    printifyOrderId: (row.printify_order_id as string | null) ?? null,
    productTitle: (row.product_title as string | null) ?? null,
    productSku: (row.product_sku as string | null) ?? null,
    customerName: (row.customer_name as string | null) ?? null,
    orderDate: row.order_date ? new Date(row.order_date as string) : null,
    figures: (row.figures as OrderViewRow['figures']) ?? null,
    revenueMinor: integerOrNull(row.revenue_minor),
    costsMinor: integerOrNull(row.costs_minor),
    netProfitMinor: integerOrNull(row.net_profit_minor),
    hasEstimatedFees: row.has_estimated_fees === true,
    margin: (row.margin as OrderViewRow['margin']) ?? null,
  };
}

const viewSql = (filter: OrderListFilter) => (filter.archived ? `r.archived_at IS NOT NULL` : `r.archived_at IS NULL`);

/** `%`, `_` and `\` taken literally in an ILIKE pattern. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The reads of the Orders, Order Matching and Dashboard pages: every statement scoped by the
 * user, filtered, counted, summed and paged in SQL (product spec Part 2, point 10). Lists sort
 * by order date, newest first (undated last), then id, so pages are stable.
 */
export class OrderViewsRepository {
  constructor(private readonly db: Db) {}

  /** The filters of a list (search, status, date, and the tab when asked), their parameters appended to `params`. */
  private filterSql(filter: OrderListFilter, params: unknown[], withTab: boolean): string {
    const parts = ['true'];
    if (filter.search) {
      params.push(`%${likeLiteral(filter.search)}%`);
      parts.push(`${ORDER_SEARCH_TEXT_SQL} ILIKE $${params.length}`);
    }
    if (filter.status) {
      params.push(filter.status);
      parts.push(`r.status = $${params.length}`);
    }
    if (filter.since) {
      params.push(filter.since);
      parts.push(`r.order_date >= $${params.length}`);
    }
    if (withTab && filter.source === 'etsy') parts.push(`r.etsy_receipt_id IS NOT NULL`);
    if (withTab && filter.source === 'printify') parts.push(`r.printify_order_id IS NOT NULL`);
    return parts.join(' AND ');
  }

  async listPage(userId: string, currency: DisplayCurrencyCode, filter: OrderListFilter, limit: number, offset: number): Promise<OrderViewRow[]> {
    const params: unknown[] = [userId, currency];
    const where = `r.user_id = $1 AND ${viewSql(filter)} AND ${this.filterSql(filter, params, true)}`;
    params.push(limit, offset);
    const rows: Record<string, unknown>[] = await this.db.query(
      `${ROW_SELECT('$2')} WHERE ${where} ORDER BY r.order_date DESC NULLS LAST, r.id DESC LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    );
    return rows.map(toRow);
  }

  /** All counts of the Orders page in one pass over the user's records of the view. */
  async listCounts(userId: string, filter: OrderListFilter): Promise<OrderListCounts> {
    const params: unknown[] = [userId];
    const filtered = this.filterSql(filter, params, false);
    const rows: Record<string, unknown>[] = await this.db.query(
      `SELECT count(*) AS total,
         count(*) FILTER (WHERE ${filtered}) AS all_tab,
         count(*) FILTER (WHERE ${filtered} AND r.etsy_receipt_id IS NOT NULL) AS etsy_tab,
         count(*) FILTER (WHERE ${filtered} AND r.printify_order_id IS NOT NULL) AS printify_tab
       FROM order_record r WHERE r.user_id = $1 AND ${viewSql(filter)}`,
      params,
    );
    const row = rows[0] ?? {};
    const tabCounts = { all: safeInteger(row.all_tab), etsy: safeInteger(row.etsy_tab), printify: safeInteger(row.printify_tab) };
    return { total: safeInteger(row.total), filteredTotal: tabCounts[filter.source], tabCounts };
  }

  /** The Order Matching page: active orders dated in [from, to), optionally of one status. */
  async matchingPage(
    userId: string,
    currency: DisplayCurrencyCode,
    range: { from: Date; to: Date; status: OrderListFilter['status'] },
    limit: number,
    offset: number,
  ): Promise<{ rows: OrderViewRow[]; total: number }> {
    const where = (from: string, to: string, status: string) =>
      `r.user_id = $1 AND r.archived_at IS NULL AND r.order_date >= ${from} AND r.order_date < ${to} AND (${status}::text IS NULL OR r.status = ${status})`;
    const counted: { n: string }[] = await this.db.query(`SELECT count(*) AS n FROM order_record r WHERE ${where('$2', '$3', '$4')}`, [
      userId,
      range.from,
      range.to,
      range.status,
    ]);
    const rows: Record<string, unknown>[] = await this.db.query(
      `${ROW_SELECT('$2')} WHERE ${where('$3', '$4', '$5')} ORDER BY r.order_date DESC NULLS LAST, r.id DESC LIMIT $6 OFFSET $7`,
      [userId, currency, range.from, range.to, range.status, limit, offset],
    );
    return { rows: rows.map(toRow), total: safeInteger(counted[0]?.n) };
  }

  /** Some records of the user by id, with their figures (the details, the change routes). Another user's ids find nothing. */
  async rowsByIds(userId: string, currency: DisplayCurrencyCode, ids: readonly string[]): Promise<OrderViewRow[]> {
    const rows: Record<string, unknown>[] = await this.db.query(`${ROW_SELECT('$2')} WHERE r.user_id = $1 AND r.id = ANY($3::uuid[]) ORDER BY r.id`, [
      userId,
      currency,
      ids,
    ]);
    return rows.map(toRow);
  }

  /** The record's sides (shop and provider id), for the details' reads; null when not the user's. */
  async sidesOf(userId: string, id: string): Promise<{ receipt: { shopId: string; id: string } | null; order: { shopId: string; id: string } | null } | null> {
    const rows: { etsy_shop_id: string | null; etsy_receipt_id: string | null; printify_shop_id: string | null; printify_order_id: string | null }[] =
      await this.db.query(`SELECT etsy_shop_id, etsy_receipt_id, printify_shop_id, printify_order_id FROM order_record WHERE user_id = $1 AND id = $2`, [userId, id]);
    const row = rows[0];
    if (!row) return null;
    return {
      receipt: row.etsy_shop_id !== null && row.etsy_receipt_id !== null ? { shopId: row.etsy_shop_id, id: row.etsy_receipt_id } : null,
      order: row.printify_shop_id !== null && row.printify_order_id !== null ? { shopId: row.printify_shop_id, id: row.printify_order_id } : null,
    };
  }

  /**
   * The Dashboard's totals over active orders dated on or after `since`: SQL sums of the stored
   * figures (so they equal the rows' sum exactly), orders without a rate counted apart, orders
   * whose figures are not computed yet counted apart too.
   */
  async dashboard(userId: string, currency: DisplayCurrencyCode, since: Date): Promise<DashboardSums> {
    const fresh = `p.record_sides = ${RECORD_SIDES_SQL('r')}`;
    const rows: Record<string, unknown>[] = await this.db.query(
      `SELECT count(*) FILTER (WHERE r.status = 'matched') AS matched,
         count(*) FILTER (WHERE r.status = 'pending') AS pending,
         count(*) FILTER (WHERE r.status = 'unmatched') AS unmatched,
         count(*) FILTER (WHERE ${fresh} AND p.figures = 'ok') AS summed,
         count(*) FILTER (WHERE ${fresh} AND p.figures = 'rate_unavailable') AS without_rate,
         count(*) FILTER (WHERE p.order_record_id IS NULL OR NOT ${fresh}) AS not_computed,
         coalesce(sum(p.revenue_minor) FILTER (WHERE ${fresh}), 0)::text AS revenue,
         coalesce(sum(p.costs_minor) FILTER (WHERE ${fresh}), 0)::text AS costs,
         coalesce(sum(p.net_profit_minor) FILTER (WHERE ${fresh}), 0)::text AS profit,
         (EXISTS (SELECT 1 FROM etsy_receipt WHERE user_id = $1) OR EXISTS (SELECT 1 FROM printify_order WHERE user_id = $1)) AS has_orders
       FROM order_record r LEFT JOIN order_profit p ON p.order_record_id = r.id AND p.currency = $2
       WHERE r.user_id = $1 AND r.archived_at IS NULL AND r.order_date >= $3`,
      [userId, currency, since],
    );
    const row = rows[0] ?? {};
    return {
      matched: safeInteger(row.matched),
      pending: safeInteger(row.pending),
      unmatched: safeInteger(row.unmatched),
      summed: safeInteger(row.summed),
      withoutRate: safeInteger(row.without_rate),
      notComputed: safeInteger(row.not_computed),
      revenueMinor: safeInteger(row.revenue),
      costsMinor: safeInteger(row.costs),
      netProfitMinor: safeInteger(row.profit),
      hasOrders: row.has_orders === true,
    };
  }
}
