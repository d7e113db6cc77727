import { computeOrderProfit } from './order-profit';
import type { ProfitSettings } from './inputs';
import { figures, ledger, line, payment, printifyOrder, receipt, usdShop } from './testing/builders';
import { fixedRateConverter } from './testing/fixed-rate-converter';

/**
 * Golden scenarios, part 2 (Offsite Ads, estimates, one-sided orders, missing rates, cost
 * readings, cancellations): every expected figure is worked out by hand in the comment above it, from
 * the rules in integrations.md (§a.5 receipts, §a.6 payments, §a.7 ledger, §a.8 fee schedule,
 * §b.4 Printify costs) and ADR 0010, not by running the engine. Rates are the fixed test
 * double's; conversions round half to even to the cent. All orders are dated 2026-03-14.
 */
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
    const result = computeOrderProfit(
      { ...order, ledgerEntries: [...feesInLedger, ledger('offsite_ads_fee', -10_000)] },
      usdShop,
    );
    const { costs, totalCosts } = figures(result);
    expect(costs.filter((cost) => cost.startsWith('offsite_ads'))).toEqual(['offsite_ads/ledger 100.00']);
    expect(totalCosts).toBe('283.45');
  });

  // A EUR shop at the 12% tier: cap USD 100 × 0.9 = 90.00 EUR.
  //   Revenue 700.00 EUR: 12% = 84.00 < 90.00 → 84.00.  Revenue 800.00 EUR: 12% = 96.00 > 90.00 → 90.00.
  it('converts the cap into the shop currency', () => {
    const eurShop: ProfitSettings = {
      ...usdShop,
      displayCurrency: 'EUR',
      bankCountry: 'FR',
      paymentAccountCurrency: 'EUR',
      offsiteAdsTier: 'at_least_10k',
    };
    const offsite = (itemsMinor: number) => {
      const result = computeOrderProfit(
        {
          receipt: receipt({ currency: 'EUR', totalPriceMinor: itemsMinor, subtotalMinor: itemsMinor }),
          payments: [],
          ledgerEntries: [],
          printifyOrders: [],
          offsiteAdsAttributed: true,
        },
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
  // Regulatory operating fee (GB 0.32%, ADR 0026): 0.32% × 27.99 = 0.089568 → 0.09.
  // VAT on fees (GB 20%), per currency: GBP (1.82 + 1.12 + 0.20 + 0.09) × 20% = 0.646 → 0.65;
  //   USD 0.20 × 20% = 0.04 → × 0.75 = 0.03 GBP.
  // Costs = 7.12 + 2.99 + 0.00 + 1.82 + 1.12 + 0.20 + 0.15 + 0.09 + 0.65 + 0.03 = 14.17;
  // profit = 27.99 − 14.17 = 13.82; margin 1382 / 2799 = 0.493748… → 4937 bp. Nothing left unestimated.
  const ukShop: ProfitSettings = {
    ...usdShop,
    displayCurrency: 'GBP',
    bankCountry: 'GB',
    paymentAccountCurrency: 'GBP',
  };
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
        'regulatory/estimate 0.09',
        'vat_on_fees/estimate 0.65',
        'vat_on_fees/estimate 0.03',
      ],
      totalCosts: '14.17',
      netProfit: '13.82',
      marginBasisPoints: 4937,
    });
    expect(result.feesEstimated).toBe(true);
    expect(result.feesNotEstimated).toEqual([]);
    expect(rates2.calls.every((call) => call.endsWith('@2026-03-14'))).toBe(true);
  });

  // Paid out in USD instead: conversion fee 2.5% × 27.99 = 0.69975 → 0.70 GBP; the GBP VAT becomes
  // (3.23 + 0.70) × 20% = 0.786 → 0.79; costs 14.17 + 0.70 − 0.65 + 0.79 = 15.01.
  it('estimates the conversion fee when the payment account is in another currency', () => {
    const result = computeOrderProfit(order, { ...ukShop, paymentAccountCurrency: 'USD', convert: rates2 });
    expect(figures(result).costs).toContain('currency_conversion/estimate 0.70');
    expect(figures(result).totalCosts).toBe('15.01');
  });
});

describe('golden: a Printify order with no receipt', () => {
  // Printify (USD) shown in EUR at 0.9: production 11.00 → 9.90, shipping 4.50 → 4.05, tax 0.88 → 0.792 → 0.79.
  // Revenue 0.00 (unknown), costs 14.74, profit −14.74, no margin, no Etsy fees.
  it('has costs and no revenue', () => {
    const result = computeOrderProfit(
      {
        receipt: null,
        payments: [],
        ledgerEntries: [],
        printifyOrders: [printifyOrder([line(1, 1100, 450)], { totalTaxMinor: 88 })],
      },
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
    receipt: receipt({
      totalPriceMinor: 6600,
      subtotalMinor: 6600,
      lines: [{ transactionId: 'T1', listingId: 'L1', quantity: 3 }],
    }),
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
  // The buyer canceled: receipt "canceled", 24.00 refunded → revenue 0.00, no estimates but the
  // non-refundable listing fee of the sale (USD 0.20 × 1, ADR 0026).
  // Printify order canceled: its line (cost 7.00, shipping 3.00) and tax 0.50 cost nothing → 0.00 each.
  // Payment: amount_fees 0.97, adjusted_fees 0.25 → processing 0.25. Ledger: transaction −1.56 + transaction_refund +1.56 → 0.00.
  // Costs = 0.25 + 0.20 = 0.45; profit = −0.45; no margin.
  it('costs nothing', () => {
    const result = computeOrderProfit(
      {
        receipt: receipt({
          status: 'canceled',
          totalPriceMinor: 2000,
          subtotalMinor: 2000,
          totalShippingMinor: 400,
          refundedMinor: 2400,
        }),
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
        'listing/estimate 0.20',
      ],
      totalCosts: '0.45',
      netProfit: '-0.45',
      marginBasisPoints: null,
    });
    expect(result.printifyCanceledOrders).toEqual(['5a96f649b2439217d070f507']);
    expect(result.fulfilmentCostKnown).toBe(true);
  });

  // A canceled line of an order that went ahead costs nothing; the rest does:
  // line 1 (2 × 6.00, shipping 4.00) counts → 12.00 + 4.00; line 2 canceled (9.00, 2.00) → nothing.
  it('leaves out a canceled line of an order that went ahead', () => {
    const result = computeOrderProfit(
      {
        receipt: null,
        payments: [],
        ledgerEntries: [],
        printifyOrders: [printifyOrder([line(2, 600, 400), line(1, 900, 200, 'canceled')])],
      },
      usdShop,
    );
    expect(figures(result).costs).toEqual([
      'printify_production/printify 12.00',
      'printify_shipping/printify 4.00',
      'printify_tax/printify 0.00',
    ]);
  });
});
