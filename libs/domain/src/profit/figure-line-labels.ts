import { formatMinorUnits } from '../money-format';
import type { CostKind } from './components';
import type { StoredFigureLine } from './order-figures';

/** Labels of the Profit Summary's lines, by kind. */
export const FIGURE_LINE_LABELS: Readonly<Record<string, string>> = {
  items: 'Items',
  discount: 'Discount',
  shipping: 'Shipping',
  gift_wrap: 'Gift wrap',
  refunds: 'Refunds',
  unpaid: 'Not paid yet',
  vat_in_prices: 'VAT in your prices (you remit it)',
  printify_production: 'Printify production',
  printify_shipping: 'Printify shipping',
  printify_tax: 'Printify tax',
  transaction: 'Transaction fee',
  processing: 'Payment processing fee',
  listing: 'Listing fee',
  offsite_ads: 'Offsite Ads fee',
  regulatory: 'Regulatory operating fee',
  currency_conversion: 'Currency conversion fee',
  vat_on_fees: 'VAT on fees',
  other: 'Other Etsy charges',
} satisfies Record<
  CostKind | 'items' | 'discount' | 'shipping' | 'gift_wrap' | 'refunds' | 'unpaid' | 'vat_in_prices',
  string
>;

type LabelledLine = Pick<StoredFigureLine, 'kind' | 'original' | 'note' | 'part'>;

/**
 * A line's note as a seller reads it: a ledger line's note lists Etsy's ledger types
 * ("ledger: vat_seller_services"), which say nothing to a seller; that it was charged, does.
 */
const readableNote = (note: string) => (note.startsWith('ledger:') ? 'charged, from the Etsy ledger' : note);

/** 300 basis points → "3", 440 → "4.4". */
const percentOf = (basisPoints: number) => String(basisPoints / 100);

/**
 * The label of each line, in order, so no two lines of one summary read the same: an estimate
 * of one part of a percentage-plus-fixed fee names its part ("Payment processing fee (3% of
 * order total)", "Payment processing fee (fixed $0.25)"); lines of one kind charged in several
 * currencies (ledger entries, Printify orders) name their currency; anything still alike (rows
 * stored before parts were kept) shows the engine's note.
 */
export function figureLineLabels(lines: readonly LabelledLine[]): string[] {
  const labels = lines.map((line) => {
    const base = FIGURE_LINE_LABELS[line.kind] ?? line.kind;
    if (line.part?.part === 'percentage') return `${base} (${percentOf(line.part.basisPoints)}% of order total)`;
    if (line.part?.part === 'fixed')
      return `${base} (fixed ${formatMinorUnits(line.original.minor, line.original.currency)})`;
    return base;
  });
  const countOf = (list: readonly string[], label: string) => list.filter((other) => other === label).length;
  const byCurrency = labels.map((label, index) => {
    if (countOf(labels, label) === 1) return label;
    const currencies = new Set(
      lines.filter((_, other) => labels[other] === label).map((line) => line.original.currency),
    );
    return currencies.size > 1 ? `${label} (charged in ${lines[index].original.currency})` : label;
  });
  return byCurrency.map((label, index) => {
    const note = lines[index].note;
    return countOf(byCurrency, label) > 1 && note ? `${label} (${readableNote(note)})` : label;
  });
}
