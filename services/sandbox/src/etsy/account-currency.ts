import type { Tenant } from '../data/tenant';
import { latestPublishedDay } from '../ecb/calendar';
import { ratesFor } from '../ecb/rates';

/** Etsy's currency-conversion fee on sale proceeds (integrations.md a.8; Etsy help 360000344668). */
const CONVERSION_FEE_RATE = 0.025;

/** Amounts of the listing currency as they reach the payment account. */
export interface AccountConverter {
  /** An amount (signed minor units) at `ts`, at the latest ECB fixing published by then (no fee). */
  convert(amount: number, ts: number): number;
  /** Sale proceeds as posted: converted, less the conversion fee when the currencies differ. */
  proceeds(amount: number, ts: number): number;
  /** Units of the account currency per unit of the listing currency at `ts` (1 when they agree). */
  rate(ts: number): number;
}

/** Rounds half away from zero, so a debit and the matching credit convert to the same size. */
function roundMinor(value: number): number {
  return Math.sign(value) * Math.round(Math.abs(value));
}

/**
 * A ledger in another currency than the listings (a UK seller listing in USD with a GBP account):
 * every entry at the rate of its moment from the sandbox's own ECB series (the latest fixing
 * published by then, about 15:00 UTC on each TARGET day: GBP per EUR ÷ USD per EUR), and the conversion fee taken off the sale proceeds
 * before they reach the account, as Etsy's help describes.
 */
export function accountConverter(tenant: Tenant): AccountConverter {
  const { currency, paymentCurrency } = tenant.shop;
  if (currency === paymentCurrency) return { convert: (amount) => amount, proceeds: (amount) => amount, rate: () => 1 };
  const rates = ratesFor(tenant.settings.rateSeed ?? tenant.settings.seed.split('/')[0]);
  const perEur = (code: string, day: number) => (code === 'EUR' ? 1 : rates.fixingOnOrBefore(code, day));
  const rate = (ts: number) => {
    const day = latestPublishedDay(ts * 1000);
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
