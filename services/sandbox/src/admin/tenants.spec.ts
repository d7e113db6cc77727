import type { FastifyInstance } from 'fastify';
import { createSandboxApp } from '../app';
import { ADMIN, connectEtsy, createTenant, etsyGet, newSandbox, printifyGet, type Clock } from '../../test/support/kit';

describe('admin: tenants and mutations', () => {
  let app: FastifyInstance;
  let clock: Clock;

  beforeEach(async () => {
    ({ app, clock } = await newSandbox());
  });
  afterEach(() => app.close());

  it('creates isolated tenants in the asked currency and deletes them', async () => {
    const gbp = await createTenant(app, { shopCurrency: 'GBP', months: 2, ordersPerMonth: 50, printifyShops: 3 });
    const usd = await createTenant(app, { months: 2, ordersPerMonth: 50 });
    expect(gbp).toMatchObject({
      tenantId: expect.any(String),
      etsy: { currency: 'GBP' },
      orders: 100,
      printify: { token: expect.any(String) },
    });
    expect(gbp.printify.shops.map((s) => s.sales_channel)).toEqual(['etsy', 'disconnected', 'shopify']);
    expect(gbp.etsy.userId).not.toBe(usd.etsy.userId);
    expect(gbp.etsy.shopId).not.toBe(usd.etsy.shopId);
    const tokens = await connectEtsy(app, gbp.tenantId);
    const shop = (await etsyGet(app, `/v3/application/shops/${gbp.etsy.shopId}`)).json();
    expect(shop.currency_code).toBe('GBP');
    const receipts = (
      await etsyGet(app, `/v3/application/shops/${gbp.etsy.shopId}/receipts?limit=100`, tokens.access_token)
    ).json();
    expect(
      receipts.results.every((r: { grandtotal: { currency_code: string } }) => r.grandtotal.currency_code === 'GBP'),
    ).toBe(true);
    expect(receipts.results.some((r: { total_vat_cost: { amount: number } }) => r.total_vat_cost.amount > 0)).toBe(
      true,
    );

    expect(
      (await app.inject({ method: 'DELETE', url: `/__sandbox/tenants/${gbp.tenantId}`, headers: ADMIN })).statusCode,
    ).toBe(204);
    expect((await etsyGet(app, '/v3/application/users/me', tokens.access_token)).statusCode).toBe(401);
    expect((await app.inject({ url: `/__sandbox/tenants/${gbp.tenantId}`, headers: ADMIN })).statusCode).toBe(404);
  });

  it('validates the body', async () => {
    for (const body of [
      { shopCurrency: 'JPY' },
      { months: 0 },
      { ordersPerMonth: -1 },
      { months: 60, ordersPerMonth: 250_000 },
      { printifyShops: 9 },
      { id: 'has space' },
    ]) {
      const res = await app.inject({ method: 'POST', url: '/__sandbox/tenants', headers: ADMIN, payload: body });
      expect(res.statusCode).toBe(400);
    }
    expect((await app.inject({ method: 'POST', url: '/__sandbox/tenants', payload: {} })).statusCode).toBe(401);
  });

  it('when full, makes room by removing the tenant unused for longest, instead of refusing', async () => {
    await app.close();
    ({ app, clock } = await newSandbox({ maxTenants: 3 }));
    const [a, b, c] = [
      await createTenant(app, { months: 1, ordersPerMonth: 5 }),
      await createTenant(app, { months: 1, ordersPerMonth: 5 }),
      await createTenant(app, { months: 1, ordersPerMonth: 5 }),
    ];
    const tokensOfA = await connectEtsy(app, a.tenantId);
    clock.advance(60);
    // a and c are used (an Etsy call, a Printify call); b is the idle one.
    expect((await etsyGet(app, '/v3/application/users/me', tokensOfA.access_token)).statusCode).toBe(200);
    expect((await printifyGet(app, '/v1/shops.json', c.printify.token)).statusCode).toBe(200);
    const d = await createTenant(app, { months: 1, ordersPerMonth: 5 });
    const ids = (await app.inject({ url: '/__sandbox/tenants', headers: ADMIN }))
      .json()
      .tenants.map((t: { tenantId: string }) => t.tenantId);
    expect(ids.sort()).toEqual([a.tenantId, c.tenantId, d.tenantId].sort());
    expect((await app.inject({ url: `/__sandbox/tenants/${b.tenantId}`, headers: ADMIN })).statusCode).toBe(404);
    expect((await printifyGet(app, '/v1/shops.json', b.printify.token)).statusCode).toBe(401);
    // Full again: now a (used a minute ago) is older than c's and d's last use.
    clock.advance(60);
    expect((await printifyGet(app, '/v1/shops.json', c.printify.token)).statusCode).toBe(200);
    await createTenant(app, { months: 1, ordersPerMonth: 5 });
    expect((await etsyGet(app, '/v3/application/users/me', tokensOfA.access_token)).statusCode).toBe(401);
    expect((await app.inject({ url: '/__sandbox/healthz' })).json().tenants).toBe(3);
  });

  it("removes tenants idle too long or past their lifetime, but never the sandbox's own default seller", async () => {
    const defaults = createSandboxApp({
      now: clock.now,
      defaultTenant: true,
      tenantIdleSeconds: 3600,
      tenantMaxAgeSeconds: 4 * 3600,
    });
    await defaults.ready();
    try {
      const idle = await createTenant(defaults, { months: 1, ordersPerMonth: 5 });
      const busy = await createTenant(defaults, { months: 1, ordersPerMonth: 5 });
      const short = await createTenant(defaults, { months: 1, ordersPerMonth: 5, lifetimeSeconds: 1800 });
      expect(short).toMatchObject({ expiresAt: new Date(clock.ms + 1800_000).toISOString(), private: false });
      expect(busy).toMatchObject({ expiresAt: new Date(clock.ms + 4 * 3600_000).toISOString() });
      const ids = async () =>
        (await defaults.inject({ url: '/__sandbox/tenants', headers: ADMIN }))
          .json()
          .tenants.map((t: { tenantId: string }) => t.tenantId)
          .sort();
      clock.advance(1800);
      await createTenant(defaults, { months: 1, ordersPerMonth: 5 });
      expect(await ids()).not.toContain(short.tenantId);
      // busy is used every 1700 s, so it is never idle for an hour; idle is, and goes.
      const created = clock.ms - 1800_000;
      while (clock.ms - created < 5 * 3600_000) {
        clock.advance(1700);
        await printifyGet(defaults, '/v1/shops.json', busy.printify.token);
        await createTenant(defaults, { months: 1, ordersPerMonth: 5 });
        if (clock.ms - created >= 3600_000) expect(await ids()).not.toContain(idle.tenantId);
        // Used all along, busy still ends at its maximum age (4 hours).
        expect((await ids()).includes(busy.tenantId)).toBe(clock.ms - created < 4 * 3600_000);
      }
      expect(await ids()).toContain('default');
    } finally {
      await defaults.close();
    }
  });

  it('inserts orders at the head and updates others with one last-modified second', async () => {
    const t = await createTenant(app, { seed: 'mutations', months: 1, ordersPerMonth: 200 });
    const tokens = await connectEtsy(app, t.tenantId);
    const url = `/v3/application/shops/${t.etsy.shopId}/receipts`;
    const before = (await etsyGet(app, `${url}?limit=1`, tokens.access_token)).json();
    clock.advance(60);
    const at = Math.floor(clock.ms / 1000);
    const mutate = (payload: Record<string, unknown>) =>
      app.inject({ method: 'POST', url: `/__sandbox/tenants/${t.tenantId}/mutations`, headers: ADMIN, payload });
    const res = await mutate({ update: { count: 30, change: 'ship', updatedTimestamp: at } });
    expect(res.statusCode).toBe(200);
    const { updated } = res.json();
    const { inserted } = (await mutate({ insert: 5 })).json();
    expect(inserted).toHaveLength(5);
    expect(updated).toHaveLength(30);
    const after = (await etsyGet(app, `${url}?limit=100`, tokens.access_token)).json();
    expect(after.count).toBe(before.count + 5);
    expect(after.results[0].receipt_id).toBe(inserted[4]);
    // New orders are paid, not shipped (unless they hold only digital items, which complete at once).
    const newest = after.results[0];
    expect(newest.status === 'Paid' || newest.transactions.every((t: { is_digital: boolean }) => t.is_digital)).toBe(
      true,
    );
    const changed = (
      await etsyGet(app, `${url}?min_last_modified=${at}&sort_on=updated&limit=100`, tokens.access_token)
    ).json();
    expect(changed.count).toBe(35);
    expect(changed.results.filter((r: { updated_timestamp: number }) => r.updated_timestamp === at)).toHaveLength(35);
    // Every updated order is shipped now, except one canceled before (a cancel is final).
    const shippedNow = changed.results.filter((r: { receipt_id: number }) => updated.includes(r.receipt_id));
    expect(
      shippedNow.every((r: { is_shipped: boolean; status: string }) => r.is_shipped || r.status === 'Canceled'),
    ).toBe(true);
  });

  it('creates a 100k-order tenant and pages it through both APIs within a few seconds', async () => {
    const started = Date.now();
    const big = await createTenant(app, { seed: 'big', months: 24, ordersPerMonth: 4200 });
    expect(big.orders).toBe(100_800);
    const tokens = await connectEtsy(app, big.tenantId);
    await app.inject({ method: 'PATCH', url: '/__sandbox/settings', headers: ADMIN, payload: { etsyQps: 100_000 } });
    const url = `/v3/application/shops/${big.etsy.shopId}/receipts`;
    const first = (await etsyGet(app, `${url}?limit=100`, tokens.access_token)).json();
    expect(first.count).toBe(100_800);
    const deep = (await etsyGet(app, `${url}?limit=100&offset=12000&sort_on=updated`, tokens.access_token)).json();
    expect(deep.results).toHaveLength(100);
    const month = first.results[0].created_timestamp - 31 * 86_400;
    const window = (
      await etsyGet(app, `${url}?limit=100&min_created=${month}&sort_order=asc`, tokens.access_token)
    ).json();
    expect(window.count).toBeGreaterThan(3000);
    const pfy = (
      await app.inject({
        url: `/v1/shops/${big.printify.shops[0].id}/orders.json?page=5000`,
        headers: { authorization: `Bearer ${big.printify.token}`, 'user-agent': 'tests' },
      })
    ).json();
    expect(pfy.data).toHaveLength(10);
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 30_000);
});
