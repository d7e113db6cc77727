import fc from 'fast-check';
import ledgerFixture from '../../test-fixtures/etsy/ledger-entries.json';
import meFixture from '../../test-fixtures/etsy/me.json';
import paymentsFixture from '../../test-fixtures/etsy/payments.json';
import receiptsFixture from '../../test-fixtures/etsy/receipts-page.json';
import shopFixture from '../../test-fixtures/etsy/shop.json';
import tokenFixture from '../../test-fixtures/etsy/token.json';
import { PayloadSchemaError } from '../http/errors';
import {
  mapEtsyLedgerEntries,
  mapEtsyMe,
  mapEtsyPayments,
  mapEtsyReceipt,
  mapEtsyReceipts,
  mapEtsyShop,
  mapEtsyTokenResponse,
} from './mappers';

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const validReceipt = () => clone(receiptsFixture.results[0]) as unknown as Record<string, unknown>;

describe('Etsy receipts', () => {
  const page = mapEtsyReceipts(receiptsFixture);

  it('maps a page, rejecting only the broken record', () => {
    expect(page.count).toBe(4);
    expect(page.records.map((r) => r.receiptId)).toEqual(['3012345678', '3012345679', '3012345681']);
    expect(page.rejected).toEqual([
      { index: 2, id: '3012345680', field: 'results[2].grandtotal', reason: 'is missing', payload: expect.anything() },
    ]);
    // The record as received, for the quarantine.
    expect(page.rejected[0].payload).toBe(receiptsFixture.results[2]);
    expect(page.payloads).toEqual([0, 1, 3].map((index) => receiptsFixture.results[index]));
  });

  it('names a record by its position, not by a bad id, so two records with the same bad id stay two', () => {
    const bad = (id: unknown) => ({ ...validReceipt(), receipt_id: id });
    const mapped = mapEtsyReceipts({ count: 4, results: [bad('abc'), bad('abc'), bad(-5), validReceipt()] });
    expect(mapped.rejected.map((r) => [r.index, r.id, r.field])).toEqual([
      [0, null, 'results[0].receipt_id'],
      [1, null, 'results[1].receipt_id'],
      [2, null, 'results[2].receipt_id'],
    ]);
    expect(mapped.records).toHaveLength(1);
  });

  it('normalises statuses, ids, entities, money and times', () => {
    const [a, b, idr] = page.records;
    expect(a).toMatchObject({
      status: 'paid',
      sellerUserId: '12345678',
      buyerUserId: '87654321',
      name: "Zoë O'Brien",
      countryIso: 'US',
      paymentMethod: 'cc',
      isPaid: true,
      isShipped: false,
      currency: 'USD',
      grandtotal: { amountMinor: 18080, currency: 'USD' },
      totalPrice: { amountMinor: 22600, currency: 'USD' },
      discountAmt: { amountMinor: 4520, currency: 'USD' },
      inexactAmounts: [],
    });
    expect(a.createdAt.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(a.transactions[0]).toMatchObject({
      transactionId: '4001',
      receiptId: '3012345678',
      title: '"Best Cat Mom" T-Shirt & Mug — Unisex',
      quantity: 2,
      sku: 'PF-TEE-BLK-M',
      productId: '998877665544',
      price: { amountMinor: 11300, currency: 'USD' },
      variations: [
        { name: 'Size', value: 'M' },
        { name: 'Personalization', value: 'Tom & Jerry' },
      ],
    });
    expect(b.status).toBe('fully refunded');
    expect(b.grandtotal).toEqual({ amountMinor: 5313, currency: 'USD' });
    expect(b.totalTaxCost).toEqual({ amountMinor: 314, currency: 'USD' });
    expect(b.inexactAmounts).toEqual(['results[1].total_tax_cost']);
    expect(b.totalVatCost).toBeNull();
    expect(b.refunds[0]).toMatchObject({
      amount: { amountMinor: 5313 },
      status: 'success',
      reason: 'Account Adjustment',
    });
    expect(b.shipments[0]).toMatchObject({ carrierName: 'USPS', receiptShippingId: null });
    expect(idr.grandtotal).toEqual({ amountMinor: 15000000, currency: 'IDR' });
    expect(idr.transactions[0]).toMatchObject({ title: 'Café poster', sku: null });
  });

  it('ignores unknown fields and accepts numbers as strings (property)', () => {
    const base = mapEtsyReceipt(validReceipt());
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.string({ minLength: 1 }).filter((k) => !(k in validReceipt()) && k !== '__proto__'),
          fc.jsonValue(),
        ),
        fc.boolean(),
        (extra, stringify) => {
          const raw = { ...validReceipt(), ...extra };
          if (stringify) {
            raw.receipt_id = String(raw.receipt_id);
            raw.created_timestamp = String(raw.created_timestamp);
            const grand = raw.grandtotal as Record<string, unknown>;
            raw.grandtotal = { ...grand, amount: String(grand.amount), divisor: String(grand.divisor) };
          }
          expect(mapEtsyReceipt(raw)).toEqual(base);
        },
      ),
    );
  });

  it('names the missing field when a required one is removed (property)', () => {
    const required = [
      'receipt_id',
      'status',
      'grandtotal',
      'subtotal',
      'total_price',
      'total_shipping_cost',
      'total_tax_cost',
    ];
    fc.assert(
      fc.property(fc.constantFrom(...required), fc.constantFrom(undefined, null), (field, value) => {
        const raw = validReceipt();
        if (value === undefined) delete raw[field];
        else raw[field] = value;
        expect(() => mapEtsyReceipt(raw)).toThrow(PayloadSchemaError);
        try {
          mapEtsyReceipt(raw);
        } catch (error) {
          expect((error as PayloadSchemaError).field).toBe(field);
        }
      }),
    );
    const raw = validReceipt();
    delete raw.created_timestamp;
    expect(mapEtsyReceipt(raw).createdAt.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    delete raw.create_timestamp;
    expect(() => mapEtsyReceipt(raw)).toThrow(/created_timestamp is missing/);
  });

  it('never produces NaN, floats or unsafe numbers in money (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(null), fc.bigInt().map(String)),
        fc.oneof(fc.integer({ min: -5, max: 100_000 }), fc.double(), fc.string()),
        fc.constantFrom('USD', 'jpy', 'BHD', 'XXX', 7),
        (amount, divisor, currency) => {
          const raw = validReceipt();
          raw.grandtotal = { amount, divisor, currency_code: currency };
          let mapped;
          try {
            mapped = mapEtsyReceipt(raw);
          } catch (error) {
            expect(error).toBeInstanceOf(PayloadSchemaError);
            expect((error as PayloadSchemaError).field).toMatch(/^grandtotal/);
            return;
          }
          expect(Number.isSafeInteger(mapped.grandtotal.amountMinor)).toBe(true);
          expect(Object.is(mapped.grandtotal.amountMinor, -0)).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('converts {amount, divisor} exactly when the ratio is whole in minor units (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e9 }), fc.constantFrom(1, 10, 100), (minor, scale) => {
        const raw = validReceipt();
        // amount/divisor = minor/100 exactly, written with a divisor of 100·scale.
        raw.grandtotal = { amount: minor * scale, divisor: 100 * scale, currency_code: 'EUR' };
        const mapped = mapEtsyReceipt(raw);
        expect(mapped.grandtotal.amountMinor).toBe(minor === 0 ? 0 : minor);
        expect(mapped.inexactAmounts).toEqual([]);
      }),
    );
  });

  it('keeps ids as strings beyond 2^53 and refuses garbage ids', () => {
    const raw = validReceipt();
    raw.receipt_id = '9223372036854775807';
    expect(mapEtsyReceipt(raw).receiptId).toBe('9223372036854775807');
    for (const bad of ['9223372036854775808', '-1', 'abc', 1.5, 2 ** 53, true]) {
      raw.receipt_id = bad;
      expect(() => mapEtsyReceipt(raw)).toThrow(PayloadSchemaError);
    }
  });
});

describe('Etsy payments, ledger, shop, me and tokens', () => {
  it('maps payments with adjustments', () => {
    const page = mapEtsyPayments(paymentsFixture);
    expect(page.rejected).toEqual([]);
    expect(page.records[0]).toMatchObject({
      paymentId: '5550001',
      receiptId: '3012345678',
      shopId: '22334455',
      amountGross: { amountMinor: 18080, currency: 'USD' },
      amountFees: { amountMinor: 567 },
      amountNet: { amountMinor: 17513 },
      postedGross: null,
      currency: 'USD',
      status: 'settled',
      adjustments: [
        {
          paymentAdjustmentId: '70001',
          isSuccess: true,
          status: 'success',
          totalAdjustmentAmount: 1000,
          shopTotalAdjustmentAmount: 1000,
          buyerTotalAdjustmentAmount: null,
          totalFeeAdjustmentAmount: 30,
        },
      ],
    });
  });

  it('maps ledger entries with numeric references and rejects a float amount', () => {
    const page = mapEtsyLedgerEntries(ledgerFixture);
    expect(page.records.map((e) => [e.entryId, e.ledgerType, e.amount.amountMinor, e.referenceId])).toEqual([
      ['90001', 'PAYMENT_GROSS', 18080, '5550001'],
      ['90002', 'PAYMENT_PROCESSING_FEE', -567, '5550001'],
      ['90003', 'transaction', -1469, '4001'],
      ['90004', 'vat_seller_services', -294, '0'],
    ]);
    expect(page.records[3].parentEntryId).toBe('90003');
    expect(page.records[2].createdAt.toISOString()).toBe(new Date(1767400001 * 1000).toISOString());
    expect(page.rejected).toEqual([
      {
        index: 4,
        id: '90005',
        field: 'results[4].amount',
        reason: 'is not a whole number in the safe range',
        payload: expect.anything(),
      },
    ]);
    // The record as received, for the quarantine.
    expect(page.rejected[0].payload).toBe(ledgerFixture.results[4]);
  });

  it('maps the shop and getMe', () => {
    expect(mapEtsyShop(shopFixture)).toEqual({
      shopId: '22334455',
      name: 'CatMomPrints',
      currency: 'USD',
      country: 'US',
    });
    expect(mapEtsyMe(meFixture)).toEqual({ userId: '12345678', shopId: '22334455' });
    expect(mapEtsyMe({ user_id: '5' })).toEqual({ userId: '5', shopId: null });
    expect(mapEtsyMe({ user_id: 5, shop_id: null })).toEqual({ userId: '5', shopId: null });
    expect(() => mapEtsyShop({ ...shopFixture, currency_code: 'ZZZ' })).toThrow(
      /currency_code is not a known ISO 4217 currency/,
    );
  });

  it('maps the token response and reads the user id from the token prefix', () => {
    const now = Date.parse('2026-03-01T00:00:00Z');
    expect(mapEtsyTokenResponse(tokenFixture, now)).toEqual({
      accessToken: tokenFixture.access_token,
      refreshToken: tokenFixture.refresh_token,
      accessTokenExpiresAt: new Date(now + 3_600_000),
      etsyUserId: '12345678',
    });
    expect(() => mapEtsyTokenResponse({ ...tokenFixture, access_token: 'x', refresh_token: 'y' }, now)).toThrow(
      /user-id prefix/,
    );
    expect(() => mapEtsyTokenResponse({ ...tokenFixture, expires_in: 'soon' }, now)).toThrow(PayloadSchemaError);
  });

  it('refuses a page without results', () => {
    expect(() => mapEtsyReceipts({ count: 3 })).toThrow(/results is missing/);
    expect(() => mapEtsyReceipts('<html>')).toThrow(PayloadSchemaError);
  });
});
