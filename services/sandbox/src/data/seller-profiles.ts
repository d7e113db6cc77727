import type { ShopCurrency } from './catalog';

/**
 * Named sellers a test or the demo can ask for (`profile` on tenant creation); explicit fields
 * of the request win over the profile's.
 * - `us-seller`: the default, a US shop listing in USD with a USD payment account.
 * - `uk-usd-listing`: a UK seller listing in USD with a GBP payment account: receipts in USD, the
 *   ledger in GBP (converted at the sandbox's ECB rate of each entry's day) and the 2.5 %
 *   currency-conversion fee on every sale.
 * - `uk-vat-registered`: a UK seller listing in GBP, VAT-registered: its prices include 20 % VAT,
 *   and Etsy still charges VAT on its fees.
 */
export const SELLER_PROFILES = {
  'us-seller': { shopCurrency: 'USD' },
  'uk-usd-listing': { shopCurrency: 'USD', paymentCurrency: 'GBP' },
  'uk-vat-registered': { shopCurrency: 'GBP', vatRegistered: true },
} as const satisfies Record<
  string,
  { shopCurrency: ShopCurrency; paymentCurrency?: ShopCurrency; vatRegistered?: boolean }
>;

export type SellerProfileName = keyof typeof SELLER_PROFILES;
export const SELLER_PROFILE_NAMES = Object.keys(SELLER_PROFILES) as SellerProfileName[];
