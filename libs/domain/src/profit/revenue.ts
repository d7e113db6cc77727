import { money, MoneyError, type Money } from '../money';
import { scaleHalfEven } from '../fees/rounding';
import type { EtsyReceiptInput } from './inputs';

/**
 * What the seller earned from a receipt, in the shop currency (integrations.md §a.5): items
 * after coupon discounts, plus shipping and gift wrap, less the part of refunds that gave
 * those back. Sales tax and VAT that Etsy collects and remits are never revenue.
 *
 * A refund (`refunds[].amount`) is what the buyer got back, tax included, and Etsy returns
 * the tax it collected along with it, so only the refund's share of the pre-tax amount comes
 * off revenue: refunded × (items + shipping + gift wrap) ÷ (that + tax + VAT), rounded half to
 * even, never below zero and never more than the pre-tax amount. A full refund (refunded equal
 * to what the buyer paid) so takes revenue to exactly zero, and so does a receipt whose status
 * is `canceled` or `fully refunded`, whatever its `refunds[]` list holds.
 */
export interface RevenueBreakdown {
  /** Σ(unit price × quantity) before discounts. */
  readonly items: Money;
  /** Coupon discounts (total_price − subtotal), shown as a positive amount taken off. */
  readonly discount: Money;
  readonly shipping: Money;
  readonly giftWrap: Money;
  /** items − discount + shipping + gift wrap. */
  readonly beforeRefunds: Money;
  /** Σ settled refunds as Etsy reports them (tax included). */
  readonly refunded: Money;
  /** The part of `refunded` that came off revenue; the rest was tax returned. */
  readonly refundedRevenue: Money;
  /** Sales tax and VAT Etsy collected: excluded from revenue, kept for the order details. */
  readonly salesTax: Money;
  readonly vat: Money;
  /** What the buyer paid: beforeRefunds + sales tax + VAT. */
  readonly buyerPaid: Money;
  /** beforeRefunds − refundedRevenue. */
  readonly revenue: Money;
  /** The receipt is canceled or fully refunded: it earns nothing, and no fee is estimated for it. */
  readonly voided: boolean;
}

const VOIDED_STATUSES = new Set(['canceled', 'cancelled', 'fully refunded']);

function amount(value: number | null, field: string, receipt: EtsyReceiptInput): Money {
  try {
    return money(value ?? 0, receipt.currency);
  } catch {
    throw new MoneyError(`receipt ${receipt.receiptId}: ${field} is not a whole number of minor units`);
  }
}

export function receiptRevenue(receipt: EtsyReceiptInput): RevenueBreakdown {
  const items = amount(receipt.totalPriceMinor, 'total_price', receipt);
  const subtotal = amount(receipt.subtotalMinor, 'subtotal', receipt);
  const shipping = amount(receipt.totalShippingMinor, 'total_shipping_cost', receipt);
  const giftWrap = amount(receipt.giftWrapMinor, 'gift_wrap_price', receipt);
  const salesTax = amount(receipt.totalTaxMinor, 'total_tax_cost', receipt);
  const vat = amount(receipt.totalVatMinor, 'total_vat_cost', receipt);
  const refunded = amount(Math.max(0, receipt.refundedMinor), 'refunded', receipt);

  const beforeRefunds = subtotal.amountMinor + shipping.amountMinor + giftWrap.amountMinor;
  const buyerPaid = beforeRefunds + salesTax.amountMinor + vat.amountMinor;
  const ceiling = Math.max(0, beforeRefunds);
  const voided = VOIDED_STATUSES.has(receipt.status.trim().toLowerCase());
  let refundedRevenue = 0;
  if (voided) refundedRevenue = ceiling;
  else if (refunded.amountMinor > 0 && ceiling > 0) {
    refundedRevenue =
      buyerPaid > 0 ? scaleHalfEven(refunded.amountMinor, beforeRefunds, buyerPaid) : refunded.amountMinor;
    refundedRevenue = Math.min(ceiling, Math.max(0, refundedRevenue));
  }
  const c = receipt.currency;
  return {
    items,
    discount: money(items.amountMinor - subtotal.amountMinor, c),
    shipping,
    giftWrap,
    beforeRefunds: money(beforeRefunds, c),
    refunded,
    refundedRevenue: money(refundedRevenue, c),
    salesTax,
    vat,
    buyerPaid: money(buyerPaid, c),
    revenue: money(beforeRefunds - refundedRevenue, c),
    voided,
  };
}
