import { Injectable } from '@nestjs/common';
import type { DashboardMetricsResponse } from '@pod/contracts';
import { OrderViewsRepository } from '@pod/db';
import {
  DEFAULT_REPORT_WINDOW_DAYS,
  daysBefore,
  marginOf,
  marginPercentOf,
  money,
  type DisplayCurrencyCode,
} from '@pod/domain';
import { shopCostFigures } from './dashboard-view';
import type { DashboardQueryDto } from './dto/dashboard-query.dto';

/** The Dashboard's totals, summed in SQL from the stored figures (archived orders' figures included, counts of active ones). */
@Injectable()
export class DashboardService {
  constructor(private readonly views: OrderViewsRepository) {}

  async dashboard(
    userId: string,
    currency: DisplayCurrencyCode,
    query: DashboardQueryDto,
    now = new Date(),
  ): Promise<DashboardMetricsResponse> {
    const days = Number(query.days ?? DEFAULT_REPORT_WINDOW_DAYS);
    const sums = await this.views.dashboard(userId, currency, daysBefore(now, days));
    const margin = marginOf(money(sums.netProfitMinor, currency), money(sums.revenueMinor, currency));
    return {
      currency,
      days,
      totalRevenue: { minor: sums.revenueMinor, currency },
      totalCosts: { minor: sums.costsMinor, currency },
      netProfit: { minor: sums.netProfitMinor, currency },
      profitMargin: marginPercentOf(margin),
      matchedOrders: sums.matched,
      unmatchedOrders: sums.unmatched,
      pendingOrders: sums.pending,
      ordersWithoutRate: sums.withoutRate,
      ordersProvisional: sums.provisional,
      ordersNotComputed: sums.notComputed,
      ordersAwaitingPrintifyCost: sums.awaitingPrintify,
      ordersEstimatedPrintifyCost: sums.estimatedPrintify,
      hasOrders: sums.hasOrders,
      ...shopCostFigures(sums, currency),
    };
  }
}
