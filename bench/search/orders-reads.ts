import type { DataSource } from 'typeorm';
import { FIGURES_JOIN_SQL, OrderViewsRepository, withTenant, type OrderListFilter } from '@pod/db';

/** What one Orders page load answers: the counts and the page's ids, for comparing old with new. */
export interface OrdersAnswer {
  total: number;
  tabCounts: { all: number; etsy: number; printify: number };
  ids: string[];
}

export type OrdersRead = (filter: OrderListFilter, pageSize: number) => Promise<OrdersAnswer>;

/** The route's reads as the code now has them (OrdersService.list: the counts, then the page). */
export function newOrdersRead(dataSource: DataSource, userId: string): OrdersRead {
  const views = new OrderViewsRepository(dataSource);
  return async (filter, pageSize) => {
    const counts = await views.listCounts(userId, filter);
    const page = await views.listPage(userId, 'USD', filter, pageSize, 0);
    return { total: counts.total, tabCounts: counts.tabCounts, ids: page.map((row) => row.id) };
  };
}

const OLD_SEARCH_TEXT = `(coalesce(etsy_receipt_id, '') || ' ' || coalesce(printify_order_id, '') || ' ' || coalesce(customer_name, '') || ' ' || coalesce(product_title, ''))`;

/**
 * The same reads as they were before migration 1765520000000 (OrderViewsRepository at b5c8b2e),
 * each in its own scoped transaction as the app role: the counts in one pass over every record
 * of the user's view, the search an ILIKE that row-level security keeps out of any index.
 */
export function oldOrdersRead(dataSource: DataSource, userId: string): OrdersRead {
  const filterSql = (filter: OrderListFilter, params: unknown[], withTab: boolean) => {
    const parts = ['true'];
    if (filter.search) {
      params.push(`%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      parts.push(`${OLD_SEARCH_TEXT} ILIKE $${params.length}`);
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
  };
  const view = (filter: OrderListFilter) => (filter.archived ? `r.archived_at IS NOT NULL` : `r.archived_at IS NULL`);
  return async (filter, pageSize) => {
    const countParams: unknown[] = [userId];
    const filtered = filterSql(filter, countParams, false);
    const [counts] = (await withTenant(dataSource, userId, (db) =>
      db.query(
        `SELECT count(*) AS total,
           count(*) FILTER (WHERE ${filtered}) AS all_tab,
           count(*) FILTER (WHERE ${filtered} AND r.etsy_receipt_id IS NOT NULL) AS etsy_tab,
           count(*) FILTER (WHERE ${filtered} AND r.printify_order_id IS NOT NULL) AS printify_tab
         FROM order_record r WHERE r.user_id = $1 AND ${view(filter)}`,
        countParams,
      ),
    )) as Record<string, string>[];
    const pageParams: unknown[] = [userId, 'USD'];
    const where = `r.user_id = $1 AND ${view(filter)} AND ${filterSql(filter, pageParams, true)}`;
    pageParams.push(pageSize);
    const rows = (await withTenant(dataSource, userId, (db) =>
      db.query(
        `SELECT r.id, r.status, r.order_date, p.figures, p.revenue_minor FROM order_record r
         ${FIGURES_JOIN_SQL('$2::char(3)', 'p.record_sides, p.figures, p.revenue_minor')}
         WHERE ${where} ORDER BY r.order_date DESC, r.id DESC LIMIT $${pageParams.length} OFFSET 0`,
        pageParams,
      ),
    )) as { id: string }[];
    return {
      total: Number(counts.total),
      tabCounts: { all: Number(counts.all_tab), etsy: Number(counts.etsy_tab), printify: Number(counts.printify_tab) },
      ids: rows.map((row) => row.id),
    };
  };
}
