import type { FastifyInstance } from 'fastify';
import {
  ADMIN,
  connectEtsy,
  createTenant,
  etsyGet,
  newSandbox,
  printifyGet,
  type Clock,
  type TenantInfo,
} from '../../test/support/kit';

interface PrintifyOrder {
  id: string;
  status: string;
  created_at: string;
  total_tax: number;
  metadata: {
    order_type: string;
    shop_order_id?: number | string;
    shop_order_label?: string;
    is_reprint: boolean;
    reprinted_order_ids: string[];
    child_reprinted_order_ids: string[];
  };
  line_items: Array<{
    cost: number;
    shipping_cost: number;
    quantity: number;
    metadata: { sku: string; price: number };
  }>;
}
interface Envelope {
  current_page: number;
  data: PrintifyOrder[];
  first_page_url: string;
  prev_page_url: string | null;
  next_page_url: string | null;
  last_page_url: string;
  last_page: number;
  per_page: number;
  total: number;
  from: number | null;
  to: number | null;
}

describe('Printify API: shops, orders envelope, one order, 401, 429, User-Agent', () => {
  let app: FastifyInstance;
  let clock: Clock;
  let tenant: TenantInfo;
  let ordersUrl: string;

  beforeAll(async () => {
    ({ app, clock } = await newSandbox({ printifyRpm: 100_000 }));
    tenant = await createTenant(app, { seed: 'printify-spec', months: 12, ordersPerMonth: 400, printifyShops: 2 });
    ordersUrl = `/v1/shops/${tenant.printify.shops[0].id}/orders.json`;
  });
  afterAll(() => app.close());

  const page = async (query = '') => {
    const res = await printifyGet(app, `${ordersUrl}${query}`, tenant.printify.token);
    expect(res.statusCode).toBe(200);
    return res.json<Envelope>();
  };

  it('lists the shops as a bare array, an Etsy one first and a disconnected one', async () => {
    const res = await printifyGet(app, '/v1/shops.json', tenant.printify.token);
    expect(res.json()).toEqual([
      { id: tenant.printify.shops[0].id, title: expect.any(String), sales_channel: 'etsy' },
      { id: tenant.printify.shops[1].id, title: expect.any(String), sales_channel: 'disconnected' },
    ]);
    expect((await printifyGet(app, '/printify/v1/shops.json', tenant.printify.token)).json()).toEqual(res.json());
  });

  it('pages orders 10 at a time, newest first, with the full envelope and relative URLs', async () => {
    const first = await page();
    expect(first).toMatchObject({
      current_page: 1,
      first_page_url: '/?page=1',
      prev_page_url: null,
      next_page_url: '/?page=2',
      per_page: 10,
      from: 1,
      to: 10,
    });
    expect(first.last_page).toBe(Math.ceil(first.total / 10));
    expect(first.last_page_url).toBe(`/?page=${first.last_page}`);
    expect(first.data).toHaveLength(10);
    const times = first.data.map((o) => o.created_at);
    expect(times).toEqual([...times].sort().reverse());
    expect(times[0]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\+00:00$/);
    const second = await page('?limit=10&page=2');
    expect(second.data).toHaveLength(10);
    expect(second.prev_page_url).toBe('/?page=1');
    expect((await page('?limit=3')).data).toHaveLength(3);
    const last = await page(`?page=${first.last_page}`);
    expect(last.next_page_url).toBeNull();
    expect(last.to).toBe(first.total);
    const beyond = await page(`?page=${first.last_page + 1}`);
    expect(beyond).toMatchObject({ data: [], from: null, to: null });
    const empty = (
      await printifyGet(app, `/v1/shops/${tenant.printify.shops[1].id}/orders.json`, tenant.printify.token)
    ).json();
    expect(empty).toMatchObject({ total: 0, data: [], last_page: 1 });
  });

  // integrations.md b.4: "`limit` ... Default 10, documented maximum 10"; b.6: the error body
  // `{status, code, message, errors: {reason, code}}`, e.g. 8103 "Validation failed.".
  it('refuses a limit above the documented maximum of 10 with the documented validation error, never a silently shorter page', async () => {
    for (const bad of ['11', '50', '0', '-1', '2.5', 'ten']) {
      const res = await printifyGet(app, `${ordersUrl}?limit=${bad}`, tenant.printify.token);
      expect(res.statusCode).toBe(400);
      const body = res.json();
      expect(body).toMatchObject({
        status: 'error',
        code: 8103,
        message: 'Validation failed.',
        errors: { code: 8103 },
      });
      expect(JSON.parse(body.errors.reason)).toEqual({ limit: [expect.any(String)] });
    }
  });

  // integrations.md b.4: "The orders examples in the docs show only `current_page` and `data`.
  // Read the other fields defensively and stop when `data` is empty".
  it('with printifyEnvelope "minimal", sends only current_page and data, and an empty data page past the end', async () => {
    const minimal = await createTenant(app, {
      seed: 'printify-spec',
      months: 2,
      ordersPerMonth: 60,
      printifyEnvelope: 'minimal',
    });
    const url = `/v1/shops/${minimal.printify.shops[0].id}/orders.json`;
    const ids: string[] = [];
    let pageNo = 1;
    for (; pageNo < 100; pageNo++) {
      const body = (await printifyGet(app, `${url}?page=${pageNo}`, minimal.printify.token)).json();
      expect(Object.keys(body).sort()).toEqual(['current_page', 'data']);
      expect(body.current_page).toBe(pageNo);
      if (body.data.length === 0) break;
      ids.push(...body.data.map((o: PrintifyOrder) => o.id));
    }
    expect(ids.length).toBeGreaterThan(20);
    expect(new Set(ids).size).toBe(ids.length);
    expect(pageNo).toBe(Math.ceil(ids.length / 10) + 1);
    const full = await createTenant(app, { seed: 'printify-spec', months: 2, ordersPerMonth: 60 });
    expect(
      (await printifyGet(app, `/v1/shops/${full.printify.shops[0].id}/orders.json`, full.printify.token)).json().total,
    ).toBe(ids.length);
    const refused = await app.inject({
      method: 'POST',
      url: '/__sandbox/tenants',
      headers: ADMIN,
      payload: { printifyEnvelope: 'tiny' },
    });
    expect(refused.statusCode).toBe(400);
  });

  it('has linked orders for most receipts and the awkward cases too', async () => {
    const first = await page();
    const all: PrintifyOrder[] = [];
    for (let p = 1; p <= first.last_page; p++) all.push(...(await page(`?page=${p}`)).data);
    expect(all).toHaveLength(first.total);
    const linked = all.filter((o) => o.metadata.shop_order_id !== undefined);
    expect(linked.length / all.length).toBeGreaterThan(0.85);
    for (const o of linked.slice(0, 50)) {
      expect(o.metadata.order_type).toBe('external');
      expect(o.metadata.shop_order_label).toBe(String(o.metadata.shop_order_id));
    }
    // b.4: shop_order_id is "the channel's numeric order id", yet the docs' cancel example sends
    // it as a string: both forms occur, always the same digits as the label.
    const asText = linked.filter((o) => typeof o.metadata.shop_order_id === 'string');
    expect(asText.length / linked.length).toBeGreaterThan(0.05);
    expect(asText.length / linked.length).toBeLessThan(0.2);
    expect(asText.every((o) => /^\d+$/.test(o.metadata.shop_order_id as string))).toBe(true);
    expect(linked.some((o) => typeof o.metadata.shop_order_id === 'number')).toBe(true);
    expect(all.some((o) => o.metadata.order_type === 'external' && o.metadata.shop_order_id === undefined)).toBe(true);
    expect(all.some((o) => o.metadata.order_type === 'manual' && !o.metadata.is_reprint)).toBe(true);
    expect(all.some((o) => o.metadata.order_type === 'sample')).toBe(true);
    const reprint = all.find((o) => o.metadata.is_reprint);
    expect(reprint).toBeDefined();
    const original = all.find((o) => o.id === reprint?.metadata.reprinted_order_ids[0]);
    expect(original?.metadata.child_reprinted_order_ids).toEqual([reprint?.id]);
    expect(all.some((o) => o.status === 'canceled')).toBe(true);
    // A canceled order is charged nothing (b.4's cancel example; see printify/costs.spec.ts).
    expect(
      all.every((o) =>
        o.line_items.every(
          (l) =>
            Number.isInteger(l.cost) &&
            (o.status === 'canceled' ? l.cost === 0 : l.cost > 0) &&
            Number.isInteger(l.shipping_cost),
        ),
      ),
    ).toBe(true);

    // Linked orders join the Etsy receipt by receipt_id, and their SKUs match the transactions'
    // (checked on the newest linked orders whose Etsy transactions all carry a SKU: 3% do not).
    const tokens = await connectEtsy(app, tenant.tenantId);
    const compared: string[] = [];
    for (const target of linked.slice(-10)) {
      const receipt = (
        await etsyGet(
          app,
          `/v3/application/shops/${tenant.etsy.shopId}/receipts/${target.metadata.shop_order_id}`,
          tokens.access_token,
        )
      ).json();
      expect(receipt.receipt_id).toBe(Number(target.metadata.shop_order_id));
      const etsySkus: string[] = receipt.transactions
        .filter((t: { is_digital: boolean }) => !t.is_digital)
        .map((t: { sku: string }) => t.sku);
      if (etsySkus.includes('')) continue;
      expect(target.line_items.length).toBeGreaterThan(0);
      expect(etsySkus).toEqual(expect.arrayContaining(target.line_items.map((line) => line.metadata.sku)));
      compared.push(target.id);
    }
    expect(compared.length).toBeGreaterThanOrEqual(5);
  }, 30_000); // reads every page of the seeded seller: about 2 s alone, past the 5 s default on a loaded 2-core machine

  it('filters by status and sku, and serves one order', async () => {
    const fulfilled = await page('?status=fulfilled');
    expect(fulfilled.data.every((o) => o.status === 'fulfilled')).toBe(true);
    const sku = fulfilled.data[0].line_items[0].metadata.sku;
    const bySku = await page(`?sku=${encodeURIComponent(sku)}`);
    expect(bySku.total).toBeGreaterThan(0);
    expect(bySku.data.every((o) => o.line_items.some((l) => l.metadata.sku === sku))).toBe(true);
    const one = await printifyGet(
      app,
      `/v1/shops/${tenant.printify.shops[0].id}/orders/${fulfilled.data[0].id}.json`,
      tenant.printify.token,
    );
    expect(one.json()).toEqual(fulfilled.data[0]);
    expect(
      (
        await printifyGet(
          app,
          `/v1/shops/${tenant.printify.shops[0].id}/orders/000000000000000000000000.json`,
          tenant.printify.token,
        )
      ).statusCode,
    ).toBe(404);
  });

  it('answers 400 without User-Agent, 401 for unknown or expired tokens', async () => {
    const noAgent = await printifyGet(app, '/v1/shops.json', tenant.printify.token, null);
    expect(noAgent.statusCode).toBe(400);
    const unknown = await printifyGet(app, '/v1/shops.json', 'not-a-token');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual({ status: 'error', code: 401, message: 'Unauthenticated.' });
    const other = await createTenant(app, { months: 1, ordersPerMonth: 5 });
    expect((await printifyGet(app, ordersUrl, other.printify.token)).statusCode).toBe(404);
    await app.inject({
      method: 'POST',
      url: '/__sandbox/faults',
      headers: ADMIN,
      payload: { target: 'printify', kind: 'expire-access-token', match: { tenantId: other.tenantId } },
    });
    expect((await printifyGet(app, '/v1/shops.json', other.printify.token)).statusCode).toBe(401);
    expect((await printifyGet(app, '/v1/shops.json', tenant.printify.token)).statusCode).toBe(200);
  });

  it('allows the per-minute budget per account across its tokens, then 429', async () => {
    const { app: limited, clock: c } = await newSandbox({ printifyRpm: 5 });
    try {
      const t = await createTenant(limited, { months: 1, ordersPerMonth: 5 });
      const second = (
        await limited.inject({
          method: 'POST',
          url: `/__sandbox/tenants/${t.tenantId}/printify-tokens`,
          headers: ADMIN,
        })
      ).json().token;
      const statuses: number[] = [];
      // Two tokens of one account share its budget.
      for (let i = 0; i < 6; i++)
        statuses.push((await printifyGet(limited, '/v1/shops.json', i % 2 ? second : t.printify.token)).statusCode);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
      c.advance(60);
      expect((await printifyGet(limited, '/v1/shops.json', t.printify.token)).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
    expect(clock.ms).toBeGreaterThan(0);
  });
});
