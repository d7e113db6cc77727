import { formatMarginPercent } from './margin';
import { computeOrderProfit } from './order-profit';
import { figures, ledger, line, payment, printifyOrder, receipt, usdShop } from './testing/builders';

/**
 * Golden scenarios: every expected figure is worked out by hand in the comment above it, from
 * the rules in integrations.md (§a.5 receipts, §a.6 payments, §a.7 ledger, §a.8 fee schedule,
 * §b.4 Printify costs) and ADR 0010, not by running the engine. Rates are the fixed test
 * double's; conversions round half to even to the cent. All orders are dated 2026-03-14.
 */
describe('golden: a USD shop shown in USD, with payment and ledger data', () => {
  // Receipt: one item at 30.00, shipping 5.00, sales tax 2.13 (buyer paid 37.13).
  // Revenue = 30.00 + 5.00 = 35.00 (tax is Etsy's to remit, not revenue).
  // Payment: amount_fees 1.36 (3% × 37.13 + 0.25 = 1.3639 as Etsy charged it) → processing 1.36, source payment.
  // Ledger: PAYMENT_GROSS +37.13 (the sale: not a fee), sales_tax −2.13 (tax: not a fee),
  //   transaction −1.95 and shipping_transaction −0.33 → transaction fee 2.28, source ledger;
  //   PAYMENT_PROCESSING_FEE −1.36 is the payment's fee again → left out (no double count).
  // Listing: no linked ledger entry → estimate USD 0.20 × 1 unit = 0.20.
  // Printify: production 12.50 × 1, shipping 4.75, tax 0.00.
  // Costs = 12.50 + 4.75 + 0.00 + 1.36 + 2.28 + 0.20 = 21.09; profit = 35.00 − 21.09 = 13.91.
  // Margin = 1391 / 3500 = 0.397428… → 3974 basis points, "39.7"%.
  it('computes revenue, each cost and the profit to the cent', () => {
    const result = computeOrderProfit(
      {
        receipt: receipt({ totalPriceMinor: 3000, subtotalMinor: 3000, totalShippingMinor: 500, totalTaxMinor: 213 }),
        payments: [payment('USD', 136)],
        ledgerEntries: [
          ledger('PAYMENT_GROSS', 3713),
          ledger('sales_tax', -213),
          ledger('transaction', -195),
          ledger('shipping_transaction', -33),
          ledger('PAYMENT_PROCESSING_FEE', -136),
        ],
        printifyOrders: [printifyOrder([line(1, 1250, 475)])],
      },
      usdShop,
    );
    expect(figures(result)).toEqual({
      revenue: '35.00',
      costs: [
        'printify_production/printify 12.50',
        'printify_shipping/printify 4.75',
        'printify_tax/printify 0.00',
        'processing/payment 1.36',
        'transaction/ledger 2.28',
        'listing/estimate 0.20',
      ],
      totalCosts: '21.09',
      netProfit: '13.91',
      marginBasisPoints: 3974,
    });
    if (result.state !== 'computed' || !result.display.margin) throw new Error('expected a margin');
    expect(formatMarginPercent(result.display.margin)).toBe('39.7');
    expect(result.feesEstimated).toBe(true);
    expect(result.feesNotEstimated).toEqual([]);
    expect(result.revenue?.salesTax.amountMinor).toBe(213);
  });

  // The same receipt with no Printify order: revenue and Etsy fees, no fulfilment cost.
  // Costs = 1.36 + 2.28 + 0.20 = 3.84; profit = 35.00 − 3.84 = 31.16 (fulfilment cost unknown, not zero).
  it('says when the fulfilment cost is unknown (a receipt alone)', () => {
    const result = computeOrderProfit(
      {
        receipt: receipt({ totalPriceMinor: 3000, subtotalMinor: 3000, totalShippingMinor: 500, totalTaxMinor: 213 }),
        payments: [payment('USD', 136)],
        ledgerEntries: [ledger('transaction', -195), ledger('shipping_transaction', -33)],
        printifyOrders: [],
      },
      usdShop,
    );
    expect(figures(result).totalCosts).toBe('3.84');
    expect(figures(result).netProfit).toBe('31.16');
    expect(result.fulfilmentCostKnown).toBe(false);
    expect(result.revenueKnown).toBe(true);
  });
});

describe('golden: a EUR shop shown in GBP', () => {
  // Receipt (EUR): one item 40.00, shipping 6.00, VAT collected by Etsy 9.20 (buyer paid 55.20).
  // Revenue = 40.00 + 6.00 = 46.00 EUR → × 0.85 = 39.10 GBP.
  // Payment (EUR): amount_fees 2.51 (4% × 55.20 + 0.30 = 2.508) → × 0.85 = 2.1335 → 2.13 GBP.
  // Ledger (EUR): transaction −2.60 + shipping_transaction −0.39 = 2.99 EUR → × 0.85 = 2.5415 → 2.54 GBP;
  //   vat_seller_services −0.60 → 0.51 GBP; regulatory_operating_fee −0.22 → 0.187 → 0.19 GBP.
  // Listing estimate USD 0.20 → × 0.75 = 0.15 GBP; its VAT (DE 19%, ADR 0026): 0.20 × 19% = 0.038 → 0.04 USD
  //   → × 0.75 = 0.03 GBP (the ledger's VAT covers the ledger's fees only).
  // Printify (USD): production 15.00 → 11.25 GBP, shipping 5.00 → 3.75 GBP, tax 0.00.
  // Costs = 11.25 + 3.75 + 0.00 + 2.13 + 2.54 + 0.51 + 0.19 + 0.15 + 0.03 = 20.55 GBP.
  // Profit = 39.10 − 20.55 = 18.55 GBP; margin 1855 / 3910 = 0.474424… → 4744 bp.
  it('converts each component at the order date and sums the converted figures', () => {
    const result = computeOrderProfit(
      {
        receipt: receipt({
          currency: 'EUR',
          totalPriceMinor: 4000,
          subtotalMinor: 4000,
          totalShippingMinor: 600,
          totalVatMinor: 920,
        }),
        payments: [payment('EUR', 251)],
        ledgerEntries: [
          ledger('transaction', -260, 'EUR'),
          ledger('shipping_transaction', -39, 'EUR'),
          ledger('vat_seller_services', -60, 'EUR'),
          ledger('regulatory_operating_fee', -22, 'EUR'),
        ],
        printifyOrders: [printifyOrder([line(1, 1500, 500)])],
      },
      { ...usdShop, displayCurrency: 'GBP', bankCountry: 'DE', paymentAccountCurrency: 'EUR' },
    );
    expect(figures(result)).toEqual({
      revenue: '39.10',
      costs: [
        'printify_production/printify 11.25',
        'printify_shipping/printify 3.75',
        'printify_tax/printify 0.00',
        'processing/payment 2.13',
        'transaction/ledger 2.54',
        'vat_on_fees/ledger 0.51',
        'regulatory/ledger 0.19',
        'listing/estimate 0.15',
        'vat_on_fees/estimate 0.03',
      ],
      totalCosts: '20.55',
      netProfit: '18.55',
      marginBasisPoints: 4744,
    });
    if (result.state !== 'computed') throw new Error('expected computed');
    // The originals stay for the order details, with the rate used.
    expect(result.revenue?.revenue).toEqual({ amountMinor: 4600, currency: 'EUR' });
    expect(result.revenue?.vat).toEqual({ amountMinor: 920, currency: 'EUR' });
    expect(result.revenueConversion).toEqual({
      amount: { amountMinor: 3910, currency: 'GBP' },
      rate: '0.85',
      rateDate: '2026-03-14',
    });
    expect(result.display.costs[0]).toMatchObject({ original: { amountMinor: 1500, currency: 'USD' }, rate: '0.75' });
  });
});

describe('golden: refunds', () => {
  // Receipt: item 50.00, no shipping, sales tax 4.00 (buyer paid 54.00).
  const base = { totalPriceMinor: 5000, subtotalMinor: 5000, totalTaxMinor: 400 };
  const printify = [printifyOrder([line(1, 1800, 400)])];

  // Partial refund of 13.50 (what the buyer got back, tax included):
  //   revenue share = 13.50 × 50.00 / 54.00 = 12.50 exactly (the other 1.00 is tax returned).
  //   Revenue = 50.00 − 12.50 = 37.50.
  // Payment: amount_fees 1.87, adjusted_fees 1.46 after the refund → processing 1.46 (payment).
  //   REFUND_PROCESSING_FEE +0.41 and PAYMENT_PROCESSING_FEE −1.87 in the ledger are left out.
  // Ledger: transaction −3.25, transaction_refund +0.81 → transaction 2.44; REFUND_GROSS −13.50 is not a fee.
  // Listing estimate 0.20. Printify 18.00 + 4.00 + 0.00.
  // Costs = 18.00 + 4.00 + 0.00 + 1.46 + 2.44 + 0.20 = 26.10; profit = 37.50 − 26.10 = 11.40;
  // margin 1140 / 3750 = 0.304 → 3040 bp.
  it('takes the pre-tax share of a partial refund off revenue', () => {
    const result = computeOrderProfit(
      {
        receipt: receipt({ ...base, status: 'partially refunded', refundedMinor: 1350 }),
        payments: [payment('USD', 187, 146)],
        ledgerEntries: [
          ledger('PAYMENT_PROCESSING_FEE', -187),
          ledger('REFUND_PROCESSING_FEE', 41),
          ledger('transaction', -325),
          ledger('transaction_refund', 81),
          ledger('REFUND_GROSS', -1350),
        ],
        printifyOrders: printify,
      },
      usdShop,
    );
    expect(figures(result)).toEqual({
      revenue: '37.50',
      costs: [
        'printify_production/printify 18.00',
        'printify_shipping/printify 4.00',
        'printify_tax/printify 0.00',
        'processing/payment 1.46',
        'transaction/ledger 2.44',
        'listing/estimate 0.20',
      ],
      totalCosts: '26.10',
      netProfit: '11.40',
      marginBasisPoints: 3040,
    });
    expect(result.revenue?.refundedRevenue.amountMinor).toBe(1250);
  });

  // A refund of 10.00: share = 10.00 × 50.00 / 54.00 = 9.259259… → 9.26; revenue 50.00 − 9.26 = 40.74.
  it('rounds an inexact refund share half to even', () => {
    const result = computeOrderProfit(
      { receipt: receipt({ ...base, refundedMinor: 1000 }), payments: [], ledgerEntries: [], printifyOrders: [] },
      usdShop,
    );
    expect(result.revenue?.refundedRevenue.amountMinor).toBe(926);
    expect(result.revenue?.revenue.amountMinor).toBe(4074);
  });

  // Full refund of 54.00, status "fully refunded": revenue share = 54.00 × 50 / 54 = 50.00 → revenue 0.00.
  // Payment adjusted_fees 0.25 (the fixed part kept) → processing 0.25.
  // Ledger transaction −3.25 + transaction_refund +3.25 → transaction 0.00.
  // A voided receipt gets no estimates but its listing fee: the renewal came with the sale and
  // listing fees are non-refundable (ADR 0026) → USD 0.20 × 1 unit = 0.20.
  // Printify had already produced it: 18.00 + 4.00 + 0.00.
  // Costs = 22.00 + 0.25 + 0.00 + 0.20 = 22.45; profit = −22.45; margin none (no revenue).
  it('takes revenue to zero on a full refund and keeps the sunk costs', () => {
    const result = computeOrderProfit(
      {
        receipt: receipt({ ...base, status: 'fully refunded', refundedMinor: 5400 }),
        payments: [payment('USD', 187, 25)],
        ledgerEntries: [ledger('transaction', -325), ledger('transaction_refund', 325), ledger('REFUND_GROSS', -5400)],
        printifyOrders: printify,
      },
      usdShop,
    );
    expect(figures(result)).toEqual({
      revenue: '0.00',
      costs: [
        'printify_production/printify 18.00',
        'printify_shipping/printify 4.00',
        'printify_tax/printify 0.00',
        'processing/payment 0.25',
        'transaction/ledger 0.00',
        'listing/estimate 0.20',
      ],
      totalCosts: '22.45',
      netProfit: '-22.45',
      marginBasisPoints: null,
    });
    expect(result.feesEstimated).toBe(true);
  });
});

describe('golden: a multi-item order', () => {
  // Lines: A 2 × 15.00 = 30.00, B 1 × 25.00 → total_price 55.00; 10% coupon → subtotal 49.50;
  // shipping 7.00, gift wrap 3.00, no tax. Revenue = 49.50 + 7.00 + 3.00 = 59.50.
  // Payment: amount_fees 2.04 (3% × 59.50 + 0.25 = 2.035, as Etsy charged it) → processing 2.04.
  // Ledger: transaction −1.76 (A) − 1.46 (B), shipping_transaction −0.46, gift_wrap_fees −0.20 → transaction 3.88.
  // Listing estimate: 3 units × USD 0.20 = 0.60.
  // Printify (cost per unit): A 2 × 9.00 + B 1 × 11.00 = 29.00; shipping 5.00 + 1.50 = 6.50; tax 0.00.
  // Costs = 29.00 + 6.50 + 0.00 + 2.04 + 3.88 + 0.60 = 42.02; profit = 59.50 − 42.02 = 17.48;
  // margin 1748 / 5950 = 0.293781… → 2938 bp.
  it('adds every line', () => {
    const result = computeOrderProfit(
      {
        receipt: receipt({
          totalPriceMinor: 5500,
          subtotalMinor: 4950,
          totalShippingMinor: 700,
          giftWrapMinor: 300,
          lines: [
            { transactionId: 'TA', listingId: 'LA', quantity: 2 },
            { transactionId: 'TB', listingId: 'LB', quantity: 1 },
          ],
        }),
        payments: [payment('USD', 204)],
        ledgerEntries: [
          ledger('transaction', -176),
          ledger('transaction', -146),
          ledger('shipping_transaction', -46),
          ledger('gift_wrap_fees', -20),
        ],
        printifyOrders: [printifyOrder([line(2, 900, 500), line(1, 1100, 150)])],
      },
      usdShop,
    );
    expect(figures(result)).toEqual({
      revenue: '59.50',
      costs: [
        'printify_production/printify 29.00',
        'printify_shipping/printify 6.50',
        'printify_tax/printify 0.00',
        'processing/payment 2.04',
        'transaction/ledger 3.88',
        'listing/estimate 0.60',
      ],
      totalCosts: '42.02',
      netProfit: '17.48',
      marginBasisPoints: 2938,
    });
    expect(result.revenue?.discount.amountMinor).toBe(550);
  });
});
