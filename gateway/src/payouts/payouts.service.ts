import { Injectable } from '@nestjs/common';
import type { PayoutsPageResponse } from '@pod/contracts';
import { PayoutsRepository } from '@pod/db';
import { payoutView, unpaidView } from './payout-view';

/** Reads a page of the user's deposits and what is not paid out yet (SQL reads each window by index) and reconciles each (domain). */
@Injectable()
export class PayoutsService {
  constructor(private readonly payouts: PayoutsRepository) {}

  async page(userId: string, page: number, pageSize: number): Promise<PayoutsPageResponse> {
    const { total, payouts } = await this.payouts.page(userId, pageSize, (page - 1) * pageSize);
    const unpaid = await this.payouts.unpaid(userId);
    return { unpaid: unpaid.map(unpaidView), payouts: payouts.map(payoutView), total, page, pageSize };
  }
}
