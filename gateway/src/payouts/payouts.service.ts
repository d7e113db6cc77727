import { Injectable } from '@nestjs/common';
import type { PayoutsPageResponse } from '@pod/contracts';
import { PayoutsRepository } from '@pod/db';
import { payoutView } from './payout-view';

/** Reads a page of the user's deposits (SQL walks the ledger) and reconciles each (domain). */
@Injectable()
export class PayoutsService {
  constructor(private readonly payouts: PayoutsRepository) {}

  async page(userId: string, page: number, pageSize: number): Promise<PayoutsPageResponse> {
    const { total, payouts } = await this.payouts.page(userId, pageSize, (page - 1) * pageSize);
    return { payouts: payouts.map(payoutView), total, page, pageSize };
  }
}
