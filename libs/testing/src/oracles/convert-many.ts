import { convertMoney, type Conversion, type CurrencyCode, type Money, type RateTable } from '@pod/domain';

export interface ConversionRequest {
  readonly amount: Money;
  readonly to: CurrencyCode;
  /** The order's calendar date (UTC), YYYY-MM-DD. */
  readonly date: string;
}

/** Many conversions against one table, results in request order: the tests' batch of convertMoney. */
export function convertMany(table: RateTable, requests: readonly ConversionRequest[]): Conversion[] {
  return requests.map((request) => convertMoney(table, request.amount, request.to, request.date));
}
