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
  type Tokens,
} from '../../test/support/kit';

/**
 * Source changes at an exact point of a client's walk (integrations.md a.5: receipts sorted and
 * filtered by created / last-modified time; b.4: Printify orders newest first, no date filter,
 * so new orders push older ones down the pages). A mutation posted with `when` waits for the
 * tenant's request number afterRequests + 1 (to the target, under pathPrefix) and is applied
 * before that request is answered.
 */
describe('admin: scheduled mutations and Printify orders at the head', () => {
  let app: FastifyInstance;
  let clock: Clock;
  let tenant: TenantInfo;
  let tokens: Tokens;
  let receiptsUrl: string;
  let ordersUrl: string;

  beforeEach(async () => {
    ({ app, clock } = await newSandbox());
    tenant = await createTenant(app, { seed: 'scheduled', months: 1, ordersPerMonth: 300 });
    tokens = await connectEtsy(app, tenant.tenantId);
    receiptsUrl = `/v3/application/shops/${tenant.etsy.shopId}/receipts`;
    ordersUrl = `/v1/shops/${tenant.printify.shops[0].id}/orders.json`;
  });
  afterEach(() => app.close());

  const mutate = (payload: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: `/__sandbox/tenants/${tenant.tenantId}/mutations`, headers: ADMIN, payload });
  const scheduled = async () =>
    (await app.inject({ url: `/__sandbox/tenants/${tenant.tenantId}/mutations`, headers: ADMIN })).json().mutations;
  const receipts = async (query: string) => (await etsyGet(app, `${receiptsUrl}?${query}`, tokens.access_token)).json();

  it('applies a mutation before the request that triggers it is answered, once', async () => {
    clock.advance(60);
    const res = await mutate({ insert: 7, when: { target: 'etsy', pathPrefix: receiptsUrl, afterRequests: 2 } });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ scheduled: expect.any(Number) });
    const first = await receipts('limit=1');
    // Other paths and other providers do not count.
    await etsyGet(app, `/v3/application/shops/${tenant.etsy.shopId}`);
    await printifyGet(app, ordersUrl, tenant.printify.token);
    expect((await receipts('limit=1')).count).toBe(first.count);
    expect(await scheduled()).toMatchObject([{ applied: false, seen: 2, inserted: [] }]);
    const third = await receipts('limit=1');
    expect(third.count).toBe(first.count + 7);
    const [applied] = await scheduled();
    expect(applied).toMatchObject({ applied: true, seen: 3, inserted: expect.any(Array) });
    expect(applied.inserted).toHaveLength(7);
    expect(third.results[0].receipt_id).toBe(applied.inserted[6]);
    await receipts('limit=1');
    expect((await receipts('limit=1')).count).toBe(first.count + 7);
  });

  it('gives many receipts one last-modified second, across page boundaries, in the middle of a walk', async () => {
    clock.advance(120);
    const at = Math.floor(clock.ms / 1000);
    await mutate({
      update: { count: 250, change: 'touch', updatedTimestamp: at },
      when: { target: 'etsy', pathPrefix: receiptsUrl, afterRequests: 1 },
    });
    const before = await receipts(`min_last_modified=${at}&limit=100`);
    expect(before.count).toBe(0);
    const after = await receipts(`min_last_modified=${at}&limit=100&sort_on=updated&sort_order=asc`);
    expect(after.count).toBe(250);
    expect(after.results.every((r: { updated_timestamp: number }) => r.updated_timestamp === at)).toBe(true);
  });

  it('refuses bad schedules and unknown receipts up front', async () => {
    expect((await mutate({ insert: 1, when: { target: 'ecb', afterRequests: 1 } })).statusCode).toBe(400);
    expect((await mutate({ insert: 1, when: { target: 'etsy' } })).statusCode).toBe(400);
    expect((await mutate({ update: { receiptIds: [1] }, when: { target: 'etsy', afterRequests: 0 } })).statusCode).toBe(
      400,
    );
    expect(await scheduled()).toEqual([]);
    expect((await app.inject({ url: `/__sandbox/tenants/${tenant.tenantId}/mutations` })).statusCode).toBe(401);
  });

  it('places the Printify orders of inserted receipts at once, at the head of the newest-first list', async () => {
    const page1 = async () => (await printifyGet(app, `${ordersUrl}?page=1`, tenant.printify.token)).json();
    const before = await page1();
    clock.advance(600);
    const plain = (await mutate({ insert: 3 })).json();
    // Without the flag a new receipt reaches Printify hours later: nothing new yet.
    expect((await page1()).total).toBe(before.total);
    const placed = (await mutate({ insert: 12, printify: true })).json();
    const after = await page1();
    const physical = placed.inserted.length - (after.total - before.total);
    // Digital-only receipts have no Printify order.
    expect(physical).toBeLessThanOrEqual(3);
    expect(after.total).toBeGreaterThanOrEqual(before.total + 9);
    const at = new Date(clock.ms).toISOString().slice(0, 19).replace('T', ' ');
    const shift = after.total - before.total;
    const page = async (n: number) =>
      (await printifyGet(app, `${ordersUrl}?page=${n}`, tenant.printify.token)).json().data;
    const list: { id: string; created_at: string; status: string; metadata: { shop_order_id?: number | string } }[] = [
      ...after.data,
      ...(await page(2)),
      ...(await page(3)),
    ];
    const fresh = list.slice(0, shift);
    expect(fresh.every((order) => order.created_at.slice(0, 19) === at && order.status === 'on-hold')).toBe(true);
    const linked = fresh.map((order) => Number(order.metadata.shop_order_id)).filter((id) => !Number.isNaN(id));
    expect(linked.length).toBeGreaterThan(0);
    expect(linked.every((id) => placed.inserted.includes(id) && !plain.inserted.includes(id))).toBe(true);
    // The orders page 1 held before now follow them: new orders push the list down.
    expect(list.slice(shift, shift + before.data.length).map((order) => order.id)).toEqual(
      before.data.map((order: { id: string }) => order.id),
    );
  });
});
