import { Injectable } from '@nestjs/common';
import type { AnalyticsProductProfit, AnalyticsResponse } from '@pod/contracts';
import { AnalyticsRepository, dashboardSumsOf, type AnalyticsProductRow } from '@pod/db';
import { DEFAULT_REPORT_WINDOW_DAYS, daysBefore, type DisplayCurrencyCode } from '@pod/domain';
import { shopCostFigures } from '../dashboard/dashboard-view';
import type { AnalyticsQueryDto } from './analytics-query.dto';
import { bucketOf, costLinesOf, seriesOf, totalsOf } from './analytics-view';

/**
 * The Analytics page (docs/adr/0038-analytics.md): the Dashboard's totals read by the
 * Dashboard's own read (so they are equal to the cent), the same days before them, and how
 * they are made up — by bucket, by cost kind, by product — each summed in SQL.
 */
@Injectable()
export class AnalyticsService {
  constructor(private readonly analytics: AnalyticsRepository) {}

  async figures(
    userId: string,
    currency: DisplayCurrencyCode,
    query: AnalyticsQueryDto,
    now = new Date(),
  ): Promise<AnalyticsResponse> {
    const days = Number(query.days ?? DEFAULT_REPORT_WINDOW_DAYS);
    const since = daysBefore(now, days);
    const bucket = bucketOf(days);
    // One statement, one snapshot: the headline, the previous period, the series and the
    // breakdowns are of the same state (AnalyticsRepository.page).
    const page = await this.analytics.page(userId, currency, { since, previousSince: daysBefore(since, days), bucket });
    const current = dashboardSumsOf(page.current);
    const previous = dashboardSumsOf(page.previous);
    const { series: rows, composition } = page;
    const currentShop = shopCostFigures(current, currency);
    const product = (row: AnalyticsProductRow): AnalyticsProductProfit => ({
      product: row.product,
      orders: row.orders,
      revenue: { minor: row.revenueMinor, currency },
      netProfit: { minor: row.netProfitMinor, currency },
    });
    return {
      currency,
      days,
      bucket,
      current: totalsOf(current, currentShop, currency),
      previous: totalsOf(previous, shopCostFigures(previous, currency), currency),
      series: seriesOf(rows, since, now, bucket, currency),
      costs: costLinesOf(composition.costsByKind, currentShop, currency),
      bestProducts: composition.best.map(product),
      worstProducts: composition.worst.map(product),
      statusShare: { matched: current.matched, pending: current.pending, unmatched: current.unmatched },
      hasOrders: current.hasOrders,
    };
  }
}
