import { divideHalfEven } from '../exchange/decimal';
import { MixedCurrencyError, type Money } from '../money';

/**
 * Profit ÷ revenue kept exact as the fraction of the two integer amounts (minor units of one
 * currency), with basis points (1/100 of a percent) rounded half to even for sorting and
 * charts. Display rounds once, from the fraction (`formatMarginPercent`), never from a float.
 */
export interface Margin {
  /** Net profit in minor units (sign carries the margin's sign). */
  readonly numerator: number;
  /** Revenue in minor units, always positive. */
  readonly denominator: number;
  /** numerator × 10,000 ÷ denominator, half to even. */
  readonly basisPoints: number;
}

/** Null when there is no revenue to divide by (a Printify order without its receipt, a full refund). */
export function marginOf(profit: Money, revenue: Money): Margin | null {
  if (profit.currency !== revenue.currency) throw new MixedCurrencyError([profit.currency, revenue.currency]);
  if (revenue.amountMinor === 0) return null;
  const sign = revenue.amountMinor < 0 ? -1 : 1;
  const numerator = sign * profit.amountMinor;
  const denominator = sign * revenue.amountMinor;
  const basisPoints = Number(divideHalfEven(BigInt(numerator) * 10_000n, BigInt(denominator)));
  return { numerator: numerator === 0 ? 0 : numerator, denominator, basisPoints };
}

/** The margin in percent with `decimals` digits ("25.0", "-3.3"), rounded half to even from the exact fraction. */
export function formatMarginPercent(margin: Margin, decimals = 1): string {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 6) throw new RangeError('decimals must be 0–6');
  const scale = 10n ** BigInt(decimals);
  const scaled = divideHalfEven(BigInt(margin.numerator) * 100n * scale, BigInt(margin.denominator));
  const negative = scaled < 0n;
  const digits = (negative ? -scaled : scaled).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = decimals ? `.${digits.slice(-decimals)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

/** The margin in percent as a number with `decimals` digits (the API's `25.0` is 25), rounded from the exact fraction; null without one. */
export function marginPercentOf(margin: Margin | null, decimals = 1): number | null {
  return margin ? Number(formatMarginPercent(margin, decimals)) : null;
}
