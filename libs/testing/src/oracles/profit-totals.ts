import {
  marginOf,
  MixedCurrencyError,
  money,
  type CostKind,
  type DisplayCurrencyCode,
  type Margin,
  type Money,
  type OrderProfit,
} from '@pod/domain';

/**
 * THE TEST ORACLE of the dashboard totals (production sums in SQL: OrderProfitsRepository),
 * kept out of libs/domain because nothing but tests uses it. Dashboard totals over per-order results in one display currency: integer sums of each
 * order's converted revenue, costs and profit, so the total profit is exactly the sum of the
 * orders' profits. A result in another display currency is an error (never a silent sum);
 * orders without a rate are counted apart and not summed; orders at provisional rates are
 * summed and counted.
 */
export interface ProfitTotals {
  readonly currency: DisplayCurrencyCode;
  /** Orders summed. */
  readonly orders: number;
  readonly revenue: Money;
  readonly totalCosts: Money;
  readonly netProfit: Money;
  readonly margin: Margin | null;
  /** Costs by kind (Printify's three, Etsy's fees), for the fee breakdown. */
  readonly costsByKind: Readonly<Partial<Record<CostKind, Money>>>;
  /** Orders left out because a rate was unavailable. */
  readonly rateUnavailableOrders: number;
  /** Orders summed at provisional rates (their ECB day is not loaded yet). */
  readonly provisionalOrders: number;
  readonly ordersWithEstimatedFees: number;
  readonly ordersWithoutFulfilmentCost: number;
}

export function sumOrderProfits(results: readonly OrderProfit[], currency: DisplayCurrencyCode): ProfitTotals {
  let orders = 0;
  let revenue = 0;
  let totalCosts = 0;
  let netProfit = 0;
  let rateUnavailableOrders = 0;
  let provisionalOrders = 0;
  let ordersWithEstimatedFees = 0;
  let ordersWithoutFulfilmentCost = 0;
  const byKind = new Map<CostKind, number>();
  for (const result of results) {
    if (result.displayCurrency !== currency) throw new MixedCurrencyError([currency, result.displayCurrency]);
    if (result.state === 'rate_unavailable') {
      rateUnavailableOrders += 1;
      continue;
    }
    orders += 1;
    revenue += result.display.revenue.amountMinor;
    totalCosts += result.display.totalCosts.amountMinor;
    netProfit += result.display.netProfit.amountMinor;
    if (result.provisional) provisionalOrders += 1;
    if (result.feesEstimated) ordersWithEstimatedFees += 1;
    if (!result.fulfilmentCostKnown) ordersWithoutFulfilmentCost += 1;
    for (const cost of result.display.costs)
      byKind.set(cost.kind, (byKind.get(cost.kind) ?? 0) + cost.display.amountMinor);
  }
  const revenueMoney = money(revenue, currency);
  const netProfitMoney = money(netProfit, currency);
  return {
    currency,
    orders,
    revenue: revenueMoney,
    totalCosts: money(totalCosts, currency),
    netProfit: netProfitMoney,
    margin: marginOf(netProfitMoney, revenueMoney),
    costsByKind: Object.fromEntries([...byKind].map(([kind, minor]) => [kind, money(minor, currency)])),
    rateUnavailableOrders,
    provisionalOrders,
    ordersWithEstimatedFees,
    ordersWithoutFulfilmentCost,
  };
}
