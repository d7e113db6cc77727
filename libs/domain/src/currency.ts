/**
 * ISO 4217 minor-unit exponents for the currencies Etsy shops sell in and the ECB publishes.
 * Never assume 2: JPY has 0, and the table is the one place that knows.
 */
export const CURRENCY_EXPONENTS = {
  AUD: 2, BGN: 2, BRL: 2, CAD: 2, CHF: 2, CNY: 2, CZK: 2, DKK: 2, EUR: 2, GBP: 2, HKD: 2, HUF: 2,
  IDR: 2, ILS: 2, INR: 2, ISK: 0, JPY: 0, KRW: 0, MXN: 2, MYR: 2, NOK: 2, NZD: 2, PHP: 2, PLN: 2,
  RON: 2, SEK: 2, SGD: 2, THB: 2, TRY: 2, USD: 2, VND: 0, ZAR: 2,
} as const;

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
