import {
  FIGURE_AGGREGATES_SQL,
  FIGURES_JOIN_SQL,
  LONE_PRINTIFY_JOIN_SQL,
} from '../../libs/db/src/repositories/dashboard-rollups.repository';
import { DAY_SQL } from '../../libs/db/src/repositories/day-rollups';
import { ORDER_COUNT_DAY_BACKFILL_SQL } from '../../libs/db/src/migrations/1765520000000-order-search-and-counts';
import { ANALYTICS_ROLLUPS_BACKFILL_SQL } from '../../libs/db/src/migrations/1765701300000-analytics-rollups';

/**
 * The set-based inserts from the seed plan (seed-plan.ts) into the real tables, in an order the
 * foreign keys accept. Figures follow integrations.md: receipts in the shop's currency
 * (total_price = Σ price × quantity, subtotal = total_price − discount, grandtotal = subtotal +
 * shipping + sales tax), one payment each with the processing fee of the seller's country
 * (US 3 % + 0.25, UK 4 % + 0.20, eurozone 4 % + 0.30, CA 3 % + 0.25), ledger entries in the
 * payment account's currency (the shop's) for the gross, the processing fee, the 6.5 %
 * transaction fee per line and on shipping, Offsite Ads on 4 % of orders (15 %, capped at 100)
 * and refunds; Printify orders in USD with per-unit costs, canceled ones costing nothing.
 * With `sqlRecords` false, the other sellers' records and figures are left out (the matcher and
 * the compute-profits job write them instead).
 */

/**
 * Every seeded seller's dashboard_day rows, by the repository's own aggregate (the columns in
 * FIGURE_AGGREGATES_SQL's order): what DashboardRollupsRepository's refreshes would have left,
 * whatever columns later migrations added (the 1765300000000 backfill predates half of them).
 */
const DASHBOARD_DAY_SQL = `
  INSERT INTO dashboard_day (user_id, currency, day, matched, pending, unmatched, summed, provisional, without_rate,
    not_computed, awaiting_printify, estimated_printify, revenue_minor, costs_minor, net_profit_minor,
    printify_sample_minor, printify_manual_minor, printify_unattached_minor)
  SELECT r.user_id, c.currency, ${DAY_SQL}, ${FIGURE_AGGREGATES_SQL}
  FROM order_record r
  CROSS JOIN (VALUES ('USD'::char(3)), ('EUR'::char(3)), ('GBP'::char(3))) AS c(currency)
  ${FIGURES_JOIN_SQL('c.currency')}
  ${LONE_PRINTIFY_JOIN_SQL}
  WHERE r.order_date IS NOT NULL
  GROUP BY r.user_id, c.currency, ${DAY_SQL}`;

export function seedTableStatements(
  now: Date,
  options: { sqlRecords: boolean } = { sqlRecords: true },
): Array<[label: string, sql: string]> {
  const all = allSeedTableStatements(now);
  // Every step that writes what the product derives (records, figures and whatever is kept from
  // them) is labelled "other sellers' …".
  return options.sqlRecords ? all : all.filter(([label]) => !label.startsWith("other sellers'"));
}

function allSeedTableStatements(now: Date): Array<[label: string, sql: string]> {
  const nowSql = `'${now.toISOString()}'::timestamptz`;
  return [
    [
      'users',
      `INSERT INTO app_user (id, email, password_hash, first_name, last_name)
       SELECT user_id, 'seller' || user_no || '@bench.example', 'not-a-password-hash', 'Seller', 'No. ' || user_no FROM seed_user`,
    ],
    [
      'receipt figures',
      `CREATE TEMP TABLE seed_receipt AS
       WITH base AS (
         SELECT o.*, t.total_price, t.items, t.cost, t.printify_shipping,
           CASE WHEN o.discounted THEN round(t.total_price * 0.10)::bigint END AS discount,
           CASE WHEN o.free_shipping THEN 0 ELSE 499 + 150 * (t.items - 1) END::bigint AS shipping
         FROM seed_order o JOIN seed_totals t USING (g) WHERE o.kind <> 'lone_order'
       ), taxed AS (
         SELECT b.*, b.total_price - coalesce(b.discount, 0) AS subtotal,
           CASE WHEN b.currency = 'USD' AND b.g % 5 < 3 THEN round((b.total_price - coalesce(b.discount, 0) + b.shipping) * 0.0725)::bigint ELSE 0 END AS tax
         FROM base b
       )
       SELECT t.*, t.subtotal + t.shipping + t.tax AS grandtotal,
         CASE t.refund WHEN 'full' THEN t.subtotal + t.shipping + t.tax WHEN 'partial' THEN round(t.subtotal / 2.0)::bigint ELSE 0 END AS refunded,
         CASE t.seller_country WHEN 'US' THEN 0.03 WHEN 'CA' THEN 0.03 ELSE 0.04 END AS fee_rate,
         CASE t.seller_country WHEN 'US' THEN 25 WHEN 'CA' THEN 25 WHEN 'GB' THEN 20 ELSE 30 END AS fee_fixed
       FROM taxed t`,
    ],
    [
      'etsy_receipt',
      `INSERT INTO etsy_receipt (user_id, shop_id, receipt_id, status, is_paid, is_shipped, buyer_name, buyer_user_id, zip, country_iso, currency,
         grandtotal_minor, subtotal_minor, total_price_minor, total_shipping_minor, total_tax_minor, total_vat_minor, discount_minor, gift_wrap_minor,
         refunded_minor, item_count, ordered_at, source_updated_at, payload, payload_hash, fetched_at)
       SELECT r.user_id, r.etsy_shop, r.receipt_id, s.status, true, s.status <> 'paid', r.first_name || ' ' || r.last_name,
         (60000000 + r.g % 5000000)::text, lpad((r.g % 99999)::text, 5, '0'), r.seller_country, r.currency,
         r.grandtotal, r.subtotal, r.total_price, r.shipping, r.tax, NULL, r.discount, NULL, r.refunded, r.items, r.ordered_at,
         least(r.ordered_at + interval '3 days', ${nowSql}),
         jsonb_build_object('receipt_id', r.receipt_id::bigint, 'status', initcap(s.status), 'name', r.first_name || ' ' || r.last_name,
           'grandtotal', jsonb_build_object('amount', r.grandtotal, 'divisor', 100, 'currency_code', r.currency), 'create_timestamp', extract(epoch FROM r.ordered_at)::bigint),
         md5('receipt' || r.g), ${nowSql}
       FROM seed_receipt r CROSS JOIN LATERAL (SELECT CASE WHEN r.refund = 'full' THEN 'fully refunded' WHEN r.refund = 'partial' THEN 'partially refunded'
         WHEN r.ordered_at > ${nowSql} - interval '5 days' THEN 'paid' ELSE 'completed' END AS status) s`,
    ],
    [
      'etsy_receipt_line',
      `INSERT INTO etsy_receipt_line (user_id, shop_id, transaction_id, receipt_id, listing_id, product_id, title, sku, quantity, currency, unit_price_minor,
         shipping_minor, is_digital)
       SELECT r.user_id, r.etsy_shop, l.transaction_id, r.receipt_id, (1500000000 + l.design_no * 100 + l.product_no)::text,
         (2500000000 + l.design_no * 100 + l.product_no)::text, l.design || ' ' || l.product || ' | Funny Gift Idea', l.sku, l.quantity, r.currency,
         l.unit_price, NULL, false
       FROM seed_receipt r JOIN seed_line l USING (g)`,
    ],
    [
      'etsy_payment',
      `INSERT INTO etsy_payment (user_id, shop_id, payment_id, receipt_id, currency, amount_gross_minor, amount_fees_minor, amount_net_minor,
         posted_gross_minor, posted_fees_minor, posted_net_minor, adjusted_gross_minor, adjusted_fees_minor, adjusted_net_minor, status,
         source_updated_at, payload, payload_hash, fetched_at)
       SELECT r.user_id, r.etsy_shop, r.payment_id, r.receipt_id, r.currency, r.grandtotal, f.fees, r.grandtotal - f.fees,
         p.gross, CASE WHEN p.gross IS NOT NULL THEN f.fees END, p.gross - f.fees,
         CASE WHEN r.refunded > 0 THEN r.grandtotal - r.refunded END, CASE WHEN r.refunded > 0 THEN f.fees - round(r.refunded * r.fee_rate)::bigint END,
         CASE WHEN r.refunded > 0 THEN (r.grandtotal - r.refunded) - (f.fees - round(r.refunded * r.fee_rate)::bigint) END,
         'settled', r.ordered_at,
         jsonb_build_object('payment_id', r.payment_id::bigint, 'receipt_id', r.receipt_id::bigint, 'amount_fees', jsonb_build_object('amount', f.fees, 'divisor', 100)),
         md5('payment' || r.g), ${nowSql}
       FROM seed_receipt r
       CROSS JOIN LATERAL (SELECT (round(r.grandtotal * r.fee_rate) + r.fee_fixed)::bigint AS fees) f
       CROSS JOIN LATERAL (SELECT CASE WHEN r.ordered_at < ${nowSql} - interval '3 days' THEN r.grandtotal END AS gross) p`,
    ],
    [
      'etsy_ledger_entry',
      `INSERT INTO etsy_ledger_entry (user_id, shop_id, entry_id, ledger_type, reference_type, reference_id, parent_entry_id, currency, amount_minor,
         entry_created_at, receipt_id, link_pending, payload, payload_hash)
       SELECT e.user_id, e.etsy_shop, e.entry_id, e.ledger_type, e.reference_type, e.reference_id, NULL, e.currency, e.amount,
         e.ordered_at + e.j * interval '1 minute', e.receipt_id, false,
         jsonb_build_object('entry_id', e.entry_id::bigint, 'ledger_type', e.ledger_type, 'amount', e.amount, 'currency', e.currency), md5('ledger' || e.entry_id)
       FROM (
         SELECT r.user_id, r.etsy_shop, r.currency, r.ordered_at, r.receipt_id, x.j, (9100000000 + r.g * 16 + x.j)::text AS entry_id, x.ledger_type,
           x.reference_type, x.reference_id, x.amount
         FROM seed_receipt r CROSS JOIN LATERAL (VALUES
           (1, 'PAYMENT_GROSS', 'shop_payment', r.payment_id, r.grandtotal),
           (2, 'PAYMENT_PROCESSING_FEE', 'shop_payment', r.payment_id, -(round(r.grandtotal * r.fee_rate) + r.fee_fixed)::bigint),
           (3, 'shipping_transaction', 'receipt', r.receipt_id, CASE WHEN r.shipping > 0 THEN -round(r.shipping * 0.065)::bigint END),
           (4, 'offsite_ads_fee', 'receipt', r.receipt_id, CASE WHEN r.offsite_ads THEN -least(round(r.grandtotal * 0.15), 10000)::bigint END),
           (5, 'REFUND_GROSS', 'payment_adjustment', (7200000000 + r.g)::text, CASE WHEN r.refunded > 0 THEN -r.refunded END)
         ) AS x(j, ledger_type, reference_type, reference_id, amount)
         WHERE x.amount IS NOT NULL
         UNION ALL
         SELECT r.user_id, r.etsy_shop, r.currency, r.ordered_at, r.receipt_id, 5 + l.line_no, (9100000000 + r.g * 16 + 5 + l.line_no)::text, 'transaction',
           'transaction', l.transaction_id, -round(l.unit_price * l.quantity * 0.065)::bigint
         FROM seed_receipt r JOIN seed_line l USING (g)
       ) e`,
    ],
    [
      'printify_order',
      `INSERT INTO printify_order (user_id, shop_id, order_id, app_order_id, status, order_type, shop_order_id, shop_order_label, buyer_name, zip, country,
         currency, total_price_minor, total_shipping_minor, total_tax_minor, line_cost_minor, line_shipping_minor, item_count, is_reprint, ordered_at,
         sent_to_production_at, fulfilled_at, payload, payload_hash, fetched_at)
       SELECT o.user_id, o.pfy_shop, o.order_id, NULL, s.status, CASE WHEN o.kind = 'exact' THEN 'external' ELSE 'manual' END,
         CASE WHEN o.kind = 'exact' THEN o.receipt_id END, CASE WHEN o.kind = 'exact' THEN o.receipt_id END,
         CASE o.kind WHEN 'fuzzy' THEN upper(o.last_name || ', ' || o.first_name) WHEN 'pending' THEN left(o.first_name, 1) || '. ' || o.last_name
           ELSE o.first_name || ' ' || o.last_name END,
         lpad((o.g % 99999)::text, 5, '0'), o.seller_country, 'USD', t.total_price, CASE WHEN s.status = 'canceled' THEN 0 ELSE t.printify_shipping END, 0,
         CASE WHEN s.status = 'canceled' THEN 0 ELSE t.cost END, CASE WHEN s.status = 'canceled' THEN 0 ELSE t.printify_shipping END, t.items, false,
         s.ordered_at, s.ordered_at + interval '1 hour', CASE WHEN s.status = 'fulfilled' THEN s.ordered_at + interval '4 days' END,
         jsonb_build_object('id', o.order_id, 'status', s.status, 'metadata', jsonb_build_object('order_type', CASE WHEN o.kind = 'exact' THEN 'external' ELSE 'manual' END,
           'shop_order_id', CASE WHEN o.kind = 'exact' THEN o.receipt_id::bigint END)),
         md5('printify' || o.g), ${nowSql}
       FROM seed_order o JOIN seed_totals t USING (g)
       CROSS JOIN LATERAL (SELECT o.ordered_at + (5 + o.g % 360) * interval '1 minute' AS ordered_at) d
       CROSS JOIN LATERAL (SELECT d.ordered_at, CASE WHEN o.refund = 'full' THEN 'canceled' WHEN d.ordered_at > ${nowSql} - interval '4 days' THEN 'in-production'
         ELSE 'fulfilled' END AS status) s
       WHERE o.kind <> 'lone_receipt'`,
    ],
    [
      'printify_order_line',
      `INSERT INTO printify_order_line (user_id, shop_id, order_id, line_no, product_id, variant_id, sku, title, variant_label, quantity, currency,
         cost_minor, shipping_minor, retail_price_minor, status)
       SELECT o.user_id, o.pfy_shop, o.order_id, l.line_no - 1, substr(md5('product' || l.design_no || '-' || l.product_no), 1, 24),
         (10000 + l.product_no * 10)::text, l.sku, l.design || ' ' || l.product, l.variant, l.quantity, 'USD',
         CASE WHEN o.refund = 'full' THEN 0 ELSE l.unit_cost END, CASE WHEN o.refund = 'full' THEN 0 WHEN l.line_no = 1 THEN 450 ELSE 150 END,
         l.unit_price, NULL
       FROM seed_order o JOIN seed_line l USING (g) WHERE o.kind <> 'lone_receipt'`,
    ],
    [
      'fx_rate',
      // ECB-like rates for every business day of the period, drifting ±4 % around a level.
      `INSERT INTO fx_rate (rate_date, currency, per_eur, source, fetched_at)
       SELECT d::date, c.currency, round((c.level * (1 + 0.04 * sin(extract(epoch FROM d) / (86400 * 60) + c.phase)))::numeric, 4), 'bench', ${nowSql}
       FROM generate_series(${nowSql} - interval '740 days', ${nowSql}, interval '1 day') d
       CROSS JOIN (VALUES ('USD', 1.09, 0.0), ('GBP', 0.86, 1.0), ('CAD', 1.47, 2.0)) AS c(currency, level, phase)
       WHERE extract(isodow FROM d) < 6`,
    ],
    [
      "other sellers' order_record",
      `INSERT INTO order_record (user_id, etsy_shop_id, etsy_receipt_id, printify_shop_id, printify_order_id, status, match_method, match_confidence,
         order_date, customer_name, product_title, product_sku)
       SELECT o.user_id, o.etsy_shop, o.receipt_id, CASE WHEN o.kind <> 'lone_receipt' THEN o.pfy_shop END, CASE WHEN o.kind <> 'lone_receipt' THEN o.order_id END,
         CASE o.kind WHEN 'lone_receipt' THEN CASE WHEN o.ordered_at > ${nowSql} - interval '7 days' THEN 'pending' ELSE 'unmatched' END
           WHEN 'pending' THEN 'pending' ELSE 'matched' END,
         CASE o.kind WHEN 'exact' THEN 'exact' WHEN 'lone_receipt' THEN NULL ELSE 'fuzzy' END,
         CASE o.kind WHEN 'exact' THEN 1 WHEN 'fuzzy' THEN 0.93 WHEN 'pending' THEN 0.6633 END,
         o.ordered_at, o.first_name || ' ' || o.last_name, l.design || ' ' || l.product || ' | Funny Gift Idea', l.sku
       FROM seed_order o JOIN seed_line l ON l.g = o.g AND l.line_no = 1
       WHERE o.user_no > 0`,
    ],
    [
      "other sellers' order_profit",
      // Their stored figures in the three display currencies, at fixed rates: what the tables hold
      // around the big seller (whose own figures the compute-profits job writes).
      `INSERT INTO order_profit (order_record_id, currency, user_id, record_sides, figures, revenue_minor, costs_minor, net_profit_minor,
         has_estimated_fees, printify_cost, breakdown, inputs_hash, computed_at)
       SELECT r.id, d.currency, r.user_id,
         coalesce(r.etsy_shop_id || ':' || r.etsy_receipt_id, '') || '|' || coalesce(r.printify_shop_id || ':' || r.printify_order_id, ''),
         'ok', v.revenue, v.costs, v.revenue - v.costs, s.ordered_at > ${nowSql} - interval '3 days',
         -- A receipt without its Printify order yet waits for its cost (ADR 0031), as the engine stores it.
         CASE WHEN r.printify_order_id IS NULL THEN 'awaiting' ELSE 'printify' END,
         jsonb_build_object('orderDate', to_char(s.ordered_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), 'margin',
           CASE WHEN v.revenue > 0 THEN jsonb_build_object('numerator', v.revenue - v.costs, 'denominator', v.revenue,
             'basisPoints', round((v.revenue - v.costs) * 10000.0 / v.revenue)) END),
         md5(r.id::text || d.currency), ${nowSql}
       FROM order_record r
       JOIN seed_receipt s ON s.user_id = r.user_id AND s.receipt_id = r.etsy_receipt_id AND s.user_no > 0
       CROSS JOIN (VALUES ('USD', 1.0, 1.09, 1.27, 0.74), ('EUR', 0.92, 1.0, 1.16, 0.68), ('GBP', 0.79, 0.86, 1.0, 0.58)) AS d(currency, from_usd, from_eur, from_gbp, from_cad)
       CROSS JOIN LATERAL (SELECT CASE s.currency WHEN 'USD' THEN d.from_usd WHEN 'EUR' THEN d.from_eur WHEN 'GBP' THEN d.from_gbp ELSE d.from_cad END AS shop_rate) f
       CROSS JOIN LATERAL (SELECT round((s.subtotal + s.shipping - s.refunded) * f.shop_rate)::bigint AS revenue,
         (round((round(s.grandtotal * s.fee_rate) + s.fee_fixed + round((s.subtotal + s.shipping) * 0.065)) * f.shop_rate)
           + CASE WHEN r.printify_order_id IS NULL OR s.refund = 'full' THEN 0 ELSE round((s.cost + s.printify_shipping) * d.from_usd) END)::bigint AS costs) v`,
    ],
    // Their dashboard rollup, as the writers of those rows would have kept it (the big seller has no record yet).
    ["other sellers' dashboard_day", DASHBOARD_DAY_SQL],
    // And their Orders counts (order_count_day), as the record writers keep them.
    ["other sellers' order_count_day", ORDER_COUNT_DAY_BACKFILL_SQL],
    // And the Analytics page's breakdowns (cost_kind_day, product_day), as the same refreshes keep them.
    ["other sellers' analytics breakdowns", ANALYTICS_ROLLUPS_BACKFILL_SQL],
  ];
}
