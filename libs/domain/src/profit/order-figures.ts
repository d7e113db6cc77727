import type { CurrencyCode, DisplayCurrencyCode } from '../currency';
import type { FeePart } from '../fees/estimate';
import type { FeeKind } from '../fees/fee-kinds';
import { money, type Money } from '../money';
import { convertForDisplay, isRateUnavailable, type ProfitConverter } from './converter';
import type { OrderProfit, PrintifyCostState, ProvisionalFigures } from './order-profit';
import type { EstimateReason } from './estimate-reasons';
import type { RevenueBreakdown } from './revenue';
import { addUpTo, revenueLineSign, type LineSign } from './summary-lines';

/**
 * What is stored for one order and display currency (order_profit): the three sums the lists
 * and the dashboard read, and the engine's breakdown for the Order Details dialog, in a plain
 * JSON shape (amounts as integer minor units with their currency). Nothing sums the breakdown:
 * the totals are the engine's, so the stored sums equal `sumOrderProfits` over the results.
 */
export interface StoredAmount {
  readonly minor: number;
  readonly currency: CurrencyCode;
}

export interface StoredFigureLine {
  /** `items`, `discount`, `shipping`, `gift_wrap`, `refunds`, `unpaid`, `vat_in_prices` for revenue; a cost kind for costs. */
  readonly kind: string;
  readonly source: 'receipt' | 'payment' | 'ledger' | 'printify' | 'estimate';
  readonly estimated: boolean;
  readonly original: StoredAmount;
  /**
   * Null when no rate converts it. Each line is converted on its own, then the largest line of
   * a list takes the rounding so the list adds up to its stored total (summary-lines.ts).
   */
  readonly display: StoredAmount | null;
  readonly rate: string | null;
  readonly rateDate: string | null;
  readonly note: string | null;
  /** Which part of a percentage-plus-fixed fee an estimate is (absent in rows stored before it was kept). */
  readonly part?: FeePart | null;
  /**
   * +1 adds to its total, −1 is taken off it (discount, refunds, unpaid, VAT in prices); amounts
   * are shown without a sign of their own. Absent in rows stored before v5: read by kind.
   */
  readonly sign?: LineSign;
  /** Why an estimated line is estimated (absent on recorded lines and in rows stored before v5). */
  readonly estimateReason?: EstimateReason | null;
}

export interface StoredOrderBreakdown {
  readonly orderDate: string;
  readonly revenueLines: readonly StoredFigureLine[];
  readonly costLines: readonly StoredFigureLine[];
  /** Sales tax + VAT Etsy collected (never revenue), in the shop currency and the display currency. */
  readonly taxExcluded: { readonly original: StoredAmount; readonly display: StoredAmount | null } | null;
  /** Revenue after refunds in the shop currency, and as converted (null without a receipt or a rate). */
  readonly revenueOriginal: StoredAmount | null;
  readonly margin: { readonly numerator: number; readonly denominator: number; readonly basisPoints: number } | null;
  readonly revenueKnown: boolean;
  readonly fulfilmentCostKnown: boolean;
  readonly feesNotEstimated: readonly FeeKind[];
  readonly printifyCanceledOrders: readonly string[];
  readonly unavailable: readonly { readonly currency: string; readonly reason: string }[];
  /** Set when the figures are provisional: the ECB day used and the one awaited (absent in rows stored before it was kept). */
  readonly provisional?: ProvisionalFigures | null;
  /** Where the Printify cost comes from (absent in rows stored before ADR 0031: `printify` or `none`). */
  readonly printifyCost?: PrintifyCostState;
}

/** `ok`: final figures; `provisional`: summed like `ok`, at the latest loaded rates until the order date's ECB day is loaded; `rate_unavailable`: no sums. */
export const STORED_FIGURES_STATES = ['ok', 'provisional', 'rate_unavailable'] as const;
export type StoredFiguresState = (typeof STORED_FIGURES_STATES)[number];

export interface StoredOrderFigures {
  readonly currency: DisplayCurrencyCode;
  readonly figures: StoredFiguresState;
  readonly revenueMinor: number | null;
  readonly costsMinor: number | null;
  readonly netProfitMinor: number | null;
  readonly hasEstimatedFees: boolean;
  /** `awaiting`: left out of the totals and counted apart; `estimated`: in them, marked (ADR 0031). */
  readonly printifyCost: PrintifyCostState;
  readonly breakdown: StoredOrderBreakdown;
}

const stored = (amount: Money): StoredAmount => ({ minor: amount.amountMinor, currency: amount.currency });

function displayed(convert: ProfitConverter, amount: Money, to: DisplayCurrencyCode, onDate: string) {
  const answer = convertForDisplay(convert, amount, to, onDate);
  if (isRateUnavailable(answer)) return { display: null, rate: null, rateDate: null };
  return { display: stored(answer.amount), rate: answer.rate, rateDate: answer.rateDate };
}

/** Why the line: the rate and the rule, so the seller can check it against their VAT return. */
function vatInPricesNote(revenue: RevenueBreakdown): string | null {
  const rate = revenue.vatInPricesRate;
  if (rate === null) return null;
  const percent = String(rate / 100);
  return `${percent}% VAT inside your price (price × ${percent} ÷ ${String(100 + rate / 100)}): you are VAT-registered and this domestic sale's VAT is yours to remit, Etsy collected none`;
}

/**
 * The lines with their display amounts moved so that Σ sign × display is the total: the
 * rounding of converting each line on its own goes to the largest line (summary-lines.ts).
 */
function addingUpTo(lines: readonly StoredFigureLine[], total: number): StoredFigureLine[] {
  const shown = lines.flatMap((line) => (line.display ? [{ sign: line.sign ?? 1, minor: line.display.minor }] : []));
  if (shown.length !== lines.length) return [...lines];
  const amounts = addUpTo(shown, total);
  return lines.map((line, index) =>
    line.display && amounts[index] !== line.display.minor
      ? { ...line, display: { ...line.display, minor: amounts[index] } }
      : line,
  );
}

/**
 * The stored figures of one engine result. `convert` is the converter the result was computed
 * with: revenue lines (items, discount, …) and the excluded tax are converted here for display,
 * each on its own; the lines of a computed result are then made to add up to its totals.
 */
export function storedOrderFigures(result: OrderProfit, convert: ProfitConverter): StoredOrderFigures {
  const to = result.displayCurrency;
  const date = result.orderDate;
  const revenueLines: StoredFigureLine[] = [];
  const revenue = result.revenue;
  if (revenue) {
    // Refunds made on another day convert at their own day's rate, one line each (ADR 0026).
    const laterRefunds = revenue.refundParts.some((part) => part.date !== date);
    const refunds: [string, Money, string, string | null][] = laterRefunds
      ? revenue.refundParts.map((part) => ['refunds', part.revenue, part.date, `refunded ${part.date}`])
      : [['refunds', revenue.refundedRevenue, date, null]];
    const parts: [string, Money, string, string | null][] = [
      ['items', revenue.items, date, null],
      ['discount', revenue.discount, date, null],
      ['shipping', revenue.shipping, date, null],
      ['gift_wrap', revenue.giftWrap, date, null],
      ...refunds,
      ['unpaid', revenue.unpaidRevenue, date, 'not paid yet: no revenue and no fee estimates until it is'],
      ['vat_in_prices', revenue.vatInPrices, date, vatInPricesNote(revenue)],
    ];
    for (const [kind, amount, onDate, note] of parts) {
      if (amount.amountMinor === 0 && kind !== 'items') continue;
      // The VAT in the price is figured at the standard rate: a reduced-rate item would owe less.
      const estimated = kind === 'vat_in_prices';
      revenueLines.push({
        kind,
        source: 'receipt',
        estimated,
        original: stored(amount),
        ...displayed(convert, amount, to, onDate),
        note,
        sign: revenueLineSign(kind),
        estimateReason: estimated ? 'standard_rate' : null,
      });
    }
  }
  const computed = result.state === 'computed' ? result : null;
  const costLines: StoredFigureLine[] = computed
    ? computed.display.costs.map((cost) => ({
        kind: cost.kind,
        source: cost.source,
        estimated: cost.estimated,
        original: stored(cost.original),
        display: stored(cost.display),
        rate: cost.rate,
        rateDate: cost.rateDate,
        note: cost.note,
        part: cost.part ?? null,
        sign: 1 as const,
        estimateReason: cost.estimateReason ?? null,
      }))
    : result.costs.map((cost) => ({
        kind: cost.kind,
        source: cost.source,
        estimated: cost.estimated,
        original: stored(cost.original),
        ...displayed(convert, cost.original, to, date),
        note: cost.note,
        part: cost.part ?? null,
        sign: 1 as const,
        estimateReason: cost.estimateReason ?? null,
      }));
  let taxExcluded: StoredOrderBreakdown['taxExcluded'] = null;
  if (revenue && revenue.salesTax.amountMinor + revenue.vat.amountMinor !== 0) {
    const tax = money(revenue.salesTax.amountMinor + revenue.vat.amountMinor, revenue.salesTax.currency);
    taxExcluded = { original: stored(tax), display: displayed(convert, tax, to, date).display };
  }
  const breakdown: StoredOrderBreakdown = {
    orderDate: date,
    revenueLines: computed ? addingUpTo(revenueLines, computed.display.revenue.amountMinor) : revenueLines,
    costLines: computed ? addingUpTo(costLines, computed.display.totalCosts.amountMinor) : costLines,
    taxExcluded,
    revenueOriginal: revenue ? stored(revenue.revenue) : null,
    margin: computed?.display.margin ?? null,
    revenueKnown: result.revenueKnown,
    fulfilmentCostKnown: result.fulfilmentCostKnown,
    feesNotEstimated: result.feesNotEstimated,
    printifyCanceledOrders: result.printifyCanceledOrders,
    unavailable: result.state === 'rate_unavailable' ? result.unavailable : [],
    provisional: computed?.provisional ?? null,
    printifyCost: result.printifyCost,
  };
  return {
    currency: to,
    figures: computed ? (computed.provisional ? 'provisional' : 'ok') : 'rate_unavailable',
    revenueMinor: computed ? computed.display.revenue.amountMinor : null,
    costsMinor: computed ? computed.display.totalCosts.amountMinor : null,
    netProfitMinor: computed ? computed.display.netProfit.amountMinor : null,
    hasEstimatedFees: result.feesEstimated,
    printifyCost: result.printifyCost,
    breakdown,
  };
}
