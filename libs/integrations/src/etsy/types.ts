import type { CurrencyCode, MinorUnits, Money } from '@pod/domain';

/**
 * Etsy records as the rest of PodProfit sees them: ids as strings of digits (int64-safe),
 * money as integer minor units with its currency, times as Dates, statuses lower-cased,
 * titles with HTML entities decoded. Field meanings: shared/docs/integrations.md §a.
 */

/**
 * Supplies the access token for one connection. The caller implements it (tokens are
 * decrypted, refreshed single-flight across processes, and the rotated refresh token is
 * persisted before refreshAfterUnauthorized returns).
 */
export interface EtsyAuth {
  /** A stable, non-secret id of the connection; its hash is the rate-limit scope. */
  readonly connectionKey: string;
  getAccessToken(): Promise<string>;
  /** Called once when Etsy answered 401 `invalid_token` to `rejectedAccessToken`; returns a fresh token. */
  refreshAfterUnauthorized(rejectedAccessToken: string): Promise<string>;
}

export interface EtsyTokenSet {
  accessToken: string;
  refreshToken: string;
  accessTokenExpiresAt: Date;
  /** The digits before the first "." of the token: the Etsy user who granted access. */
  etsyUserId: string;
}

export interface EtsyMe {
  userId: string;
  /** Null when the user has no shop. */
  shopId: string | null;
}

export interface EtsyShop {
  shopId: string;
  name: string;
  /** The shop currency: receipts are priced in it. */
  currency: CurrencyCode;
  /** ISO-3166 alpha-2 of the shop's location, when Etsy says. */
  country: string | null;
}

/** Receipt statuses in the spec's words (lower case); anything else is kept as sent, lower-cased. */
export const ETSY_RECEIPT_STATUSES = [
  'paid',
  'completed',
  'open',
  'payment processing',
  'canceled',
  'fully refunded',
  'partially refunded',
] as const;
export type EtsyReceiptStatus = (typeof ETSY_RECEIPT_STATUSES)[number];

export interface EtsyVariation {
  name: string;
  value: string;
}

export interface EtsyTransaction {
  transactionId: string;
  receiptId: string;
  listingId: string | null;
  productId: string | null;
  title: string | null;
  /** Null when the seller set none (Etsy sends ""). */
  sku: string | null;
  quantity: number;
  /** The unit price. */
  price: Money;
  shippingCost: Money | null;
  isDigital: boolean;
  createdAt: Date | null;
  paidAt: Date | null;
  shippedAt: Date | null;
  variations: EtsyVariation[];
}

export interface EtsyRefund {
  amount: Money;
  createdAt: Date | null;
  reason: string | null;
  /** Lower-cased ("success"). */
  status: string | null;
}

export interface EtsyShipment {
  receiptShippingId: string | null;
  carrierName: string | null;
  trackingCode: string | null;
  notifiedAt: Date | null;
}

export interface EtsyReceipt {
  receiptId: string;
  receiptType: number | null;
  sellerUserId: string | null;
  buyerUserId: string | null;
  /** Recipient name and address bits useful for fallback matching. */
  name: string | null;
  zip: string | null;
  countryIso: string | null;
  /** Lower-cased: "paid", "completed", "fully refunded"… (see ETSY_RECEIPT_STATUSES). */
  status: string;
  paymentMethod: string | null;
  isPaid: boolean;
  isShipped: boolean;
  createdAt: Date;
  updatedAt: Date;
  /** The receipt's currency (that of grandtotal; the shop currency). */
  currency: CurrencyCode;
  grandtotal: Money;
  subtotal: Money;
  totalPrice: Money;
  totalShippingCost: Money;
  totalTaxCost: Money;
  /** Null when Etsy sent no such field (not zero: absent is not "none"). */
  totalVatCost: Money | null;
  discountAmt: Money | null;
  giftWrapPrice: Money | null;
  transactions: EtsyTransaction[];
  refunds: EtsyRefund[];
  shipments: EtsyShipment[];
  /** Paths of amounts whose {amount, divisor} did not land on a whole minor unit (rounded half to even). */
  inexactAmounts: string[];
}

export interface EtsyPaymentAdjustment {
  paymentAdjustmentId: string;
  /** The payment the adjustment (refund) changes. */
  paymentId: string | null;
  status: string | null;
  isSuccess: boolean | null;
  reasonCode: string | null;
  /** Minor units in the payment currency. */
  totalAdjustmentAmount: MinorUnits | null;
  /** Minor units in the shop currency. */
  shopTotalAdjustmentAmount: MinorUnits | null;
  /** Minor units in the buyer currency. */
  buyerTotalAdjustmentAmount: MinorUnits | null;
  /** Processing fee returned, minor units in the payment currency. */
  totalFeeAdjustmentAmount: MinorUnits | null;
  createdAt: Date | null;
}

export interface EtsyPayment {
  paymentId: string;
  receiptId: string;
  shopId: string | null;
  buyerUserId: string | null;
  amountGross: Money;
  amountFees: Money;
  amountNet: Money;
  postedGross: Money | null;
  postedFees: Money | null;
  postedNet: Money | null;
  adjustedGross: Money | null;
  adjustedFees: Money | null;
  adjustedNet: Money | null;
  /** As Etsy states them (upper-cased); compare with each Money's own currency (issue #564). */
  currency: string | null;
  shopCurrency: string | null;
  buyerCurrency: string | null;
  /** Lower-cased ("settled", "authed"). */
  status: string | null;
  shippedAt: Date | null;
  createdAt: Date | null;
  updatedAt: Date | null;
  adjustments: EtsyPaymentAdjustment[];
  inexactAmounts: string[];
}

export interface EtsyLedgerEntry {
  entryId: string;
  ledgerId: string | null;
  sequenceNumber: number | null;
  /** Signed: credits positive, fees negative. Already minor units in `amount.currency`. */
  amount: Money;
  balance: Money | null;
  /** As sent (`PAYMENT_GROSS`, `transaction`…): there is no official enum; compare case-insensitively. */
  ledgerType: string;
  description: string | null;
  referenceType: string | null;
  /** Etsy sends a number or a string; always a string here. */
  referenceId: string | null;
  parentEntryId: string | null;
  createdAt: Date;
  paymentAdjustments: EtsyPaymentAdjustment[];
}

export interface EtsyReceiptQuery {
  minCreated?: number;
  maxCreated?: number;
  minLastModified?: number;
  maxLastModified?: number;
  /** 1–100 (default 25). */
  limit?: number;
  /** 0–12000. */
  offset?: number;
  sortOn?: 'created' | 'updated' | 'receipt_id';
  sortOrder?: 'asc' | 'desc';
  wasPaid?: boolean;
  wasShipped?: boolean;
  wasCanceled?: boolean;
}

export interface EtsyLedgerQuery {
  /** Epoch seconds; the window may be at most 2,678,400 s (31 days). */
  minCreated: number;
  maxCreated: number;
  limit?: number;
  offset?: number;
}
