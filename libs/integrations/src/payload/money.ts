import { fromRatio, isCurrencyCode, MoneyError, parseCurrencyCode, type CurrencyCode, type Money } from '@pod/domain';
import { asRecord, child, fail, intFrom, type Ctx, type Rec } from './read';

function currencyFrom(value: unknown, at: Ctx): CurrencyCode {
  const code = typeof value === 'string' ? value.trim().toUpperCase() : '';
  if (!isCurrencyCode(code)) fail(at, 'is not a known ISO 4217 currency');
  return parseCurrencyCode(code);
}

export function reqCurrency(rec: Rec, key: string, ctx: Ctx): CurrencyCode {
  const value = rec[key];
  if (value === undefined || value === null || value === '') fail(child(ctx, key), 'is missing');
  return currencyFrom(value, child(ctx, key));
}

/**
 * Etsy's Money `{amount, divisor, currency_code}` as exact integer minor units of its
 * currency (amount / divisor, scaled by the currency's exponent). When the ratio does not land
 * on a whole minor unit it is rounded half to even and the field's path is added to `inexact`.
 */
export function reqEtsyMoney(
  rec: Rec,
  key: string,
  ctx: Ctx,
  inexact: string[],
  relabel: CurrencyRelabel | null = null,
): Money {
  const at = child(ctx, key);
  const value = rec[key];
  if (value === undefined || value === null) fail(at, 'is missing');
  const money = asRecord(value, at);
  for (const field of ['amount', 'divisor', 'currency_code']) {
    if (money[field] === undefined || money[field] === null) fail(child(at, field), 'is missing');
  }
  const amount = intFrom(money.amount, child(at, 'amount'));
  const divisor = intFrom(money.divisor, child(at, 'divisor'));
  if (divisor <= 0) fail(child(at, 'divisor'), 'is not positive');
  const labelled = currencyFrom(money.currency_code, child(at, 'currency_code'));
  const currency = relabel !== null && labelled === relabel.from ? relabel.to : labelled;
  try {
    const result = fromRatio(amount, divisor, currency);
    if (!result.exact) inexact.push(at.path);
    return result.money;
  } catch (error) {
    if (error instanceof MoneyError) fail(at, 'is out of range');
    throw error;
  }
}

export function optEtsyMoney(
  rec: Rec,
  key: string,
  ctx: Ctx,
  inexact: string[],
  relabel: CurrencyRelabel | null = null,
): Money | null {
  const value = rec[key];
  if (value === undefined || value === null) return null;
  return reqEtsyMoney(rec, key, ctx, inexact, relabel);
}

/** Money labelled `from` whose values are in `to` (a payment's buyer-currency label, issue #564). */
export interface CurrencyRelabel {
  readonly from: CurrencyCode;
  readonly to: CurrencyCode;
}

/** A currency code field as a known ISO 4217 code, or null when absent or unknown. */
export function optKnownCurrency(value: unknown): CurrencyCode | null {
  const code = typeof value === 'string' ? value.trim().toUpperCase() : '';
  return isCurrencyCode(code) ? parseCurrencyCode(code) : null;
}

/**
 * An integer count of 1/100 of `currency` (Printify's "cents") as that currency's minor
 * units: the same for USD, EUR, GBP; scaled for currencies whose exponent is not 2.
 */
export function centsToMoney(value: unknown, at: Ctx, currency: CurrencyCode, inexact: string[]): Money {
  const cents = intFrom(value, at);
  try {
    const result = fromRatio(cents, 100, currency);
    if (!result.exact) inexact.push(at.path);
    return result.money;
  } catch (error) {
    if (error instanceof MoneyError) fail(at, 'is out of range');
    throw error;
  }
}
