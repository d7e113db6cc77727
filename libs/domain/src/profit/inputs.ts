import type { CurrencyCode, DisplayCurrencyCode } from '../currency';
import type { OffsiteAdsTier } from '../fees/fee-schedule';
import type { ProfitConverter } from './converter';
import type { PrintifyCostEstimate } from './printify-estimate';

/**
 * What the engine reads for one order. Each shape mirrors the mapped columns of the synced
 * tables (libs/db/src/migrations/1764300000000-synced-orders.ts), named as their entities
 * name them, so the persistence layer passes rows through without computing anything.
 * Amounts are integer minor units (pg's bigint strings already turned into numbers by the
 * column transformer); the engine refuses anything else.
 */

/** `etsy_receipt` (+ its `etsy_receipt_line` rows). Amounts are in `currency`, the shop's. */
export interface EtsyReceiptInput {
  readonly receiptId: string;
  /** Lower-cased Etsy status (`paid`, `completed`, `canceled`, `fully refunded`, …). */
  readonly status: string;
  readonly currency: CurrencyCode;
  readonly orderedAt: Date;
  /** `total_price − coupon discounts`: the items the buyer paid for (the discount is read from it, not `discount_amt`). */
  readonly subtotalMinor: number;
  /** Σ(unit price × quantity), before discounts. */
  readonly totalPriceMinor: number;
  readonly totalShippingMinor: number;
  /** Sales tax Etsy collected. */
  readonly totalTaxMinor: number;
  /** VAT Etsy collected. */
  readonly totalVatMinor: number | null;
  readonly giftWrapMinor: number | null;
  /** Σ settled `refunds[].amount` (what the buyer got back, tax included). */
  readonly refundedMinor: number;
  /**
   * `is_paid`: an unpaid receipt is not revenue yet and gets no fee estimates. Absent is paid
   * (inputs built before the flag was read).
   */
  readonly isPaid?: boolean;
  /**
   * The settled `refunds[]` with their dates, so each converts at the rate of its own day.
   * Absent or empty: refunds (if any) convert at the order's date.
   */
  readonly refunds?: readonly EtsyRefundInput[];
  /**
   * `country_iso` of the shipping address (ISO alpha-2): tells a VAT-registered seller's domestic
   * sale, whose price holds the VAT they remit. Null or absent when Etsy withholds the address.
   */
  readonly buyerCountry?: string | null;
  readonly lines: readonly EtsyReceiptLineInput[];
}

/** One settled entry of the receipt's `refunds[]`: what the buyer got back (tax included) and when. */
export interface EtsyRefundInput {
  readonly amountMinor: number;
  readonly refundedAt: Date;
}

/** `etsy_receipt_line`. */
export interface EtsyReceiptLineInput {
  readonly transactionId: string;
  readonly listingId: string | null;
  readonly quantity: number;
  /** `sku` (often blank): the same product's Printify lines carry it as `metadata.sku` (ADR 0031). */
  readonly sku?: string | null;
}

/** `etsy_payment`: the fees columns are the payment-processing fee (§a.6). */
export interface EtsyPaymentInput {
  readonly paymentId: string;
  readonly currency: CurrencyCode;
  readonly amountFeesMinor: number;
  readonly postedFeesMinor: number | null;
  readonly adjustedFeesMinor: number | null;
}

/** `etsy_ledger_entry` rows whose `receipt_id` is this receipt. `amountMinor` is signed: fees are negative. */
export interface EtsyLedgerEntryInput {
  readonly entryId: string;
  readonly ledgerType: string;
  readonly currency: CurrencyCode;
  readonly amountMinor: number;
}

/** `printify_order` (+ its `printify_order_line` rows), in the account's Printify currency. */
export interface PrintifyOrderInput {
  readonly orderId: string;
  readonly status: string;
  readonly currency: CurrencyCode;
  readonly orderedAt: Date;
  readonly totalTaxMinor: number;
  readonly lines: readonly PrintifyOrderLineInput[];
}

/** `printify_order_line`: `costMinor` is the line's `cost` as Printify sent it. */
export interface PrintifyOrderLineInput {
  readonly quantity: number;
  readonly costMinor: number;
  readonly shippingMinor: number;
  readonly status: string | null;
}

/**
 * One order as the matcher sees it: a receipt, its Printify order(s) (an original and its
 * reprints), or both. The payments and ledger entries are the receipt's.
 */
export interface OrderProfitInput {
  readonly receipt: EtsyReceiptInput | null;
  readonly payments: readonly EtsyPaymentInput[];
  readonly ledgerEntries: readonly EtsyLedgerEntryInput[];
  readonly printifyOrders: readonly PrintifyOrderInput[];
  /**
   * Whether Etsy Offsite Ads brought this sale. Etsy's API says so only through the ledger's
   * `offsite_ads_fee`; set it when known otherwise (the fee is then estimated before the
   * ledger has it). Absent means not known to apply: no estimate.
   */
  readonly offsiteAdsAttributed?: boolean;
  /**
   * Set for a receipt still waiting for its Printify order (no Printify order yet, one is
   * expected): the estimate from the same SKU's recent Printify lines, or why there is none
   * (ADR 0031). Absent: no Printify order is expected (or one is on the order).
   */
  readonly printifyPending?: PrintifyCostEstimate;
}

/** Per-account settings and the rate source: everything the engine needs beyond the order. */
export interface ProfitSettings {
  readonly displayCurrency: DisplayCurrencyCode;
  /** Whether Printify's line `cost` is per unit or already for the whole line (§b.4, UNCONFIRMED). */
  readonly printifyCostReading: 'per_unit' | 'per_line';
  /**
   * Country of the seller's bank account (sets the processing fee; the shop's country stands in
   * for it), also read as the seller's country (regulatory operating fee, VAT on fees).
   */
  readonly bankCountry: string | null;
  /**
   * Currency of the Etsy payment account (for the 2.5% conversion fee): the currency of the
   * shop's ledger, not the listing currency; null when not known.
   */
  readonly paymentAccountCurrency: CurrencyCode | null;
  readonly offsiteAdsTier: OffsiteAdsTier;
  /**
   * The seller is VAT-registered (a profit setting of the shop): the VAT Etsy adds to its fees
   * is reclaimed, so it is not a cost; and the VAT inside the prices of their domestic sales is
   * theirs to remit, so it is not revenue. Absent is not registered.
   */
  readonly vatRegistered?: boolean;
  readonly convert: ProfitConverter;
}
