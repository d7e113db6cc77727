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

/**
 * Each figure sort's key on an order_profit row, as its index holds it (migration
 * 1765700500000): the stored minor units, and the margin's stored basis points (what the
 * page rounds its percent from). `s`: the order_profit alias.
 */
const FIGURE_KEY_SQL: Record<FigureSortKey, (s: string) => string> = {
  revenue: (s) => `${s}.revenue_minor`,
  cost: (s) => `${s}.costs_minor`,
  profit: (s) => `${s}.net_profit_minor`,
  margin: (s) => `((${s}.breakdown -> 'margin' ->> 'basisPoints')::integer)`,
};

/** The partial indexes' predicate: the figure rows that have this sort's key (ok or provisional figures). */
const HAS_KEY_SQL = (key: FigureSortKey, s: string) =>
  key === 'margin'
    ? `${s}.figures <> 'rate_unavailable' AND ${FIGURE_KEY_SQL.margin(s)} IS NOT NULL`
    : `${s}.figures <> 'rate_unavailable'`;

/** A lone Printify order shows no revenue (order-view-mapping), so it sorts with the orders without one. */
const RECORD_HAS_KEY_SQL = (key: FigureSortKey, r: string) =>
  key === 'revenue' ? `${r}.etsy_receipt_id IS NOT NULL` : 'true';

/** The date sort, index-served by order_record_list_idx / order_record_archived_idx in either direction. */
export const dateOrderSql = (direction: SortDirection, alias: string) => {
  const dir = direction === 'asc' ? 'ASC' : 'DESC';
  return `ORDER BY ${alias}.order_date ${dir}, ${alias}.id ${dir}`;
};

/**
 * The page of a figure sort as `(id, n)` rows, n its place in the list, in two parts, each
 * read in its index's order and cut at offset + limit, so a page reads about offset + limit
 * rows of each part, never the seller's every order:
 * - the orders whose current figures (fresh: computed for the record's sides) have the key,
 *   by the key then id, from order_profit's sort index and joined to their record, which the
 *   filters check (`recordWhere` on `r`);
 * - then every other order (figures not computed, no rate, no margin), newest first, so an
 *   order without the figure is never sorted among those with it, in either direction.
 * `params` already holds the user ($1) and the currency ($2); limit and offset are appended.
 */
export function figureSortedPageSql(
  sort: OrderListSort & { key: FigureSortKey },
  recordWhere: string,
  params: unknown[],
  limit: number,
  offset: number,
): string {
  const dir = sort.direction === 'asc' ? 'ASC' : 'DESC';
  const key = FIGURE_KEY_SQL[sort.key];
  const fresh = (s: string) =>
    `${s}.order_record_id = r.id AND ${s}.user_id = r.user_id AND ${s}.currency = $2::char(3) AND ${s}.record_sides = ${RECORD_SIDES_SQL('r')}`;
  params.push(limit + offset);
  const reach = `$${params.length}`;
  params.push(limit, offset);
  const [limitParam, offsetParam] = [`$${params.length - 1}`, `$${params.length}`];
  return `
    SELECT part.id, row_number() OVER (
        ORDER BY part.part, part.sort_key ${dir}, part.order_date DESC, CASE WHEN part.part = 0 THEN part.id END ${dir}, part.id DESC
      ) AS n
    FROM (
      (SELECT r.id, 0 AS part, ${key('s')} AS sort_key, NULL::timestamptz AS order_date
       FROM order_profit s JOIN order_record r ON ${fresh('s')}
       WHERE s.user_id = $1 AND s.currency = $2::char(3) AND ${HAS_KEY_SQL(sort.key, 's')}
         AND ${RECORD_HAS_KEY_SQL(sort.key, 'r')} AND ${recordWhere}
       ORDER BY ${key('s')} ${dir}, s.order_record_id ${dir} LIMIT ${reach})
      UNION ALL
      (SELECT r.id, 1, NULL, r.order_date FROM order_record r
       WHERE ${recordWhere}
         AND NOT (${RECORD_HAS_KEY_SQL(sort.key, 'r')}
           AND EXISTS (SELECT 1 FROM order_profit s WHERE ${fresh('s')} AND ${HAS_KEY_SQL(sort.key, 's')}))
       ORDER BY r.order_date DESC, r.id DESC LIMIT ${reach})
    ) part
    ORDER BY n LIMIT ${limitParam} OFFSET ${offsetParam}`;
}

export const isFigureSort = (sort: OrderListSort): sort is OrderListSort & { key: FigureSortKey } =>
  sort.key !== 'date';
