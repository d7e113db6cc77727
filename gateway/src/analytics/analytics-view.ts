import type { AnalyticsBucket, AnalyticsCostLine, AnalyticsPoint, AnalyticsTotals } from '@pod/contracts';
import { bucketStartOf, type AnalyticsSeriesRow, type DashboardSums } from '@pod/db';
import {
  FIGURE_LINE_LABELS,
  addDaysToIsoDate,
  isoDateOf,
  marginOf,
  marginPercentOf,
  money,
  type DisplayCurrencyCode,
} from '@pod/domain';
import type { ShopCostFigures } from '../dashboard/dashboard-view';

/** 7 and 30 days by day, 90 by week, 365 by month: a few dozen points at most. */
export function bucketOf(days: number): AnalyticsBucket {
  if (days <= 30) return 'day';
  return days <= 90 ? 'week' : 'month';
}

export const marginPercent = (profitMinor: number, revenueMinor: number, currency: DisplayCurrencyCode) =>
  marginPercentOf(marginOf(money(profitMinor, currency), money(revenueMinor, currency)));

export function totalsOf(sums: DashboardSums, shop: ShopCostFigures, currency: DisplayCurrencyCode): AnalyticsTotals {
  return {
    revenue: { minor: sums.revenueMinor, currency },
    costs: { minor: sums.costsMinor, currency },
    netProfit: { minor: sums.netProfitMinor, currency },
    margin: marginPercent(sums.netProfitMinor, sums.revenueMinor, currency),
    profitAfterShopCosts: shop.profitAfterShopCosts,
    orders: sums.summed,
  };
}

/**
 * Every bucket from `since`'s day to `now`'s (empty ones as zero, so a chart's gaps read as
 * days without orders), with the rows' sums; a row dated after `now` (an order dated ahead)
 * gets its own bucket so the series still adds up to the totals.
 */
export function seriesOf(
  rows: readonly AnalyticsSeriesRow[],
  since: Date,
  now: Date,
  bucket: AnalyticsBucket,
  currency: DisplayCurrencyCode,
): AnalyticsPoint[] {
  const byStart = new Map(rows.map((row) => [row.start, row]));
  const starts = new Set<string>();
  const last = isoDateOf(now);
  // Bucket by bucket, not day by day: a year of days was 4% of the gateway's CPU under load.
  for (let start = bucketStartOf(isoDateOf(since), bucket); start <= last; start = nextBucketStart(start, bucket))
    starts.add(start);
  for (const row of rows) starts.add(row.start);
  return [...starts].sort().map((start) => {
    const row = byStart.get(start);
    const revenue = row?.revenueMinor ?? 0;
    const profit = row?.netProfitMinor ?? 0;
    return {
      start,
      revenue: { minor: revenue, currency },
      costs: { minor: row?.costsMinor ?? 0, currency },
      netProfit: { minor: profit, currency },
      margin: marginPercent(profit, revenue, currency),
    };
  });
}

/** The first day of the bucket after the one starting on `start` (a bucket's first day). */
export function nextBucketStart(start: string, bucket: AnalyticsBucket): string {
  if (bucket === 'day') return addDaysToIsoDate(start, 1);
  if (bucket === 'week') return addDaysToIsoDate(start, 7);
  const [year, month] = start.split('-').map(Number);
  return isoDateOf(new Date(Date.UTC(year, month, 1)));
}

const PRINTIFY_KINDS = new Set(['printify_production', 'printify_shipping', 'printify_tax']);

/** Where the money goes: the orders' cost lines by kind (Printify's, then Etsy's fees), then the shop costs. */
export function costLinesOf(
  costsByKind: readonly { kind: string; costMinor: number }[],
  shop: ShopCostFigures,
  currency: DisplayCurrencyCode,
): AnalyticsCostLine[] {
  const orderLines = costsByKind
    .filter((line) => line.costMinor !== 0)
    .map((line): AnalyticsCostLine => ({
      kind: line.kind,
      label: FIGURE_LINE_LABELS[line.kind] ?? line.kind,
      group: PRINTIFY_KINDS.has(line.kind) ? 'printify' : 'etsy_fees',
      cost: { minor: line.costMinor, currency },
    }))
    .sort((a, b) => (a.group === b.group ? b.cost.minor - a.cost.minor : a.group === 'printify' ? -1 : 1));
  const shopLines = [...shop.otherEtsyCosts.byKind, ...shop.otherPrintifyCosts.byKind]
    .filter((line) => line.cost.minor !== 0)
    .map((line): AnalyticsCostLine => ({
      kind: `shop:${line.kind}`,
      label: line.label,
      group: 'shop_costs',
      cost: { minor: line.cost.minor, currency },
    }));
  return [...orderLines, ...shopLines];
}
