import { matchOrders } from './engine';
import { planRecordChanges } from './plan';
import type { OrderRecordShape, PrintifyOrderToMatch, ReceiptToMatch } from './types';

const NOW = new Date('2026-06-30T12:00:00Z');
const at = (iso: string) => new Date(iso);

function receipt(id: string, over: Partial<ReceiptToMatch> = {}): ReceiptToMatch {
  return {
    shopId: 'etsy-1',
    receiptId: id,
    buyerName: 'Ada Lovelace',
    orderedAt: at('2026-05-01T10:00:00Z'),
    lines: [{ title: 'Cat Mug 11oz', sku: 'MUG-CAT-11', quantity: 1 }],
    ...over,
  };
}

function order(id: string, over: Partial<PrintifyOrderToMatch> = {}): PrintifyOrderToMatch {
  return {
    shopId: 'pfy-1',
    orderId: id,
    shopOrderId: null,
    shopOrderLabel: null,
    isReprint: false,
    buyerName: 'Ada Lovelace',
    orderedAt: at('2026-05-01T10:30:00Z'),
    lines: [{ title: 'Cat Mug 11oz', sku: 'MUG-CAT-11', quantity: 1 }],
    ...over,
  };
}

const pairs = (records: readonly OrderRecordShape[]) =>
  records.map((record) => [
    record.receipt?.id ?? null,
    record.order?.id ?? null,
    record.status,
    record.method,
    record.confidence,
  ]);

describe('matchOrders: the exact pass', () => {
  it('matches an order naming the receipt by shop_order_id, with confidence 1, whatever the names say', () => {
    const records = matchOrders({
      receipts: [receipt('1001')],
      orders: [order('a', { shopOrderId: '1001', buyerName: 'Someone Else' })],
      kept: [],
      now: NOW,
    });
    expect(pairs(records)).toEqual([['1001', 'a', 'matched', 'exact', 1]]);
  });

  it('falls back to shop_order_label when shop_order_id is missing', () => {
    const records = matchOrders({
      receipts: [receipt('1001')],
      orders: [order('a', { shopOrderLabel: ' 1001 ' })],
      kept: [],
      now: NOW,
    });
    expect(pairs(records)).toEqual([['1001', 'a', 'matched', 'exact', 1]]);
  });

  // Issue 17: the reprint's cost belongs to the receipt, so it is attached, no longer left alone.
  it('gives the receipt to the original, not its reprint, and attaches the reprint to it', () => {
    const original = order('b', { shopOrderId: '1001', orderedAt: at('2026-05-02T00:00:00Z') });
    const reprint = order('a', { shopOrderId: '1001', isReprint: true, orderedAt: at('2026-05-01T00:00:00Z') });
    const records = matchOrders({ receipts: [receipt('1001')], orders: [reprint, original], kept: [], now: NOW });
    expect(pairs(records)).toEqual([['1001', 'b', 'matched', 'exact', 1]]);
    expect(records[0].attached).toEqual([{ order: { shopId: 'pfy-1', id: 'a' }, reason: 'reprint' }]);
  });

  it('never fuzzy-matches an order that names a receipt we have to another receipt', () => {
    const manual = {
      receipt: { shopId: 'etsy-1', id: '1001' },
      order: { shopId: 'pfy-1', id: 'z' },
      status: 'matched',
      method: 'manual',
      confidence: 1,
    } as const;
    const records = matchOrders({
      receipts: [receipt('1001'), receipt('1002')],
      orders: [order('a', { shopOrderId: '1001' }), order('z', { buyerName: 'Other', lines: [] })],
      kept: [
        {
          ...manual,
          attached: [],
          notNeededReason: null,
          orderDate: null,
          customerName: null,
          productTitle: null,
          productSku: null,
        },
      ],
      now: NOW,
    });
    expect(pairs(records)).toEqual([
      ['1001', 'z', 'matched', 'manual', 1],
      ['1002', null, 'unmatched', null, null],
      [null, 'a', 'unmatched', null, null],
    ]);
  });
});

describe('matchOrders: the fuzzy pass', () => {
  it('matches the same buyer, day and item above the accept threshold', () => {
    const [record] = matchOrders({ receipts: [receipt('1')], orders: [order('a')], kept: [], now: NOW });
    expect(record).toMatchObject({ status: 'matched', method: 'fuzzy', confidence: 1 });
  });

  it('compares names without case, accents, punctuation or word order', () => {
    const [record] = matchOrders({
      receipts: [receipt('1', { buyerName: "Zoë O'Neil" })],
      orders: [order('a', { buyerName: 'ONEIL zoe' })],
      kept: [],
      now: NOW,
    });
    expect(record).toMatchObject({ status: 'matched', method: 'fuzzy' });
  });

  it('leaves a pair between the review and accept thresholds pending for the user', () => {
    const [record] = matchOrders({
      receipts: [receipt('1')],
      orders: [order('a', { lines: [{ title: 'Dog Poster', sku: 'POSTER-DOG', quantity: 1 }] })],
      kept: [],
      now: NOW,
    });
    expect(record).toMatchObject({ status: 'pending', method: 'fuzzy' });
    expect(record.confidence).toBeGreaterThanOrEqual(0.55);
    expect(record.confidence).toBeLessThan(0.8);
  });

  it('is at most pending when a side has no buyer name', () => {
    const [record] = matchOrders({
      receipts: [receipt('1', { buyerName: null })],
      orders: [order('a')],
      kept: [],
      now: NOW,
    });
    expect(record).toMatchObject({ status: 'pending', method: 'fuzzy' });
  });

  it('never auto-matches two look-alike receipts to one order (ambiguous)', () => {
    const records = matchOrders({ receipts: [receipt('1'), receipt('2')], orders: [order('a')], kept: [], now: NOW });
    expect(records.map((record) => record.status)).toEqual(['unmatched', 'unmatched', 'unmatched']);
    expect(records.every((record) => record.method === null)).toBe(true);
  });

  it('settles the clear pair first, then the weaker one its rival no longer contests', () => {
    const records = matchOrders({
      receipts: [receipt('1'), receipt('2', { lines: [{ title: 'Cat Mug 15oz', sku: 'MUG-CAT-15', quantity: 1 }] })],
      orders: [order('a'), order('b', { lines: [{ title: 'Cat Mug 15oz', sku: 'MUG-CAT-15', quantity: 1 }] })],
      kept: [],
      now: NOW,
    });
    expect(pairs(records).map(([r, o, status]) => [r, o, status])).toEqual([
      ['1', 'a', 'matched'],
      ['2', 'b', 'matched'],
    ]);
  });

  it('pairs a weaker candidate in a later round, once its rival is settled, never by stealing', () => {
    const records = matchOrders({
      receipts: [receipt('1'), receipt('2', { lines: [{ title: 'Cat Mug 11oz', sku: 'MUG-CAT-11', quantity: 2 }] })],
      orders: [
        order('a'),
        order('b', { buyerName: 'Ada Byron', lines: [{ title: 'Cat Mug 11oz', sku: 'MUG-CAT-11', quantity: 2 }] }),
      ],
      kept: [],
      now: NOW,
    });
    // Receipt 2's best is order a (taken by receipt 1, clearly better); with a settled, b is 2's.
    expect(pairs(records).map(([r, o, status, method]) => [r, o, status, method])).toEqual([
      ['1', 'a', 'matched', 'fuzzy'],
      ['2', 'b', 'pending', 'fuzzy'],
    ]);
  });

  it('ignores orders outside the date window', () => {
    const records = matchOrders({
      receipts: [receipt('1')],
      orders: [order('a', { orderedAt: at('2026-05-20T00:00:00Z') })],
      kept: [],
      now: NOW,
    });
    expect(records.map((record) => record.status)).toEqual(['unmatched', 'unmatched']);
  });
});

describe('matchOrders: what is left alone', () => {
  it('keeps a recent receipt pending (under 7 days) and an older one unmatched; lone orders are unmatched', () => {
    const records = matchOrders({
      receipts: [
        receipt('1', { orderedAt: at('2026-06-25T00:00:00Z') }),
        receipt('2', { orderedAt: at('2026-06-20T00:00:00Z'), buyerName: 'B' }),
      ],
      orders: [order('z', { buyerName: 'Nobody', orderedAt: at('2026-01-01T00:00:00Z') })],
      kept: [],
      now: NOW,
    });
    expect(pairs(records)).toEqual([
      ['1', null, 'pending', null, null],
      ['2', null, 'unmatched', null, null],
      [null, 'z', 'unmatched', null, null],
    ]);
  });

  it('keeps a manual match even when an exact pair would take its sides', () => {
    const kept: OrderRecordShape = {
      receipt: { shopId: 'etsy-1', id: '1' },
      order: { shopId: 'pfy-1', id: 'b' },
      status: 'matched',
      method: 'manual',
      confidence: 1,
      attached: [],
      notNeededReason: null,
      orderDate: null,
      customerName: null,
      productTitle: null,
      productSku: null,
    };
    const records = matchOrders({
      receipts: [receipt('1')],
      orders: [order('a', { shopOrderId: '1' }), order('b')],
      kept: [kept],
      now: NOW,
    });
    expect(pairs(records)).toEqual([
      ['1', 'b', 'matched', 'manual', 1],
      [null, 'a', 'unmatched', null, null],
    ]);
    expect(records[0]).toMatchObject({
      customerName: 'Ada Lovelace',
      productTitle: 'Cat Mug 11oz',
      productSku: 'MUG-CAT-11',
    });
  });

  it('drops a kept record whose side is gone and matches the other side afresh', () => {
    const kept: OrderRecordShape = {
      receipt: { shopId: 'etsy-1', id: '1' },
      order: { shopId: 'pfy-1', id: 'gone' },
      status: 'matched',
      method: 'manual',
      confidence: 1,
      attached: [],
      notNeededReason: null,
      orderDate: null,
      customerName: null,
      productTitle: null,
      productSku: null,
    };
    expect(pairs(matchOrders({ receipts: [receipt('1')], orders: [order('a')], kept: [kept], now: NOW }))).toEqual([
      ['1', 'a', 'matched', 'fuzzy', 1],
    ]);
  });
});

describe('planRecordChanges', () => {
  const shape = (
    r: string | null,
    o: string | null,
    status: OrderRecordShape['status'] = 'unmatched',
  ): OrderRecordShape => ({
    receipt: r ? { shopId: 'etsy-1', id: r } : null,
    order: o ? { shopId: 'pfy-1', id: o } : null,
    status,
    method: r && o ? 'fuzzy' : null,
    confidence: r && o ? 0.9 : null,
    attached: [],
    notNeededReason: null,
    orderDate: null,
    customerName: null,
    productTitle: null,
    productSku: null,
  });

  it('a lone receipt that gets its order keeps its id; the lone order record goes', () => {
    const existing = [
      { ...shape('1', null), id: 'rec-r', archived: false },
      { ...shape(null, 'a'), id: 'rec-o', archived: false },
    ];
    const changes = planRecordChanges(existing, [shape('1', 'a', 'matched')]);
    expect(changes).toEqual({
      inserts: [],
      updates: [{ id: 'rec-r', record: shape('1', 'a', 'matched'), orderSideChanges: true, attachedChanges: false }],
      deletes: ['rec-o'],
    });
  });

  it('a lone order whose receipt arrives later keeps its id', () => {
    const changes = planRecordChanges(
      [{ ...shape(null, 'a'), id: 'rec-o', archived: false }],
      [shape('1', 'a', 'matched')],
    );
    expect(changes).toEqual({
      inserts: [],
      updates: [{ id: 'rec-o', record: shape('1', 'a', 'matched'), orderSideChanges: false, attachedChanges: false }],
      deletes: [],
    });
  });

  it('an order leaving a pair gets a new record; the receipt keeps the pair id', () => {
    const changes = planRecordChanges(
      [{ ...shape('1', 'a', 'matched'), id: 'rec-1' }].map((r) => ({ ...r, archived: false })),
      [shape('1', null), shape(null, 'a')],
    );
    expect(changes).toEqual({
      inserts: [shape(null, 'a')],
      updates: [{ id: 'rec-1', record: shape('1', null), orderSideChanges: true, attachedChanges: false }],
      deletes: [],
    });
  });

  it('changes nothing when the stored records are the desired ones', () => {
    const existing = [shape('1', 'a', 'matched'), shape('2', null), shape(null, 'b')].map((record, i) => ({
      ...record,
      id: `id-${i}`,
      archived: false,
    }));
    expect(
      planRecordChanges(
        existing,
        existing.map(({ id: _id, archived: _a, ...record }) => record),
      ),
    ).toEqual({ inserts: [], updates: [], deletes: [] });
  });
});
