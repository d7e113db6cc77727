import { minorUnitExponent, type CurrencyCode } from './currency';

/** An amount in integer minor units (cents, pence; yen for JPY). Never a float. */
export type MinorUnits = number & { readonly __minorUnits: unique symbol };

export interface Money {
  readonly amountMinor: MinorUnits;
  readonly currency: CurrencyCode;
}

export class MoneyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MoneyError';
  }
}

export class MixedCurrencyError extends MoneyError {
  constructor(readonly currencies: CurrencyCode[]) {
    super(`Cannot combine amounts in ${currencies.join(' and ')}`);
    this.name = 'MixedCurrencyError';
  }
}

/** Checks that a number can be a minor-unit amount: a safe integer (so -0, NaN, 1.5 and 2^53 are refused). */
export function minorUnits(value: number): MinorUnits {
  if (!Number.isSafeInteger(value)) throw new MoneyError(`${value} is not a whole number of minor units`);
  return (Object.is(value, -0) ? 0 : value) as MinorUnits;
}

export function money(amountMinor: number, currency: CurrencyCode): Money {
  return { amountMinor: minorUnits(amountMinor), currency };
}

/**
 * Parses a decimal string ("12.50", "-3", "0.1") into minor units exactly, refusing more
 * fraction digits than the currency has instead of rounding them away.
 */
export function parseDecimal(text: string, currency: CurrencyCode): Money {
  const match = /^\s*(-)?(\d+)(?:\.(\d+))?\s*$/.exec(text);
  if (!match) throw new MoneyError(`"${text}" is not a decimal amount`);
  const [, sign, whole, fraction = ''] = match;
  const exponent = minorUnitExponent(currency);
  const significant = fraction.replace(/0+$/, '');
  if (significant.length > exponent) throw new MoneyError(`"${text}" has more decimals than ${currency} allows`);
  const digits = `${whole}${fraction.padEnd(exponent, '0').slice(0, exponent)}`;
  const value = Number(digits);
  return money(sign ? -value : value, currency);
}

/**
 * An amount given as a ratio (Etsy's {amount, divisor}) in minor units. Exact when the ratio
 * lands on a whole minor unit; otherwise rounded half to even, and `exact` says so.
 */
export function fromRatio(amount: number, divisor: number, currency: CurrencyCode): { money: Money; exact: boolean } {
  if (!Number.isSafeInteger(amount) || !Number.isSafeInteger(divisor) || divisor <= 0) {
    throw new MoneyError(`invalid ratio ${amount}/${divisor}`);
  }
  const scale = 10n ** BigInt(minorUnitExponent(currency));
  const numerator = BigInt(amount) * scale;
  const quotient = numerator / BigInt(divisor);
  const remainder = numerator % BigInt(divisor);
  if (remainder === 0n) return { money: money(Number(quotient), currency), exact: true };
  const twice = (remainder < 0n ? -remainder : remainder) * 2n;
  const away = remainder < 0n ? -1n : 1n;
  let rounded = quotient;
  if (twice > BigInt(divisor) || (twice === BigInt(divisor) && quotient % 2n !== 0n)) rounded += away;
  return { money: money(Number(rounded), currency), exact: false };
}

/** Sums amounts of one currency; mixing currencies is an error, never a silent total. */
export function sumMoney(amounts: readonly Money[], currency: CurrencyCode): Money {
  let total = 0;
  for (const item of amounts) {
    if (item.currency !== currency) throw new MixedCurrencyError([currency, item.currency]);
    total += item.amountMinor;
  }
  return money(total, currency);
}

export function subtractMoney(a: Money, b: Money): Money {
  if (a.currency !== b.currency) throw new MixedCurrencyError([a.currency, b.currency]);
  return money(a.amountMinor - b.amountMinor, a.currency);
}

/** The amount as a decimal string with the currency's digits ("12.50", "-0.05", "1200" for JPY). */
export function toDecimalString(value: Money): string {
  const exponent = minorUnitExponent(value.currency);
  const negative = value.amountMinor < 0;
  const digits = String(Math.abs(value.amountMinor)).padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent);
  const fraction = exponent ? `.${digits.slice(-exponent)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}
