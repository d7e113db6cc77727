import type { FeeKind } from './fee-kinds';

/**
 * What every payment-account ledger entry is (integrations.md §a.7, docs/adr/0027): tied to an
 * order, a shop cost of some kind, a payout or transfer, or unclassified. Etsy publishes no enum
 * of `ledger_type` and its spelling varies in case (`PAYMENT_GROSS` beside `transaction`), so
 * types are compared lower-cased and a `_refund` suffix (the credit back of a charge) means the
 * same as the charge it reverses. A type not listed is `unclassified`: kept and shown, never
 * dropped.
 */
export type LedgerClass =
  /** The sale, a refund to the buyer, sales tax Etsy collects and remits, or a fee of the order. */
  | { readonly class: 'order'; readonly role: 'sale' | 'refund_to_buyer' | 'sales_tax' }
  | { readonly class: 'order'; readonly role: 'fee'; readonly fee: FeeKind }
  /** A cost of running the shop that no order carries (Etsy Ads, subscriptions, labels…). */
  | { readonly class: 'shop_cost'; readonly kind: ShopCostKind }
  /** Money moved out of or into the account: deposits to the bank, bills paid by card. */
  | { readonly class: 'payout'; readonly why: 'deposit' | 'bill_payment' }
  /** VAT on an Etsy fee: it follows the entry it taxes (`parent_entry_id`). */
  | { readonly class: 'vat_on_fee' }
  | { readonly class: 'unclassified' };

/**
 * The kinds of shop cost the Dashboard breaks "other Etsy costs" into. `vat` is VAT on a fee
 * whose taxed entry is not stored; `unclassified` holds types nobody has documented yet.
 */
export const SHOP_COST_KINDS = [
  'etsy_ads',
  'listing',
  'subscription',
  'shipping_labels',
  'credits',
  'onboarding',
  'deposit_fee',
  'vat',
  'unclassified',
] as const;

export type ShopCostKind = (typeof SHOP_COST_KINDS)[number];

const ORDER_ROLES = new Map<string, 'sale' | 'refund_to_buyer' | 'sales_tax'>(
  Object.entries({
    payment_gross: 'sale',
    refund_gross: 'refund_to_buyer',
    refund: 'refund_to_buyer',
    sales_tax: 'sales_tax',
  } as const),
);

const ORDER_FEES = new Map<string, FeeKind>(
  Object.entries({
    payment_processing_fee: 'processing',
    refund_processing_fee: 'processing',
    transaction: 'transaction',
    transaction_quantity: 'transaction',
    shipping_transaction: 'transaction',
    gift_wrap_fees: 'transaction',
    // A listing fee Etsy charges again when a unit sells: the sale's cost (the fees helper
    // attributes it); unattributed it is a shop cost of kind `listing` (shopCostOf below).
    renew_sold: 'listing',
    renew_sold_auto: 'listing',
    offsite_ads_fee: 'offsite_ads',
    regulatory_operating_fee: 'regulatory',
  } as const),
);

const SHOP_COSTS = new Map<string, ShopCostKind>(
  Object.entries({
    prolist: 'etsy_ads',
    listing: 'listing',
    listing_private: 'listing',
    renew_expired: 'listing',
    auto_renew_expired: 'listing',
    renew: 'listing',
    subscription: 'subscription',
    shipping_labels: 'shipping_labels',
    shipping_label: 'shipping_labels',
    shipping_label_adjustment: 'shipping_labels',
    seller_credit: 'credits',
    seller_driven_traffic_credit: 'credits',
    seller_onboarding_fee: 'onboarding',
    deposit_fee: 'deposit_fee',
  } as const),
);

const PAYOUTS = new Map<string, 'deposit' | 'bill_payment'>(
  Object.entries({
    disburse2: 'deposit',
    billing_payment: 'bill_payment',
    // The card payment of the onboarding fee: money in, not a cost (the fee is its own entry).
    seller_onboarding_fee_payment: 'bill_payment',
  } as const),
);

const VAT_ON_FEES = new Set([
  'vat_seller_services',
  'vat_on_processing_fees',
  'vat_tax_ep',
  'vat_refund_ep',
  'vat_seller_services_refund',
]);

/** The class of a ledger type, read in any case; a `*_refund` is the class of what it reverses. */
export function ledgerClass(ledgerType: string): LedgerClass {
  const type = ledgerType.trim().toLowerCase();
  const base = type.endsWith('_refund') ? type.slice(0, -'_refund'.length) : type;
  // Maps, not object lookups: a ledger type named `constructor` must not find Object's.
  if (VAT_ON_FEES.has(type) || VAT_ON_FEES.has(base)) return { class: 'vat_on_fee' };
  const role = ORDER_ROLES.get(type) ?? ORDER_ROLES.get(base);
  if (role) return { class: 'order', role };
  const fee = ORDER_FEES.get(type) ?? ORDER_FEES.get(base);
  if (fee) return { class: 'order', role: 'fee', fee };
  const kind = SHOP_COSTS.get(type) ?? SHOP_COSTS.get(base);
  if (kind) return { class: 'shop_cost', kind };
  const why = PAYOUTS.get(type);
  if (why) return { class: 'payout', why };
  return { class: 'unclassified' };
}

/** `renew_sold`/`renew_sold_auto` (and their refunds): a listing fee charged for a sale. */
export function isSoldListingFee(ledgerType: string): boolean {
  const type = ledgerType
    .trim()
    .toLowerCase()
    .replace(/_refund$/, '');
  return type === 'renew_sold' || type === 'renew_sold_auto';
}

/**
 * What a payment-account ledger entry means for an order's profit (integrations.md §a.7), for
 * the entries linked to an order: a fee of some kind, or not a fee (the sale and refunds to the
 * buyer, whose revenue comes from the receipt; sales tax; payouts). VAT on a fee is a fee
 * (`vat_on_fees`); a shop-cost or undocumented type linked to an order is that order's fee
 * (`listing`, else `other`): whatever is linked to an order is never dropped from it.
 */
export type LedgerMeaning =
  | { readonly role: 'fee'; readonly fee: FeeKind }
  | {
      readonly role: 'not_a_fee';
      readonly why: 'sale' | 'refund_to_buyer' | 'sales_tax' | 'payout';
    };

export function ledgerMeaning(ledgerType: string): LedgerMeaning {
  const meaning = ledgerClass(ledgerType);
  switch (meaning.class) {
    case 'order':
      return meaning.role === 'fee' ? { role: 'fee', fee: meaning.fee } : { role: 'not_a_fee', why: meaning.role };
    case 'vat_on_fee':
      return { role: 'fee', fee: 'vat_on_fees' };
    case 'payout':
      return { role: 'not_a_fee', why: 'payout' };
    case 'shop_cost':
      // Linked to an order (rare: labels and ads reference no receipt), the order carries it.
      return { role: 'fee', fee: meaning.kind === 'listing' ? 'listing' : 'other' };
    case 'unclassified':
      return { role: 'fee', fee: 'other' };
  }
}
