import { matchOrders } from './engine';
import { computeOrderProfit } from '../profit/order-profit';
import { figures, ledger, line, payment, printifyOrder, receipt, usdShop } from '../profit/testing/builders';

/**
 * Issue 17's golden cases end to end in the domain: the matching engine puts the Printify
 * orders on the receipt, and the profit of that receipt counts every one of them. Figures
 * worked by hand (integrations.md §a.6–§a.8, §b.4; ADR 0010), not by running the engine.
 *
 * The receipt: item 20.00, shipping 5.00, no tax → revenue 25.00. Payment fees 1.00
 * (3% × 25.00 + 0.25); ledger transaction −1.30 and shipping_transaction −0.33 → transaction 1.63;
 * listing fee not in the ledger → estimate 0.20. Each Printify order: production 7.49, shipping 6.99.
 */
const money = { receipt: receipt({ totalPriceMinor: 2000, subtotalMinor: 2000, totalShippingMinor: 500 }) };
const fees = {
  payments: [payment('USD', 100)],
  ledgerEntries: [ledger('transaction', -130), ledger('shipping_transaction', -33)],
};
const original = printifyOrder([line(1, 749, 699)], { orderId: '64a1f0c2e7b3' });
const reprint = printifyOrder([line(1, 749, 699)], { orderId: '64b2aa10ffee' });
const split = printifyOrder([line(2, 300, 450)], { orderId: '64c3000split' });
const profitOf = (printifyOrders: (typeof original)[]) =>
  figures(computeOrderProfit({ ...money, ...fees, printifyOrders }, usdShop));

describe('golden: a receipt with several Printify orders', () => {
  it('a reprint: its cost is the receipt’s, and the margin is the truth (−27.16 %, not +30.76 %)', () => {
    // The engine puts the reprint (named only by reprinted_order_ids) on the original's receipt.
    const [record] = matchOrders({
      receipts: [
        {
          shopId: 'e',
          receiptId: '3001',
          buyerName: 'Ada',
          orderedAt: new Date('2026-03-14T10:00:00Z'),
          lines: [{ title: 'Mug', sku: 'MUG', quantity: 1 }],
        },
      ],
      orders: [
        {
          shopId: 'p',
          orderId: original.orderId,
          shopOrderId: '3001',
          shopOrderLabel: null,
          isReprint: false,
          buyerName: 'Ada',
          orderedAt: new Date('2026-03-14T11:00:00Z'),
          lines: [{ title: 'Mug', sku: 'MUG', quantity: 1 }],
        },
        {
          shopId: 'p',
          orderId: reprint.orderId,
          shopOrderId: null,
          shopOrderLabel: null,
          isReprint: true,
          reprintedOrderIds: [original.orderId],
          orderType: 'manual',
          buyerName: null,
          orderedAt: new Date('2026-03-20T11:00:00Z'),
          lines: [{ title: 'Mug', sku: 'MUG', quantity: 1 }],
        },
      ],
      kept: [],
      now: new Date('2026-04-01T00:00:00Z'),
    });
    expect([record.order?.id, ...record.attached.map((extra) => extra.order.id)]).toEqual([
      original.orderId,
      reprint.orderId,
    ]);

    // Original alone: costs 7.49 + 6.99 + 1.00 + 1.63 + 0.20 = 17.31; profit 7.69; 7.69 / 25.00 → 3076 bp.
    expect(profitOf([original])).toMatchObject({ totalCosts: '17.31', netProfit: '7.69', marginBasisPoints: 3076 });
    // With the reprint: production 14.98, shipping 13.98; costs 14.98 + 13.98 + 1.00 + 1.63 + 0.20 = 31.79;
    // profit 25.00 − 31.79 = −6.79; −6.79 / 25.00 → −2716 bp.
    expect(profitOf([original, reprint])).toEqual({
      revenue: '25.00',
      costs: [
        'printify_production/printify 14.98',
        'printify_shipping/printify 13.98',
        'printify_tax/printify 0.00',
        'processing/payment 1.00',
        'transaction/ledger 1.63',
        'listing/estimate 0.20',
      ],
      totalCosts: '31.79',
      netProfit: '-6.79',
      marginBasisPoints: -2716,
    });
  });

  it('a split order: both parts cost the receipt', () => {
    // The split part: 2 × 3.00 per unit = 6.00 production, 4.50 shipping.
    // Costs 7.49 + 6.00 + 6.99 + 4.50 + 1.00 + 1.63 + 0.20 = 27.81; profit −2.81; −2.81 / 25.00 → −1124 bp.
    expect(profitOf([original, split])).toMatchObject({
      totalCosts: '27.81',
      netProfit: '-2.81',
      marginBasisPoints: -1124,
    });
  });

  it('a canceled original with its reprint: the canceled order costs nothing', () => {
    // Only the reprint is charged: same figures as the original alone, 17.31 and 7.69.
    const canceled = { ...original, status: 'canceled' };
    expect(profitOf([canceled, reprint])).toMatchObject({ totalCosts: '17.31', netProfit: '7.69' });
  });
});
