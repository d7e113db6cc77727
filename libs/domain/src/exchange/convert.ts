import { minorUnitExponent, type CurrencyCode } from '../currency';
import { money, type Money } from '../money';
import { divideHalfEven } from './decimal';
import type { ProvisionalRate, RateLookupOptions, RateTable, RateUnavailable } from './rate-table';

/** A converted amount with the exact rate and the ECB day it came from (engineering guideline 5). */
export interface ConvertedMoney {
  readonly unavailable: false;
  readonly amount: Money;
  /** Units of the target currency for one unit of the source, as a decimal string (see CrossRate.rate). */
  readonly rate: string;
  readonly rateDate: string;
  readonly fromPerEur: string;
  readonly toPerEur: string;
  /** Present only for a provisional rate (asked with `allowProvisional`, see RateTable.rateDateFor). */
  readonly provisional?: ProvisionalRate;
}

/** A conversion is the converted amount, or why there is none: never the unconverted number. */
export type Conversion = ConvertedMoney | RateUnavailable;

/**
 * `amount` in `to` at the ECB rates of `date` (the latest ECB day on or before it), crossed
 * through EUR with exact integers and rounded once, half to even, to `to`'s minor unit. With
 * `allowProvisional`, a date whose ECB day is not loaded yet converts at the latest loaded day's
 * rates, marked `provisional`.
 */
export function convertMoney(
  table: RateTable,
  amount: Money,
  to: CurrencyCode,
  date: string,
  options: RateLookupOptions = {},
): Conversion {
  const rate = table.crossRate(date, amount.currency, to, options);
  if (rate.unavailable) return rate;
  const fromScale = 10n ** BigInt(minorUnitExponent(amount.currency));
  const toScale = 10n ** BigInt(minorUnitExponent(to));
  // minor_to = minor_from / 10^e_from × (num / den) × 10^e_to
  const converted = divideHalfEven(BigInt(amount.amountMinor) * rate.ratio.num * toScale, fromScale * rate.ratio.den);
  const conversion: ConvertedMoney = {
    unavailable: false,
    amount: money(Number(converted), to),
    rate: rate.rate,
    rateDate: rate.rateDate,
    fromPerEur: rate.fromPerEur,
    toPerEur: rate.toPerEur,
  };
  return rate.provisional ? { ...conversion, provisional: rate.provisional } : conversion;
}
