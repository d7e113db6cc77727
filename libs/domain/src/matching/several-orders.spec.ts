import { matchOrders } from './engine';
import type { OrderRecordShape, PrintifyOrderToMatch, ReceiptToMatch } from './types';

/**
 * Issue 17, worked by hand: a receipt with several Printify orders (reprints, splits) and orders
 * that need no match. Payloads as real ones come: ids as strings, labels that differ from ids,
 * a reprint (order_type manual, no shop_order_id, as Printify makes them) before or after its
 * original, a canceled original.
 */
const NOW = new Date('2026-06-30T12:00:00Z');
const at = (iso: string) => new Date(iso);

function receipt(id: string, over: Partial<ReceiptToMatch> = {}): ReceiptToMatch {
  return {
    shopId: '5550001',
    receiptId: id,
    buyerName: 'Ada Lovelace',
    orderedAt: at('2026-05-01T10:00:00Z'),
    lines: [{ title: 'Cat Mug 11oz', sku: 'MUG-CAT-11', quantity: 1 }],
    ...over,
  };
}

function order(id: string, over: Partial<PrintifyOrderToMatch> = {}): PrintifyOrderToMatch {
  return {
    shopId: '900',
    orderId: id,
    shopOrderId: null,
    shopOrderLabel: null,
    isReprint: false,
    orderType: 'external',
    canceled: false,
    costMinor: 1250,
    buyerName: 'Ada Lovelace',
    orderedAt: at('2026-05-01T10:30:00Z'),
    lines: [{ title: 'Cat Mug 11oz', sku: 'MUG-CAT-11', quantity: 1 }],
    ...over,
  };
}

const original = order('64a1f0c2e7b3', { shopOrderId: '3012345678', shopOrderLabel: '#3012345678' });
const reprint = order('64b2aa10ffee', {
  isReprint: true,
  orderType: 'manual',
  reprintedOrderIds: ['64a1f0c2e7b3'],
  buyerName: null,
  orderedAt: at('2026-05-09T08:00:00Z'),
});

const summary = (records: readonly OrderRecordShape[]) =>
  records.map((r) => ({
    receipt: r.receipt?.id ?? null,
    order: r.order?.id ?? null,
    attached: r.attached.map((a) => `${a.order.id}:${a.reason}`),
    status: r.status,
    reason: r.notNeededReason,
  }));

describe('one receipt, several Printify orders', () => {
  it('puts a reprint naming only its original on the original’s receipt, whichever arrived first', () => {
    const expected = [
      {
        receipt: '3012345678',
        order: '64a1f0c2e7b3',
        attached: ['64b2aa10ffee:reprint'],
        status: 'matched',
        reason: null,
      },
    ];
    for (const orders of [
      [original, reprint],
      [reprint, original],
    ]) {
      expect(summary(matchOrders({ receipts: [receipt('3012345678')], orders, kept: [], now: NOW }))).toEqual(expected);
    }
  });

  it('scores a reprint whose original is not known yet like any order (the original takes over when it comes)', () => {
    const records = matchOrders({ receipts: [receipt('3012345678')], orders: [reprint], kept: [], now: NOW });
    expect(summary(records)).toEqual([
      // No buyer name on the reprint: pending, for the seller to confirm.
      { receipt: '3012345678', order: '64b2aa10ffee', attached: [], status: 'pending', reason: null },
    ]);
    expect(records[0].method).toBe('fuzzy');
  });

  it('puts a reprint that names the receipt itself there when its original is unknown', () => {
    const named = { ...reprint, shopOrderLabel: '3012345678' };
    const records = matchOrders({ receipts: [receipt('3012345678')], orders: [named], kept: [], now: NOW });
    expect(summary(records)).toEqual([
      { receipt: '3012345678', order: '64b2aa10ffee', attached: [], status: 'matched', reason: null },
    ]);
  });

  it('keeps the reprint with a canceled original on its receipt; the live order is the primary', () => {
    const canceled = { ...original, canceled: true, costMinor: 0 };
    const records = matchOrders({ receipts: [receipt('3012345678')], orders: [canceled, reprint], kept: [], now: NOW });
    expect(summary(records)).toEqual([
      {
        receipt: '3012345678',
        order: '64a1f0c2e7b3',
        attached: ['64b2aa10ffee:reprint'],
        status: 'matched',
        reason: null,
      },
    ]);
  });

  it('a canceled original without its receipt is not "canceled_empty" while a reprint hangs on it', () => {
    const canceled = order('64a1f0c2e7b3', { canceled: true, costMinor: 0, buyerName: 'Someone Else', lines: [] });
    const records = matchOrders({ receipts: [], orders: [canceled, reprint], kept: [], now: NOW });
    expect(summary(records)).toEqual([
      { receipt: null, order: '64a1f0c2e7b3', attached: ['64b2aa10ffee:reprint'], status: 'unmatched', reason: null },
    ]);
  });

  it('puts every order of a split (same receipt by shop_order_id or label) on it, the earliest the primary', () => {
    const first = order('701', { shopOrderId: '3012345678', orderedAt: at('2026-05-01T11:00:00Z') });
    const second = order('702', { shopOrderLabel: ' 3012345678 ', orderedAt: at('2026-05-01T12:00:00Z') });
    const third = order('700', { shopOrderId: '3012345678', orderedAt: at('2026-05-02T09:00:00Z') });
    const records = matchOrders({
      receipts: [receipt('3012345678')],
      orders: [third, second, first],
      kept: [],
      now: NOW,
    });
    expect(summary(records)).toEqual([
      { receipt: '3012345678', order: '701', attached: ['700:split', '702:split'], status: 'matched', reason: null },
    ]);
  });
});

describe('orders that need no match', () => {
  it('a receipt whose every line is digital: not_needed, digital, even when recent', () => {
    const digital = receipt('3019999999', { allDigital: true, orderedAt: at('2026-06-29T00:00:00Z') });
    expect(summary(matchOrders({ receipts: [digital], orders: [], kept: [], now: NOW }))).toEqual([
      { receipt: '3019999999', order: null, attached: [], status: 'not_needed', reason: 'digital' },
    ]);
  });

  it('a digital receipt is no fuzzy candidate for a look-alike Printify order', () => {
    const digital = receipt('3019999999', { allDigital: true });
    const records = matchOrders({ receipts: [digital], orders: [order('800')], kept: [], now: NOW });
    expect(summary(records).map((r) => r.status)).toEqual(['not_needed', 'unmatched']);
  });

  it('a Printify sample or manual order naming no receipt, and a canceled order that cost nothing', () => {
    const sample = order('801', { orderType: 'sample' });
    const manual = order('802', { orderType: 'manual', buyerName: 'Nobody Known', lines: [] });
    const canceled = order('803', { canceled: true, costMinor: 0, buyerName: 'Nobody Known', lines: [] });
    const canceledWithCost = order('804', { canceled: true, costMinor: 450, buyerName: 'Nobody Known', lines: [] });
    const records = matchOrders({
      receipts: [],
      orders: [sample, manual, canceled, canceledWithCost],
      kept: [],
      now: NOW,
    });
    expect(summary(records).map((r) => [r.order, r.status, r.reason])).toEqual([
      ['801', 'not_needed', 'printify_sample'],
      ['802', 'not_needed', 'printify_manual'],
      ['803', 'not_needed', 'canceled_empty'],
      ['804', 'unmatched', null],
    ]);
  });

  it('a manual order still fuzzy-matches its receipt (sellers place orders by hand for Etsy sales)', () => {
    const records = matchOrders({
      receipts: [receipt('301')],
      orders: [order('805', { orderType: 'manual' })],
      kept: [],
      now: NOW,
    });
    expect(summary(records)).toEqual([{ receipt: '301', order: '805', attached: [], status: 'matched', reason: null }]);
  });
});
