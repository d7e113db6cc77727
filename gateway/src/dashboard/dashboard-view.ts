import type { DashboardMetricsResponse, OtherCostsView } from '@pod/contracts';
import type { DashboardSums } from '@pod/db';
import { PRINTIFY_ONLY_KIND_LABELS, SHOP_COST_KIND_LABELS, type DisplayCurrencyCode } from '@pod/domain';

/** The Dashboard's figures beyond the orders' sums (ADR 0027), each with where it comes from. */
export type ShopCostFigures = Pick<
  DashboardMetricsResponse,
  'netProfitSource' | 'otherEtsyCosts' | 'otherPrintifyCosts' | 'profitAfterShopCosts' | 'profitAfterShopCostsSource'
>;

export function shopCostFigures(sums: DashboardSums, currency: DisplayCurrencyCode): ShopCostFigures {
  const money = (minor: number) => ({ minor, currency });
  const etsyKinds = sums.shopCosts.filter((cost) => cost.costMinor !== 0 || cost.entries > 0);
  const otherEtsyCosts: OtherCostsView = {
    total: money(etsyKinds.reduce((total, cost) => total + cost.costMinor, 0)),
    byKind: etsyKinds.map((cost) => ({
      kind: cost.kind,
      label: SHOP_COST_KIND_LABELS[cost.kind] ?? cost.kind,
      cost: money(cost.costMinor),
      entries: cost.entries,
    })),
    withoutRate: etsyKinds.reduce((total, cost) => total + cost.withoutRate, 0),
    provisional: etsyKinds.reduce((total, cost) => total + cost.provisional, 0),
    source:
      'Etsy ledger entries no order carries, each converted at its own date’s ECB rate (whole days of the range).',
  };
  const printifyKinds = (Object.keys(PRINTIFY_ONLY_KIND_LABELS) as (keyof typeof PRINTIFY_ONLY_KIND_LABELS)[])
    .map((kind) => ({
      kind,
      label: PRINTIFY_ONLY_KIND_LABELS[kind],
      cost: money(sums.printifyOnly[kind]),
      entries: null,
    }))
    .filter((kind) => kind.cost.minor !== 0);
  const otherPrintifyCosts: OtherCostsView = {
    total: money(sums.printifyOnly.sample + sums.printifyOnly.manual + sums.printifyOnly.unattached),
    byKind: printifyKinds,
    withoutRate: 0,
    provisional: 0,
    source: 'Printify orders with no Etsy receipt (samples, manual orders, orders attached to none), at their cost.',
  };
  return {
    netProfitSource:
      'Orders with an Etsy receipt, archived ones too: revenue − Printify cost (estimated while its order is awaited) − Etsy fees (ledger, else estimated).',
    otherEtsyCosts,
    otherPrintifyCosts,
    profitAfterShopCosts: money(sums.netProfitMinor - otherEtsyCosts.total.minor - otherPrintifyCosts.total.minor),
    profitAfterShopCostsSource: 'Net profit from orders − other Etsy costs − other Printify costs.',
  };
}
