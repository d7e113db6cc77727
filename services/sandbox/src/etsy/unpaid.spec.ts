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

interface Receipt {
  receipt_id: number;
  status: string;
  is_paid: boolean;
  is_shipped: boolean;
  created_timestamp: number;
  updated_timestamp: number;
  shipments: unknown[];
  refunds: unknown[];
  transactions: Array<{ transaction_id: number; paid_timestamp: number | null }>;
}

/**
 * Receipts whose payment has not arrived, against integrations.md a.5 (`is_paid`, the `was_paid`
 * filter "false = not received", the status enum with `open` and `payment processing`) and a.6
 * ("Be ready for an empty result" from the payments endpoint).
 */
describe('Etsy receipts not yet paid (a.5, a.6)', () => {
  let app: FastifyInstance;
  let clock: Clock;
  let tenant: TenantInfo;
  let tokens: Tokens;

  beforeAll(async () => {
    ({ app, clock } = await newSandbox({ etsyQps: 100_000, etsyQpd: 100_000_000, printifyRpm: 100_000 }));
    tenant = await createTenant(app, { seed: 'unpaid', months: 3, ordersPerMonth: 1500 });
    tokens = await connectEtsy(app, tenant.tenantId);
  });
  afterAll(() => app.close());

  const shopUrl = () => `/v3/application/shops/${tenant.etsy.shopId}`;
  const get = async <T>(path: string) => (await etsyGet(app, `${shopUrl()}${path}`, tokens.access_token)).json<T>();
  const ledgerRefs = async (from: number, to: number) => {
    const refs = new Set<string>();
    for (let offset = 0; ; offset += 100) {
      const page = await get<{ count: number; results: Array<{ reference_id: number | string | null }> }>(
        `/payment-account/ledger-entries?min_created=${from}&max_created=${to}&limit=100&offset=${offset}`,
      );
      for (const e of page.results) refs.add(String(e.reference_id));
      if (offset + 100 >= page.count) return refs;
    }
  };

  it('has recent receipts whose payment has not arrived: is_paid false, no payment, fees, shipment or Printify order', async () => {
    const unpaid = await get<{ count: number; results: Receipt[] }>('/receipts?was_paid=false&limit=100');
    expect(unpaid.count).toBeGreaterThan(0);
    const now = Math.floor(clock.ms / 1000);
    for (const r of unpaid.results) {
      expect(r.is_paid).toBe(false);
      expect(['payment processing', 'open']).toContain(r.status.toLowerCase());
      expect(r.status).not.toBe(r.status.toLowerCase()); // Title Case, as live responses
      expect(r.is_shipped).toBe(false);
      expect(r.shipments).toEqual([]);
      expect(r.refunds).toEqual([]);
      expect(r.transactions.every((t) => t.paid_timestamp === null)).toBe(true);
      expect(r.created_timestamp).toBeGreaterThan(now - 7 * 86_400);
      expect(await get(`/receipts/${r.receipt_id}/payments`)).toEqual({ count: 0, results: [] });
    }
    const refs = await ledgerRefs(now - 2_678_400, now);
    for (const r of unpaid.results) {
      expect(refs.has(String(r.receipt_id))).toBe(false);
      for (const t of r.transactions) expect(refs.has(String(t.transaction_id))).toBe(false);
    }
    const linkedIds = new Set<string>();
    for (let page = 1; page <= 30; page++) {
      const body = (
        await printifyGet(
          app,
          `/v1/shops/${tenant.printify.shops[0].id}/orders.json?page=${page}`,
          tenant.printify.token,
        )
      ).json<{ data: Array<{ metadata: { shop_order_id?: number | string } }> }>();
      for (const o of body.data) linkedIds.add(String(o.metadata.shop_order_id));
    }
    for (const r of unpaid.results) expect(linkedIds.has(String(r.receipt_id))).toBe(false);
  });

  it('has receipts paid hours after they were placed', async () => {
    const paid = await get<{ results: Receipt[] }>('/receipts?was_paid=true&limit=100&offset=200');
    const late = paid.results.filter((r) => (r.transactions[0].paid_timestamp ?? 0) - r.created_timestamp > 3600);
    expect(late.length).toBeGreaterThan(0);
    for (const r of late) expect(r.is_paid).toBe(true);
  });

  it('lets a test insert an unpaid receipt, then pay it: status, was_paid, update time, payment and fees follow', async () => {
    const admin = (body: Record<string, unknown>) =>
      app.inject({
        method: 'POST',
        url: `/__sandbox/tenants/${tenant.tenantId}/mutations`,
        headers: ADMIN,
        payload: body,
      });
    // Without `unpaid`, inserted receipts are paid at once, so tests that insert know what they get.
    const paidAtOnce = (await admin({ insert: 40 })).json<{ inserted: number[] }>().inserted;
    for (const id of paidAtOnce) expect((await get<Receipt>(`/receipts/${id}`)).is_paid).toBe(true);
    const inserted = (await admin({ insert: 1, unpaid: true })).json<{ inserted: number[] }>().inserted[0];
    let r = await get<Receipt>(`/receipts/${inserted}`);
    expect(r.is_paid).toBe(false);
    expect(
      (await get<{ results: Receipt[] }>('/receipts?was_paid=false&limit=100')).results.map((x) => x.receipt_id),
    ).toContain(inserted);
    clock.advance(600);
    const paidAt = Math.floor(clock.ms / 1000);
    expect((await admin({ update: { receiptIds: [inserted], change: 'pay' } })).statusCode).toBe(200);
    r = await get<Receipt>(`/receipts/${inserted}`);
    expect(r).toMatchObject({ is_paid: true, status: 'Paid', updated_timestamp: paidAt });
    expect(r.transactions[0].paid_timestamp).toBe(paidAt);
    expect((await get<{ count: number }>(`/receipts/${inserted}/payments`)).count).toBe(1);
    expect(
      (await get<{ results: Receipt[] }>(`/receipts?was_paid=false&limit=100`)).results.map((x) => x.receipt_id),
    ).not.toContain(inserted);
    const refs = await ledgerRefs(paidAt - 60, paidAt + 60);
    expect(refs.has(String(r.transactions[0].transaction_id))).toBe(true);
  });
});
