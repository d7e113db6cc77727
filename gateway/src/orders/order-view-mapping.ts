import type {
  FigureSource,
  MoneyView,
  OrderDetailsResponse,
  OrderRowView,
  PrintifyOrderOnReceiptView,
  ProfitLineView,
  RateUsedView,
} from '@pod/contracts';
import type {
  OrderListFilter,
  OrderListSort,
  OrderViewRow,
  PrintifyOrderDetails,
  ReceiptDetails,
  RecordPrintifyOrder,
} from '@pod/db';
import {
  daysBefore,
  ESTIMATE_REASON_TEXT,
  estimateExplanation,
  FIGURE_LINE_LABELS,
  figureLineLabels,
  revenueLineSign,
  marginPercentOf,
  printifyCosts,
  type DisplayCurrencyCode,
  type StoredAmount,
  type StoredFigureLine,
  type StoredOrderBreakdown,
} from '@pod/domain';
import type { OrderFiltersQueryDto } from './dto/orders-query.dto';

/**
 * Stored rows to the API's shapes. No figure is computed here: amounts are the stored integers,
 * the margin is formatted from its stored exact fraction. Provisional figures are shown like
 * final ones, and say so.
 */
const moneyView = (minor: number | null, currency: string): MoneyView | null =>
  minor === null ? null : { minor, currency };
const amountView = (amount: StoredAmount | null): MoneyView | null =>
  amount ? { minor: amount.minor, currency: amount.currency } : null;
/** Figures with sums to show: final, or provisional at a stand-in ECB day's rates. */
const hasSums = (figures: OrderViewRow['figures'] | OrderRowView['figures']) =>
  figures === 'ok' || figures === 'provisional';

/** A status query ('all' or absent: no filter) as the order views' filter. */
export const statusFilter = (status: string | undefined) =>
  status && status !== 'all' ? (status as OrderListFilter['status']) : null;

/**
 * The Orders list's query as the views' filter; its CSV export reads the same one, so the file
 * holds what the page lists. Without a direction: newest first, largest first.
 */
export function orderListFilter(query: OrderFiltersQueryDto, now: Date): OrderListFilter & { sort: OrderListSort } {
  const search = query.search?.trim() ?? '';
  return {
    search: search === '' ? null : search,
    status: statusFilter(query.status),
    since: query.days ? daysBefore(now, Number(query.days)) : null,
    source: query.source ?? 'all',
    archived: query.view === 'archived',
    sort: { key: query.sort ?? 'date', direction: query.dir ?? 'desc' },
  };
}

export function orderRowView(row: OrderViewRow, currency: DisplayCurrencyCode): OrderRowView {
  const ok = hasSums(row.figures);
  // Without its Printify cost the order's cost and profit are not known: never a profit of revenue − fees (ADR 0031).
  const costKnown = ok && row.printifyCost !== 'awaiting';
  return {
    id: row.id,
    status: row.status,
    notNeededReason: row.notNeededReason,
    source: row.etsyReceiptId && row.printifyOrderId ? 'etsy_printify' : row.etsyReceiptId ? 'etsy' : 'printify',
    archived: row.archived,
    etsyReceiptId: row.etsyReceiptId,
    printifyOrderId: row.printifyOrderId,
    extraPrintifyOrders: row.attached.map((extra) => ({
      printifyOrderId: extra.printifyOrderId,
      reason: extra.reason,
    })),
    productTitle: row.productTitle,
    productSku: row.productSku,
    customerName: row.customerName,
    orderDate: row.orderDate ? row.orderDate.toISOString() : null,
    matchMethod: row.matchMethod,
    // Exact is 1, fuzzy its score; a manual pair has no confidence to show.
    matchConfidence:
      row.matchMethod === 'manual' || row.etsyReceiptId === null || row.printifyOrderId === null
        ? null
        : row.matchConfidence,
    figures: row.figures ?? 'not_computed',
    revenue: ok && row.etsyReceiptId ? moneyView(row.revenueMinor, currency) : null,
    cost: costKnown ? moneyView(row.costsMinor, currency) : null,
    profit: costKnown ? moneyView(row.netProfitMinor, currency) : null,
    profitMarginPercent: costKnown ? marginPercentOf(row.margin) : null,
    hasEstimatedFees: row.hasEstimatedFees,
    printifyCost: row.printifyCost,
    estimatedFees: ok ? estimatedFeeViews(row.estimatedFees) : [],
  };
}

/** The estimated lines' kinds as the summary labels them, with why; one per kind and reason, in label order. */
function estimatedFeeViews(fees: OrderViewRow['estimatedFees']): OrderRowView['estimatedFees'] {
  return fees
    .map((fee) => ({
      label: FIGURE_LINE_LABELS[fee.kind] ?? fee.kind,
      why: fee.reason ? ESTIMATE_REASON_TEXT[fee.reason] : 'Estimated from the fee schedule',
    }))
    .sort((a, b) => a.label.localeCompare(b.label) || a.why.localeCompare(b.why));
}

/** The lines of one list, each with a label no other line of it has (figureLineLabels). */
function lineViews(lines: readonly StoredFigureLine[], list: 'revenue' | 'costs'): ProfitLineView[] {
  const labels = figureLineLabels(lines);
  return lines.map((line, index) => ({
    kind: line.kind,
    label: labels[index],
    amount: amountView(line.display),
    original: { minor: line.original.minor, currency: line.original.currency },
    source: line.source as FigureSource,
    // Rows stored before lines kept their sign (v5) are being figured again: read it by kind meanwhile.
    sign: line.sign ?? (list === 'revenue' ? revenueLineSign(line.kind) : 1),
    estimated: line.estimated,
    estimateNote: line.estimated ? estimateExplanation(line.estimateReason, line.note) : null,
  }));
}

function ratesUsed(breakdown: StoredOrderBreakdown, currency: DisplayCurrencyCode): RateUsedView[] {
  const seen = new Map<string, RateUsedView>();
  for (const line of [...breakdown.revenueLines, ...breakdown.costLines]) {
    if (line.rate === null || line.rateDate === null || line.original.currency === currency) continue;
    const key = `${line.original.currency}>${currency}@${line.rateDate}`;
    if (!seen.has(key))
      seen.set(key, { from: line.original.currency, to: currency, rate: line.rate, date: line.rateDate });
  }
  return [...seen.values()];
}

export function profitView(
  row: OrderRowView,
  breakdown: StoredOrderBreakdown | null,
  currency: DisplayCurrencyCode,
): OrderDetailsResponse['profit'] {
  if (!breakdown || row.figures === 'not_computed') return null;
  const ok = hasSums(row.figures);
  return {
    figures: row.figures,
    revenueLines: lineViews(breakdown.revenueLines, 'revenue'),
    costLines: lineViews(breakdown.costLines, 'costs'),
    taxExcluded: breakdown.taxExcluded ? amountView(breakdown.taxExcluded.display) : null,
    totalRevenue: ok && breakdown.revenueKnown ? row.revenue : null,
    totalCosts: row.cost,
    netProfit: row.profit,
    marginPercent: ok && row.printifyCost !== 'awaiting' ? marginPercentOf(breakdown.margin) : null,
    ratesUsed: ratesUsed(breakdown, currency),
    provisional: row.figures === 'provisional' && breakdown.provisional ? { ...breakdown.provisional } : null,
  };
}

export function etsySideView(receipt: ReceiptDetails, row: OrderRowView): NonNullable<OrderDetailsResponse['etsy']> {
  return {
    receiptId: receipt.receiptId,
    customerName: receipt.customerName,
    orderDate: receipt.orderedAt.toISOString(),
    status: receipt.status,
    revenue: row.revenue,
    originalTotal: { minor: receipt.grandtotalMinor, currency: receipt.currency },
    lines: receipt.lines.map((line) => ({
      title: line.title,
      sku: line.sku,
      quantity: line.quantity,
      price: { minor: line.unitPriceMinor, currency: line.currency },
    })),
  };
}

/** Printify's three cost lines in the display currency come from the breakdown; the original total from the stored order. */
export function printifySideView(
  order: PrintifyOrderDetails,
  breakdown: StoredOrderBreakdown | null,
  row: OrderRowView,
): NonNullable<OrderDetailsResponse['printify']> {
  const ok = hasSums(row.figures) && breakdown !== null;
  const displayOf = (kind: string): MoneyView | null => {
    if (!ok) return null;
    const lines = breakdown.costLines.filter((line) => line.kind === kind);
    if (lines.length === 0 || lines.some((line) => line.display === null)) return null;
    return {
      minor: lines.reduce((sum, line) => sum + (line.display?.minor ?? 0), 0),
      currency: row.cost?.currency ?? '',
    };
  };
  const production = displayOf('printify_production');
  const shipping = displayOf('printify_shipping');
  const tax = displayOf('printify_tax');
  const originals = ok ? breakdown.costLines.filter((line) => line.kind.startsWith('printify_')) : [];
  const originalTotal =
    originals.length > 0
      ? originals.reduce((sum, line) => sum + line.original.minor, 0)
      : order.lineCostMinor + order.lineShippingMinor + order.taxMinor;
  return {
    orderId: order.orderId,
    externalId: order.externalId,
    status: order.status,
    productionCost: production,
    shippingCost: shipping,
    taxCost: tax,
    totalCost:
      production && shipping && tax
        ? { minor: production.minor + shipping.minor + tax.minor, currency: production.currency }
        : null,
    originalTotalCost: { minor: originalTotal, currency: order.currency },
    lines: order.lines,
  };
}

/** Each Printify order on the receipt with its own costs as the engine counts them (printifyCosts), in its currency. */
export function printifyOrdersView(
  orders: readonly RecordPrintifyOrder[],
  costReading: 'per_unit' | 'per_line',
): PrintifyOrderOnReceiptView[] {
  return orders.map(({ role, input, lines }) => {
    const [costs] = printifyCosts([input], costReading);
    const production = costs?.production.amountMinor ?? 0;
    const shipping = costs?.shipping.amountMinor ?? 0;
    const tax = costs?.tax.amountMinor ?? 0;
    const view = (minor: number) => ({ minor, currency: input.currency });
    return {
      orderId: input.orderId,
      role,
      status: input.status,
      orderDate: input.orderedAt.toISOString(),
      productionCost: view(production),
      shippingCost: view(shipping),
      taxCost: view(tax),
      totalCost: view(production + shipping + tax),
      lines,
    };
  });
}
