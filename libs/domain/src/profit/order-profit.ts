import type { CurrencyCode, DisplayCurrencyCode } from '../currency';
import type { FeeKind } from '../fees/fee-kinds';
import { OFFSITE_ADS_CAP } from '../fees/fee-schedule';
import { money, MoneyError, sumMoney, toDecimalString, type Money } from '../money';
import type { CostComponent } from './components';
import {
  convertForDisplay,
  isRateUnavailable,
  orderDateUtc,
  type DisplayConversion,
  type ProfitConverterAnswer,
} from './converter';
import { recordedFees } from '../fees/recorded-fees';
import type { OrderProfitInput, ProfitSettings } from './inputs';
import { marginOf, type Margin } from './margin';
import { orderFeeEstimates } from '../fees/order-fee-estimates';
import { printifyCosts } from './printify-costs';
import { ESTIMATE_RECENT_LINES, type PrintifyCostEstimate } from './printify-estimate';
import { receiptRevenue, type RevenueBreakdown } from './revenue';
import { vatInPricesRate } from './vat-in-prices';

/** An order's figures in the currencies they arose in: what the Order Details dialog shows as "original". */
export interface OrderBreakdown {
  readonly displayCurrency: DisplayCurrencyCode;
  /** The order's date (UTC), at whose rate every amount is converted. */
  readonly orderDate: string;
  /** Null for a Printify order without its receipt. */
  readonly revenue: RevenueBreakdown | null;
  readonly costs: readonly CostComponent[];
  readonly revenueKnown: boolean;
  /** False for a receipt without its Printify order: the fulfilment cost is missing, not zero. */
  readonly fulfilmentCostKnown: boolean;
  /** Some Etsy fee is an estimate from the schedule (an estimated Printify cost is told by `printifyCost`). */
  readonly feesEstimated: boolean;
  /** Fee kinds that may apply but could be neither read nor estimated (they count as zero). */
  readonly feesNotEstimated: readonly FeeKind[];
  readonly printifyCanceledOrders: readonly string[];
  /**
   * Where the Printify cost comes from (ADR 0031): `printify` its order(s); `estimated` from the
   * same SKUs' recent Printify orders while the order is awaited; `awaiting` none yet and no
   * history, so the order is left out of the totals; `none` no Printify order is expected.
   */
  readonly printifyCost: PrintifyCostState;
}

export type PrintifyCostState = 'printify' | 'estimated' | 'awaiting' | 'none';

export interface DisplayCost extends CostComponent {
  readonly display: Money;
  readonly rate: string;
  readonly rateDate: string;
}

/**
 * Figures converted at the latest loaded ECB day's rates because the ECB day of the order's
 * date is not loaded yet (before about 16:00 CET, or while rate loading is late): counted in
 * totals, shown as provisional, recomputed to final figures once that day's rates arrive.
 */
export interface ProvisionalFigures {
  /** The ECB day whose rates were used (the latest loaded one). */
  readonly rateDate: string;
  /** The ECB day the order converts at once its rates are loaded. */
  readonly awaitingRateDate: string;
}

export interface ComputedOrderProfit extends OrderBreakdown {
  readonly state: 'computed';
  /** Null when every conversion used the rate of the order date's own ECB day (or none was needed). */
  readonly provisional: ProvisionalFigures | null;
  readonly revenueConversion: DisplayConversion | null;
  /** In the display currency: revenue, each cost converted on its own, and sums of those. */
  readonly display: {
    readonly revenue: Money;
    readonly costs: readonly DisplayCost[];
    readonly totalCosts: Money;
    readonly netProfit: Money;
    readonly margin: Margin | null;
  };
}

/** Some amount has no rate for the order's date: no display figures at all, never unconverted ones. */
export interface RateUnavailableOrderProfit extends OrderBreakdown {
  readonly state: 'rate_unavailable';
  readonly unavailable: readonly { readonly currency: CurrencyCode; readonly reason: string }[];
}

export type OrderProfit = ComputedOrderProfit | RateUnavailableOrderProfit;

function printifyComponents(
  input: OrderProfitInput,
  settings: ProfitSettings,
): { costs: CostComponent[]; canceled: string[] } {
  const costs: CostComponent[] = [];
  const canceled: string[] = [];
  const reading =
    settings.printifyCostReading === 'per_unit'
      ? 'Σ cost × quantity (cost read per unit)'
      : 'Σ cost (cost read per line)';
  for (const group of printifyCosts(input.printifyOrders, settings.printifyCostReading)) {
    canceled.push(...group.canceledOrders);
    costs.push(
      { kind: 'printify_production', source: 'printify', estimated: false, original: group.production, note: reading },
      {
        kind: 'printify_shipping',
        source: 'printify',
        estimated: false,
        original: group.shipping,
        note: 'Σ line shipping_cost',
      },
      { kind: 'printify_tax', source: 'printify', estimated: false, original: group.tax, note: 'total_tax' },
    );
  }
  return { costs, canceled };
}

/** The estimate's production and shipping lines, one pair per currency, marked estimated. */
function estimatedPrintifyComponents(estimate: PrintifyCostEstimate): CostComponent[] {
  if (estimate.state !== 'estimated') return [];
  const groups = new Map<CurrencyCode, { production: number; shipping: number; skus: string[] }>();
  for (const line of estimate.lines) {
    const group = groups.get(line.currency) ?? { production: 0, shipping: 0, skus: [] };
    groups.set(line.currency, group);
    group.production += line.unitCostMinor * line.quantity;
    group.shipping += line.shippingMinor;
    group.skus.push(`${line.sku} × ${String(line.quantity)}`);
  }
  const basis = `the latest ${String(ESTIMATE_RECENT_LINES)} Printify orders of the same SKU`;
  return [...groups.entries()].flatMap(([currency, group]) => [
    {
      kind: 'printify_production' as const,
      source: 'estimate' as const,
      estimated: true,
      original: money(group.production, currency),
      note: `estimated: median unit cost over ${basis} × quantity (${group.skus.join(', ')}); replaced by the Printify order's cost when it arrives`,
    },
    {
      kind: 'printify_shipping' as const,
      source: 'estimate' as const,
      estimated: true,
      original: money(group.shipping, currency),
      note: `estimated: median line shipping_cost over ${basis}`,
    },
  ]);
}

function printifyCostState(input: OrderProfitInput): PrintifyCostState {
  if (input.printifyOrders.length > 0) return 'printify';
  if (!input.receipt || !input.printifyPending) return 'none';
  // Not paid yet: nothing is earned, charged or sent to print until it is (no revenue and no fee
  // estimates either), so no estimated cost: it would show a loss on an order not yet paid for.
  if (input.receipt.isPaid === false) return 'awaiting';
  return input.printifyPending.state === 'estimated' ? 'estimated' : 'awaiting';
}

export function computeOrderProfit(input: OrderProfitInput, settings: ProfitSettings): OrderProfit {
  const { receipt } = input;
  const printifyDates = input.printifyOrders.map((order) => order.orderedAt.getTime());
  if (!receipt && printifyDates.length === 0) throw new MoneyError('an order needs a receipt or a Printify order');
  const orderDate = orderDateUtc(receipt ? receipt.orderedAt : new Date(Math.min(...printifyDates)));
  const unavailable = new Map<CurrencyCode, string>();
  // Every conversion of an order is at one date, so any provisional one stands for them all.
  let provisional: ProvisionalFigures | null = null;
  const noteProvisional = (answer: DisplayConversion) => {
    if (answer.provisional && !provisional)
      provisional = { rateDate: answer.rateDate, awaitingRateDate: answer.provisional.awaitingRateDate };
  };
  const convert = (amount: Money) => {
    const answer = convertForDisplay(settings.convert, amount, settings.displayCurrency, orderDate);
    if (!isRateUnavailable(answer)) noteProvisional(answer);
    return answer;
  };

  const printify = printifyComponents(input, settings);
  const printifyCost = printifyCostState(input);
  if (printifyCost === 'estimated' && input.printifyPending)
    printify.costs.push(...estimatedPrintifyComponents(input.printifyPending));
  const revenue = receipt ? receiptRevenue(receipt, vatInPricesRate(receipt, settings, orderDate)) : null;
  const recorded = recordedFees(input.payments, input.ledgerEntries);
  const costs: CostComponent[] = [...printify.costs, ...recorded.components.map((cost) => reclaimed(cost, settings))];
  const feesNotEstimated: FeeKind[] = [];

  if (receipt && revenue) {
    const estimates = orderFeeEstimates(receipt, revenue, recorded, input, settings, orderDate);
    costs.push(...estimates.components);
    feesNotEstimated.push(...estimates.notEstimated);
    if (estimates.capUnavailable) unavailable.set(OFFSITE_ADS_CAP.currency, estimates.capUnavailable.reason);
    if (estimates.capConversion) noteProvisional(estimates.capConversion);
  }

  const breakdown: OrderBreakdown = {
    displayCurrency: settings.displayCurrency,
    orderDate,
    revenue,
    costs,
    revenueKnown: revenue !== null,
    fulfilmentCostKnown: input.printifyOrders.length > 0,
    // Etsy's fees only: an estimated Printify cost is marked as such (printifyCost), not as estimated fees.
    feesEstimated: costs.some((cost) => cost.estimated && !cost.kind.startsWith('printify_')),
    feesNotEstimated,
    printifyCanceledOrders: printify.canceled,
    printifyCost,
  };

  let revenueConversion: DisplayConversion | null = null;
  if (revenue) {
    const answer = revenueInDisplay(revenue, orderDate, (amount, onDate) => {
      const conversion = convertForDisplay(settings.convert, amount, settings.displayCurrency, onDate);
      if (!isRateUnavailable(conversion)) noteProvisional(conversion);
      return conversion;
    });
    if (isRateUnavailable(answer)) unavailable.set(revenue.revenue.currency, answer.reason);
    else revenueConversion = answer;
  }
  const displayCosts: DisplayCost[] = [];
  for (const cost of costs) {
    const answer = convert(cost.original);
    if (isRateUnavailable(answer)) unavailable.set(cost.original.currency, answer.reason);
    else displayCosts.push({ ...cost, display: answer.amount, rate: answer.rate, rateDate: answer.rateDate });
  }
  if (unavailable.size > 0) {
    return {
      ...breakdown,
      state: 'rate_unavailable',
      unavailable: [...unavailable].map(([currency, reason]) => ({ currency, reason })),
    };
  }

  // Totals are sums of the converted components, so the breakdown adds up to the cent.
  const display = settings.displayCurrency;
  const revenueDisplay = revenueConversion ? revenueConversion.amount : money(0, display);
  const totalCosts = sumMoney(
    displayCosts.map((cost) => cost.display),
    display,
  );
  const netProfit = money(revenueDisplay.amountMinor - totalCosts.amountMinor, display);
  return {
    ...breakdown,
    state: 'computed',
    provisional,
    revenueConversion,
    display: {
      revenue: revenueDisplay,
      costs: displayCosts,
      totalCosts,
      netProfit,
      margin: marginOf(netProfit, revenueDisplay),
    },
  };
}

/**
 * A VAT-registered seller reclaims the VAT Etsy adds to its fees: the ledger's figure stays in
 * the breakdown, at zero, with what was reclaimed in its note.
 */
function reclaimed(cost: CostComponent, settings: ProfitSettings): CostComponent {
  if (!settings.vatRegistered || cost.kind !== 'vat_on_fees') return cost;
  return {
    ...cost,
    original: money(0, cost.original.currency),
    note: `${cost.note}; ${toDecimalString(cost.original)} ${cost.original.currency} reclaimed (VAT-registered): not a cost`,
  };
}

/**
 * Revenue in the display currency. Refunds made on another day than the order convert at their
 * own day's rate: the amount before refunds at the order's date, less the VAT in the price (if
 * any) at the order's date, less each refund's share at its date (each rounded on its own),
 * never below zero; nothing left after refunds is zero. Otherwise, the revenue after refunds converts once.
 */
function revenueInDisplay(
  revenue: RevenueBreakdown,
  orderDate: string,
  convert: (amount: Money, onDate: string) => ProfitConverterAnswer,
): ProfitConverterAnswer {
  const laterRefunds = revenue.refundParts.some((part) => part.date !== orderDate);
  // Nothing left (a full refund, a canceled order) is zero in every currency, whatever the rates did.
  if (!laterRefunds || revenue.unpaid || revenue.revenue.amountMinor === 0) return convert(revenue.revenue, orderDate);
  const before = convert(
    money(revenue.beforeRefunds.amountMinor - revenue.unpaidRevenue.amountMinor, revenue.revenue.currency),
    orderDate,
  );
  if (isRateUnavailable(before)) return before;
  // The VAT in the price is figured on what the refunds left, so it converts at the order's date.
  const vat = convert(revenue.vatInPrices, orderDate);
  if (isRateUnavailable(vat)) return vat;
  let minor: number = before.amount.amountMinor - vat.amount.amountMinor;
  for (const part of revenue.refundParts) {
    const refund = convert(part.revenue, part.date);
    if (isRateUnavailable(refund)) return refund;
    minor -= refund.amount.amountMinor;
  }
  // A refund of nearly all of it at a dearer rate must not make revenue negative.
  return { ...before, amount: money(Math.max(0, minor), before.amount.currency) };
}
