import fc from 'fast-check';
import docsShape from '../../test-fixtures/printify/orders-page-docs-shape.json';
import ordersPage from '../../test-fixtures/printify/orders-page-1.json';
import shopsFixture from '../../test-fixtures/printify/shops.json';
import { PayloadSchemaError } from '../http/errors';
import { mapPrintifyOrder, mapPrintifyOrderPage, mapPrintifyShops, parsePrintifyTime } from './mappers';

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const validOrder = () => clone(ordersPage.data[0]) as unknown as Record<string, unknown>;

describe('Printify times', () => {
  it('reads the documented form and ISO variants as UTC', () => {
    expect(parsePrintifyTime('2026-01-01 09:00:00+00:00')?.toISOString()).toBe('2026-01-01T09:00:00.000Z');
    expect(parsePrintifyTime('2026-01-01T09:00:00Z')?.toISOString()).toBe('2026-01-01T09:00:00.000Z');
    expect(parsePrintifyTime('2026-01-01 09:00:00')?.toISOString()).toBe('2026-01-01T09:00:00.000Z');
    expect(parsePrintifyTime('2026-01-01 11:00:00+0200')?.toISOString()).toBe('2026-01-01T09:00:00.000Z');
    expect(parsePrintifyTime('2026-01-01 09:00:00.123456+00:00')?.toISOString()).toBe('2026-01-01T09:00:00.123Z');
    for (const bad of ['2026-02-30 00:00:00+00:00', 'yesterday', '2026-01-01', ''])
      expect(parsePrintifyTime(bad)).toBeNull();
  });
});

describe('Printify shops', () => {
  it('maps the bare array with lower-cased channels', () => {
    expect(mapPrintifyShops(shopsFixture)).toEqual({
      records: [
        { id: '5432100', title: 'CatMomPrints & Co', salesChannel: 'etsy' },
        { id: '5432101', title: 'Test store', salesChannel: 'disconnected' },
      ],
      payloads: shopsFixture,
      rejected: [],
    });
    expect(() => mapPrintifyShops({ data: [] })).toThrow(PayloadSchemaError);
  });
});

describe('Printify orders', () => {
  it('maps the page, rejecting the order without created_at, and reads the envelope', () => {
    const page = mapPrintifyOrderPage(ordersPage, 'USD', 1);
    expect(page).toMatchObject({ currentPage: 1, lastPage: 3, total: 23, hasNextPage: true });
    expect(page.records.map((o) => o.id)).toEqual(['5a96f649b2439217d070f507', '5a96f649b2439217d070f508']);
    expect(page.rejected).toEqual([
      {
        index: 2,
        id: '5a96f649b2439217d070f509',
        field: 'data[2].created_at',
        reason: 'is missing',
        payload: expect.anything(),
      },
    ]);
    // The record as received, for the quarantine.
    expect(page.rejected[0].payload).toBe(ordersPage.data[2]);
    expect(page.payloads).toEqual([ordersPage.data[0], ordersPage.data[1]]);
    const [order, reprint] = page.records;
    expect(order).toMatchObject({
      appOrderId: '215014.44',
      status: 'in-production',
      orderType: 'external',
      shopOrderId: '3012345678',
      shopOrderLabel: '3012345678',
      isReprint: false,
      currency: 'USD',
      totalPrice: { amountMinor: 2100, currency: 'USD' },
      totalShipping: { amountMinor: 400, currency: 'USD' },
      totalTax: { amountMinor: 0, currency: 'USD' },
      shippingMethod: 1,
      addressTo: { firstName: 'Zoë', lastName: "O'Brien", country: 'US', zip: '12345' },
      inexactAmounts: [],
    });
    expect(order.createdAt.toISOString()).toBe('2026-01-01T09:00:00.000Z');
    expect(order.lineItems[0]).toMatchObject({
      productId: '5b05842f3921c9547531758d',
      variantId: '17887',
      printProviderId: '5',
      quantity: 2,
      cost: { amountMinor: 1050 },
      shippingCost: { amountMinor: 400 },
      retailPrice: { amountMinor: 2200 },
      title: '"Best Cat Mom" T-Shirt',
      sku: 'PF-TEE-BLK-M',
      variantLabel: 'Black / M',
    });
    expect(reprint).toMatchObject({
      orderType: 'sample',
      isReprint: true,
      reprintedOrderIds: ['5a96f649b2439217d070f507'],
      shopOrderId: null,
      status: 'sending_to_production_delegate',
    });
    expect(reprint.shipments[0].deliveredAt?.toISOString()).toBe('2026-01-05T12:00:00.000Z');
  });

  it('uses the currency the caller names, scaling cents for other exponents', () => {
    expect(mapPrintifyOrder(validOrder(), 'EUR').totalPrice).toEqual({ amountMinor: 2100, currency: 'EUR' });
    const jpy = mapPrintifyOrder(validOrder(), 'JPY');
    expect(jpy.totalPrice).toEqual({ amountMinor: 21, currency: 'JPY' });
    // 1050 "cents" of yen is 10.5 yen: rounded half to even, and flagged.
    expect(jpy.lineItems[0].cost).toEqual({ amountMinor: 10, currency: 'JPY' });
    expect(jpy.inexactAmounts).toEqual(['line_items[0].cost']);
    const raw = validOrder();
    raw.total_tax = 150;
    expect(mapPrintifyOrder(raw, 'JPY').inexactAmounts).toEqual(['total_tax', 'line_items[0].cost']);
  });

  it('stops paging by the documented rules', () => {
    const one = (extra: Record<string, unknown>, requested = 1) =>
      mapPrintifyOrderPage({ data: [validOrder()], ...extra }, 'USD', requested).hasNextPage;
    expect(mapPrintifyOrderPage(docsShape, 'USD', 4)).toMatchObject({
      currentPage: 4,
      lastPage: null,
      total: null,
      hasNextPage: false,
    });
    expect(one({ current_page: 3, last_page: 3 }, 3)).toBe(false);
    expect(one({ current_page: 2, last_page: 3 }, 2)).toBe(true);
    expect(one({ current_page: 2, next_page_url: null }, 2)).toBe(false);
    expect(one({ current_page: 2, next_page_url: '/?page=3' }, 2)).toBe(true);
    expect(one({ current_page: 1 }, 5)).toBe(false);
    expect(one({})).toBe(false);
    expect(mapPrintifyOrderPage({ data: Array.from({ length: 10 }, validOrder) }, 'USD', 1).hasNextPage).toBe(true);
    expect(
      mapPrintifyOrderPage({ data: [validOrder()], last_page: null, total: null, prev_page_url: null }, 'USD', 1),
    ).toMatchObject({ lastPage: null, total: null });
    expect(() => mapPrintifyOrderPage({ current_page: 1 }, 'USD', 1)).toThrow(/data is missing/);
  });

  it('ignores unknown fields and accepts numbers as strings (property)', () => {
    const base = mapPrintifyOrder(validOrder(), 'USD');
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.string({ minLength: 1 }).filter((k) => !(k in validOrder()) && k !== '__proto__'),
          fc.jsonValue(),
        ),
        fc.boolean(),
        (extra, stringify) => {
          const raw = { ...validOrder(), ...extra };
          if (stringify) {
            raw.total_price = String(raw.total_price);
            raw.total_tax = String(raw.total_tax);
            const items = raw.line_items as Record<string, unknown>[];
            items[0] = {
              ...items[0],
              cost: String(items[0].cost),
              quantity: String(items[0].quantity),
              variant_id: String(items[0].variant_id),
            };
            (raw.metadata as Record<string, unknown>).shop_order_id = '3012345678';
          }
          expect(mapPrintifyOrder(raw, 'USD')).toEqual(base);
        },
      ),
    );
  });

  it('rejects a missing required field by name and never yields floats or NaN in money (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('id', 'status', 'total_price', 'total_shipping', 'total_tax', 'created_at'),
        fc.oneof(fc.constant(undefined), fc.constant(null), fc.double(), fc.string(), fc.integer()),
        (field, value) => {
          const raw = validOrder();
          raw[field] = value;
          let order;
          try {
            order = mapPrintifyOrder(raw, 'USD');
          } catch (error) {
            expect(error).toBeInstanceOf(PayloadSchemaError);
            expect((error as PayloadSchemaError).field).toBe(field);
            return;
          }
          for (const money of [
            order.totalPrice,
            order.totalShipping,
            order.totalTax,
            ...order.lineItems.flatMap((l) => [l.cost, l.shippingCost]),
          ]) {
            expect(Number.isSafeInteger(money.amountMinor)).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
