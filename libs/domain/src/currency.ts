import { ISO_4217_EXPONENTS } from './iso4217';

/**
 * ISO 4217 minor-unit exponents of every active currency (generated from the ISO list, see
 * iso4217.ts), so any currency Etsy reports — MAD, TWD, KWD — has its exponent. Never assume
 * 2: JPY has 0, KWD 3, and this table is the one place that knows.
 */
export const CURRENCY_EXPONENTS = ISO_4217_EXPONENTS;

export type CurrencyCode = keyof typeof CURRENCY_EXPONENTS;

/** The display currencies a seller can choose. */
export const DISPLAY_CURRENCY_CODES = ['USD', 'EUR', 'GBP'] as const satisfies readonly CurrencyCode[];
export type DisplayCurrencyCode = (typeof DISPLAY_CURRENCY_CODES)[number];

export class UnknownCurrencyError extends Error {
  constructor(readonly code: string) {
    super(`Unknown currency code "${code}"`);
    this.name = 'UnknownCurrencyError';
  }
}

export function isCurrencyCode(value: unknown): value is CurrencyCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(CURRENCY_EXPONENTS, value);
}

/** Accepts any letter case ("usd"), as providers are not consistent. */
export function parseCurrencyCode(value: unknown): CurrencyCode {
  const code = typeof value === 'string' ? value.trim().toUpperCase() : '';
  if (!isCurrencyCode(code)) throw new UnknownCurrencyError(String(value));
  return code;
}

export function minorUnitExponent(currency: CurrencyCode): number {
  return CURRENCY_EXPONENTS[currency];
}
