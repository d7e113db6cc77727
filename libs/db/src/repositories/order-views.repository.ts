import type {
  AttachmentReason,
  DisplayCurrencyCode,
  EstimateReason,
  MatchMethod,
  MatchStatus,
  NotNeededReason,
  StoredFiguresState,
  PrintifyCostState,
  StoredOrderBreakdown,
} from '@pod/domain';
import type { Db } from './database-session';
import { recordSidesOfRow } from './order-records.repository';
import { inTenantScope } from './tenant-scope';
import {
  DashboardRollupsRepository,
  dashboardSumsOf,
  FIGURES_JOIN_SQL,
  type DashboardSums,
} from './dashboard-rollups.repository';
import { OrderCountsRepository } from './order-counts.repository';
import { safeInteger } from './day-rollups';
import {
  DEFAULT_ORDER_SORT,
  dateOrderSql,
  isFigureSort,
  withKeySql,
  withoutKeySql,
  type FigureSort,
  type OrderListSort,
} from './order-list-sort';

/** One order record with its stored figures in one display currency, as the lists read it. */
export interface OrderViewRow {
  id: string;
  status: MatchStatus;
  /** Why the order needs no match (status not_needed). */
  notNeededReason: NotNeededReason | null;
  matchMethod: MatchMethod | null;
  matchConfidence: number | null;
  archived: boolean;
  etsyReceiptId: string | null;
  printifyOrderId: string | null;
  /** The receipt's additional Printify orders (reprints, splits, added by hand), in id order. */
  attached: { printifyOrderId: string; reason: AttachmentReason }[];
  productTitle: string | null;
  productSku: string | null;
  customerName: string | null;
  orderDate: Date | null;
  /** Null when no figures are stored for the record's current sides (not computed yet). */
  figures: StoredFiguresState | null;
  revenueMinor: number | null;
  costsMinor: number | null;
  netProfitMinor: number | null;
  hasEstimatedFees: boolean;
  /** Where the Printify cost comes from (ADR 0031); null when not computed. */
  printifyCost: PrintifyCostState | null;
  /** The estimated cost lines' kinds and why each is estimated (the "est. fees" mark's tooltip), distinct. */
  estimatedFees: { kind: string; reason: EstimateReason | null }[];
  margin: StoredOrderBreakdown['margin'];
}

export interface OrderListFilter {
  search: string | null;
  status: MatchStatus | null;
  /** Orders dated on or after this instant; null: all time (undated included). */
  since: Date | null;
  source: 'all' | 'etsy' | 'printify';
  archived: boolean;
  /** The list's order (the counts ignore it); newest first when left out. */
  sort?: OrderListSort;
}

export interface OrderListCounts {
  total: number;
  filteredTotal: number;
  tabCounts: { all: number; etsy: number; printify: number };
}

/**
 * The user's records with their figures in one currency. `f.fresh`: the stored figures were
 * computed for the record's current sides (computed once per row; a stale row reads as not
 * computed). One probe of order_profit's primary key per record read (FIGURES_JOIN_SQL), a plan
 * that needs no statistics.
 */
const LIST_FIGURES = 'p.record_sides, p.figures, p.printify_cost, p.revenue_minor, p.costs_minor, p.net_profit_minor';
// A waiting receipt's estimated Printify cost is not a fee: its own mark says so (ADR 0031).
const ESTIMATED_FEES = `CASE WHEN p.has_estimated_fees THEN (
    SELECT jsonb_agg(DISTINCT jsonb_build_object('kind', l ->> 'kind', 'reason', l ->> 'estimateReason'))
    FROM jsonb_array_elements(p.breakdown -> 'costLines') l
    WHERE l ->> 'estimated' = 'true' AND l ->> 'kind' NOT LIKE 'printify\\_%') END AS estimated_fees`;

const WITH_FIGURES = (currencyParam: string, breakdown: boolean) => `
  FROM order_record r ${FIGURES_JOIN_SQL(`${currencyParam}::char(3)`, `${LIST_FIGURES}, p.has_estimated_fees, p.breakdown -> 'margin' AS margin, ${ESTIMATED_FEES}${breakdown ? ', p.breakdown' : ''}`)}`;

/**
 * The lists' row: the record, its extra Printify orders and its current figures in the display
 * currency (`currencyParam`); `extra` adds columns (the CSV export's breakdown and lines), where
 * `p.breakdown` is the figures' stored breakdown when `breakdown` is asked for.
 */
export const orderRowSelectSql = (currencyParam: string, extra = '', breakdown = false) => `
  SELECT r.id, r.status, r.not_needed_reason, r.match_method, r.match_confidence::text AS match_confidence, r.archived_at IS NOT NULL AS archived,
    r.etsy_receipt_id, r.printify_order_id, r.product_title, r.product_sku, r.customer_name, r.order_date,
    (SELECT coalesce(json_agg(json_build_object('printifyOrderId', a.printify_order_id, 'reason', a.reason)
              ORDER BY a.printify_shop_id COLLATE "C", a.printify_order_id COLLATE "C"), '[]')
       FROM order_record_printify_order a WHERE a.user_id = r.user_id AND a.order_record_id = r.id) AS attached,
    CASE WHEN f.fresh THEN p.figures END AS figures,
    CASE WHEN f.fresh THEN p.revenue_minor::text END AS revenue_minor,
    CASE WHEN f.fresh THEN p.costs_minor::text END AS costs_minor,
    CASE WHEN f.fresh THEN p.net_profit_minor::text END AS net_profit_minor,
    f.fresh AND p.has_estimated_fees AS has_estimated_fees,
    CASE WHEN f.fresh THEN p.printify_cost END AS printify_cost,
    CASE WHEN f.fresh THEN p.estimated_fees END AS estimated_fees,
    CASE WHEN f.fresh THEN p.margin END AS margin${extra}
  ${WITH_FIGURES(currencyParam, breakdown)}`;
const ROW_SELECT = (currencyParam: string) => orderRowSelectSql(currencyParam);

const integerOrNull = (value: unknown) => (value === null || value === undefined ? null : safeInteger(value));

export function orderViewRowOf(row: Record<string, unknown>): OrderViewRow {
  return {
    id: String(row.id),
    status: row.status as OrderViewRow['status'],
    notNeededReason: (row.not_needed_reason as OrderViewRow['notNeededReason']) ?? null,
    matchMethod: (row.match_method as OrderViewRow['matchMethod']) ?? null,
    matchConfidence: row.match_confidence === null ? null : Number(row.match_confidence),
    archived: row.archived === true,
    etsyReceiptId: (row.etsy_receipt_id as string | null) ?? null,
    printifyOrderId: (row.printify_order_id as string | null) ?? null,
    attached: (row.attached as OrderViewRow['attached'] | null) ?? [],
    productTitle: (row.product_title as string | null) ?? null,
    productSku: (row.product_sku as string | null) ?? null,
    customerName: (row.customer_name as string | null) ?? null,
    orderDate: row.order_date ? new Date(row.order_date as string) : null,
    figures: (row.figures as OrderViewRow['figures']) ?? null,
    revenueMinor: integerOrNull(row.revenue_minor),
    costsMinor: integerOrNull(row.costs_minor),
    netProfitMinor: integerOrNull(row.net_profit_minor),
    hasEstimatedFees: row.has_estimated_fees === true,
    printifyCost: (row.printify_cost as OrderViewRow['printifyCost'] | undefined) ?? null,
    estimatedFees: (row.estimated_fees as OrderViewRow['estimatedFees'] | null) ?? [],
    margin: (row.margin as OrderViewRow['margin']) ?? null,
  };
}

/** The searched text, as order_search_hits searches it (migration 1765520000000). */
export const SEARCH_TEXT_SQL = `(coalesce(r.etsy_receipt_id, '') || ' ' || coalesce(r.printify_order_id, '') || ' ' || coalesce(r.customer_name, '') || ' ' || coalesce(r.product_title, ''))`;

/** `%`, `_` and `\` taken literally in an ILIKE pattern. */
export const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Whether the term has three letters or digits in a row: what the trigram index can answer (the function's own test). */
export const hasTrigram = (term: string) => /[\p{L}\p{N}]{3}/u.test(term);

const viewSql = (filter: OrderListFilter, alias = 'r') =>
  filter.archived ? `${alias}.archived_at IS NOT NULL` : `${alias}.archived_at IS NULL`;

/**
 * The reads of the Orders, Order Matching and Dashboard pages: every statement scoped by the
 * user, filtered, counted, summed and paged in SQL (product spec Part 2, point 10). Lists sort
 * by order date, newest first, then id, so pages are stable; that is a backward scan of
 * order_record_list_idx (every record has a date: both sides carry one). The Orders list may
 * also sort by date either way or by a figure (order-list-sort.ts, ADR 0033), id breaking ties.
 */
export class OrderViewsRepository {
  constructor(private readonly db: Db) {}

  /**
   * The status, date and (when asked) tab filters of a list on `alias` (order_record, or the
   * search's hits, which carry the same columns), their parameters appended to `params`.
   */
  private filterSql(filter: OrderListFilter, params: unknown[], withTab: boolean, alias = 'r'): string {
    const parts = ['true'];
    if (filter.status) {
      params.push(filter.status);
      parts.push(`${alias}.status = $${params.length}`);
    }
    if (filter.since) {
      params.push(filter.since);
      parts.push(`${alias}.order_date >= $${params.length}`);
    }
    if (withTab && filter.source === 'etsy') parts.push(`${alias}.etsy_receipt_id IS NOT NULL`);
    if (withTab && filter.source === 'printify') parts.push(`${alias}.printify_order_id IS NOT NULL`);
    return parts.join(' AND ');
  }

  /**
   * The search's hits of the view that the filters keep: the user's records whose searched text
   * contains the term (ILIKE; `%`, `_` and `\` literal), found by order_search_hits, which reads
   * only this transaction's user and uses the trigram index (under row-level security no index
   * answers an ILIKE condition of ours: migration 1765520000000). `h` is the hit; params appended.
   */
  private hitsSql(filter: OrderListFilter & { search: string }, params: unknown[], withTab: boolean): string {
    params.push(filter.search);
    const term = `$${params.length}`;
    return `order_search_hits(${term}) h WHERE ${viewSql(filter, 'h')} AND ${this.filterSql(filter, params, withTab, 'h')}`;
  }

  /**
   * Which of the user's records ($1) the list keeps, as a condition on `r`: the view, the
   * filters, the tab and the search (ILIKE for a term no trigram answers, else the search's hits).
   * The CSV export (OrderExportRepository) keeps the same records with it.
   */
  recordWhereSql(filter: OrderListFilter, params: unknown[]): string {
    if (filter.search && hasTrigram(filter.search))
      return `r.user_id = $1 AND r.id IN (SELECT h.id FROM ${this.hitsSql({ ...filter, search: filter.search }, params, true)})`;
    let where = `r.user_id = $1 AND ${viewSql(filter)}`;
    if (filter.search) {
      params.push(`%${likeLiteral(filter.search)}%`);
      where += ` AND ${SEARCH_TEXT_SQL} ILIKE $${params.length}`;
    }
    return `${where} AND ${this.filterSql(filter, params, true)}`;
  }

  async listPage(
    userId: string,
    currency: DisplayCurrencyCode,
    filter: OrderListFilter,
    limit: number,
    offset: number,
  ): Promise<OrderViewRow[]> {
    const params: unknown[] = [userId, currency];
    const sort = filter.sort ?? DEFAULT_ORDER_SORT;
    if (isFigureSort(sort)) return this.figureSortedPage(userId, currency, filter, sort, limit, offset);
    const order = (alias: string) => dateOrderSql(sort.direction, alias);
    let whereAndOrder: string;
    if (filter.search && !hasTrigram(filter.search)) {
      // A term no trigram answers (1-2 letters, mostly) matches many records: walking the list
      // newest first and filtering stops after a page of them, where the function would scan all.
      whereAndOrder = this.recordWhereSql(filter, params);
      params.push(limit, offset);
      whereAndOrder += ` ${order('r')} LIMIT $${params.length - 1} OFFSET $${params.length}`;
    } else if (filter.search) {
      // Paged among the hits (which carry the date), so only the page's records are read whole.
      const hits = this.hitsSql({ ...filter, search: filter.search }, params, true);
      params.push(limit, offset);
      whereAndOrder = `r.user_id = $1 AND r.id IN (SELECT h.id FROM ${hits} ${order('h')} LIMIT $${params.length - 1} OFFSET $${params.length}) ${order('r')}`;
    } else {
      whereAndOrder = this.recordWhereSql(filter, params);
      params.push(limit, offset);
      whereAndOrder += ` ${order('r')} LIMIT $${params.length - 1} OFFSET $${params.length}`;
    }
    const rows: Record<string, unknown>[] = await inTenantScope(this.db, userId, (db) =>
      db.query(`${ROW_SELECT('$2')} WHERE ${whereAndOrder}`, params),
    );
    return rows.map(orderViewRowOf);
  }

  /**
   * A page of a figure sort (order-list-sort.ts): the orders with the figure up to the page's
   * end; only when they run out before it, the orders without it, from where the page needs
   * them. So a page inside the first part never reads the second (which, when every order has
   * its figures, would check every record to find none).
   */
  private async figureSortedPage(
    userId: string,
    currency: DisplayCurrencyCode,
    filter: OrderListFilter,
    sort: FigureSort,
    limit: number,
    offset: number,
  ): Promise<OrderViewRow[]> {
    return inTenantScope(this.db, userId, async (db) => {
      const params: unknown[] = [userId, currency];
      const withKey: { id: string }[] = await db.query(
        withKeySql(sort, this.recordWhereSql(filter, params), params, offset + limit),
        params,
      );
      const ids = withKey.slice(offset).map((row) => row.id);
      if (withKey.length < offset + limit) {
        const restParams: unknown[] = [userId, currency];
        const where = this.recordWhereSql(filter, restParams);
        const rest: { id: string }[] = await db.query(
          withoutKeySql(sort, where, restParams, limit - ids.length, Math.max(0, offset - withKey.length)),
          restParams,
        );
        ids.push(...rest.map((row) => row.id));
      }
      if (ids.length === 0) return [];
      const rows: Record<string, unknown>[] = await db.query(
        `${ROW_SELECT('$2')} JOIN unnest($3::uuid[]) WITH ORDINALITY AS page(id, n) ON page.id = r.id
         WHERE r.user_id = $1 ORDER BY page.n`,
        [userId, currency, ids],
      );
      return rows.map(orderViewRowOf);
    });
  }

  /**
   * The counts of the Orders page: the view's total and, without a search, the tabs' counts from
   * order_count_day (O(days), not O(records)); with a search, the tabs count the search's hits.
   */
  async listCounts(userId: string, filter: OrderListFilter): Promise<OrderListCounts> {
    const { total, all, etsy, printify } = await inTenantScope(this.db, userId, async (db) => {
      const counts = await new OrderCountsRepository(db).counts(userId, filter);
      if (!filter.search) return counts;
      const params: unknown[] = [];
      const rows: Record<string, unknown>[] = await db.query(
        `SELECT count(*) AS all_tab,
           count(*) FILTER (WHERE h.etsy_receipt_id IS NOT NULL) AS etsy_tab,
           count(*) FILTER (WHERE h.printify_order_id IS NOT NULL) AS printify_tab
         FROM ${this.hitsSql({ ...filter, search: filter.search }, params, false)}`,
        params,
      );
      const row = rows[0] ?? {};
      return {
        total: counts.total,
        all: safeInteger(row.all_tab),
        etsy: safeInteger(row.etsy_tab),
        printify: safeInteger(row.printify_tab),
      };
    });
    const tabCounts = { all, etsy, printify };
    return { total, filteredTotal: tabCounts[filter.source], tabCounts };
  }

  /**
   * The Orders page's counts and rows in one scoped transaction (one connection, one START and
   * COMMIT for both), as the page asks for them together.
   */
  async list(
    userId: string,
    currency: DisplayCurrencyCode,
    filter: OrderListFilter,
    limit: number,
    offset: number,
  ): Promise<{ counts: OrderListCounts; rows: OrderViewRow[] }> {
    return inTenantScope(this.db, userId, async (db) => {
      const scoped = new OrderViewsRepository(db);
      const counts = await scoped.listCounts(userId, filter);
      return { counts, rows: await scoped.listPage(userId, currency, filter, limit, offset) };
    });
  }

  /**
   * The Order Matching page: active orders dated in [from, to), optionally of one status; without
   * one, every order but those that need no match (issue 17: the page shows what needs the seller).
   */
  async matchingPage(
    userId: string,
    currency: DisplayCurrencyCode,
    range: { from: Date; to: Date; status: OrderListFilter['status'] },
    limit: number,
    offset: number,
  ): Promise<{ rows: OrderViewRow[]; total: number }> {
    const where = (from: string, to: string, status: string) =>
      `r.user_id = $1 AND r.archived_at IS NULL AND r.order_date >= ${from} AND r.order_date < ${to} AND (${status}::text IS NULL AND r.status <> 'not_needed' OR r.status = ${status})`;
    return inTenantScope(this.db, userId, async (db) => {
      const counted: { n: string }[] = await db.query(
        `SELECT count(*) AS n FROM order_record r WHERE ${where('$2', '$3', '$4')}`,
        [userId, range.from, range.to, range.status],
      );
      const rows: Record<string, unknown>[] = await db.query(
        `${ROW_SELECT('$2')} WHERE ${where('$3', '$4', '$5')} ORDER BY r.order_date DESC, r.id DESC LIMIT $6 OFFSET $7`,
        [userId, currency, range.from, range.to, range.status, limit, offset],
      );
      return { rows: rows.map(orderViewRowOf), total: safeInteger(counted[0]?.n) };
    });
  }

  /** Some records of the user by id, with their figures (the details, the change routes). Another user's ids find nothing. */
  async rowsByIds(userId: string, currency: DisplayCurrencyCode, ids: readonly string[]): Promise<OrderViewRow[]> {
    const rows: Record<string, unknown>[] = await inTenantScope(this.db, userId, (db) =>
      db.query(`${ROW_SELECT('$2')} WHERE r.user_id = $1 AND r.id = ANY($3::uuid[]) ORDER BY r.id`, [
        userId,
        currency,
        ids,
      ]),
    );
    return rows.map(orderViewRowOf);
  }

  /** The record's sides (shop and provider id), for the details' reads; null when not the user's. */
  async sidesOf(
    userId: string,
    id: string,
  ): Promise<{ receipt: { shopId: string; id: string } | null; order: { shopId: string; id: string } | null } | null> {
    const rows: {
      etsy_shop_id: string | null;
      etsy_receipt_id: string | null;
      printify_shop_id: string | null;
      printify_order_id: string | null;
    }[] = await inTenantScope(this.db, userId, (db) =>
      db.query(
        `SELECT etsy_shop_id, etsy_receipt_id, printify_shop_id, printify_order_id FROM order_record WHERE user_id = $1 AND id = $2`,
        [userId, id],
      ),
    );
    return rows[0] ? recordSidesOfRow(rows[0]) : null;
  }

  /**
   * The Dashboard's totals over orders dated on or after `since`, and before `until` when given
   * (the Analytics page's previous period) (counts: active ones): whole days from the rollup
   * (dashboard_day), the part-days from the rows, so they equal the rows' sum exactly;
   * provisional figures included and counted, orders without a rate counted apart, orders whose
   * figures are not computed yet counted apart too (docs/adr/0018-rollups.md).
   */
  async dashboard(userId: string, currency: DisplayCurrencyCode, since: Date, until?: Date): Promise<DashboardSums> {
    return dashboardSumsOf(
      await new DashboardRollupsRepository(this.db).sums(userId, currency, { from: since, to: until }),
    );
  }
}
