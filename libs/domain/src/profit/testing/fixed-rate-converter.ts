import { minorUnitExponent, type CurrencyCode } from '../../currency';
import { divideHalfEven } from '../../exchange/decimal';
import { money } from '../../money';
import type { ProfitConverter } from '../converter';

/**
 * A test double of the ECB converter: fixed decimal rates per pair ("EUR>GBP": "0.85"),
 * amounts multiplied exactly and rounded once, half to even, to the target's minor unit. A
 * pair not in the table answers "unavailable", as the real one does for a currency the ECB
 * does not publish. Every call is recorded.
 */
export function fixedRateConverter(rates: Readonly<Record<string, string>>): ProfitConverter & { calls: string[] } {
  const calls: string[] = [];
  const convert = (amount: Parameters<ProfitConverter>[0], to: CurrencyCode, onDate: string) => {
    calls.push(`${amount.currency}>${to}@${onDate}`);
    const rate = rates[`${amount.currency}>${to}`];
    if (rate === undefined)
      return { unavailable: true as const, reason: `no ECB rate for ${amount.currency} in ${to} on ${onDate}` };
    const [whole, fraction = ''] = rate.split('.');
    const rateScaled = BigInt(`${whole}${fraction}`);
    const shift = minorUnitExponent(to) - minorUnitExponent(amount.currency) - fraction.length;
    const numerator = BigInt(amount.amountMinor) * rateScaled * (shift > 0 ? 10n ** BigInt(shift) : 1n);
    const denominator = shift < 0 ? 10n ** BigInt(-shift) : 1n;
    return { amount: money(Number(divideHalfEven(numerator, denominator)), to), rate, rateDate: onDate };
  };
  return Object.assign(convert, { calls });
}
