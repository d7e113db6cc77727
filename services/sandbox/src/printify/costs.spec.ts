import type { FastifyInstance } from 'fastify';
import { ADMIN, createTenant, newSandbox, printifyGet, type TenantInfo } from '../../test/support/kit';

interface Line {
  quantity: number;
  cost: number;
  shipping_cost: number;
  metadata: { sku: string; price: number };
}
interface Order {
  status: string;
  metadata: { order_type: string };
  line_items: Line[];
  total_price: number;
  total_shipping: number;
  total_tax: number;
}

/**
 * Printify amounts against integrations.md b.4 ("Money in Printify", "Cost semantics") and b.8.
 */
describe('Printify order amounts as b.4 documents them', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    ({ app } = await newSandbox({ printifyRpm: 100_000 }));
  });
  afterAll(() => app.close());

  /** Every order of the tenant's Etsy-connected Printify shop, newest first. */
  const ordersOf = async (tenant: TenantInfo): Promise<Order[]> => {
    const url = `/v1/shops/${tenant.printify.shops[0].id}/orders.json`;
    const out: Order[] = [];
    for (let page = 1; ; page++) {
      const body = (await printifyGet(app, `${url}?page=${page}`, tenant.printify.token)).json<{ data: Order[] }>();
      if (body.data.length === 0) return out;
      out.push(...body.data);
    }
  };
  const fulfilmentCost = (o: Order) => o.line_items.reduce((sum, l) => sum + l.cost + l.shipping_cost, 0) + o.total_tax;

  // b.4: "Every amount is an integer in cents: cost, shipping_cost, total_price, total_shipping,
  // total_tax, metadata.price. The order payload has no currency field. Catalog shipping data is
  // labelled USD, and merchants are billed in their Printify billing currency." b.8: "Currency of
  // order amounts (assumed USD/billing currency)". One currency for every amount, whatever the
  // Etsy shop's currency: the same product has the same price and cost for a EUR and a USD shop.
  it('sends every amount in one currency (USD), not the Etsy shop currency', async () => {
    const usd = await ordersOf(await createTenant(app, { seed: 'pfy-costs', months: 2, ordersPerMonth: 150 }));
    const eur = await ordersOf(
      await createTenant(app, { seed: 'pfy-costs', months: 2, ordersPerMonth: 150, shopCurrency: 'EUR' }),
    );
    const bySku = new Map<string, { price: number; cost: number }>();
    for (const o of usd)
      for (const l of o.line_items)
        if (o.status !== 'canceled') bySku.set(l.metadata.sku, { price: l.metadata.price, cost: l.cost });
    let compared = 0;
    for (const o of eur) {
      for (const l of o.line_items) {
        expect(
          Number.isInteger(l.metadata.price) && Number.isInteger(l.cost) && Number.isInteger(l.shipping_cost),
        ).toBe(true);
        const same = bySku.get(l.metadata.sku);
        if (!same || o.status === 'canceled') continue;
        expect({ price: l.metadata.price, cost: l.cost }).toEqual(same);
        compared++;
      }
      expect(o.total_price).toBe(o.line_items.reduce((sum, l) => sum + l.metadata.price * l.quantity, 0));
      expect(o).not.toHaveProperty('currency');
    }
    expect(compared).toBeGreaterThan(50);
  });

  // b.4 cites the docs' cancel example (order_type "api", shop_order_id as a string); that example
  // shows the canceled order's cost zeroed: a canceled order carries no fulfilment cost
  // ("Σ line_items cost + Σ line_items shipping_cost + total_tax").
  it('charges a canceled order nothing', async () => {
    const orders = await ordersOf(await createTenant(app, { seed: 'pfy-costs', months: 12, ordersPerMonth: 200 }));
    const canceled = orders.filter((o) => o.status === 'canceled');
    expect(canceled.length).toBeGreaterThan(0);
    for (const o of canceled) {
      expect(o.line_items.every((l) => l.cost === 0 && l.shipping_cost === 0)).toBe(true);
      expect(o.total_shipping).toBe(0);
      expect(fulfilmentCost(o)).toBe(0);
    }
    expect(orders.filter((o) => o.status !== 'canceled').every((o) => fulfilmentCost(o) > 0)).toBe(true);
  });

  // b.4: "UNCONFIRMED: whether `cost` is per unit or already multiplied by `quantity`. All doc
  // examples have quantity 1." (b.8 lists it open too.) The tenant's printifyLineCost picks the
  // reading so the product is tested under both.
  it('reads a multi-quantity line cost per unit by default, or per line with printifyLineCost "per_line"', async () => {
    const perUnitTenant = await createTenant(app, { seed: 'pfy-costs', months: 6, ordersPerMonth: 200 });
    const perLineTenant = await createTenant(app, {
      seed: 'pfy-costs',
      months: 6,
      ordersPerMonth: 200,
      printifyLineCost: 'per_line',
    });
    const describe = async (t: TenantInfo) =>
      (await app.inject({ url: `/__sandbox/tenants/${t.tenantId}`, headers: ADMIN })).json<{
        printifyLineCost: string;
      }>();
    expect((await describe(perUnitTenant)).printifyLineCost).toBe('per_unit');
    expect((await describe(perLineTenant)).printifyLineCost).toBe('per_line');
    const perUnit = await ordersOf(perUnitTenant);
    const perLine = await ordersOf(perLineTenant);
    expect(perLine).toHaveLength(perUnit.length);
    let multi = 0;
    perUnit.forEach((o, n) => {
      o.line_items.forEach((l, k) => {
        const other = perLine[n].line_items[k];
        expect(other.metadata.sku).toBe(l.metadata.sku);
        expect(other.quantity).toBe(l.quantity);
        expect(other.cost).toBe(l.cost * l.quantity);
        expect(other.shipping_cost).toBe(l.shipping_cost);
        if (l.quantity > 1 && l.cost > 0) multi++;
      });
    });
    expect(multi).toBeGreaterThan(10);
    const refused = await app.inject({
      method: 'POST',
      url: '/__sandbox/tenants',
      headers: ADMIN,
      payload: { printifyLineCost: 'per_order' },
    });
    expect(refused.statusCode).toBe(400);
  });
});
