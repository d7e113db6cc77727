import type { ShopCostKind } from '../fees/ledger-types';
import type { PayoutLine } from './payouts';

/** What the seller reads for each kind of shop cost (Dashboard, "Other Etsy costs"). */
export const SHOP_COST_KIND_LABELS: Readonly<Record<ShopCostKind, string>> = {
  etsy_ads: 'Etsy Ads',
  listing: 'Listing fees (new, renewed, expired)',
  subscription: 'Subscriptions (Etsy Plus)',
  shipping_labels: 'Shipping labels',
  credits: 'Credits from Etsy',
  onboarding: 'Shop set-up fee',
  deposit_fee: 'Deposit fees',
  vat: 'VAT on Etsy fees',
  unclassified: 'Unclassified',
};

/** The kinds of Printify-only cost (Dashboard, "Other Printify costs"), by `order_type`. */
export const PRINTIFY_ONLY_KIND_LABELS = {
  sample: 'Samples',
  manual: 'Manual orders',
  unattached: 'Orders attached to no Etsy receipt',
} as const;

export const PAYOUT_LINE_LABELS: Readonly<Record<PayoutLine, string>> = {
  sales: 'Sales',
  fees: 'Order fees',
  refunds: 'Refunds',
  shop_costs: 'Shop costs',
  taxes: 'Taxes',
  transfers: 'Transfers and bills paid',
  other: 'Other (unclassified)',
};
