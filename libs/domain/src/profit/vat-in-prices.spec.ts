import { standardVatRate } from '../fees/standard-vat-rates';
import { computeOrderProfit } from './order-profit';
import { storedOrderFigures } from './order-figures';
import { figureLineLabels } from './figure-line-labels';
import type { OrderProfitInput, ProfitSettings } from './inputs';
import { figures, ledger, payment, receipt, usdShop } from './testing/builders';

/**
 * Golden scenarios of the VAT inside a VAT-registered seller's own prices (ADR 0026, "VAT in
 * your prices"), worked by hand above each. Orders are dated 2026-03-14; GBP shown in GBP, no
 * conversion.
 */
const ukRegistered: ProfitSettings = {
  ...usdShop,
  displayCurrency: 'GBP',
  bankCountry: 'GB',
  paymentAccountCurrency: 'GBP',
  vatRegistered: true,
};

// A UK seller's domestic sale: item 30.00 GBP to a buyer in the UK, Etsy collected no VAT.
// Payment fee 1.40; ledger transaction −1.95 and its VAT −0.39 (reclaimed: 0.00).
// VAT in the price (UK 20%): 30.00 × 20 ÷ 120 = 5.00 → revenue 30.00 − 5.00 = 25.00.
// Etsy's fees stay on the whole price: regulatory 0.32% × 30.00 = 0.096 → 0.10; listing USD 0.20 → 0.15.
// Costs = 1.40 + 1.95 + 0.00 + 0.15 + 0.10 = 3.60; profit 25.00 − 3.60 = 21.40; margin 2140 / 2500 = 8560 bp.
const domestic: OrderProfitInput = {
  receipt: receipt({ currency: 'GBP', totalPriceMinor: 3000, subtotalMinor: 3000, buyerCountry: 'GB' }),
  payments: [payment('GBP', 140)],
  ledgerEntries: [ledger('transaction', -195, 'GBP'), ledger('vat_seller_services', -39, 'GBP')],
  printifyOrders: [],
};
const withReceipt = (overrides: Parameters<typeof receipt>[0]): OrderProfitInput => ({
  ...domestic,
  receipt: { ...domestic.receipt!, ...overrides },
});

describe('golden: the VAT inside a VAT-registered seller’s prices', () => {
  it('takes 20/120 of a UK domestic sale out of revenue, and leaves the fees on the whole price', () => {
    const result = computeOrderProfit(domestic, ukRegistered);
    expect(figures(result)).toEqual({
      revenue: '25.00',
      costs: [
        'processing/payment 1.40',
        'transaction/ledger 1.95',
        'vat_on_fees/ledger 0.00',
        'listing/estimate 0.15',
        'regulatory/estimate 0.10',
      ],
      totalCosts: '3.60',
      netProfit: '21.40',
      marginBasisPoints: 8560,
    });
  });

  it('shows it as its own revenue line, with its rate in the note', () => {
    const stored = storedOrderFigures(computeOrderProfit(domestic, ukRegistered), ukRegistered.convert);
    const lines = stored.breakdown.revenueLines;
    expect(lines.map((line) => `${line.kind} ${line.original.minor}`)).toEqual(['items 3000', 'vat_in_prices 500']);
    const vat = lines[1];
    expect(vat).toMatchObject({ source: 'receipt', estimated: true, display: { minor: 500, currency: 'GBP' } });
    expect(vat.note).toContain('20% VAT inside your price (price × 20 ÷ 120)');
    expect(figureLineLabels(lines)[1]).toBe('VAT in your prices (you remit it)');
    expect(stored.revenueMinor).toBe(2500);
  });

  // Items 36.00, a refund of 6.00 (no tax on the receipt): 30.00 left, VAT 5.00 of it → 25.00.
  it('figures it on what the refunds left', () => {
    const result = computeOrderProfit(
      withReceipt({ totalPriceMinor: 3600, subtotalMinor: 3600, refundedMinor: 600, status: 'partially refunded' }),
      ukRegistered,
    );
    expect(figures(result).revenue).toBe('25.00');
  });

  // A German seller's domestic sale of 10.00 EUR: 10.00 × 19 ÷ 119 = 1.5966… → 1.60 → revenue 8.40 EUR.
  it("uses the seller's country's standard rate, rounded half to even", () => {
    const result = computeOrderProfit(
      withReceipt({ currency: 'EUR', totalPriceMinor: 1000, subtotalMinor: 1000, buyerCountry: 'de' }),
      { ...ukRegistered, displayCurrency: 'EUR', bankCountry: 'DE', paymentAccountCurrency: 'EUR' },
    );
    expect(result.revenue?.vatInPrices.amountMinor).toBe(160);
    expect(result.revenue?.revenue.amountMinor).toBe(840);
  });

  // Each case keeps revenue at the whole 30.00: none of the seller's VAT is in it to take out.
  it.each([
    ['a sale to a buyer abroad (an export)', withReceipt({ buyerCountry: 'US' }), ukRegistered],
    ['a receipt whose buyer country Etsy withholds', withReceipt({ buyerCountry: null }), ukRegistered],
    ['a sale Etsy collected VAT on (on top of the price)', withReceipt({ totalVatMinor: 600 }), ukRegistered],
    ['a seller who is not VAT-registered', domestic, { ...ukRegistered, vatRegistered: false }],
    ['a seller outside the UK and the EU', withReceipt({ buyerCountry: 'US' }), { ...ukRegistered, bankCountry: 'US' }],
    ['an unpaid receipt', withReceipt({ isPaid: false }), ukRegistered],
  ])('takes none out of %s', (_case, input, settings) => {
    const result = computeOrderProfit(input, settings);
    expect(result.revenue?.vatInPrices.amountMinor).toBe(0);
    expect(result.revenue?.vatInPricesRate).toBeNull();
  });
});

describe('standard VAT rates, dated', () => {
  it('takes the rate in force on the date', () => {
    expect(standardVatRate('GB', '2026-03-14')).toBe(2000);
    expect(standardVatRate('ee', '2025-06-30')).toBe(2200);
    expect(standardVatRate('EE', '2025-07-01')).toBe(2400);
    expect(standardVatRate('DE', '2020-12-31')).toBe(1600);
    expect(standardVatRate('DE', '2021-01-01')).toBe(1900);
    expect(standardVatRate('FI', '2024-09-01')).toBe(2550);
    expect(standardVatRate('RO', '2025-07-31')).toBe(1900);
    expect(standardVatRate('SK', '2025-01-01')).toBe(2300);
    expect(standardVatRate('US', '2026-03-14')).toBeNull();
    expect(standardVatRate(null, '2026-03-14')).toBeNull();
    expect(standardVatRate('constructor', '2026-03-14')).toBeNull();
  });
});
