/**
 * What the matching engine reads and produces. Sides are named by (shop id, provider id), the
 * synced tables' keys under one user; the engine runs for one user at a time, so no user id
 * appears here (the caller scopes every input).
 */

/**
 * The one list of record statuses (the migrations' CHECKs, the entities, the API and the web
 * app read it from here). not_needed: an order that needs no match (see NOT_NEEDED_REASONS);
 * it is not counted as unmatched.
 */
export const MATCH_STATUSES = ['matched', 'pending', 'unmatched', 'not_needed'] as const;
export type MatchStatus = (typeof MATCH_STATUSES)[number];

/**
 * Why a lone order needs no match (issue 17): digital, every line of the receipt is digital
 * (nothing to fulfil); printify_sample / printify_manual, a Printify sample or manual order
 * naming no marketplace order (a Printify-only cost); canceled_empty, a canceled Printify order
 * with no cost and no receipt.
 */
export const NOT_NEEDED_REASONS = ['digital', 'printify_sample', 'printify_manual', 'canceled_empty'] as const;
export type NotNeededReason = (typeof NOT_NEEDED_REASONS)[number];

/**
 * Why a Printify order beyond the record's primary one is on the receipt: a reprint of an order
 * on it (metadata.reprinted_order_ids), a split (it names the same receipt as the primary), or
 * the seller added it by hand.
 */
export const ATTACHMENT_REASONS = ['reprint', 'split', 'manual'] as const;
export type AttachmentReason = (typeof ATTACHMENT_REASONS)[number];

/** One of a record's additional Printify orders. */
export interface AttachedOrder {
  readonly order: SideRef;
  readonly reason: AttachmentReason;
}

/** exact: the Printify order names the receipt; fuzzy: scored; manual: the user's decision. */
export const MATCH_METHODS = ['exact', 'fuzzy', 'manual'] as const;
export type MatchMethod = (typeof MATCH_METHODS)[number];

/** One side of an order: an Etsy receipt or a Printify order, by shop and provider id. */
export interface SideRef {
  readonly shopId: string;
  readonly id: string;
}

export interface MatchLine {
  readonly title: string | null;
  readonly sku: string | null;
  readonly quantity: number;
}

export interface ReceiptToMatch {
  readonly shopId: string;
  readonly receiptId: string;
  readonly buyerName: string | null;
  readonly orderedAt: Date;
  readonly lines: readonly MatchLine[];
  /** Every line is_digital (and there is one): nothing for Printify to fulfil. Absent: false. */
  readonly allDigital?: boolean;
}

export interface PrintifyOrderToMatch {
  readonly shopId: string;
  readonly orderId: string;
  /** metadata.shop_order_id: for an Etsy-connected shop, the receipt id (integrations.md b.4). */
  readonly shopOrderId: string | null;
  /** metadata.shop_order_label: the same id as a display string. */
  readonly shopOrderLabel: string | null;
  readonly isReprint: boolean;
  /** metadata.reprinted_order_ids: the Printify order(s) this one reprints, ids as strings. Absent: none. */
  readonly reprintedOrderIds?: readonly string[];
  /** metadata.child_reprinted_order_ids: the reprints made of this order, ids as strings. Absent: none. */
  readonly childReprintedOrderIds?: readonly string[];
  /** metadata.order_type, lower case (external, manual, sample, api…). Absent: unknown. */
  readonly orderType?: string | null;
  /** Printify's status is canceled. Absent: false. */
  readonly canceled?: boolean;
  /** The order's total cost in minor units (lines, shipping, tax). Absent: unknown (not 0). */
  readonly costMinor?: number | null;
  readonly buyerName: string | null;
  readonly orderedAt: Date;
  readonly lines: readonly MatchLine[];
}

/**
 * One order as the seller sees it: a receipt with its Printify order (a matched or pending
 * pair), a lone receipt, or a lone Printify order, with the fields lists search and sort on.
 */
export interface OrderRecordShape {
  readonly receipt: SideRef | null;
  /** The primary Printify order (the spec's `printify` sub-record). */
  readonly order: SideRef | null;
  /** The receipt's other Printify orders (reprints, splits, added by hand), in side order. */
  readonly attached: readonly AttachedOrder[];
  readonly status: MatchStatus;
  /** Set exactly when status is not_needed. */
  readonly notNeededReason: NotNeededReason | null;
  readonly method: MatchMethod | null;
  /** 0–1 with four decimals; 1 for exact and manual matches, null when nothing is paired. */
  readonly confidence: number | null;
  /** The Etsy side's date, else the Printify side's. */
  readonly orderDate: Date | null;
  readonly customerName: string | null;
  readonly productTitle: string | null;
  readonly productSku: string | null;
}

/** A stored record: the shape plus its id and whether the user archived it. */
export interface ExistingOrderRecord extends OrderRecordShape {
  readonly id: string;
  readonly archived: boolean;
}

export interface MatchingOptions {
  /** A lone receipt younger than this waits for its Printify order as "pending" (default 7 days). */
  readonly pendingReceiptDays: number;
  /** At or above: an automatic fuzzy match. */
  readonly acceptThreshold: number;
  /** At or above (and below accept): a pending pair the user confirms. */
  readonly reviewThreshold: number;
  /** A candidate within this of the best one makes the best ambiguous: no automatic pairing. */
  readonly ambiguityMargin: number;
  /** How far after the receipt (days) a Printify order may be placed and still be a candidate. */
  readonly maxDaysAfter: number;
  /** How far before the receipt (days) a Printify order may be stamped (clock skew). */
  readonly maxDaysBefore: number;
}

export const DEFAULT_MATCHING_OPTIONS: MatchingOptions = {
  pendingReceiptDays: 7,
  acceptThreshold: 0.8,
  reviewThreshold: 0.55,
  ambiguityMargin: 0.05,
  maxDaysAfter: 14,
  maxDaysBefore: 1,
};

export function sideKey(side: SideRef): string {
  // U+001F never occurs in provider ids; it keeps ("1","23") and ("12","3") apart.
  return `${side.shopId}\u001f${side.id}`;
}

export function receiptRef(receipt: ReceiptToMatch): SideRef {
  return { shopId: receipt.shopId, id: receipt.receiptId };
}

export function orderRef(order: PrintifyOrderToMatch): SideRef {
  return { shopId: order.shopId, id: order.orderId };
}
