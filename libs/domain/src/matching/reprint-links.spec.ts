import { matchOrders } from './engine';
import { reprintOriginals } from './order-kinds';
import type { PrintifyOrderToMatch, ReceiptToMatch } from './types';

/**
 * integrations.md §b.4: an order's `metadata` carries `is_reprint`, `reprinted_order_ids[]` and
 * `child_reprinted_order_ids[]`, and a reprint's cost is attributed to the original order's
 * receipt. Which side of the pair fills which list is not documented, so a reprint is linked to
 * its original by any of them: the reprint naming its original (`reprinted_order_ids`), the
 * original naming its reprint (`child_reprinted_order_ids`), and, when a list names the other
 * way round, `is_reprint` says which of the two is the reprint.
 */
const NOW = new Date('2026-06-30T12:00:00Z');

const receipt: ReceiptToMatch = {
  shopId: 'etsy-1',
  receiptId: '1370762297',
  buyerName: 'Ada Lovelace',
  orderedAt: new Date('2026-05-01T10:00:00Z'),
  lines: [{ title: 'Cat Mug 11oz', sku: 'MUG-CAT-11', quantity: 1 }],
};

function order(id: string, over: Partial<PrintifyOrderToMatch> = {}): PrintifyOrderToMatch {
  return {
    shopId: 'pfy-1',
    orderId: id,
    shopOrderId: null,
    shopOrderLabel: null,
    isReprint: false,
    buyerName: 'Ada Lovelace',
    orderedAt: new Date('2026-05-01T10:30:00Z'),
    lines: [{ title: 'Cat Mug 11oz', sku: 'MUG-CAT-11', quantity: 1 }],
    ...over,
  };
}

const ORIGINAL = '5a96f649b2439217d070f507';
const REPRINT = '5a96f649b2439217d070f508';

function recordsOf(orders: PrintifyOrderToMatch[]) {
  return matchOrders({ receipts: [receipt], orders, kept: [], now: NOW }).map((record) => ({
    receipt: record.receipt?.id ?? null,
    order: record.order?.id ?? null,
    attached: record.attached.map((entry) => [entry.order.id, entry.reason]),
  }));
}

describe('reprints linked by any of their metadata marks', () => {
  it('attaches a reprint named only by its original’s child_reprinted_order_ids', () => {
    const original = order(ORIGINAL, { shopOrderId: '1370762297', childReprintedOrderIds: [REPRINT] });
    // The reprint as Printify may send it: no shop order, no list of its own, not flagged.
    const reprint = order(REPRINT, { orderedAt: new Date('2026-05-20T09:00:00Z') });
    expect(Array.from(reprintOriginals([original, reprint]))).toEqual([-1, 0]);
    expect(recordsOf([original, reprint])).toEqual([
      { receipt: '1370762297', order: ORIGINAL, attached: [[REPRINT, 'reprint']] },
    ]);
  });

  it('reads reprinted_order_ids on the original (naming its reprint) by is_reprint, not as a cycle', () => {
    const original = order(ORIGINAL, { shopOrderId: '1370762297', reprintedOrderIds: [REPRINT] });
    const reprint = order(REPRINT, { isReprint: true, reprintedOrderIds: [ORIGINAL] });
    expect(Array.from(reprintOriginals([original, reprint]))).toEqual([-1, 0]);
    expect(recordsOf([original, reprint])).toEqual([
      { receipt: '1370762297', order: ORIGINAL, attached: [[REPRINT, 'reprint']] },
    ]);
  });

  it('keeps the documented reading: the reprint names its original in reprinted_order_ids', () => {
    const original = order(ORIGINAL, { shopOrderId: '1370762297' });
    const reprint = order(REPRINT, { isReprint: true, reprintedOrderIds: [ORIGINAL] });
    expect(Array.from(reprintOriginals([original, reprint]))).toEqual([-1, 0]);
  });

  it('ignores a child list naming the order itself or an order it does not have', () => {
    const original = order(ORIGINAL, { shopOrderId: '1370762297', childReprintedOrderIds: [ORIGINAL, 'ffff'] });
    expect(Array.from(reprintOriginals([original]))).toEqual([-1]);
  });
});
