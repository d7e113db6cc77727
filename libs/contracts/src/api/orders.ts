/**
 * Shapes of the order routes: /api/orders, /api/matching, /api/dashboard/metrics. Every list
 * is paged, filtered and counted by the gateway in SQL (product spec Part 2, point 10); every
 * money figure is in the requested display currency, converted at the rate of the order's
 * date (Part 2, point 3), with the original amount kept in the details.
 */
import type { AttachmentReason, DisplayCurrencyCode, MatchMethod, MatchStatus, NotNeededReason } from '@pod/domain';

/** An amount as the API sends it: integer minor units and the ISO 4217 code. */
export interface MoneyView {
  minor: number;
  currency: string;
}

/** not_needed: an order that needs no match (notNeededReason says why); never counted as unmatched. */
export type OrderStatus = MatchStatus;
export type { AttachmentReason, MatchMethod, NotNeededReason };
/** Which sides the order has: both (a match or a pending pair), the receipt only, Printify only. */
export type OrderSource = 'etsy_printify' | 'etsy' | 'printify';

/**
 * Whether the row's figures can be shown: `ok`; `provisional` (shown and summed, converted at
 * the latest loaded ECB day's rates because the order date's ECB day is not loaded yet, e.g. an
 * order of today before about 16:00 CET; final once it is); `rate_unavailable` (a currency the
 * ECB does not publish, or no rate for the order's date — never shown unconverted);
 * `not_computed` (profit not yet computed after a change; the next matcher pass fills it).
 */
export type FiguresState = 'ok' | 'provisional' | 'rate_unavailable' | 'not_computed';

/** One row of the Orders table, the Order Matching table and the Dashboard's unmatched preview. */
export interface OrderRowView {
  /** The order record's id (stable across re-matching for the receipt's side). */
  id: string;
  status: OrderStatus;
  /** Why the order needs no match (status not_needed): digital, printify_sample, printify_manual, canceled_empty. */
  notNeededReason: NotNeededReason | null;
  source: OrderSource;
  archived: boolean;
  etsyReceiptId: string | null;
  /** The primary Printify order (the original, or the first of a split). */
  printifyOrderId: string | null;
  /** The receipt's other Printify orders: reprints, splits, added by hand (issue 17). */
  extraPrintifyOrders: Array<{ printifyOrderId: string; reason: AttachmentReason }>;
  productTitle: string | null;
  productSku: string | null;
  customerName: string | null;
  /** ISO 8601: the Etsy side's order date, else the Printify side's. */
  orderDate: string | null;
  matchMethod: MatchMethod | null;
  /** 0–1; present for fuzzy matches (exact is 1, manual null). */
  matchConfidence: number | null;
  figures: FiguresState;
  /** The buyer's payment less tax collected by Etsy and refunds; null without an Etsy side. */
  revenue: MoneyView | null;
  /** Printify cost plus Etsy fees known for the order. */
  cost: MoneyView | null;
  profit: MoneyView | null;
  /** Percent with one decimal's precision (e.g. 23.4); null when revenue is 0 or unknown. */
  profitMarginPercent: number | null;
  /** True when any fee in `cost` is an estimate from the fee schedule. */
  hasEstimatedFees: boolean;
  /**
   * Where the Printify cost comes from (ADR 0031): `printify` its order(s); `estimated` from the
   * same SKU's recent Printify orders while its own is awaited (in `cost`, marked); `awaiting`
   * none yet and no history to estimate from (`cost` and `profit` null, out of the totals);
   * `none` no Printify order is expected; null when not computed.
   */
  printifyCost: PrintifyCostView | null;
  /** Which lines of `cost` are estimated and why, one entry per kind and reason (empty when none is). */
  estimatedFees: EstimatedFeeView[];
}

/** An estimated cost line of an order, as the "est. fees" mark names it: "Transaction fee", and why it is estimated. */
export interface EstimatedFeeView {
  label: string;
  why: string;
}

export type PrintifyCostView = 'printify' | 'estimated' | 'awaiting' | 'none';

export type OrdersSourceTab = 'all' | 'etsy' | 'printify';
export type OrdersStatusFilter = 'all' | OrderStatus;
/** `active` hides archived orders (the default); `archived` lists only them. */
export type OrdersArchiveView = 'active' | 'archived';

/**
 * GET /api/orders?search&status&days&source&view&page&pageSize&currency
 * - search: case-insensitive substring of receipt id, Printify order id, customer, product.
 * - days: 7, 30 or 90 (the Orders page's date filter), or 365 (the Dashboard's "Last year", whose
 *   unmatched preview and "View All" link ask for the dashboard's range); absent: all time.
 *   Undated orders are excluded when a range is given.
 * - pageSize: 1–100, default 50; page from 1.
 */
/** The Orders list's sortable columns (`sort` of GET /api/orders); figures in the page's currency. */
export type OrdersSortKey = 'date' | 'revenue' | 'cost' | 'profit' | 'margin';
export type OrdersSortDirection = 'asc' | 'desc';

export interface OrdersPageResponse {
  orders: OrderRowView[];
  /** Orders matching every filter (the X of "Showing X of Y orders"). */
  filteredTotal: number;
  /** All orders of the view (active or archived), unfiltered (the Y). */
  total: number;
  /** Per source tab, under the search, status and date filters. */
  tabCounts: Record<OrdersSourceTab, number>;
  page: number;
  pageSize: number;
  currency: DisplayCurrencyCode;
  /** The order the page is in: by this column (id breaking ties), in this direction. */
  sort: OrdersSortKey;
  dir: OrdersSortDirection;
}

/**
 * GET /api/matching/orders?status&month=YYYY-MM&page&currency — 15 per page; `month`
 * defaults to the current month in UTC.
 */
export interface MatchingPageResponse {
  orders: OrderRowView[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
  month: string;
  currency: DisplayCurrencyCode;
}

/** How well a candidate fits the selected order, 0–1, and the measures it is made of (the matcher's). */
export interface CandidateFit {
  score: number;
  /** Null when either side has no buyer name. */
  buyerName: number | null;
  /** 0 outside the matcher's date window (then the score is 0). */
  date: number;
  items: number;
}

/**
 * GET /api/orders/:id/candidates?search&page&currency — for the Manual Order Matching dialog,
 * best fit first, paged (20 a page), all in the server. Orders that need no fulfilment (digital
 * downloads, Printify samples) are never offered; without a search only orders that can be the
 * same sale (fit above 0) are; a search (receipt id, Printify id, customer or product) lists
 * every match of the term, ranked the same way. `lowFitBelow`: a match under this fit is
 * confirmed by the seller (the matcher would not propose it).
 */
export interface MatchCandidatesResponse {
  order: OrderRowView;
  candidates: Array<{ order: OrderRowView; score: number; fit: CandidateFit }>;
  total: number;
  page: number;
  pageSize: number;
  lowFitBelow: number;
}

/**
 * GET /api/dashboard/metrics?days=7|30|90|365&currency — totals over orders dated in the
 * window (SQL sums of the stored per-order figures, so they equal the rows' sum exactly).
 */
export interface DashboardMetricsResponse {
  currency: DisplayCurrencyCode;
  days: number;
  totalRevenue: MoneyView;
  totalCosts: MoneyView;
  netProfit: MoneyView;
  /** Percent, one decimal's precision; null when revenue is 0. */
  profitMargin: number | null;
  matchedOrders: number;
  unmatchedOrders: number;
  pendingOrders: number;
  /** Orders in the window left out of the totals because no rate converts them. */
  ordersWithoutRate: number;
  /** Orders in the window in the totals at provisional exchange rates (their ECB day is not loaded yet). */
  ordersProvisional: number;
  /** Orders in the window left out because their figures are not computed yet (a change the matcher has not figured). */
  ordersNotComputed: number;
  /** Receipts in the window waiting for their Printify order with no history to estimate its cost: left out of the totals (ADR 0031). */
  ordersAwaitingPrintifyCost: number;
  /** Receipts in the window waiting for their Printify order, in the totals with an estimated Printify cost. */
  ordersEstimatedPrintifyCost: number;
  /** True when the user has any synced order at all (the empty state otherwise). */
  hasOrders: boolean;
  /** Where `netProfit` comes from (net profit from orders: records with an Etsy receipt). */
  netProfitSource: string;
  /** Account-level Etsy ledger entries no order carries (Etsy Ads, listing fees, Etsy Plus…), by kind (ADR 0027). */
  otherEtsyCosts: OtherCostsView;
  /** Printify orders with no Etsy receipt (samples, manual orders, orders attached to none), by order type. */
  otherPrintifyCosts: OtherCostsView;
  /** netProfit − other Etsy costs − other Printify costs. */
  profitAfterShopCosts: MoneyView;
  profitAfterShopCostsSource: string;
}

/** A Dashboard figure made of costs of several kinds, each with its label. */
export interface OtherCostsView {
  total: MoneyView;
  byKind: { kind: string; label: string; cost: MoneyView; entries: number | null }[];
  /** Entries left out of the total because no rate converts them yet (counted, not summed as zero). */
  withoutRate: number;
  /** Entries in the total converted at a stand-in day's rates (their own not published yet): provisional, as order figures. */
  provisional: number;
  source: string;
}

/** POST /api/orders/:id/match body: the other order record to pair with this one. */
export interface ManualMatchRequest {
  withOrderId: string;
}

/** Answer of the match, unmatch, archive and restore routes: the order(s) as they now are. */
export interface OrderChangeResponse {
  orders: OrderRowView[];
}

/** Where a figure comes from: the receipt, Etsy's payment or ledger, Printify, or the fee schedule. */
export type FigureSource = 'receipt' | 'payment' | 'ledger' | 'printify' | 'estimate';

/** One line of the Profit Summary: in the display currency, with the amount as received. */
export interface ProfitLineView {
  /** Machine key, e.g. `items`, `shipping`, `discount`, `refunds`, `transaction`, `printify_production`; several lines may share one. */
  kind: string;
  /**
   * What the seller reads, never the same for two lines of one summary: "Transaction fee";
   * "Payment processing fee (3% of order total)" and "Payment processing fee (fixed $0.25)" for
   * an estimate's two parts; "Transaction fee (charged in EUR)" for a kind charged in two currencies.
   */
  label: string;
  /** Display currency; null when no rate converts it (the order is then `rate_unavailable`). */
  amount: MoneyView | null;
  original: MoneyView;
  source: FigureSource;
  /** 1: adds to its total; −1: taken off it (discount, refunds, revenue not paid yet, VAT in prices). `amount` and `original` carry no sign of their own. */
  sign: 1 | -1;
  estimated: boolean;
  /** For an estimated line: why it is estimated and how it was figured (its tooltip); null otherwise. */
  estimateNote: string | null;
}

/** A rate a conversion used: `rate` units of `to` per unit of `from`, the ECB day `date`. */
export interface RateUsedView {
  from: string;
  to: string;
  rate: string;
  date: string;
}

export interface EtsySideView {
  receiptId: string;
  customerName: string | null;
  orderDate: string;
  status: string;
  /** Revenue in the display currency (null without a rate). */
  revenue: MoneyView | null;
  /** What the buyer paid, as Etsy reports it (grand total, original currency). */
  originalTotal: MoneyView;
  lines: Array<{ title: string | null; sku: string | null; quantity: number; price: MoneyView }>;
}

export interface PrintifySideView {
  orderId: string;
  /** The marketplace order id Printify names, if any. */
  externalId: string | null;
  status: string;
  productionCost: MoneyView | null;
  shippingCost: MoneyView | null;
  taxCost: MoneyView | null;
  totalCost: MoneyView | null;
  originalTotalCost: MoneyView;
  lines: Array<{ title: string | null; sku: string | null; quantity: number }>;
}

/**
 * One Printify order on the receipt (issue 17), with what it costs as the profit counts it, in
 * the order's own currency (a canceled order costs nothing).
 * role: original (the record's primary order), reprint, split, or manual (added by hand).
 */
export interface PrintifyOrderOnReceiptView {
  orderId: string;
  role: 'original' | AttachmentReason;
  status: string;
  orderDate: string;
  productionCost: MoneyView;
  shippingCost: MoneyView;
  taxCost: MoneyView;
  totalCost: MoneyView;
  lines: Array<{ title: string | null; sku: string | null; quantity: number }>;
}

/** GET /api/orders/:id?currency — the Order Details dialog. */
export interface OrderDetailsResponse {
  order: OrderRowView;
  etsy: EtsySideView | null;
  /** The primary Printify order (kept for compatibility; printifyOrders lists every one). */
  printify: PrintifySideView | null;
  /** Every Printify order on the receipt, the primary first, then the others in id order. */
  printifyOrders: PrintifyOrderOnReceiptView[];
  profit: {
    figures: FiguresState;
    revenueLines: ProfitLineView[];
    costLines: ProfitLineView[];
    /** Sales tax / VAT Etsy collected and remits: shown, never counted as revenue. */
    taxExcluded: MoneyView | null;
    totalRevenue: MoneyView | null;
    totalCosts: MoneyView | null;
    netProfit: MoneyView | null;
    marginPercent: number | null;
    ratesUsed: RateUsedView[];
    /**
     * Set when `figures` is `provisional`: `rateDate` the ECB day whose rates were used (the
     * latest loaded), `awaitingRateDate` the ECB day the order converts at once it is loaded.
     */
    provisional: { rateDate: string; awaitingRateDate: string } | null;
  } | null;
}
