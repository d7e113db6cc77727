import { money, MoneyError, type Money } from '../money';
import { scaleHalfEven, type BasisPoints } from '../fees/rounding';
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
 *
 * A VAT-registered seller's domestic sale holds the VAT they remit inside its price
 * (`vat-in-prices.ts`): that VAT, gross × rate ÷ (100 % + rate) of what is left after refunds,
 * is not revenue either. Etsy's fees are still charged on the whole price.
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
  /**
   * `refundedRevenue` split over the refunds pro rata to what each gave back, each with the
   * day (UTC) it converts at: its own date when the receipt lists its refunds, else the order's.
   */
  readonly refundParts: readonly RefundPart[];
  /** An unpaid receipt's amount (beforeRefunds − refundedRevenue): not revenue until paid. */
  readonly unpaidRevenue: Money;
  /**
   * The VAT inside the price that the seller remits (a VAT-registered seller's domestic sale):
   * (beforeRefunds − refundedRevenue − unpaidRevenue) × rate ÷ (10 000 + rate), half to even.
   */
  readonly vatInPrices: Money;
  /** The rate of `vatInPrices` (basis points), null when the price holds none the seller remits. */
  readonly vatInPricesRate: BasisPoints | null;
  /** beforeRefunds − refundedRevenue − unpaidRevenue − vatInPrices. */
  readonly revenue: Money;
  /** The receipt is canceled or fully refunded: it earns nothing, and only its listing fee is estimated. */
  readonly voided: boolean;
  /** `is_paid` is false: no revenue and no fee estimates until it is paid. */
  readonly unpaid: boolean;
}

export interface RefundPart {
  readonly revenue: Money;
  /** YYYY-MM-DD (UTC): the refund's own date, at whose rate it converts. */
  readonly date: string;
}

const VOIDED_STATUSES = new Set(['canceled', 'cancelled', 'fully refunded']);

function amount(value: number | null, field: string, receipt: EtsyReceiptInput): Money {
  try {
    return money(value ?? 0, receipt.currency);
  } catch {
    throw new MoneyError(`receipt ${receipt.receiptId}: ${field} is not a whole number of minor units`);
  }
}

export function receiptRevenue(
  receipt: EtsyReceiptInput,
  vatInPricesRate: BasisPoints | null = null,
): RevenueBreakdown {
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
  const unpaid = receipt.isPaid === false && !voided;
  const unpaidRevenue = unpaid ? beforeRefunds - refundedRevenue : 0;
  const gross = beforeRefunds - refundedRevenue - unpaidRevenue;
  const vatRate = vatInPricesRate !== null && gross > 0 ? vatInPricesRate : null;
  const vatInPrices = vatRate === null ? 0 : scaleHalfEven(gross, vatRate, 10_000 + vatRate);
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
    refundParts: refundParts(receipt, refundedRevenue),
    unpaidRevenue: money(unpaidRevenue, c),
    vatInPrices: money(vatInPrices, c),
    vatInPricesRate: vatRate,
    revenue: money(gross - vatInPrices, c),
    voided,
    unpaid,
  };
}

const utcDate = (at: Date) => at.toISOString().slice(0, 10);

/**
 * The refunded revenue by refund: each listed refund takes its share of it by what it gave back
 * (half to even; the last takes the remainder, so the parts add up to the cent), on its own
 * date. Without a usable list (none stored, a voided receipt whose list is empty) it is one part
 * on the order's date.
 */
function refundParts(receipt: EtsyReceiptInput, refundedRevenue: number): RefundPart[] {
  if (refundedRevenue === 0) return [];
  const c = receipt.currency;
  const listed = (receipt.refunds ?? []).filter(
    (refund) => Number.isSafeInteger(refund.amountMinor) && refund.amountMinor > 0,
  );
  const listedTotal = listed.reduce((sum, refund) => sum + refund.amountMinor, 0);
  if (listed.length === 0 || listedTotal <= 0)
    return [{ revenue: money(refundedRevenue, c), date: utcDate(receipt.orderedAt) }];
  const parts: RefundPart[] = [];
  let left = refundedRevenue;
  listed.forEach((refund, index) => {
    const share = index === listed.length - 1 ? left : scaleHalfEven(refundedRevenue, refund.amountMinor, listedTotal);
    left -= share;
    parts.push({ revenue: money(share, c), date: utcDate(refund.refundedAt) });
  });
  return parts;
}
