import { isCurrencyCode, minorUnitExponent } from './currency';

/**
 * Display symbols of the product spec's table (§9). A currency outside it shows its ISO code,
 * so an amount is never shown with a symbol that could be read as another currency's.
 */
export const CURRENCY_SYMBOLS: Readonly<Record<string, string>> = {
  USD: '$',
  EUR: '€',
  GBP: '£',
  CAD: 'C$',
  AUD: 'A$',
  JPY: '¥',
  CHF: 'CHF',
  SEK: 'kr',
  NOK: 'kr',
  DKK: 'kr',
};

/** Fraction digits every amount shows (spec §9: en-US, exactly two). */
const SHOWN_DIGITS = 2;

/** The currency's symbol, followed by a no-break space when it is letters ("CHF 12.00", "kr 5.00"). */
export function currencyPrefix(currency: string): string {
  const symbol = CURRENCY_SYMBOLS[currency] ?? currency;
  return /[A-Za-z]$/.test(symbol) ? `${symbol}\u00a0` : symbol;
}

/**
 * Formats integer minor units for people: en-US grouping, the currency's symbol, exactly two
 * fraction digits ("$1,234.56", "-€0.05", "¥1,200.00"). Works on the digits, never on a float,
 * so any safe-integer amount prints exactly. A currency the exponent table does not know is
 * taken to have two minor digits (every unknown ISO currency Etsy sells in does).
 */
export function formatMinorUnits(minor: number, currency: string): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`${minor} is not a whole number of minor units`);
  const exponent = isCurrencyCode(currency) ? minorUnitExponent(currency) : 2;
  const digits = String(Math.abs(minor)).padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent);
  // Exponents are 0 or 2 (the table): padding to two digits adds zeros, never drops any.
  const fraction = digits.slice(digits.length - exponent).padEnd(SHOWN_DIGITS, '0');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${minor < 0 ? '-' : ''}${currencyPrefix(currency)}${grouped}.${fraction}`;
}
