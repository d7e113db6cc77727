import type { CurrencyCode } from '../currency';
import { MoneyError } from '../money';
import type { ProfitSettings } from './inputs';

/**
 * An estimated Printify cost for a receipt still waiting for its Printify order (issue 18,
 * docs/adr/0031-pending-orders-cost.md). "Same product" is the SKU: Etsy's `transactions[].sku`
 * ↔ Printify's `line_items[].metadata.sku` (integrations.md §a.5, §b.4; Printify pushes its
 * variant SKUs to the Etsy listing). Etsy's `listing_id`/`product_id` have no counterpart in a
 * Printify order, so they cannot say which Printify variant was sold.
 *
 * "Recent": the latest ESTIMATE_RECENT_LINES Printify lines of that SKU (newest order first),
 * in the currency of the newest one. A receipt line's estimate is the median unit production
 * cost × its quantity, plus the median line shipping cost. Tax is not estimated (Printify's
 * `total_tax` depends on the destination). Every line of the receipt needs a SKU with history:
 * otherwise there is no estimate, and the order is left out of the totals until its Printify
 * order arrives.
 */

/** One line of a past, not canceled Printify order (printify_order_line + its order's date and currency). */
export interface PrintifySkuHistoryLine {
  readonly sku: string;
  readonly orderId: string;
  readonly orderedAt: Date;
  readonly currency: CurrencyCode;
  readonly quantity: number;
  readonly costMinor: number;
  readonly shippingMinor: number;
}

/** A line of the waiting receipt: its `sku` (null or blank when the seller set none) and quantity. */
export interface PendingReceiptLine {
  readonly sku: string | null;
  readonly quantity: number;
}

/** How many of a SKU's latest Printify lines the estimate reads. */
export const ESTIMATE_RECENT_LINES = 5;

export interface PrintifyLineEstimate {
  readonly sku: string;
  readonly quantity: number;
  readonly currency: CurrencyCode;
  /** The median unit production cost of the lines read. */
  readonly unitCostMinor: number;
  /** The median line shipping cost of the lines read. */
  readonly shippingMinor: number;
  /** How many past lines the medians are over. */
  readonly linesRead: number;
}

/**
 * `estimated`: every line has one. `no_history`: some line has no SKU or no past Printify line of
 * it (the SKUs without history, and how many lines have no SKU at all).
 */
export type PrintifyCostEstimate =
  | { readonly state: 'estimated'; readonly lines: readonly PrintifyLineEstimate[] }
  | { readonly state: 'no_history'; readonly skusWithoutHistory: readonly string[]; readonly linesWithoutSku: number };

/** The median of integers; of an even count, the mean of the middle two rounded half up (whole minor units). */
export function medianMinor(values: readonly number[]): number {
  if (values.length === 0) throw new MoneyError('the median of no amounts');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length % 2 === 1) return sorted[middle];
  return Math.floor((sorted[middle - 1] + sorted[middle] + 1) / 2);
}

/** A line's production cost per unit under the account's reading (per line: ÷ quantity, rounded half up). */
function unitCost(line: PrintifySkuHistoryLine, reading: ProfitSettings['printifyCostReading']): number {
  if (!Number.isSafeInteger(line.costMinor) || !Number.isSafeInteger(line.quantity) || line.quantity < 1)
    throw new MoneyError(`Printify order ${line.orderId}: cost or quantity is not a whole number`);
  if (reading === 'per_unit') return line.costMinor;
  return Math.floor((2 * line.costMinor + line.quantity) / (2 * line.quantity));
}

const normalSku = (sku: string | null) => (sku ?? '').trim();

export function estimatePrintifyCost(
  receiptLines: readonly PendingReceiptLine[],
  history: readonly PrintifySkuHistoryLine[],
  reading: ProfitSettings['printifyCostReading'],
): PrintifyCostEstimate {
  const bySku = new Map<string, PrintifySkuHistoryLine[]>();
  for (const line of history) {
    const sku = normalSku(line.sku);
    if (sku === '') continue;
    bySku.set(sku, [...(bySku.get(sku) ?? []), line]);
  }
  const estimates: PrintifyLineEstimate[] = [];
  const withoutHistory: string[] = [];
  let linesWithoutSku = 0;
  for (const receiptLine of receiptLines) {
    const sku = normalSku(receiptLine.sku);
    if (sku === '') {
      linesWithoutSku += 1;
      continue;
    }
    const past = [...(bySku.get(sku) ?? [])].sort(
      (a, b) => b.orderedAt.getTime() - a.orderedAt.getTime() || (a.orderId < b.orderId ? 1 : -1),
    );
    if (past.length === 0) {
      if (!withoutHistory.includes(sku)) withoutHistory.push(sku);
      continue;
    }
    const currency = past[0].currency;
    const recent = past.filter((line) => line.currency === currency).slice(0, ESTIMATE_RECENT_LINES);
    estimates.push({
      sku,
      quantity: receiptLine.quantity,
      currency,
      unitCostMinor: medianMinor(recent.map((line) => unitCost(line, reading))),
      shippingMinor: medianMinor(recent.map((line) => line.shippingMinor)),
      linesRead: recent.length,
    });
  }
  if (withoutHistory.length > 0 || linesWithoutSku > 0 || estimates.length === 0)
    return { state: 'no_history', skusWithoutHistory: withoutHistory, linesWithoutSku };
  return { state: 'estimated', lines: estimates };
}
