/**
 * The kinds of Etsy fee an order's profit is charged (product spec part 2, point 4). `other`
 * holds what the ledger links to an order but fits no named kind (shipping labels bought on
 * Etsy, Etsy Ads, credits, ledger types nobody has documented), so nothing linked is dropped.
 */
export const FEE_KINDS = [
  'transaction',
  'processing',
  'listing',
  'offsite_ads',
  'regulatory',
  'currency_conversion',
  'vat_on_fees',
  'other',
] as const;

export type FeeKind = (typeof FEE_KINDS)[number];

/** Where a fee figure comes from: Etsy's payment record, its ledger, or our estimate (§a.8). */
export type FeeSource = 'payment' | 'ledger' | 'estimate';
