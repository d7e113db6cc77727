import { HttpStatus, Injectable } from '@nestjs/common';
import type { ExchangeRateResponse } from '@pod/contracts';
import { FxRatesRepository } from '@pod/db';
import {
  addDaysToIsoDate,
  EXCHANGE_LOOKBACK_DAYS,
  FIRST_SUPPORTED_DATE,
  isSupportedIsoDate,
  LAST_SUPPORTED_DATE,
  parseCurrencyCode,
  RateTable,
  UnknownCurrencyError,
  type CurrencyCode,
} from '@pod/domain';
import { ApiException } from '../http/api-exception';

// Bounded so that the look-back window and the SQL stay within four-digit years.
const DATE_MESSAGE = `The date must be a calendar date from ${FIRST_SUPPORTED_DATE} to ${LAST_SUPPORTED_DATE}, written YYYY-MM-DD.`;
/** Cross rates between two currencies for a date, from the fx_rate table the fx-rate worker fills. */
@Injectable()
export class ExchangeRateService {
  constructor(private readonly rates: FxRatesRepository) {}

  async rateFor(date: string, fromText: string, toText: string): Promise<ExchangeRateResponse> {
    if (!isSupportedIsoDate(date))
      throw new ApiException(HttpStatus.BAD_REQUEST, 'validation_failed', DATE_MESSAGE, { field: 'date' });
    const from = currency(fromText, 'from');
    const to = currency(toText, 'to');
    // The look-back window before the date, and a few days after it: a stored day after the
    // date shows the table is not merely behind (RateTable's "not loaded yet" rule).
    const rows = await this.rates.ratesBetween(
      addDaysToIsoDate(date, -EXCHANGE_LOOKBACK_DAYS),
      addDaysToIsoDate(date, EXCHANGE_LOOKBACK_DAYS),
      [from, to],
    );
    const found = RateTable.fromRows(rows).crossRate(date, from, to);
    if (found.unavailable) {
      const hint = found.reason === 'rate_not_loaded' ? ' Try again later.' : '';
      throw new ApiException(
        HttpStatus.NOT_FOUND,
        'rate_unavailable',
        `No exchange rate from ${from} to ${to} for ${date}: ${found.message}.${hint}`,
      );
    }
    return { rate: found.rate, date: found.rateDate };
  }
}

function currency(text: string, field: 'from' | 'to'): CurrencyCode {
  try {
    return parseCurrencyCode(text);
  } catch (error) {
    if (!(error instanceof UnknownCurrencyError)) throw error;
    throw new ApiException(
      HttpStatus.BAD_REQUEST,
      'validation_failed',
      `"${text.slice(0, 10)}" is not an ISO 4217 currency code (such as USD, EUR or GBP).`,
      { field },
    );
  }
}
