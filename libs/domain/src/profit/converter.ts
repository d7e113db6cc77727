import type { CurrencyCode } from '../currency';
import { money, MoneyError, type Money } from '../money';

/**
 * The rate source the engine is given (the fx-rate worker's ECB rates in production, a
 * fixed-rate double in tests): `amount` in `to` at the rate for `onDate` (YYYY-MM-DD), with
 * the exact decimal rate and the date of the rate actually used (marked provisional when it
 * stands in for a day not loaded yet), or why there is none.
 */
export type ProfitConverter = (amount: Money, to: CurrencyCode, onDate: string) => ProfitConverterAnswer;

export type ProfitConverterAnswer = DisplayConversion | DisplayRateUnavailable;

export interface DisplayConversion {
  readonly amount: Money;
  readonly rate: string;
  readonly rateDate: string;
  /**
   * Present when the ECB day of the order's date is not loaded yet and `rateDate` (the latest
   * loaded day) stands in for it: the figure is provisional until `awaitingRateDate`'s rates come.
   */
  readonly provisional?: { readonly awaitingRateDate: string };
}

export interface DisplayRateUnavailable {
  readonly unavailable: true;
  readonly reason: string;
}

export function isRateUnavailable(answer: ProfitConverterAnswer): answer is DisplayRateUnavailable {
  return 'unavailable' in answer && answer.unavailable;
}

/**
 * Converts through the converter, except that an amount already in `to` is kept as it is
 * (rate "1" on the order's date), so a USD order shown in USD needs no rate at all. A
 * converter that answers in another currency or with a non-integer amount is a bug, not a
 * missing rate: it throws.
 */
export function convertForDisplay(
  convert: ProfitConverter,
  amount: Money,
  to: CurrencyCode,
  onDate: string,
): ProfitConverterAnswer {
  if (amount.currency === to) return { amount, rate: '1', rateDate: onDate };
  const answer = convert(amount, to, onDate);
  if (isRateUnavailable(answer)) return answer;
  if (answer.amount.currency !== to) {
    throw new MoneyError(`the converter answered in ${answer.amount.currency}, not ${to}`);
  }
  return { ...answer, amount: money(answer.amount.amountMinor, to) };
}

/** The calendar date (UTC) of an instant, as the converter takes it (integrations.md §c.3). */
export function orderDateUtc(at: Date): string {
  if (Number.isNaN(at.getTime())) throw new MoneyError('the order has no valid date');
  return at.toISOString().slice(0, 10);
}
