import type { FeeKind } from './fee-kinds';

/**
 * What a payment-account ledger entry means for an order's profit (integrations.md §a.7).
 * Etsy publishes no enum of `ledger_type`, and its spelling varies in case
 * (`PAYMENT_GROSS` beside `transaction`), so types are compared lower-cased, a `_refund`
 * suffix (the credit back of a fee) means the same kind as the fee it reverses, and any type
 * not listed is an `other` fee rather than being dropped.
 */
export type LedgerMeaning =
  | { readonly role: 'fee'; readonly fee: FeeKind }
  /**
   * Not a cost of the order: the sale and refunds to the buyer (revenue comes from the
   * receipt), sales tax Etsy collects and remits, and payouts.
   */
  | { readonly role: 'not_a_fee'; readonly why: 'sale' | 'refund_to_buyer' | 'sales_tax' | 'payout' };

const NOT_FEES = new Map<string, 'sale' | 'refund_to_buyer' | 'sales_tax' | 'payout'>(
  Object.entries({
    payment_gross: 'sale',
    refund_gross: 'refund_to_buyer',
    refund: 'refund_to_buyer',
    sales_tax: 'sales_tax',
    disburse2: 'payout',
    billing_payment: 'payout',
  } as const),
);

const FEES = new Map<string, FeeKind>(
  Object.entries({
    payment_processing_fee: 'processing',
    refund_processing_fee: 'processing',
    transaction: 'transaction',
    transaction_quantity: 'transaction',
    shipping_transaction: 'transaction',
    gift_wrap_fees: 'transaction',
    listing: 'listing',
    listing_private: 'listing',
    renew_sold: 'listing',
    renew_sold_auto: 'listing',
    renew_expired: 'listing',
    auto_renew_expired: 'listing',
    renew: 'listing',
    offsite_ads_fee: 'offsite_ads',
    regulatory_operating_fee: 'regulatory',
    vat_seller_services: 'vat_on_fees',
    vat_on_processing_fees: 'vat_on_fees',
    vat_tax_ep: 'vat_on_fees',
    vat_refund_ep: 'vat_on_fees',
  } as const),
);

export function ledgerMeaning(ledgerType: string): LedgerMeaning {
  const type = ledgerType.trim().toLowerCase();
  const base = type.endsWith('_refund') ? type.slice(0, -'_refund'.length) : type;
  // Maps, not object lookups: a ledger type named `constructor` must not find Object's.
  const notFee = NOT_FEES.get(type) ?? NOT_FEES.get(base);
  if (notFee) return { role: 'not_a_fee', why: notFee };
  return { role: 'fee', fee: FEES.get(type) ?? FEES.get(base) ?? 'other' };
}
