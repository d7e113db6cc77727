import type { Tenant } from '../data/tenant';
import { ratesFor } from '../ecb/rates';

const DAY = 86_400;
/** Etsy's currency-conversion fee on sale proceeds (integrations.md a.8; Etsy help 360000344668). */
export const CONVERSION_FEE_RATE = 0.025;

/** Amounts of the listing currency as they reach the payment account. */
export interface AccountConverter {
  /** An amount (signed minor units) on the day of `ts`, at that day's rate (no fee). */
  convert(amount: number, ts: number): number;
  /** Sale proceeds as posted: converted, less the conversion fee when the currencies differ. */
  proceeds(amount: number, ts: number): number;
  /** Units of the account currency per unit of the listing currency on the day of `ts` (1 when they agree). */
  rate(ts: number): number;
}

/** Rounds half away from zero, so a debit and the matching credit convert to the same size. */
function roundMinor(value: number): number {
  return Math.sign(value) * Math.round(Math.abs(value));
}

/**
 * A ledger in another currency than the listings (a UK seller listing in USD with a GBP account):
 * every entry at the rate of its day from the sandbox's own ECB series (the latest fixing at or
 * before it: GBP per EUR ÷ USD per EUR), and the conversion fee taken off the sale proceeds
 * before they reach the account, as Etsy's help describes.
 */
export function accountConverter(tenant: Tenant): AccountConverter {
  const { currency, paymentCurrency } = tenant.shop;
  if (currency === paymentCurrency) return { convert: (amount) => amount, proceeds: (amount) => amount, rate: () => 1 };
  const rates = ratesFor(tenant.settings.rateSeed ?? tenant.settings.seed.split('/')[0]);
  const perEur = (code: string, day: number) => (code === 'EUR' ? 1 : rates.fixingOnOrBefore(code, day));
  const rate = (ts: number) => {
    const day = Math.floor(ts / DAY);
    return perEur(paymentCurrency, day) / perEur(currency, day);
  };
  const convert = (amount: number, ts: number) => roundMinor(amount * rate(ts));
  return {
    convert,
    proceeds: (amount, ts) => {
      const converted = convert(amount, ts);
      return converted - roundMinor(converted * CONVERSION_FEE_RATE);
    },
    rate,
  };
}
