import { Injectable } from '@nestjs/common';
import type { MatchingPageResponse } from '@pod/contracts';
import { OrderViewsRepository } from '@pod/db';
import type { DisplayCurrencyCode } from '@pod/domain';
import { orderRowView, statusFilter } from '../orders/order-view-mapping';
import type { MatchingQueryDto } from './dto/matching-query.dto';

const MATCHING_PAGE_SIZE = 15;

/** The Order Matching page's read: one month of orders, a page and the total from SQL. */
@Injectable()
export class MatchingPageService {
  constructor(private readonly views: OrderViewsRepository) {}

  async matchingPage(
    userId: string,
    currency: DisplayCurrencyCode,
    query: MatchingQueryDto,
    now = new Date(),
  ): Promise<MatchingPageResponse> {
    const month = query.month ?? now.toISOString().slice(0, 7);
    const [year, monthIndex] = month.split('-').map(Number);
    const from = new Date(Date.UTC(year, monthIndex - 1, 1));
    const to = new Date(Date.UTC(year, monthIndex, 1));
    const page = Number(query.page ?? 1);
    const { rows, total } = await this.views.matchingPage(
      userId,
      currency,
      { from, to, status: statusFilter(query.status) },
      MATCHING_PAGE_SIZE,
      (page - 1) * MATCHING_PAGE_SIZE,
    );
    return {
      orders: rows.map((row) => orderRowView(row, currency)),
      total,
      page,
      pageSize: MATCHING_PAGE_SIZE,
      pageCount: Math.max(1, Math.ceil(total / MATCHING_PAGE_SIZE)),
      month,
      currency,
    };
  }
}
