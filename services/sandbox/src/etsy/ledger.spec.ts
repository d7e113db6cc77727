import type { FastifyInstance } from 'fastify';
import {
  ADMIN,
  connectEtsy,
  createTenant,
  etsyGet,
  newSandbox,
  type Clock,
  type TenantInfo,
  type Tokens,
} from '../../test/support/kit';

interface Entry {
  entry_id: number;
  sequence_number: number;
  amount: number;
  ledger_type: string;
  reference_type: string;
  reference_id: number | string | null;
  parent_entry_id: number;
  created_timestamp: number;
}
interface Receipt {
  receipt_id: number;
  status: string;
  is_shipped: boolean;
  transactions: Array<{ transaction_id: number }>;
}

const WINDOW = 2_678_400;

/**
 * The payment-account ledger against integrations.md a.6/a.7: stable entry ids, the ledger types
 * real accounts carry, reference_id as "string, null", and refunds that credit every fee back.
 */
describe('Etsy ledger as the docs describe it (a.6, a.7)', () => {
  let app: FastifyInstance;
  let clock: Clock;

  beforeAll(async () => {
    ({ app, clock } = await newSandbox({ etsyQps: 100_000, etsyQpd: 100_000_000 }));
  });
  afterAll(() => app.close());

  const now = () => Math.floor(clock.ms / 1000);
  const connect = async (body: Record<string, unknown>) => {
    const tenant = await createTenant(app, body);
    return { tenant, tokens: await connectEtsy(app, tenant.tenantId) };
  };
  /** Every entry created in [from, to], walking 31-day windows (a.7, a.9). */
  const entries = async (t: TenantInfo, tokens: Tokens, from: number, to = now()): Promise<Entry[]> => {
    const out: Entry[] = [];
    for (let end = to; end >= from; end -= WINDOW + 1) {
      const start = Math.max(from, end - WINDOW);
      for (let offset = 0; ; offset += 100) {
        const url = `/v3/application/shops/${t.etsy.shopId}/payment-account/ledger-entries?min_created=${start}&max_created=${end}&limit=100&offset=${offset}`;
        const page = (await etsyGet(app, url, tokens.access_token)).json<{ count: number; results: Entry[] }>();
        out.push(...page.results);
        if (offset + 100 >= page.count) break;
      }
    }
    return out;
  };
  const mutate = (t: TenantInfo, body: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: `/__sandbox/tenants/${t.tenantId}/mutations`, headers: ADMIN, payload: body });
  const receipt = async (t: TenantInfo, tokens: Tokens, id: number | string) =>
    (await etsyGet(app, `/v3/application/shops/${t.etsy.shopId}/receipts/${id}`, tokens.access_token)).json<Receipt>();
  const ref = (e: Entry) => (e.reference_id === null ? null : String(e.reference_id));

  // a.7: `entry_id` int64, `sequence_number` "higher = newer": an entry is the same entry forever.
  it('keeps every entry id and sequence number after a back-dated change; new entries get higher ones', async () => {
    const { tenant, tokens } = await connect({ seed: 'stable-ids', months: 2, ordersPerMonth: 200 });
    const before = await entries(tenant, tokens, now() - 40 * 86_400);
    const old = before.find(
      (e) => e.ledger_type === 'shipping_transaction' && e.created_timestamp < now() - 30 * 86_400,
    );
    expect(old).toBeDefined();
    // A refund back-dated to 25 days ago lands between existing entries.
    const res = await mutate(tenant, {
      update: { receiptIds: [Number(old?.reference_id)], change: 'refund', updatedTimestamp: now() - 25 * 86_400 },
    });
    expect(res.statusCode).toBe(200);
    const after = await entries(tenant, tokens, now() - 40 * 86_400);
    const byId = new Map(after.map((e) => [e.entry_id, e]));
    for (const e of before) {
      const same = byId.get(e.entry_id);
      if (
        !same ||
        same.ledger_type !== e.ledger_type ||
        same.created_timestamp !== e.created_timestamp ||
        same.sequence_number !== e.sequence_number
      ) {
        expect({ before: e, after: same }).toBe('the same entry under the same id');
      }
      if (e.ledger_type !== 'DISBURSE2') expect(same?.amount).toBe(e.amount);
    }
    const added = after.filter((e) => !before.some((b) => b.entry_id === e.entry_id));
    expect(added.map((e) => e.ledger_type)).toContain('REFUND_GROSS');
    const highest = Math.max(...before.map((e) => e.entry_id));
    for (const e of added.filter((a) => a.ledger_type !== 'DISBURSE2')) expect(e.entry_id).toBeGreaterThan(highest);
  });

  // a.7: `balance` is the running balance *after* the entry, `sequence_number` higher = newer: a
  // posted entry is history. Changes made now (cancel, refund, ship, pay) only add entries; b.4:
  // a Printify order stays in the list when its Etsy order is canceled later.
  it('never rewrites posted entries or drops Printify orders on changes made now', async () => {
    const { tenant, tokens } = await connect({ seed: 'append-only', months: 2, ordersPerMonth: 250 });
    const from = now() - 70 * 86_400;
    const before = await entries(tenant, tokens, from);
    const printifyIds = async () => {
      const ids: string[] = [];
      for (let page = 1; ; page++) {
        const res = await app.inject({
          url: `/v1/shops/${tenant.printify.shops[0].id}/orders.json?page=${page}`,
          headers: { authorization: `Bearer ${tenant.printify.token}`, 'user-agent': 'tests' },
        });
        const data = res.json<{ data: { id: string; status: string }[] }>().data;
        ids.push(...data.map((order) => order.id));
        if (data.length < 10) return ids;
      }
    };
    const printifyBefore = await printifyIds();
    const shipped = [...new Set(before.filter((e) => e.ledger_type === 'PAYMENT_GROSS').map((e) => e.entry_id))].slice(
      0,
      60,
    );
    const paymentsUrl = `/v3/application/shops/${tenant.etsy.shopId}/payment-account/ledger-entries/payments?ledger_entry_ids=${shipped.join(',')}`;
    const receiptIds = (await etsyGet(app, paymentsUrl, tokens.access_token))
      .json<{ results: { receipt_id: number }[] }>()
      .results.map((p) => p.receipt_id);
    expect(receiptIds.length).toBeGreaterThanOrEqual(40);
    const refunded = before.filter((e) => e.ledger_type === 'REFUND_GROSS').length;
    expect(refunded).toBeGreaterThan(0);
    clock.advance(60);
    const change = async (ids: number[], kind: string) =>
      expect((await mutate(tenant, { update: { receiptIds: ids, change: kind } })).statusCode).toBe(200);
    await change(receiptIds.slice(0, 10), 'cancel');
    await change(receiptIds.slice(10, 20), 'refund');
    clock.advance(5);
    // Again on the same orders, the other way round, and on orders a natural refund already touched.
    await change(receiptIds.slice(10, 20), 'cancel');
    await change(receiptIds.slice(0, 20), 'refund');
    await change(receiptIds.slice(20, 40), 'ship');
    await mutate(tenant, { update: { count: 50, change: 'refund' } });
    await mutate(tenant, { update: { count: 50, change: 'cancel' } });
    const after = await entries(tenant, tokens, from);
    const byId = new Map(after.map((e) => [e.entry_id, e]));
    const rewritten = before.filter((e) => JSON.stringify(byId.get(e.entry_id)) !== JSON.stringify(e));
    expect(rewritten).toEqual([]);
    const added = after.filter((e) => !before.some((b) => b.entry_id === e.entry_id));
    expect(added.length).toBeGreaterThan(0);
    expect(added.every((e) => e.created_timestamp >= now() - 5)).toBe(true);
    expect(added.filter((e) => e.ledger_type === 'REFUND_GROSS').length).toBeGreaterThanOrEqual(10);
    // A shipped order canceled now stays shipped, and its gross is refunded in full.
    const canceled = await receipt(tenant, tokens, receiptIds[0]);
    expect(canceled).toMatchObject({ status: 'Canceled', is_shipped: true });
    const printifyAfter = await printifyIds();
    expect(printifyBefore.filter((id) => !printifyAfter.includes(id))).toEqual([]);
  });

  // a.7 table: Etsy Ads, shipping labels, VAT on processing fees, credits/other appear on real
  // accounts ("Always keep unknown types in an 'other' bucket"); reference_id is "string, null",
  // real data returns a number (issue #295).
  it('sends Etsy Ads, shipping labels, seller credits and VAT on processing fees, and reference_id as number, string or null', async () => {
    const { tenant, tokens } = await connect({
      seed: 'ledger-types',
      shopCurrency: 'EUR',
      months: 6,
      ordersPerMonth: 150,
    });
    const all = await entries(tenant, tokens, now() - 180 * 86_400);
    const types = new Set(all.map((e) => e.ledger_type));
    for (const type of [
      'prolist',
      'shipping_labels',
      'seller_credit',
      'vat_on_processing_fees',
      'vat_seller_services',
      'PAYMENT_PROCESSING_FEE',
    ])
      expect(types).toContain(type);
    const vat = all.filter((e) => e.ledger_type === 'vat_on_processing_fees');
    const byId = new Map(all.map((e) => [e.entry_id, e]));
    for (const v of vat.slice(0, 20)) {
      const parent = byId.get(v.parent_entry_id);
      if (!parent) continue; // its fee may sit just outside the walked windows
      expect(parent.ledger_type).toBe('PAYMENT_PROCESSING_FEE');
      expect(v.amount).toBe(Math.round(parent.amount * 0.2));
    }
    const labels = all.filter((e) => e.ledger_type === 'shipping_labels');
    expect(labels.every((e) => e.reference_type === 'shipping_label' && e.amount < 0)).toBe(true);
    const kinds = { number: 0, string: 0, null: 0 };
    for (const e of all) {
      if (e.reference_id === null) kinds.null++;
      else if (typeof e.reference_id === 'string') {
        expect(e.reference_id).toMatch(/^\d+$/);
        kinds.string++;
      } else kinds.number++;
    }
    expect(kinds.string / all.length).toBeGreaterThan(0.05);
    expect(kinds.string / all.length).toBeLessThan(0.2);
    expect(kinds.number).toBeGreaterThan(kinds.string);
    expect(kinds.null).toBeGreaterThan(0);
    expect(
      all
        .filter((e) => e.reference_id === null)
        .every((e) => ['prolist', 'prolist_refund', 'seller_credit', 'subscription'].includes(e.ledger_type)),
    ).toBe(true);
  });

  // a.6: PaymentAdjustment `total_fee_adjustment_amount`; a.7: `transaction_refund`,
  // `transaction_quantity_refund`, `shipping_transaction_refund`, `offsite_ads_fee_refund`,
  // `regulatory_operating_fee_refund` and the VAT refunds credit the fees back, per transaction.
  it('credits back every fee on a refund: each line, shipping, offsite ads, regulatory, and their VAT', async () => {
    const { tenant, tokens } = await connect({
      seed: 'refund-credits',
      shopCurrency: 'GBP',
      months: 2,
      ordersPerMonth: 400,
    });
    const recent = await entries(tenant, tokens, now() - 30 * 86_400);
    const offsite = recent.find((e) => e.ledger_type === 'offsite_ads_fee');
    expect(offsite).toBeDefined();
    const transactionReceipts = new Map<string, number>();
    const receiptsWithShipping = recent
      .filter((e) => e.ledger_type === 'shipping_transaction')
      .map((e) => Number(e.reference_id));
    let multiLine: Receipt | undefined;
    for (const id of receiptsWithShipping.slice(0, 400)) {
      const r = await receipt(tenant, tokens, id);
      if (r.transactions.length > 1) {
        multiLine = r;
        break;
      }
    }
    expect(multiLine).toBeDefined();
    const targets = [Number(offsite?.reference_id), multiLine?.receipt_id as number];
    for (const id of targets)
      for (const t of (await receipt(tenant, tokens, id)).transactions)
        transactionReceipts.set(String(t.transaction_id), id);
    clock.advance(60);
    const res = await mutate(tenant, { update: { receiptIds: targets, change: 'refund' } });
    expect(res.statusCode).toBe(200);
    const after = await entries(tenant, tokens, now() - 30 * 86_400);
    const owner = (e: Entry): number | undefined =>
      e.reference_type === 'transaction'
        ? transactionReceipts.get(String(ref(e)))
        : e.reference_type === 'receipt'
          ? Number(ref(e))
          : undefined;
    for (const id of targets) {
      const mine = after.filter((e) => owner(e) === id);
      const charged = (type: string) =>
        mine.filter((e) => e.ledger_type === type).reduce((sum, e) => sum + e.amount, 0);
      const credited = (type: string) =>
        mine.filter((e) => e.ledger_type === `${type}_refund`).reduce((sum, e) => sum + e.amount, 0);
      // The mutation refunds a quarter of the order: each fee comes back in that proportion.
      for (const type of ['shipping_transaction', 'regulatory_operating_fee', 'transaction']) {
        expect(charged(type)).toBeLessThan(0);
        expect(credited(type)).toBeGreaterThan(0);
        expect(Math.abs(credited(type) + charged(type) * 0.25)).toBeLessThanOrEqual(2);
      }
      const lines = (await receipt(tenant, tokens, id)).transactions.map((t) => String(t.transaction_id));
      const creditedLines = new Set(mine.filter((e) => e.ledger_type === 'transaction_refund').map(ref));
      expect([...creditedLines].sort()).toEqual([...lines].sort());
      const vatBack = after.filter(
        (e) => e.ledger_type === 'vat_seller_services_refund' && mine.some((m) => m.entry_id === e.parent_entry_id),
      );
      expect(vatBack.length).toBeGreaterThan(0);
    }
    const offsiteId = targets[0];
    const offsiteBack = after.filter((e) => e.ledger_type === 'offsite_ads_fee_refund' && Number(ref(e)) === offsiteId);
    expect(offsiteBack).toHaveLength(1);
    expect(Math.abs((offsiteBack[0]?.amount ?? 0) + (offsite?.amount ?? 0) * 0.25)).toBeLessThanOrEqual(1);
  });
});
