import type { OrderRowView } from '@pod/contracts';
import { EXPORT_COST_KINDS, type OrderExportRow } from '@pod/db';
import {
  FEE_KINDS,
  FIGURE_LINE_LABELS,
  formatMarginPercent,
  isCurrencyCode,
  minorUnitExponent,
  type DisplayCurrencyCode,
} from '@pod/domain';
import { orderRowView } from './order-view-mapping';

/**
 * One order as a CSV record (GET /api/orders/export). The figures are the Orders list's for
 * the same display currency (orderRowView decides what a row shows: no revenue for a lone
 * Printify order, no cost, profit or margin while the Printify cost is awaited, no sums without
 * a rate), and the parts of its stored breakdown, summed in SQL (OrderExportRepository), give
 * each fee by kind, the Printify costs, the originals and the rates.
 *
 * Cell types carry the format, never a float: a money cell is a JS integer of hundredths of its
 * currency (minor units, scaled for a 0-digit currency) that `castNumber` prints "12.34"; the
 * margin is a bigint of tenths of a percent that `castBigint` prints "-3.3". csv-stringify's
 * formula escaping leaves numbers and bigints alone, so a negative amount stays a number in a
 * spreadsheet, while any text starting with = + - @ tab or CR is prefixed with '.
 */

const PRINTIFY_KINDS = ['printify_production', 'printify_shipping', 'printify_tax'] as const;

export const ORDER_CSV_HEADERS = [
  'Order date',
  'Etsy receipt ID',
  'Printify order IDs',
  'Products',
  'SKUs',
  'Quantities',
  'Status',
  'Match method',
  'Etsy currency',
  'Revenue (Etsy currency)',
  'Printify currency',
  'Printify cost (Printify currency)',
  'Display currency',
  'Revenue',
  ...FEE_KINDS.map((kind) => FIGURE_LINE_LABELS[kind]),
  ...PRINTIFY_KINDS.map((kind) => FIGURE_LINE_LABELS[kind]),
  'Printify cost',
  'Total costs',
  'Profit',
  'Margin %',
  'Exchange rate currencies',
  'Exchange rate',
  'ECB rate date',
  'Figures',
  'Printify cost status',
  'Estimated fees',
];

type Cell = string | number | bigint | null;
const LIST_SEPARATOR = '; ';

/** Integer minor units of `currency` as hundredths (a 0-digit currency scaled), or exact text past two digits. */
function moneyCell(minor: number, currency: string): number | string {
  const exponent = isCurrencyCode(currency) ? minorUnitExponent(currency) : 2;
  if (exponent <= 2) return minor * 10 ** (2 - exponent);
  return plainDecimal(BigInt(minor), exponent);
}

/** An integer scaled by 10^digits as a plain decimal with a dot: (-1234n, 2) → "-12.34". */
function plainDecimal(scaled: bigint, digits: number): string {
  const negative = scaled < 0n;
  const text = (negative ? -scaled : scaled).toString().padStart(digits + 1, '0');
  const whole = text.slice(0, text.length - digits);
  return `${negative ? '-' : ''}${whole}${digits ? `.${text.slice(-digits)}` : ''}`;
}

/** csv-stringify's cast of number cells: integer hundredths → "12.34". */
export function castNumber(hundredths: number): string {
  if (!Number.isSafeInteger(hundredths)) throw new RangeError(`${hundredths} is not a whole number of minor units`);
  return plainDecimal(BigInt(hundredths), 2);
}

/** csv-stringify's cast of bigint cells: tenths of a percent → "-3.3". */
export const castBigint = (tenths: bigint): string => plainDecimal(tenths, 1);

const joined = (values: readonly (string | number | null)[]) => values.map((value) => value ?? '').join(LIST_SEPARATOR);
const money = (view: OrderRowView['revenue']) => (view ? view.minor : null);

export function orderCsvRecord(row: OrderExportRow, currency: DisplayCurrencyCode): Cell[] {
  const view = orderRowView(row, currency);
  const shown = view.figures === 'ok' || view.figures === 'provisional';
  const costKnown = view.cost !== null;
  // The stored parts of the row's current figures; sums only where the list shows sums.
  const parts = shown ? row.costParts : null;
  const byKind = (kind: string) => parts?.byKind[EXPORT_COST_KINDS.indexOf(kind as never)] ?? null;
  const original = costKnown ? (parts?.printifyOriginal ?? null) : null;
  const revenueOriginal = row.revenueOriginal;
  const marginText = costKnown && row.margin ? formatMarginPercent(row.margin, 1) : null;
  return [
    view.orderDate ? view.orderDate.slice(0, 10) : null,
    view.etsyReceiptId,
    joined([view.printifyOrderId, ...view.extraPrintifyOrders.map((extra) => extra.printifyOrderId)].filter(Boolean)),
    joined(row.lines.map((line) => line.title)),
    joined(row.lines.map((line) => line.sku)),
    joined(row.lines.map((line) => line.quantity)),
    view.status,
    view.matchMethod,
    revenueOriginal?.currency ?? null,
    revenueOriginal ? moneyCell(revenueOriginal.minor, revenueOriginal.currency) : null,
    original?.currency ?? null,
    original ? moneyCell(original.minor, original.currency) : null,
    currency,
    money(view.revenue),
    // A lone Printify order has no Etsy side to charge fees: blank, not zero.
    ...FEE_KINDS.map((kind) => (view.etsyReceiptId ? byKind(kind) : null)),
    ...PRINTIFY_KINDS.map((kind) => (costKnown ? byKind(kind) : null)),
    costKnown ? (parts?.printifyTotal ?? null) : null,
    money(view.cost),
    money(view.profit),
    marginText === null ? null : BigInt(marginText.replace('.', '')),
    joined(row.rates.map(([from]) => `${from}>${currency}`)),
    joined(row.rates.map(([, rate]) => rate)),
    joined(row.rates.map(([, , date]) => date)),
    view.figures,
    view.printifyCost,
    view.hasEstimatedFees ? 'yes' : 'no',
  ];
}
