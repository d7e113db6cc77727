import { Injectable } from '@nestjs/common';
import type { PayoutsPageResponse } from '@pod/contracts';
import { FxRatesRepository, PayoutsRepository, type PayoutRow } from '@pod/db';
import {
  convertForDisplay,
  type DisplayCurrencyCode,
  EXCHANGE_LOOKBACK_DAYS,
  isRateUnavailable,
  money,
  orderDateUtc,
  RateTable,
  rateTableConverter,
} from '@pod/domain';
import { payoutView, unpaidView } from './payout-view';

/** Reads a page of the user's deposits and what is not paid out yet (SQL reads each window by index) and reconciles each (domain). */
@Injectable()
export class PayoutsService {
  constructor(
    private readonly payouts: PayoutsRepository,
    private readonly rates: FxRatesRepository,
  ) {}

  async page(
    userId: string,
    page: number,
    pageSize: number,
    displayCurrency: DisplayCurrencyCode | null,
  ): Promise<PayoutsPageResponse> {
    const { total, payouts } = await this.payouts.page(userId, pageSize, (page - 1) * pageSize);
    const unpaid = await this.payouts.unpaid(userId);
    const inDisplay = await this.displayAmounts(payouts, displayCurrency);
    return {
      unpaid: unpaid.map(unpaidView),
      payouts: payouts.map((row, index) => ({ ...payoutView(row), displayAmount: inDisplay[index] })),
      total,
      page,
      pageSize,
    };
  }

  /** Each deposit's paid amount in the display currency at its date's rate, as order figures convert (provisional allowed). */
  private async displayAmounts(payouts: readonly PayoutRow[], to: DisplayCurrencyCode | null) {
    const foreign = payouts.filter((row) => to !== null && row.currency !== to);
    if (to === null || foreign.length === 0) return payouts.map(() => null);
    const days = foreign.map((row) => orderDateUtc(new Date(row.createdAt))).sort();
    const from = new Date(`${days[0]}T00:00:00Z`);
    from.setUTCDate(from.getUTCDate() - EXCHANGE_LOOKBACK_DAYS);
    const convert = rateTableConverter(
      RateTable.fromRows(await this.rates.ratesBetween(from.toISOString().slice(0, 10), days[days.length - 1])),
    );
    return payouts.map((row) => {
      if (row.currency === to) return null;
      const day = orderDateUtc(new Date(row.createdAt));
      const answer = convertForDisplay(convert, money(-row.amountMinor, row.currency), to, day);
      if (isRateUnavailable(answer)) return null;
      return {
        amount: { minor: answer.amount.amountMinor, currency: to },
        provisional: answer.provisional !== undefined,
      };
    });
  }
}
