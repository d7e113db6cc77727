import type { ShopCurrency } from './catalog';
import type { OrderModel } from './order-generator';

/**
 * Etsy's fees for one order, from the fee schedule in integrations.md a.8, in the shop's minor
 * units. The sandbox's modelling choices where the docs leave it open: the transaction fee is
 * taken on what the buyer pays for the line (after its coupon share); processing is on the
 * grand total; offsite ads and the regulatory fee are on items plus shipping (the Offsite Ads
 * cap and rate are a.8's: see offsiteAdsFee).
 */
export interface OrderFees {
  /** Per line: fee on the first unit ("transaction") and on the rest ("transaction_quantity"). */
  lines: Array<{ transactionId: number; listingId: number; first: number; rest: number; units: number }>;
  shipping: number;
  processing: number;
  offsiteAds: number;
  regulatory: number;
  /** renew_sold per unit sold. */
  renewSoldEach: number;
  /** VAT Etsy adds to each fee for UK and EU sellers (0 for US shops). */
  vatOnFees: number;
}

/**
 * Processing by the country of the seller's bank (a.8): the rate, and the fixed part in the
 * payment account's currency (converted to the listing currency at the sandbox's fixed
 * equivalents when the two differ).
 */
const PROCESSING: Record<string, { rate: number; fixed: number; currency: ShopCurrency }> = {
  US: { rate: 0.03, fixed: 25, currency: 'USD' },
  GB: { rate: 0.04, fixed: 20, currency: 'GBP' },
  FR: { rate: 0.04, fixed: 30, currency: 'EUR' },
};
/**
 * Regulatory operating fee by seller country (ADR 0023: Etsy help article 1500011073202, UK 0.32 %,
 * France 0.47 %); none in the US.
 */
const REGULATORY: Record<string, number> = { US: 0, GB: 0.0032, FR: 0.0047 };
/** VAT Etsy charges UK and EU sellers on its fees (a.8); none for US sellers. */
const VAT_ON_FEES: Record<string, number> = { US: 0, GB: 0.2, FR: 0.2 };
const RENEW_SOLD: Record<ShopCurrency, number> = { USD: 20, EUR: 18, GBP: 16 };
const TRANSACTION_RATE = 0.065;

/** Minor units of the shop currency for a USD amount, roughly (the sandbox's fixed EUR and GBP equivalents). */
const FROM_USD: Record<ShopCurrency, number> = { USD: 1, EUR: 0.9, GBP: 0.8 };

export function inShopCurrency(usdCents: number, currency: ShopCurrency): number {
  return Math.round(usdCents * FROM_USD[currency]);
}

/** The seller facts the fees depend on: the listing currency and the seller's country. */
export interface FeeSeller {
  currency: ShopCurrency;
  country: string;
}

export function vatOnFeesRate(country: string): number {
  return VAT_ON_FEES[country] ?? 0.2;
}

/**
 * Offsite Ads (a.8): 15% for sellers under USD 10k of sales in the last 365 days, 12% for those
 * at or above it. The standing is the shop's (ShopProfile.salesLast365Usd), one for all its
 * orders: orders are rebuilt one at a time from (seed, index), and the 365 days reach back before
 * the generated history anyway.
 */
export function offsiteAdsRate(salesLast365Usd: number): number {
  return salesLast365Usd >= 10_000 ? 0.12 : 0.15;
}

/** The fee on `base` (minor units): capped at USD 100 (or the equivalent in the shop's currency) per order. */
export function offsiteAdsFee(base: number, rate: number, currency: ShopCurrency): number {
  return Math.min(inShopCurrency(10_000, currency), Math.round(base * rate));
}

/** USD 0.20 per listing (and per renewal), roughly converted for EUR and GBP shops. */
export function listingFee(currency: ShopCurrency): number {
  return RENEW_SOLD[currency];
}

export function feesFor(order: OrderModel, seller: FeeSeller): OrderFees {
  const currency = seller.currency;
  const itemsAndShipping = order.subtotal + order.shippingTotal;
  const processing = PROCESSING[seller.country] ?? PROCESSING.US;
  const fixed = Math.round((processing.fixed * FROM_USD[currency]) / FROM_USD[processing.currency]);
  return {
    lines: order.lines.map((line) => {
      const paid = line.unitPrice * line.quantity - line.discountShare;
      const total = Math.round(paid * TRANSACTION_RATE);
      const first = Math.round(total / line.quantity);
      return {
        transactionId: line.transactionId,
        listingId: line.listing.listingId,
        first,
        rest: total - first,
        units: line.quantity,
      };
    }),
    shipping: Math.round(order.shippingTotal * TRANSACTION_RATE),
    processing: Math.round(order.grandTotal * processing.rate) + fixed,
    offsiteAds: order.offsiteAds ? offsiteAdsFee(itemsAndShipping, order.offsiteAdsRate, currency) : 0,
    regulatory: Math.round(itemsAndShipping * (REGULATORY[seller.country] ?? 0)),
    renewSoldEach: RENEW_SOLD[currency],
    vatOnFees: vatOnFeesRate(seller.country),
  };
}

/** The processing fee Etsy gives back on a refund, in proportion to the amount refunded. */
export function processingFeeReturned(order: OrderModel, fees: OrderFees, refundAmount: number): number {
  return order.grandTotal === 0 ? 0 : Math.round((fees.processing * refundAmount) / order.grandTotal);
}

export const BUYER_CURRENCY: Record<string, string> = { US: 'USD', CA: 'CAD', AU: 'AUD', GB: 'GBP' };
