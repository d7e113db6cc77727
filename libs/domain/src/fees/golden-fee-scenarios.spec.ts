import type { CurrencyCode } from '../currency';
import { computeOrderProfit } from '../profit/order-profit';
import { storedOrderFigures } from '../profit/order-figures';
import type { ProfitConverter, ProfitSettings } from '../profit';
import { fixedRateConverter } from '../profit/testing/fixed-rate-converter';
import { figures, goldenRates, ledger, payment, receipt, usdShop } from '../profit/testing/builders';
import { REGULATORY_FEE_RATES, regulatoryFeeRate, type RegulatoryFeeRate } from './regulatory-fee';
import { basisPoints } from './rounding';

/**
 * Golden scenarios of ADR 0026 (every Etsy fee from its source), each figure worked by hand in
 * the comment above it. Rates are the fixed test double's (USD>GBP 0.75, USD>EUR 0.9, …);
 * conversions and percentages round half to even to the cent. Orders are dated 2026-03-14.
 */
const ukShop: ProfitSettings = {
  ...usdShop,
  displayCurrency: 'GBP',
  bankCountry: 'GB',
  paymentAccountCurrency: 'GBP',
};

describe('golden: the currency conversion fee (a UK seller, GBP account, listing in USD)', () => {
  // Receipt (USD): item 40.00, shipping 5.00 → revenue 45.00 USD → × 0.75 = 33.75 GBP.
  // Ledger (GBP, the payment account's currency): transaction −2.19, PAYMENT_PROCESSING_FEE −1.55,
  //   regulatory_operating_fee −0.11, renew_sold −0.15, VAT on them −0.44 −0.31 −0.02 −0.03 = 0.80.
  // The conversion fee has no ledger type of its own (Etsy takes it before the sale reaches the
  //   payment account): estimated 2.5% × 45.00 USD = 1.125 → 1.12 USD → × 0.75 = 0.84 GBP;
  //   its VAT (GB 20%): 1.12 × 20% = 0.224 → 0.22 USD → × 0.75 = 0.165 → 0.16 GBP.
  // Costs = 2.19 + 0.80 + 1.55 + 0.11 + 0.15 + 0.84 + 0.16 = 5.80; profit 33.75 − 5.80 = 27.95;
  // margin 2795 / 3375 = 0.828148… → 8281 bp.
  const order = {
    receipt: receipt({ totalPriceMinor: 4000, subtotalMinor: 4000, totalShippingMinor: 500 }),
    payments: [],
    ledgerEntries: [
      ledger('transaction', -219, 'GBP'),
      ledger('vat_seller_services', -44, 'GBP'),
      ledger('PAYMENT_PROCESSING_FEE', -155, 'GBP'),
      ledger('vat_on_processing_fees', -31, 'GBP'),
      ledger('regulatory_operating_fee', -11, 'GBP'),
      ledger('vat_seller_services', -2, 'GBP'),
      ledger('renew_sold', -15, 'GBP'),
      ledger('vat_seller_services', -3, 'GBP'),
    ],
    printifyOrders: [],
  };

  it('estimates 2.5% of the sale, and its VAT, on every sale listed in another currency', () => {
    expect(figures(computeOrderProfit(order, ukShop))).toEqual({
      revenue: '33.75',
      costs: [
        'transaction/ledger 2.19',
        'vat_on_fees/ledger 0.80',
        'processing/ledger 1.55',
        'regulatory/ledger 0.11',
        'listing/ledger 0.15',
        'currency_conversion/estimate 0.84',
        'vat_on_fees/estimate 0.16',
      ],
      totalCosts: '5.80',
      netProfit: '27.95',
      marginBasisPoints: 8281,
    });
  });

  // The account's currency unknown to the settings: the ledger's own currency (GBP) says it → same 0.84.
  it("reads the payment account's currency from the ledger, not from the listing", () => {
    const result = computeOrderProfit(order, { ...ukShop, paymentAccountCurrency: null });
    expect(figures(result).costs).toContain('currency_conversion/estimate 0.84');
  });

  // A USD account for USD listings: no conversion, so no fee (and no VAT on it): 5.80 − 0.84 − 0.16 = 4.80.
  it('charges nothing when the account and the listing share a currency', () => {
    const result = figures(computeOrderProfit(order, { ...ukShop, paymentAccountCurrency: 'USD' }));
    expect(result.costs.some((cost) => cost.startsWith('currency_conversion'))).toBe(false);
    expect(result.totalCosts).toBe('4.80');
  });
});

describe('golden: listing fees from the ledger', () => {
  // Receipt: listing LA 3 × 10.00, listing LB 1 × 15.00 → revenue 45.00 USD.
  // Ledger: the sync attributed three renew_sold (LA, one per unit) and one renew_sold_auto (LB),
  //   −0.20 each → listing 0.80 from the ledger, nothing estimated.
  // Payment fee 1.60; ledger transaction −2.93.
  // Costs = 1.60 + 2.93 + 0.80 = 5.33; profit 45.00 − 5.33 = 39.67; margin 3967 / 4500 → 8816 bp.
  const lines = [
    { transactionId: 'TA', listingId: 'LA', quantity: 3 },
    { transactionId: 'TB', listingId: 'LB', quantity: 1 },
  ];
  it('takes one renewal per unit sold from the ledger and estimates none', () => {
    const result = computeOrderProfit(
      {
        receipt: receipt({ totalPriceMinor: 4500, subtotalMinor: 4500, lines }),
        payments: [payment('USD', 160)],
        ledgerEntries: [
          ledger('transaction', -293),
          ledger('renew_sold', -20),
          ledger('renew_sold', -20),
          ledger('renew_sold', -20),
          ledger('renew_sold_auto', -20),
        ],
        printifyOrders: [],
      },
      usdShop,
    );
    expect(figures(result)).toEqual({
      revenue: '45.00',
      costs: ['processing/payment 1.60', 'transaction/ledger 2.93', 'listing/ledger 0.80'],
      totalCosts: '5.33',
      netProfit: '39.67',
      marginBasisPoints: 8816,
    });
    expect(result.feesEstimated).toBe(false);
  });

  // No ledger entry yet: 4 units × USD 0.20 = 0.80, estimated.
  it('estimates USD 0.20 per unit only while the ledger has none', () => {
    const result = computeOrderProfit(
      {
        receipt: receipt({ totalPriceMinor: 4500, subtotalMinor: 4500, lines }),
        payments: [payment('USD', 160)],
        ledgerEntries: [ledger('transaction', -293)],
        printifyOrders: [],
      },
      usdShop,
    );
    expect(figures(result).costs).toContain('listing/estimate 0.80');
  });
});

describe("golden: a refunded sale's listing fee", () => {
  // Fully refunded: item 20.00 refunded 20.00 → revenue 0.00. Payment adjusted_fees 0.25.
  // Ledger: transaction −1.30 + transaction_refund +1.30 = 0.00; renew_sold −0.20 stays (listing fees
  // are non-refundable) → costs 0.25 + 0.00 + 0.20 = 0.45; profit −0.45.
  const base = {
    receipt: receipt({ status: 'fully refunded', totalPriceMinor: 2000, subtotalMinor: 2000, refundedMinor: 2000 }),
    payments: [payment('USD', 85, 25)],
    printifyOrders: [],
  };
  it('keeps the listing fee of a fully refunded sale', () => {
    const result = computeOrderProfit(
      {
        ...base,
        ledgerEntries: [ledger('transaction', -130), ledger('transaction_refund', 130), ledger('renew_sold', -20)],
      },
      usdShop,
    );
    expect(figures(result)).toMatchObject({
      revenue: '0.00',
      costs: ['processing/payment 0.25', 'transaction/ledger 0.00', 'listing/ledger 0.20'],
      totalCosts: '0.45',
      netProfit: '-0.45',
    });
  });

  // Etsy credited it (renew_sold_refund +0.20): listing 0.00 from the ledger, nothing estimated → costs 0.25.
  it('drops it only when Etsy credited it', () => {
    const result = computeOrderProfit(
      { ...base, ledgerEntries: [ledger('renew_sold', -20), ledger('renew_sold_refund', 20)] },
      usdShop,
    );
    expect(figures(result)).toMatchObject({
      costs: ['processing/payment 0.25', 'listing/ledger 0.00'],
      totalCosts: '0.25',
    });
  });

  // Not in the ledger yet: estimated USD 0.20 × 1 unit.
  it('estimates it while the ledger has none', () => {
    const result = computeOrderProfit({ ...base, ledgerEntries: [] }, usdShop);
    expect(figures(result).costs).toEqual(['processing/payment 0.25', 'listing/estimate 0.20']);
  });
});

describe('golden: VAT on every fee (a German seller before the ledger has the order)', () => {
  // EUR shop, bank in DE, shown in EUR: item 25.00 → revenue 25.00 EUR. Payment fee 1.30 EUR (recorded).
  // Estimates: transaction 6.5% × 25.00 = 1.625 → 1.62 (half to even); listing USD 0.20 → × 0.9 = 0.18 EUR.
  // No regulatory fee in DE; account EUR = listing EUR → no conversion fee.
  // VAT (DE 19%) on every fee, the payment's too (no ledger entry yet): EUR (1.62 + 1.30) × 19% = 0.5548 → 0.55;
  //   USD 0.20 × 19% = 0.038 → 0.04 USD → × 0.9 = 0.036 → 0.04 EUR.
  // Costs = 1.30 + 1.62 + 0.18 + 0.55 + 0.04 = 3.69; profit 21.31; margin 2131 / 2500 → 8524 bp.
  it('estimates VAT on the estimates and on the recorded fees the ledger has no VAT for yet', () => {
    const result = computeOrderProfit(
      {
        receipt: receipt({ currency: 'EUR', totalPriceMinor: 2500, subtotalMinor: 2500 }),
        payments: [payment('EUR', 130)],
        ledgerEntries: [],
        printifyOrders: [],
      },
      { ...usdShop, displayCurrency: 'EUR', bankCountry: 'DE', paymentAccountCurrency: 'EUR' },
    );
    expect(figures(result)).toEqual({
      revenue: '25.00',
      costs: [
        'processing/payment 1.30',
        'transaction/estimate 1.62',
        'listing/estimate 0.18',
        'vat_on_fees/estimate 0.55',
        'vat_on_fees/estimate 0.04',
      ],
      totalCosts: '3.69',
      netProfit: '21.31',
      marginBasisPoints: 8524,
    });
  });
});

describe('golden: the regulatory operating fee', () => {
  // A test table with two dated French rates: 0.40% from 2024-01-01, 0.47% from 2025-07-01.
  const table: RegulatoryFeeRate[] = [
    { country: 'FR', rate: basisPoints(40), validFrom: '2024-01-01', readOn: '2026-11-28', source: 'test' },
    { country: 'FR', rate: basisPoints(47), validFrom: '2025-07-01', readOn: '2026-11-28', source: 'test' },
    { country: 'GB', rate: basisPoints(32), validFrom: null, readOn: '2026-11-28', source: 'test' },
  ];
  it('takes the rate in force on the order date, by country', () => {
    expect(regulatoryFeeRate('FR', '2023-12-31', table)).toBeNull();
    expect(regulatoryFeeRate('fr', '2025-06-30', table)?.rate).toBe(40);
    expect(regulatoryFeeRate('FR', '2025-07-01', table)?.rate).toBe(47);
    expect(regulatoryFeeRate('GB', '2020-01-01', table)?.rate).toBe(32);
    expect(regulatoryFeeRate('US', '2026-03-14', table)).toBeNull();
    expect(regulatoryFeeRate(null, '2026-03-14', table)).toBeNull();
  });

  // Etsy's table: the fee started 2021-07-01 (UK 0.25% then); the UK's 0.32% was read 2026-11-28 with no
  // start date, so it holds from the fee's start; Spain's 0.40% and Turkey's 1.1% are the launch rates.
  it('starts on 2021-07-01, the newest known rate superseding the launch one until a later dated row', () => {
    expect(regulatoryFeeRate('GB', '2021-06-30')).toBeNull();
    expect(regulatoryFeeRate('GB', '2021-07-01')).toMatchObject({ rate: 32, validFrom: null });
    expect(regulatoryFeeRate('IT', '2026-03-14')?.rate).toBe(32);
    expect(regulatoryFeeRate('FR', '2026-03-14')?.rate).toBe(47);
    expect(regulatoryFeeRate('ES', '2026-03-14')).toMatchObject({ rate: 40, validFrom: '2021-07-01' });
    expect(regulatoryFeeRate('TR', '2021-06-30')).toBeNull();
    expect(regulatoryFeeRate('TR', '2021-07-01')?.rate).toBe(110);
    const later: RegulatoryFeeRate = {
      ...regulatoryFeeRate('GB', '2026-03-14')!,
      rate: basisPoints(48),
      validFrom: '2027-01-01',
    };
    const withLater = [...REGULATORY_FEE_RATES, later];
    expect(regulatoryFeeRate('GB', '2026-12-31', withLater)?.rate).toBe(32);
    expect(regulatoryFeeRate('GB', '2027-01-01', withLater)?.rate).toBe(48);
  });

  // A French seller (EUR, shown in EUR), item 100.00, no ledger: 0.47% × 100.00 = 0.47 EUR, estimated;
  // a US seller: none. With the ledger's regulatory_operating_fee −0.50: that, and no estimate.
  const frOrder = {
    receipt: receipt({ currency: 'EUR', totalPriceMinor: 10_000, subtotalMinor: 10_000 }),
    payments: [payment('EUR', 430)],
    printifyOrders: [],
  };
  const frShop = { ...usdShop, displayCurrency: 'EUR', bankCountry: 'FR', paymentAccountCurrency: 'EUR' } as const;
  it("estimates it from the seller's country, and the ledger's entry wins", () => {
    expect(figures(computeOrderProfit({ ...frOrder, ledgerEntries: [] }, frShop)).costs).toContain(
      'regulatory/estimate 0.47',
    );
    const us = figures(
      computeOrderProfit(
        { ...frOrder, receipt: receipt({ totalPriceMinor: 10_000, subtotalMinor: 10_000 }), ledgerEntries: [] },
        usdShop,
      ),
    );
    expect(us.costs.some((cost) => cost.startsWith('regulatory'))).toBe(false);
    const withLedger = figures(
      computeOrderProfit({ ...frOrder, ledgerEntries: [ledger('regulatory_operating_fee', -50, 'EUR')] }, frShop),
    );
    expect(withLedger.costs.filter((cost) => cost.startsWith('regulatory'))).toEqual(['regulatory/ledger 0.50']);
  });
});

describe('golden: an unpaid receipt', () => {
  // is_paid false: item 30.00 is not revenue yet (revenue 0.00, an "unpaid" line of 30.00 says why),
  // and no fee is estimated meanwhile: costs 0.00, profit 0.00.
  it('is not revenue and gets no estimates until paid', () => {
    const result = computeOrderProfit(
      {
        receipt: receipt({ status: 'open', isPaid: false, totalPriceMinor: 3000, subtotalMinor: 3000 }),
        payments: [],
        ledgerEntries: [],
        printifyOrders: [],
      },
      ukShop,
    );
    expect(figures(result)).toMatchObject({ revenue: '0.00', costs: [], totalCosts: '0.00', netProfit: '0.00' });
    expect(result.feesEstimated).toBe(false);
    const stored = storedOrderFigures(result, goldenRates);
    expect(stored.breakdown.revenueLines.map((line) => [line.kind, line.original.minor])).toEqual([
      ['items', 3000],
      ['unpaid', 3000],
    ]);
  });
});

describe("golden: a refund at its own date's rate", () => {
  // GBP shop shown in USD. Order 2026-03-14 (GBP>USD 1.30); refund of 20.00 on 2026-04-02 (GBP>USD 1.20).
  // Item 50.00, no tax → refund share 20.00 → revenue 30.00 GBP.
  // Revenue in USD = 50.00 × 1.30 − 20.00 × 1.20 = 65.00 − 24.00 = 41.00 (not 30.00 × 1.30 = 39.00).
  // Estimates: transaction 6.5% × 30.00 = 1.95 GBP → × 1.30 = 2.535 → 2.54 (half to even);
  //   listing USD 0.20; processing not estimated (bank country unknown).
  // Costs = 2.54 + 0.20 = 2.74; profit 41.00 − 2.74 = 38.26; margin 3826 / 4100 → 9332 bp.
  const byDate: Record<string, Record<string, string>> = {
    '2026-03-14': { 'GBP>USD': '1.30' },
    '2026-04-02': { 'GBP>USD': '1.20' },
  };
  const convert: ProfitConverter = (amount, to: CurrencyCode, onDate) =>
    fixedRateConverter(byDate[onDate] ?? {})(amount, to, onDate);

  it('converts the refund at the rate of the day it was made', () => {
    const result = computeOrderProfit(
      {
        receipt: receipt({
          currency: 'GBP',
          status: 'partially refunded',
          totalPriceMinor: 5000,
          subtotalMinor: 5000,
          refundedMinor: 2000,
          refunds: [{ amountMinor: 2000, refundedAt: new Date('2026-04-02T10:00:00Z') }],
        }),
        payments: [],
        ledgerEntries: [],
        printifyOrders: [],
      },
      { ...usdShop, bankCountry: null, paymentAccountCurrency: 'GBP', convert },
    );
    expect(figures(result)).toEqual({
      revenue: '41.00',
      costs: ['transaction/estimate 2.54', 'listing/estimate 0.20'],
      totalCosts: '2.74',
      netProfit: '38.26',
      marginBasisPoints: 9332,
    });
    const refundLine = storedOrderFigures(result, convert).breakdown.revenueLines.find(
      (line) => line.kind === 'refunds',
    );
    expect(refundLine).toMatchObject({
      display: { minor: 2400, currency: 'USD' },
      rate: '1.20',
      rateDate: '2026-04-02',
    });
  });
});

describe('golden: a full refund at a dearer rate', () => {
  // GBP shop shown in USD. Item 50.00 on 2026-03-14 (GBP>USD 1.30), refunded in full on 2026-04-02 at 1.40:
  // 50.00 × 1.30 − 50.00 × 1.40 = −5.00, but nothing is left of the sale: revenue 0.00 (found by the
  // sandbox's demo sellers: a fully refunded order at −0.02 EUR).
  const convert: ProfitConverter = (amount, to: CurrencyCode, onDate) =>
    fixedRateConverter(onDate === '2026-04-02' ? { 'GBP>USD': '1.40' } : { 'GBP>USD': '1.30' })(amount, to, onDate);
  it('leaves revenue at zero, never below', () => {
    const refunded = (status: string, refundedMinor: number) =>
      computeOrderProfit(
        {
          receipt: receipt({
            currency: 'GBP',
            status,
            totalPriceMinor: 5000,
            subtotalMinor: 5000,
            refundedMinor,
            refunds: [{ amountMinor: refundedMinor, refundedAt: new Date('2026-04-02T10:00:00Z') }],
          }),
          payments: [],
          ledgerEntries: [],
          printifyOrders: [],
        },
        { ...usdShop, bankCountry: null, paymentAccountCurrency: 'GBP', convert },
      );
    expect(figures(refunded('fully refunded', 5000)).revenue).toBe('0.00');
    // 49.00 of 50.00 back: 65.00 − 49.00 × 1.40 = 65.00 − 68.60 < 0 → 0.00.
    expect(figures(refunded('partially refunded', 4900)).revenue).toBe('0.00');
  });
});

describe('golden: a VAT-registered seller', () => {
  // UK seller, GBP shop, shown in GBP: item 30.00 → revenue 30.00 (no VAT collected by Etsy).
  // Payment fee 1.40 (4% × 30.00 + 0.20). Ledger: transaction −1.95, vat_seller_services −0.39.
  // Estimates: listing USD 0.20 → 0.15 GBP; regulatory 0.32% × 30.00 = 0.096 → 0.10.
  // Not registered: VAT on the estimates only (the ledger has the order): USD 0.04 → 0.03 GBP; GBP 0.10 × 20% = 0.02.
  //   Costs = 1.40 + 1.95 + 0.39 + 0.15 + 0.10 + 0.03 + 0.02 = 4.04; profit 25.96; margin → 8653 bp.
  // Registered: the VAT is reclaimed, not a cost: the ledger's 0.39 shows as 0.00, none estimated.
  //   Costs = 1.40 + 1.95 + 0.00 + 0.15 + 0.10 = 3.60; profit 26.40; margin → 8800 bp.
  const order = {
    receipt: receipt({ currency: 'GBP', totalPriceMinor: 3000, subtotalMinor: 3000 }),
    payments: [payment('GBP', 140)],
    ledgerEntries: [ledger('transaction', -195, 'GBP'), ledger('vat_seller_services', -39, 'GBP')],
    printifyOrders: [],
  };
  it('pays VAT on fees when not registered', () => {
    expect(figures(computeOrderProfit(order, ukShop))).toEqual({
      revenue: '30.00',
      costs: [
        'processing/payment 1.40',
        'transaction/ledger 1.95',
        'vat_on_fees/ledger 0.39',
        'listing/estimate 0.15',
        'regulatory/estimate 0.10',
        'vat_on_fees/estimate 0.03',
        'vat_on_fees/estimate 0.02',
      ],
      totalCosts: '4.04',
      netProfit: '25.96',
      marginBasisPoints: 8653,
    });
  });

  it('reclaims it when registered', () => {
    const result = computeOrderProfit(order, { ...ukShop, vatRegistered: true });
    expect(figures(result)).toEqual({
      revenue: '30.00',
      costs: [
        'processing/payment 1.40',
        'transaction/ledger 1.95',
        'vat_on_fees/ledger 0.00',
        'listing/estimate 0.15',
        'regulatory/estimate 0.10',
      ],
      totalCosts: '3.60',
      netProfit: '26.40',
      marginBasisPoints: 8800,
    });
    expect(result.costs.find((cost) => cost.kind === 'vat_on_fees')?.note).toContain('0.39 GBP reclaimed');
  });
});
