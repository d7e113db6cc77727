import { formatMarginPercent } from './margin';
import { computeOrderProfit } from './order-profit';
import type { ProfitSettings } from './inputs';
import { figures, ledger, line, payment, printifyOrder, receipt } from './testing/builders';
import { fixedRateConverter } from './testing/fixed-rate-converter';

/**
 * Golden scenarios: every expected figure is worked out by hand in the comment above it, from
 * the rules in integrations.md (§a.5 receipts, §a.6 payments, §a.7 ledger, §a.8 fee schedule,
 * §b.4 Printify costs) and ADR 0010, not by running the engine. Rates are the fixed test
 * double's; conversions round half to even to the cent. All orders are dated 2026-03-14.
 */
const rates = fixedRateConverter({
  'EUR>GBP': '0.85',
  'USD>GBP': '0.75',
  'USD>EUR': '0.9',
  'EUR>USD': '1.1',
});

const usdShop: ProfitSettings = {
  displayCurrency: 'USD',
  printifyCostReading: 'per_unit',
  bankCountry: 'US',
  paymentAccountCurrency: 'USD',
  offsiteAdsTier: 'under_10k',
  convert: rates,
};

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
  // Listing estimate USD 0.20 → × 0.75 = 0.15 GBP.
  // Printify (USD): production 15.00 → 11.25 GBP, shipping 5.00 → 3.75 GBP, tax 0.00.
  // Costs = 11.25 + 3.75 + 0.00 + 2.13 + 2.54 + 0.51 + 0.19 + 0.15 = 20.52 GBP.
  // Profit = 39.10 − 20.52 = 18.58 GBP; margin 1858 / 3910 = 0.475191… → 4752 bp.
  it('converts each component at the order date and sums the converted figures', () => {
    const result = computeOrderProfit(
      {
        receipt: receipt({ currency: 'EUR', totalPriceMinor: 4000, subtotalMinor: 4000, totalShippingMinor: 600, totalVatMinor: 920 }),
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
      ],
      totalCosts: '20.52',
      netProfit: '18.58',
      marginBasisPoints: 4752,
    });
    if (result.state !== 'computed') throw new Error('expected computed');
    // The originals stay for the order details, with the rate used.
    expect(result.revenue?.revenue).toEqual({ amountMinor: 4600, currency: 'EUR' });
    expect(result.revenue?.vat).toEqual({ amountMinor: 920, currency: 'EUR' });
    expect(result.revenueConversion).toEqual({ amount: { amountMinor: 3910, currency: 'GBP' }, rate: '0.85', rateDate: '2026-03-14' });
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
    const result = computeOrderProfit({ receipt: receipt({ ...base, refundedMinor: 1000 }), payments: [], ledgerEntries: [], printifyOrders: [] }, usdShop);
    expect(result.revenue?.refundedRevenue.amountMinor).toBe(926);
    expect(result.revenue?.revenue.amountMinor).toBe(4074);
  });

  // Full refund of 54.00, status "fully refunded": revenue share = 54.00 × 50 / 54 = 50.00 → revenue 0.00.
  // Payment adjusted_fees 0.25 (the fixed part kept) → processing 0.25.
  // Ledger transaction −3.25 + transaction_refund +3.25 → transaction 0.00.
  // A voided receipt gets no estimates (no listing estimate).
  // Printify had already produced it: 18.00 + 4.00 + 0.00.
  // Costs = 22.00 + 0.25 + 0.00 = 22.25; profit = −22.25; margin none (no revenue).
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
      ],
      totalCosts: '22.25',
      netProfit: '-22.25',
      marginBasisPoints: null,
    });
    expect(result.feesEstimated).toBe(false);
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
        ledgerEntries: [ledger('transaction', -176), ledger('transaction', -146), ledger('shipping_transaction', -46), ledger('gift_wrap_fees', -20)],
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

describe('golden: Offsite Ads', () => {
  // Receipt: item 780.00, shipping 20.00, no tax → revenue 800.00.
  // Payment: amount_fees 24.25 (3% × 800.00 + 0.25). Ledger: transaction −50.70 (6.5% × 780), shipping_transaction −1.30.
  // Listing estimate 0.20. Printify: production 95.00, shipping 12.00.
  const order = {
    receipt: receipt({ totalPriceMinor: 78_000, subtotalMinor: 78_000, totalShippingMinor: 2000 }),
    payments: [payment('USD', 2425)],
    printifyOrders: [printifyOrder([line(1, 9500, 1200)])],
    offsiteAdsAttributed: true,
  };
  const feesInLedger = [ledger('transaction', -5070), ledger('shipping_transaction', -130)];

  // Attributed, not yet in the ledger: 15% (under USD 10k of sales) × 800.00 = 120.00 > cap USD 100 → 100.00, estimated.
  // Costs = 95.00 + 12.00 + 0.00 + 24.25 + 52.00 + 0.20 + 100.00 = 283.45; profit = 800.00 − 283.45 = 516.55;
  // margin 51655 / 80000 = 0.6456875 → 6457 bp.
  it('estimates the fee at the USD 100 cap', () => {
    const result = computeOrderProfit({ ...order, ledgerEntries: feesInLedger }, usdShop);
    expect(figures(result)).toEqual({
      revenue: '800.00',
      costs: [
        'printify_production/printify 95.00',
        'printify_shipping/printify 12.00',
        'printify_tax/printify 0.00',
        'processing/payment 24.25',
        'transaction/ledger 52.00',
        'listing/estimate 0.20',
        'offsite_ads/estimate 100.00',
      ],
      totalCosts: '283.45',
      netProfit: '516.55',
      marginBasisPoints: 6457,
    });
  });

  // In the ledger: offsite_ads_fee −100.00 is the fee; nothing is estimated for it (same total, source ledger).
  it('takes the ledger figure when there is one, and estimates nothing more', () => {
    const result = computeOrderProfit({ ...order, ledgerEntries: [...feesInLedger, ledger('offsite_ads_fee', -10_000)] }, usdShop);
    const { costs, totalCosts } = figures(result);
    expect(costs.filter((cost) => cost.startsWith('offsite_ads'))).toEqual(['offsite_ads/ledger 100.00']);
    expect(totalCosts).toBe('283.45');
  });

  // A EUR shop at the 12% tier: cap USD 100 × 0.9 = 90.00 EUR.
  //   Revenue 700.00 EUR: 12% = 84.00 < 90.00 → 84.00.  Revenue 800.00 EUR: 12% = 96.00 > 90.00 → 90.00.
  it('converts the cap into the shop currency', () => {
    const eurShop: ProfitSettings = { ...usdShop, displayCurrency: 'EUR', bankCountry: 'FR', paymentAccountCurrency: 'EUR', offsiteAdsTier: 'at_least_10k' };
    const offsite = (itemsMinor: number) => {
      const result = computeOrderProfit(
        { receipt: receipt({ currency: 'EUR', totalPriceMinor: itemsMinor, subtotalMinor: itemsMinor }), payments: [], ledgerEntries: [], printifyOrders: [], offsiteAdsAttributed: true },
        eurShop,
      );
      return figures(result).costs.filter((cost) => cost.startsWith('offsite_ads'));
    };
    expect(offsite(70_000)).toEqual(['offsite_ads/estimate 84.00']);
    expect(offsite(80_000)).toEqual(['offsite_ads/estimate 90.00']);
  });
});

describe('golden: fees estimated before Etsy has payment or ledger data', () => {
  // A UK shop (GBP, bank in GB) shown in GBP: item 24.00, shipping 3.99 → revenue 27.99 GBP.
  // Transaction: 6.5% × 27.99 = 1.81935 → 1.82.  Processing (GB): 4% × 27.99 = 1.1196 → 1.12, plus GBP 0.20.
  // Listing: USD 0.20 → × 0.75 = 0.15 GBP.  Payment account in GBP = listing currency → no conversion fee.
  // Printify (USD): production 9.50 → × 0.75 = 7.125 → 7.12 (half to even); shipping 3.99 → 2.9925 → 2.99.
  // Costs = 7.12 + 2.99 + 0.00 + 1.82 + 1.12 + 0.20 + 0.15 = 13.40; profit = 27.99 − 13.40 = 14.59;
  // margin 1459 / 2799 = 0.521257… → 5213 bp. Regulatory and VAT on fees cannot be estimated: listed.
  const ukShop: ProfitSettings = { ...usdShop, displayCurrency: 'GBP', bankCountry: 'GB', paymentAccountCurrency: 'GBP' };
  const rates2 = fixedRateConverter({ 'USD>GBP': '0.75' });
  const order = {
    receipt: receipt({ currency: 'GBP', totalPriceMinor: 2400, subtotalMinor: 2400, totalShippingMinor: 399 }),
    payments: [],
    ledgerEntries: [],
    printifyOrders: [printifyOrder([line(1, 950, 399)])],
  };

  it('marks every estimate and lists what it could not estimate', () => {
    const result = computeOrderProfit(order, { ...ukShop, convert: rates2 });
    expect(figures(result)).toEqual({
      revenue: '27.99',
      costs: [
        'printify_production/printify 7.12',
        'printify_shipping/printify 2.99',
        'printify_tax/printify 0.00',
        'transaction/estimate 1.82',
        'processing/estimate 1.12',
        'processing/estimate 0.20',
        'listing/estimate 0.15',
      ],
      totalCosts: '13.40',
      netProfit: '14.59',
      marginBasisPoints: 5213,
    });
    expect(result.feesEstimated).toBe(true);
    expect(result.feesNotEstimated).toEqual(['regulatory', 'vat_on_fees']);
    expect(rates2.calls.every((call) => call.endsWith('@2026-03-14'))).toBe(true);
  });

  // Paid out in USD instead: conversion fee 2.5% × 27.99 = 0.69975 → 0.70 GBP; costs 13.40 + 0.70 = 14.10.
  it('estimates the conversion fee when the payment account is in another currency', () => {
    const result = computeOrderProfit(order, { ...ukShop, paymentAccountCurrency: 'USD', convert: rates2 });
    expect(figures(result).costs).toContain('currency_conversion/estimate 0.70');
    expect(figures(result).totalCosts).toBe('14.10');
  });
});

describe('golden: a Printify order with no receipt', () => {
  // Printify (USD) shown in EUR at 0.9: production 11.00 → 9.90, shipping 4.50 → 4.05, tax 0.88 → 0.792 → 0.79.
  // Revenue 0.00 (unknown), costs 14.74, profit −14.74, no margin, no Etsy fees.
  it('has costs and no revenue', () => {
    const result = computeOrderProfit(
      { receipt: null, payments: [], ledgerEntries: [], printifyOrders: [printifyOrder([line(1, 1100, 450)], { totalTaxMinor: 88 })] },
      { ...usdShop, displayCurrency: 'EUR' },
    );
    expect(figures(result)).toEqual({
      revenue: '0.00',
      costs: ['printify_production/printify 9.90', 'printify_shipping/printify 4.05', 'printify_tax/printify 0.79'],
      totalCosts: '14.74',
      netProfit: '-14.74',
      marginBasisPoints: null,
    });
    expect(result.revenueKnown).toBe(false);
    expect(result.fulfilmentCostKnown).toBe(true);
  });
});

describe('golden: a currency the ECB does not publish', () => {
  // A VND shop (0 decimals) shown in USD: the test converter, like the ECB, has no VND rate.
  // The result is "rate unavailable" with the reason, never the unconverted number; originals are kept.
  it('is an explicit rate-unavailable state', () => {
    const result = computeOrderProfit(
      {
        receipt: receipt({ currency: 'VND', totalPriceMinor: 500_000, subtotalMinor: 500_000 }),
        payments: [],
        ledgerEntries: [],
        printifyOrders: [printifyOrder([line(1, 1000, 400)])],
      },
      usdShop,
    );
    expect(result.state).toBe('rate_unavailable');
    if (result.state !== 'rate_unavailable') return;
    expect(result.unavailable).toEqual([{ currency: 'VND', reason: 'no ECB rate for VND in USD on 2026-03-14' }]);
    expect(result.revenue?.revenue).toEqual({ amountMinor: 500_000, currency: 'VND' });
    expect('display' in result).toBe(false);
  });
});

describe('golden: a multi-quantity line under both cost readings', () => {
  // Receipt: 3 × 22.00 = 66.00, no shipping or tax → revenue 66.00.
  // Payment: amount_fees 2.23 (3% × 66.00 + 0.25). Ledger: transaction −4.29 (6.5% × 66.00). Listing: 3 × 0.20 = 0.60.
  // Printify: one line, quantity 3, cost 8.50, shipping 6.00, tax 0.00.
  //   per_unit: production 3 × 8.50 = 25.50; costs 25.50 + 6.00 + 2.23 + 4.29 + 0.60 = 38.62; profit 27.38;
  //             margin 2738 / 6600 = 0.414848… → 4148 bp.
  //   per_line: production 8.50;             costs  8.50 + 6.00 + 2.23 + 4.29 + 0.60 = 21.62; profit 44.38;
  //             margin 4438 / 6600 = 0.672424… → 6724 bp.
  const order = {
    receipt: receipt({ totalPriceMinor: 6600, subtotalMinor: 6600, lines: [{ transactionId: 'T1', listingId: 'L1', quantity: 3 }] }),
    payments: [payment('USD', 223)],
    ledgerEntries: [ledger('transaction', -429)],
    printifyOrders: [printifyOrder([line(3, 850, 600)])],
  };

  it('reads cost per unit', () => {
    const result = figures(computeOrderProfit(order, { ...usdShop, printifyCostReading: 'per_unit' }));
    expect(result.costs[0]).toBe('printify_production/printify 25.50');
    expect([result.totalCosts, result.netProfit, result.marginBasisPoints]).toEqual(['38.62', '27.38', 4148]);
  });

  it('reads cost per line', () => {
    const result = figures(computeOrderProfit(order, { ...usdShop, printifyCostReading: 'per_line' }));
    expect(result.costs[0]).toBe('printify_production/printify 8.50');
    expect([result.totalCosts, result.netProfit, result.marginBasisPoints]).toEqual(['21.62', '44.38', 6724]);
  });
});

describe('golden: a canceled Printify order', () => {
  // The buyer canceled: receipt "canceled", 24.00 refunded → revenue 0.00, no estimates.
  // Printify order canceled: its line (cost 7.00, shipping 3.00) and tax 0.50 cost nothing → 0.00 each.
  // Payment: amount_fees 0.97, adjusted_fees 0.25 → processing 0.25. Ledger: transaction −1.56 + transaction_refund +1.56 → 0.00.
  // Costs = 0.25; profit = −0.25; no margin.
  it('costs nothing', () => {
    const result = computeOrderProfit(
      {
        receipt: receipt({ status: 'canceled', totalPriceMinor: 2000, subtotalMinor: 2000, totalShippingMinor: 400, refundedMinor: 2400 }),
        payments: [payment('USD', 97, 25)],
        ledgerEntries: [ledger('transaction', -156), ledger('transaction_refund', 156)],
        printifyOrders: [printifyOrder([line(1, 700, 300, 'canceled')], { status: 'canceled', totalTaxMinor: 50 })],
      },
      usdShop,
    );
    expect(figures(result)).toEqual({
      revenue: '0.00',
      costs: [
        'printify_production/printify 0.00',
        'printify_shipping/printify 0.00',
        'printify_tax/printify 0.00',
        'processing/payment 0.25',
        'transaction/ledger 0.00',
      ],
      totalCosts: '0.25',
      netProfit: '-0.25',
      marginBasisPoints: null,
    });
    expect(result.printifyCanceledOrders).toEqual(['5a96f649b2439217d070f507']);
    expect(result.fulfilmentCostKnown).toBe(true);
  });

  // A canceled line of an order that went ahead costs nothing; the rest does:
  // line 1 (2 × 6.00, shipping 4.00) counts → 12.00 + 4.00; line 2 canceled (9.00, 2.00) → nothing.
  it('leaves out a canceled line of an order that went ahead', () => {
    const result = computeOrderProfit(
      { receipt: null, payments: [], ledgerEntries: [], printifyOrders: [printifyOrder([line(2, 600, 400), line(1, 900, 200, 'canceled')])] },
      usdShop,
    );
    expect(figures(result).costs).toEqual(['printify_production/printify 12.00', 'printify_shipping/printify 4.00', 'printify_tax/printify 0.00']);
  });
});
