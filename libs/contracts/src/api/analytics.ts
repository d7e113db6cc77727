import type { DisplayCurrencyCode } from '@pod/domain';
import type { MoneyView } from './orders';

/** How the Analytics page's series are bucketed: by UTC day (7 and 30 days), week (90) or month (365). */
export type AnalyticsBucket = 'day' | 'week' | 'month';

/** The headline figures of one period: the Dashboard's order totals and its profit after shop costs. */
export interface AnalyticsTotals {
  revenue: MoneyView;
  costs: MoneyView;
  netProfit: MoneyView;
  /** Net profit ÷ revenue in percent (one decimal), null without revenue. */
  margin: number | null;
  profitAfterShopCosts: MoneyView;
  /** Orders whose figures are summed. */
  orders: number;
}

/** One bucket of the series (orders' figures; its bucket starts on `start`, a UTC 'YYYY-MM-DD'). */
export interface AnalyticsPoint {
  start: string;
  revenue: MoneyView;
  costs: MoneyView;
  netProfit: MoneyView;
  margin: number | null;
}

/** One line of "where the money goes" (an order cost kind, or a shop cost). */
export interface AnalyticsCostLine {
  kind: string;
  label: string;
  group: 'printify' | 'etsy_fees' | 'shop_costs';
  cost: MoneyView;
}

export interface AnalyticsProductProfit {
  /** The order's product title; null for orders without one. */
  product: string | null;
  orders: number;
  revenue: MoneyView;
  netProfit: MoneyView;
}

/** GET /api/analytics: the Dashboard's range and currency, its totals and how they are made up. */
export interface AnalyticsResponse {
  currency: DisplayCurrencyCode;
  days: number;
  bucket: AnalyticsBucket;
  /** Equal to GET /api/dashboard/metrics for the same days and currency. */
  current: AnalyticsTotals;
  /** The `days` before the current range. */
  previous: AnalyticsTotals;
  series: AnalyticsPoint[];
  costs: AnalyticsCostLine[];
  /** Best ten and worst ten products by net profit (fewer when the shop has fewer). */
  bestProducts: AnalyticsProductProfit[];
  worstProducts: AnalyticsProductProfit[];
  statusShare: { matched: number; pending: number; unmatched: number };
  hasOrders: boolean;
}
