/**
 * The SQL every reader of the orders' figures shares (the Dashboard, its rollups, the Orders
 * list, the Analytics breakdowns): each record's figures in a display currency, whether they
 * count, and what a lone Printify record is. Apart from the repositories so the rollups that
 * use them can be refreshed from one another without an import cycle.
 */
import { RECORD_SIDES_SQL } from './order-profits.repository';

/**
 * The dashboard's per-record counts and sums (docs/adr/0011-order-figures.md): a record counts by
 * status; its figures count only when stored for its current sides (`fresh`), else it is "not
 * computed"; figures without a rate are counted apart and summed as nothing. One row per group.
 * Counts are over active records; sums over every record, archived too (archiving hides an order
 * from the lists, never a cost from the totals: ADR 0027). A lone Printify record (no receipt: a
 * sample, a manual order, an order attached to no receipt) is a Printify cost, summed apart by
 * its order type (`l`, LONE_PRINTIFY_JOIN_SQL), not in the order sums. A receipt awaiting its
 * Printify order with nothing to estimate its cost from (`printify_cost = 'awaiting'`) is left
 * out of every sum and counted apart; one with an estimate is summed, and counted (ADR 0031).
 */
export const FIGURE_AGGREGATES_SQL = `
  count(*) FILTER (WHERE r.archived_at IS NULL AND r.status = 'matched') AS matched,
  count(*) FILTER (WHERE r.archived_at IS NULL AND r.status = 'pending') AS pending,
  count(*) FILTER (WHERE r.archived_at IS NULL AND r.status = 'unmatched') AS unmatched,
  count(*) FILTER (WHERE r.archived_at IS NULL AND f.counted AND p.figures <> 'rate_unavailable') AS summed,
  count(*) FILTER (WHERE r.archived_at IS NULL AND f.counted AND p.figures = 'provisional') AS provisional,
  count(*) FILTER (WHERE r.archived_at IS NULL AND f.fresh AND p.figures = 'rate_unavailable') AS without_rate,
  count(*) FILTER (WHERE r.archived_at IS NULL AND NOT f.fresh) AS not_computed,
  count(*) FILTER (WHERE r.archived_at IS NULL AND f.fresh AND p.printify_cost = 'awaiting') AS awaiting_printify,
  count(*) FILTER (WHERE r.archived_at IS NULL AND f.fresh AND p.printify_cost = 'estimated') AS estimated_printify,
  coalesce(sum(p.revenue_minor) FILTER (WHERE f.counted AND l.kind IS NULL), 0)::bigint AS revenue_minor,
  coalesce(sum(p.costs_minor) FILTER (WHERE f.counted AND l.kind IS NULL), 0)::bigint AS costs_minor,
  coalesce(sum(p.net_profit_minor) FILTER (WHERE f.counted AND l.kind IS NULL), 0)::bigint AS net_profit_minor,
  coalesce(sum(p.costs_minor) FILTER (WHERE f.fresh AND l.kind = 'sample'), 0)::bigint AS printify_sample_minor,
  coalesce(sum(p.costs_minor) FILTER (WHERE f.fresh AND l.kind = 'manual'), 0)::bigint AS printify_manual_minor,
  coalesce(sum(p.costs_minor) FILTER (WHERE f.fresh AND l.kind = 'unattached'), 0)::bigint AS printify_unattached_minor`;

/**
 * `l.kind`: for a lone Printify record (no receipt side), its Printify order's kind (`sample`,
 * `manual`, else `unattached`); null for a record with a receipt. One primary-key probe of
 * printify_order per lone record only.
 */
export const LONE_PRINTIFY_JOIN_SQL = `
  LEFT JOIN LATERAL (
    SELECT CASE lower(coalesce(po.order_type, '')) WHEN 'sample' THEN 'sample' WHEN 'manual' THEN 'manual' ELSE 'unattached' END AS kind
    FROM (SELECT 1) one
    LEFT JOIN printify_order po ON po.user_id = r.user_id AND po.shop_id = r.printify_shop_id AND po.order_id = r.printify_order_id
    WHERE r.etsy_receipt_id IS NULL AND r.printify_order_id IS NOT NULL) l ON true`;

const SUM_FIGURES = 'p.record_sides, p.figures, p.printify_cost, p.revenue_minor, p.costs_minor, p.net_profit_minor';

/**
 * Each record's figures in `currencySql` (a char(3) expression), and whether they are current:
 * one probe of order_profit's primary key (record, currency) per record read. A lateral
 * subquery (LIMIT 1 keeps it one) on purpose: joined plainly, the planner derives "the user's
 * figures in that currency" from the user predicates and, on tables without statistics, scanned
 * them all once per record (docs/adr/0018-rollups.md). `columns`: what the reader needs of them
 * (with `p.printify_cost` for `f.counted`: current figures that count in the sums, ADR 0031).
 */
export const FIGURES_JOIN_SQL = (currencySql: string, columns = SUM_FIGURES) => `
  LEFT JOIN LATERAL (
    SELECT ${columns} FROM order_profit p
    WHERE p.order_record_id = r.id AND p.currency = ${currencySql} AND p.user_id = r.user_id LIMIT 1) p ON true
  CROSS JOIN LATERAL (SELECT coalesce(p.record_sides = ${RECORD_SIDES_SQL('r')}, false) AS fresh) f0
  CROSS JOIN LATERAL (SELECT f0.fresh, f0.fresh AND p.printify_cost <> 'awaiting' AS counted) f`;
