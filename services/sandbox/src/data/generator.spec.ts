import { buildLedger } from '../etsy/ledger';
import { feesFor } from './fees';
import { Tenant, type TenantSettings } from './tenant';
import { TenantRegistry } from './tenant-registry';

const AS_OF = Date.UTC(2026, 5, 15, 12) / 1000;
const settings = (over: Partial<TenantSettings> = {}): TenantSettings => ({
  seed: 'spec',
  shopCurrency: 'USD',
  months: 6,
  ordersPerMonth: 500,
  printifyShops: 1,
  asOf: AS_OF,
  printifyEnvelope: 'full',
  printifyLineCost: 'per_unit',
  ...over,
});

describe('the seeded generator', () => {
  it('is deterministic: the same seed gives the same orders, another seed other ones', () => {
    const a = new Tenant('a', settings(), 0);
    const b = new Tenant('b', settings(), 0);
    const c = new Tenant('c', settings({ seed: 'other' }), 0);
    for (const index of [0, 17, 1234, 2999]) {
      expect(JSON.stringify(a.order(index))).toBe(JSON.stringify(b.order(index)));
    }
    expect(JSON.stringify(a.order(17))).not.toBe(JSON.stringify(c.order(17)));
    expect(Array.from(a.created.subarray(0, a.count))).toEqual(Array.from(b.created.subarray(0, b.count)));
    const ledgerA = buildLedger(a);
    const ledgerB = buildLedger(b);
    expect(ledgerB.seq).toEqual(ledgerA.seq);
    expect(ledgerB.type).toEqual(ledgerA.type);
    expect(ledgerB.amount).toEqual(ledgerA.amount);
  });

  it('keeps ids apart between tenants of one sandbox, even with the same seed', () => {
    const registry = new TenantRegistry('root');
    const one = registry.create({ seed: 'same', months: 1, ordersPerMonth: 50 }, AS_OF).tenant;
    const two = registry.create({ seed: 'same', months: 1, ordersPerMonth: 50 }, AS_OF).tenant;
    expect(one.order(3).grandTotal).toBe(two.order(3).grandTotal);
    expect(one.order(3).receiptId).not.toBe(two.order(3).receiptId);
    expect(one.shop.userId).not.toBe(two.shop.userId);
    expect(one.order(3).printify?.orderId).not.toBe(two.order(3).printify?.orderId);
  });

  it('spreads orders over the months up to now, with rising receipt ids', () => {
    const t = new Tenant('t', settings(), 0);
    expect(t.count).toBe(3000);
    expect(t.created[0]).toBeGreaterThanOrEqual(AS_OF - 6 * 31 * 86_400);
    expect(t.created[t.count - 1]).toBeLessThanOrEqual(AS_OF);
    for (let i = 1; i < t.count; i++) {
      if (t.receiptIds[i] <= t.receiptIds[i - 1] || t.created[i] < t.created[i - 1])
        throw new Error(`order ${i} out of order`);
    }
  });

  it('has the realistic mix: multi-item, coupons, taxes, refunds, cancellations, offsite ads, digital items', () => {
    const t = new Tenant('t', settings({ shopCurrency: 'EUR', ordersPerMonth: 1000 }), 0);
    const n = t.count;
    const orders = Array.from({ length: n }, (_, i) => t.order(i));
    const share = (predicate: (o: (typeof orders)[number]) => boolean) => orders.filter(predicate).length / n;
    expect(share((o) => o.lines.length > 1)).toBeGreaterThan(0.02);
    expect(share((o) => o.lines.length > 1)).toBeLessThan(0.12);
    expect(share((o) => o.discount > 0 || o.freeShippingCoupon)).toBeGreaterThan(0.1);
    // VAT Etsy collects (a.5): a EUR shop's digital sales to EU/UK buyers and its physical sales into the UK.
    expect(share((o) => o.vatTotal > 0)).toBeGreaterThan(0.05);
    expect(share((o) => o.taxTotal > 0)).toBeGreaterThan(0.05);
    expect(share((o) => o.refund !== null && o.canceledTs === null)).toBeGreaterThan(0.015);
    expect(share((o) => o.canceledTs !== null)).toBeGreaterThan(0.01);
    expect(share((o) => o.offsiteAds)).toBeGreaterThan(0.03);
    expect(share((o) => o.lines.every((l) => l.isDigital) && o.printify === null)).toBeGreaterThan(0.01);
    expect(share((o) => o.printify?.kind === 'linked')).toBeGreaterThan(0.85);
    expect(share((o) => o.printify?.kind === 'unlinked')).toBeGreaterThan(0.01);
    expect(share((o) => o.printify?.reprint != null)).toBeGreaterThan(0.003);
    expect(share((o) => o.lines.some((l) => l.etsySku === '' && !l.isDigital))).toBeGreaterThan(0.01);
    for (const o of orders.slice(0, 200)) {
      expect(o.grandTotal).toBe(o.subtotal + o.shippingTotal + o.taxTotal + o.vatTotal);
      const fees = feesFor(o, t.shop);
      expect(fees.processing).toBe(Math.round(o.grandTotal * 0.04) + 30);
      expect(fees.vatOnFees).toBe(0.2);
      for (const l of o.lines) if (!l.isDigital) expect(l.printifyCost).toBeGreaterThan(0);
    }
  });

  it('creates and pages a 100k-order tenant within a few seconds', () => {
    const started = Date.now();
    const big = new Tenant('big', settings({ months: 24, ordersPerMonth: 4200 }), 0);
    expect(big.count).toBe(100_800);
    const built = Date.now() - started;
    const pfy = big.printifyIndex();
    expect(pfy.refs.length).toBeGreaterThan(90_000);
    const paged = Date.now();
    for (let offset = 0; offset < 12_000; offset += 100)
      for (let k = 0; k < 100; k++) big.order(big.count - 1 - offset - k);
    const pageTime = Date.now() - paged;
    expect(built).toBeLessThan(8_000);
    expect(pageTime).toBeLessThan(4_000);
    expect(process.memoryUsage().heapUsed).toBeLessThan(1_500_000_000);
  });
});
