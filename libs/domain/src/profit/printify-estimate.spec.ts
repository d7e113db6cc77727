import { computeOrderProfit } from './order-profit';
import { estimatePrintifyCost, medianMinor, type PrintifySkuHistoryLine } from './printify-estimate';
import { figures, ledger, line, payment, printifyOrder, receipt, usdShop } from './testing/builders';

/**
 * Golden cases of the pending order's Printify estimate (ADR 0031), each worked out by hand in
 * the comment above it: the median unit cost of the SKU's latest 5 Printify lines × quantity,
 * plus the median line shipping, in the newest line's currency.
 */
let seq = 0;
function past(sku: string, day: number, costMinor: number, shippingMinor: number, quantity = 1, currency = 'USD') {
  seq += 1;
  return {
    sku,
    orderId: `O${String(seq)}`,
    orderedAt: new Date(Date.UTC(2026, 2, day)),
    currency,
    quantity,
    costMinor,
    shippingMinor,
  } as PrintifySkuHistoryLine;
}

describe('golden: the median', () => {
  it('takes the middle value, or the mean of the middle two rounded half up', () => {
    expect(medianMinor([900, 1100, 1000])).toBe(1000);
    expect(medianMinor([1000, 1001])).toBe(1001); // 1000.5 → 1001
    expect(medianMinor([1000, 1003, 1, 5000])).toBe(1002); // (1000 + 1003) / 2 = 1001.5 → 1002
  });
});

describe('golden: estimatePrintifyCost', () => {
  // SKU-MUG over 6 orders, newest first: day 9 cost 11.00, day 8 12.00, day 7 10.00, day 6 13.00,
  // day 5 10.50, day 1 50.00 (the 6th, not read). Medians of {11, 12, 10, 13, 10.50} = 11.00;
  // shipping {4.00, 4.50, 4.00, 5.00, 4.00} = 4.00. Quantity 2: production 22.00, shipping 4.00.
  const history = [
    past('SKU-MUG', 9, 1100, 400),
    past('SKU-MUG', 8, 1200, 450),
    past('SKU-MUG', 7, 1000, 400),
    past('SKU-MUG', 6, 1300, 500),
    past('SKU-MUG', 5, 1050, 400),
    past('SKU-MUG', 1, 5000, 900),
    past('SKU-TEE', 3, 900, 300),
  ];

  it('reads the latest 5 lines of the same SKU', () => {
    expect(estimatePrintifyCost([{ sku: 'SKU-MUG', quantity: 2 }], history, 'per_unit')).toEqual({
      state: 'estimated',
      lines: [{ sku: 'SKU-MUG', quantity: 2, currency: 'USD', unitCostMinor: 1100, shippingMinor: 400, linesRead: 5 }],
    });
  });

  // Per-line reading: a quantity-3 line costing 30.00 is 10.00 a unit; with 12.00 (qty 1): median of {10, 12} = 11.00.
  it('divides a per-line cost by its quantity', () => {
    const perLine = [past('SKU-BAG', 4, 3000, 600, 3), past('SKU-BAG', 3, 1200, 400)];
    const estimate = estimatePrintifyCost([{ sku: ' SKU-BAG ', quantity: 1 }], perLine, 'per_line');
    expect(estimate).toMatchObject({ state: 'estimated', lines: [{ unitCostMinor: 1100, shippingMinor: 500 }] });
  });

  // Newest line in EUR: only the EUR lines count (9.00 and 9.50 → 9.25), not the older USD 20.00.
  it('stays in the currency of the newest line', () => {
    const mixed = [
      past('SKU-CAP', 5, 900, 300, 1, 'EUR'),
      past('SKU-CAP', 4, 950, 300, 1, 'EUR'),
      past('SKU-CAP', 3, 2000, 300),
    ];
    expect(estimatePrintifyCost([{ sku: 'SKU-CAP', quantity: 1 }], mixed, 'per_unit')).toMatchObject({
      state: 'estimated',
      lines: [{ currency: 'EUR', unitCostMinor: 925, linesRead: 2 }],
    });
  });

  it('has no estimate when a line has no SKU or its SKU no history', () => {
    expect(
      estimatePrintifyCost(
        [
          { sku: 'SKU-MUG', quantity: 1 },
          { sku: 'SKU-NEW', quantity: 1 },
          { sku: '', quantity: 1 },
        ],
        history,
        'per_unit',
      ),
    ).toEqual({ state: 'no_history', skusWithoutHistory: ['SKU-NEW'], linesWithoutSku: 1 });
    expect(estimatePrintifyCost([], history, 'per_unit')).toEqual({
      state: 'no_history',
      skusWithoutHistory: [],
      linesWithoutSku: 0,
    });
  });
});

describe('golden: a receipt awaiting its Printify order', () => {
  // Receipt: 2 × SKU-MUG, item 58.80, no shipping → revenue 58.80; no payment or ledger yet, so
  // every fee is estimated: transaction 6.5% × 58.80 = 3.822 → 3.82, processing 3% × 58.80 =
  // 1.764 → 1.76 and 0.25, listing 0.20 × 2 = 0.40.
  const waiting = {
    receipt: receipt({
      totalPriceMinor: 5880,
      subtotalMinor: 5880,
      lines: [{ transactionId: 'T1', listingId: 'L1', quantity: 2, sku: 'SKU-MUG' }],
    }),
    payments: [],
    ledgerEntries: [],
    printifyOrders: [],
  };

  // Estimate: 11.00 × 2 = 22.00 production, 4.00 shipping, both estimated.
  // Costs 22.00 + 4.00 + 3.82 + 1.76 + 0.25 + 0.40 = 32.23; profit 58.80 − 32.23 = 26.57.
  it('counts the estimate as estimated Printify cost lines', () => {
    const result = computeOrderProfit(
      {
        ...waiting,
        printifyPending: {
          state: 'estimated',
          lines: [
            { sku: 'SKU-MUG', quantity: 2, currency: 'USD', unitCostMinor: 1100, shippingMinor: 400, linesRead: 5 },
          ],
        },
      },
      usdShop,
    );
    expect(result.printifyCost).toBe('estimated');
    const printifyLines = result.costs.filter((cost) => cost.kind.startsWith('printify_'));
    expect(printifyLines.map((cost) => [cost.kind, cost.source, cost.estimated, cost.original.amountMinor])).toEqual([
      ['printify_production', 'estimate', true, 2200],
      ['printify_shipping', 'estimate', true, 400],
    ]);
    expect(figures(result)).toMatchObject({
      costs: [
        'printify_production/estimate 22.00',
        'printify_shipping/estimate 4.00',
        'transaction/estimate 3.82',
        'processing/estimate 1.76',
        'processing/estimate 0.25',
        'listing/estimate 0.40',
      ],
      totalCosts: '32.23',
      netProfit: '26.57',
    });
  });

  it('is awaiting, with no estimate, while the receipt is not paid yet (not a loss on an unpaid order)', () => {
    const result = computeOrderProfit(
      {
        ...waiting,
        receipt: { ...waiting.receipt, isPaid: false },
        printifyPending: {
          state: 'estimated',
          lines: [
            { sku: 'SKU-MUG', quantity: 2, currency: 'USD', unitCostMinor: 1100, shippingMinor: 400, linesRead: 5 },
          ],
        },
      },
      usdShop,
    );
    expect(result.printifyCost).toBe('awaiting');
    expect(result.costs).toEqual([]);
  });

  it('is awaiting, with no Printify line, without history', () => {
    const result = computeOrderProfit(
      { ...waiting, printifyPending: { state: 'no_history', skusWithoutHistory: ['SKU-MUG'], linesWithoutSku: 0 } },
      usdShop,
    );
    expect(result.printifyCost).toBe('awaiting');
    expect(result.costs.some((cost) => cost.kind.startsWith('printify_'))).toBe(false);
  });

  it('takes the Printify order once it is there, whatever the estimate', () => {
    const result = computeOrderProfit(
      {
        ...waiting,
        printifyOrders: [printifyOrder([line(2, 1000, 350)])],
        printifyPending: { state: 'no_history', skusWithoutHistory: ['SKU-MUG'], linesWithoutSku: 0 },
      },
      usdShop,
    );
    expect(result.printifyCost).toBe('printify');
    expect(figures(result).costs.slice(0, 2)).toEqual([
      'printify_production/printify 20.00',
      'printify_shipping/printify 3.50',
    ]);
  });

  it('expects no Printify cost when nothing is awaited', () => {
    expect(computeOrderProfit(waiting, usdShop).printifyCost).toBe('none');
  });
});

describe('golden: estimated fees', () => {
  // Every fee from its source: processing 1.15 from the payment, transaction 1.95 and the sold
  // listing's renewal 0.20 from the ledger. Only the Printify cost is estimated, and it is not a fee.
  it('does not call an estimated Printify cost an estimated fee', () => {
    const result = computeOrderProfit(
      {
        receipt: receipt({ totalPriceMinor: 3000, subtotalMinor: 3000 }),
        payments: [payment('USD', 115)],
        ledgerEntries: [ledger('transaction', -195), ledger('renew_sold', -20)],
        printifyOrders: [],
        printifyPending: {
          state: 'estimated',
          lines: [
            { sku: 'SKU-MUG', quantity: 1, currency: 'USD', unitCostMinor: 1000, shippingMinor: 450, linesRead: 2 },
          ],
        },
      },
      usdShop,
    );
    expect(figures(result).costs).toEqual([
      'printify_production/estimate 10.00',
      'printify_shipping/estimate 4.50',
      'processing/payment 1.15',
      'transaction/ledger 1.95',
      'listing/ledger 0.20',
    ]);
    expect(result.feesEstimated).toBe(false);
  });
});
