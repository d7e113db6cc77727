import { RECORD_SIDES_SQL } from './order-profits.repository';

/** The Orders list's sortable columns (issue 18); figures are in the page's display currency. */
export const ORDER_SORT_KEYS = ['date', 'revenue', 'cost', 'profit', 'margin'] as const;
export type OrderSortKey = (typeof ORDER_SORT_KEYS)[number];
export type SortDirection = 'asc' | 'desc';

export interface OrderListSort {
  key: OrderSortKey;
  direction: SortDirection;
}

/** The list's order when none is asked for: newest first. */
export const DEFAULT_ORDER_SORT: OrderListSort = { key: 'date', direction: 'desc' };

type FigureSortKey = Exclude<OrderSortKey, 'date'>;
export type FigureSort = OrderListSort & { key: FigureSortKey };

/**
 * Each figure sort's key on an order_profit row, as its index holds it (migration
 * 1765700500000): the stored minor units, and the margin's exact fraction (migration
 * 1765700700000), whose order the page's rounded percent keeps; its basis points, rounded
 * themselves, tie where the percents differ. `s`: the order_profit alias.
 */
const FIGURE_KEY_SQL: Record<FigureSortKey, (s: string) => string> = {
  revenue: (s) => `${s}.revenue_minor`,
  cost: (s) => `${s}.costs_minor`,
  profit: (s) => `${s}.net_profit_minor`,
  margin: (s) =>
    `(((${s}.breakdown -> 'margin' ->> 'numerator')::numeric(50, 30)) / ((${s}.breakdown -> 'margin' ->> 'denominator')::numeric))`,
};

/**
 * The figure rows that have this sort's key (ok or provisional figures): the partial indexes'
 * predicate, and, for cost, profit and margin, not a receipt awaiting its Printify cost, whose
 * list row shows none of them (ADR 0031), so it sorts with the orders without the figure.
 */
const HAS_KEY_SQL = (key: FigureSortKey, s: string) => {
  const shown = `${s}.figures <> 'rate_unavailable'`;
  if (key === 'revenue') return shown;
  const known = `${shown} AND ${s}.printify_cost IS DISTINCT FROM 'awaiting'`;
  return key === 'margin' ? `${known} AND ${FIGURE_KEY_SQL.margin(s)} IS NOT NULL` : known;
};

/** A lone Printify order shows no revenue (order-view-mapping), so it sorts with the orders without one. */
const RECORD_HAS_KEY_SQL = (key: FigureSortKey, r: string) =>
  key === 'revenue' ? `${r}.etsy_receipt_id IS NOT NULL` : 'true';

/** The date sort, index-served by order_record_list_idx / order_record_archived_idx in either direction. */
export const dateOrderSql = (direction: SortDirection, alias: string) => {
  const dir = direction === 'asc' ? 'ASC' : 'DESC';
  return `ORDER BY ${alias}.order_date ${dir}, ${alias}.id ${dir}`;
};

/** The record's figures in the page's currency ($2) are its current ones: computed for the record's sides. */
const freshSql = (s: string) =>
  `${s}.order_record_id = r.id AND ${s}.user_id = r.user_id AND ${s}.currency = $2::char(3)
   AND coalesce(${s}.record_sides = ${RECORD_SIDES_SQL('r')}, false)`;

/**
 * A figure sort's list is two parts, read one after the other (OrderViewsRepository.listPage):
 * - the orders whose current figures have the key, by the key then id, both in the asked
 *   direction: a walk of order_profit's sort index for the user and currency (migration
 *   1765700500000), each row joined to its record by primary key, which the filters check
 *   (`recordWhere` on `r`), cut at `reach` rows (offset + limit);
 * - then every other order (figures not computed yet or stale, no rate, no margin, a lone
 *   Printify order's revenue), newest first, so an order without the figure is never sorted
 *   among those with it, in either direction.
 * The freshness test is a coalesce, not a join condition: as an equality of the join it was
 * estimated to keep one row in 100k, and the planner then sorted the seller's every figure
 * instead of walking the index. `params` holds the user ($1) and the currency ($2).
 */
export function withKeySql(sort: FigureSort, recordWhere: string, params: unknown[], reach: number): string {
  const dir = sort.direction === 'asc' ? 'ASC' : 'DESC';
  const key = FIGURE_KEY_SQL[sort.key];
  params.push(reach);
  return `SELECT r.id FROM order_profit s JOIN order_record r ON s.order_record_id = r.id AND s.user_id = r.user_id
    WHERE s.user_id = $1 AND s.currency = $2::char(3) AND ${HAS_KEY_SQL(sort.key, 's')}
      AND coalesce(s.record_sides = ${RECORD_SIDES_SQL('r')}, false)
      AND ${RECORD_HAS_KEY_SQL(sort.key, 'r')} AND ${recordWhere}
    ORDER BY ${key('s')} ${dir}, s.order_record_id ${dir} LIMIT $${params.length}`;
}

/** The second part: the orders without the key, newest first, `limit` of them after `offset`. */
export function withoutKeySql(
  sort: FigureSort,
  recordWhere: string,
  params: unknown[],
  limit: number,
  offset: number,
): string {
  params.push(limit, offset);
  return `SELECT r.id FROM order_record r
    WHERE r.user_id = $1 AND ${recordWhere}
      AND NOT (${RECORD_HAS_KEY_SQL(sort.key, 'r')}
        AND EXISTS (SELECT 1 FROM order_profit s WHERE s.user_id = $1 AND ${freshSql('s')} AND ${HAS_KEY_SQL(sort.key, 's')}))
    ORDER BY r.order_date DESC, r.id DESC LIMIT $${params.length - 1} OFFSET $${params.length}`;
}

/**
 * The whole list in one statement's order, for the CSV export, which streams every record
 * instead of paging: the two parts of a figure sort as one ORDER BY (those with the key first,
 * by the key then id, then the rest newest first), or the date sort. `p` is the figures' alias
 * of FIGURES_JOIN_SQL on `r`, `fresh` its freshness (the `f.fresh` of the row select).
 */
export function wholeListOrderSql(sort: OrderListSort, p: string, fresh: string): string {
  if (!isFigureSort(sort)) return dateOrderSql(sort.direction, 'r');
  const dir = sort.direction === 'asc' ? 'ASC' : 'DESC';
  const hasKey = `(${fresh} AND ${HAS_KEY_SQL(sort.key, p)} AND ${RECORD_HAS_KEY_SQL(sort.key, 'r')})`;
  return `ORDER BY ${hasKey} DESC, CASE WHEN ${hasKey} THEN ${FIGURE_KEY_SQL[sort.key](p)} END ${dir},
    CASE WHEN ${hasKey} THEN r.id END ${dir}, r.order_date DESC, r.id DESC`;
}

export const isFigureSort = (sort: OrderListSort): sort is FigureSort => sort.key !== 'date';
