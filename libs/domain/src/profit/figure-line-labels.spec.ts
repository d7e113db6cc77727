import { estimateFees } from '../fees/estimate';
import { money } from '../money';
import { figureLineLabels } from './figure-line-labels';
import type { StoredFigureLine } from './order-figures';

/** The Profit Summary's labels: no two lines of one summary read the same. */
const line = (
  kind: string,
  minor: number,
  currency: string,
  extra: Partial<StoredFigureLine> = {},
): StoredFigureLine => ({
  kind,
  source: 'estimate',
  estimated: true,
  original: { minor, currency: currency as StoredFigureLine['original']['currency'] },
  display: null,
  rate: null,
  rateDate: null,
  note: null,
  ...extra,
});

function processingLabels(bankCountry: string) {
  const { estimates } = estimateFees(new Set(['processing']), {
    revenue: money(4600, 'EUR'),
    buyerPaid: money(5520, 'EUR'),
    wasPaid: true,
    units: 1,
    bankCountry,
    accountCurrency: null,
    offsiteAds: null,
  });
  return figureLineLabels(
    estimates.map((fee) => line(fee.kind, fee.amount.amountMinor, fee.amount.currency, { part: fee.part ?? null })),
  );
}

describe('figureLineLabels', () => {
  it("names the estimated processing fee's percentage and fixed part with the bank country's schedule (§a.8)", () => {
    expect(processingLabels('US')).toEqual([
      'Payment processing fee (3% of order total)',
      'Payment processing fee (fixed $0.25)',
    ]);
    expect(processingLabels('GB')).toEqual([
      'Payment processing fee (4% of order total)',
      'Payment processing fee (fixed £0.20)',
    ]);
    expect(processingLabels('FR')).toEqual([
      'Payment processing fee (4% of order total)',
      'Payment processing fee (fixed €0.30)',
    ]);
    expect(processingLabels('SG')).toEqual([
      'Payment processing fee (4.4% of order total)',
      'Payment processing fee (fixed SGD\u00a00.35)',
    ]);
  });

  it('keeps plain labels for kinds that appear once, and names the currency of a kind charged in several', () => {
    const lines = [
      line('printify_production', 1500, 'USD', { source: 'printify', estimated: false }),
      line('transaction', 260, 'EUR', { source: 'ledger', estimated: false, note: 'ledger: transaction' }),
      line('transaction', 40, 'USD', { source: 'ledger', estimated: false, note: 'ledger: shipping_transaction' }),
      line('other', 300, 'USD', { source: 'ledger', estimated: false, note: 'ledger: prolist, shipping_labels' }),
    ];
    expect(figureLineLabels(lines)).toEqual([
      'Printify production',
      'Transaction fee (charged in EUR)',
      'Transaction fee (charged in USD)',
      'Other Etsy charges',
    ]);
  });

  it("tells apart rows stored before parts were kept by the engine's note", () => {
    const old = [
      line('processing', 111, 'USD', { note: '3% of what the buyer paid' }),
      line('processing', 25, 'USD', { note: 'fixed fee per order' }),
    ];
    expect(figureLineLabels(old)).toEqual([
      'Payment processing fee (3% of what the buyer paid)',
      'Payment processing fee (fixed fee per order)',
    ]);
  });

  it('tells a charged line from an estimated one of the same kind without naming ledger types', () => {
    const lines = [
      line('vat_on_fees', 52, 'GBP', { source: 'ledger', estimated: false, note: 'ledger: vat_seller_services' }),
      line('vat_on_fees', 13, 'GBP', { note: '20% GB VAT on the estimated fees' }),
    ];
    expect(figureLineLabels(lines)).toEqual([
      'VAT on fees (charged, from the Etsy ledger)',
      'VAT on fees (20% GB VAT on the estimated fees)',
    ]);
  });
});
