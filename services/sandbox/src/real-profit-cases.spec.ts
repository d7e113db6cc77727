import type { FastifyInstance } from 'fastify';
import { ADMIN, connectEtsy, createTenant, etsyGet, newSandbox, printifyGet, type Clock } from '../test/support/kit';

/**
 * Every case issue 17 needs, checked against the shapes integrations.md documents: Printify
 * `metadata` (b.4: order_type, shop_order_id/label, is_reprint, reprinted_order_ids,
 * child_reprinted_order_ids), receipts and transactions (a.5: is_paid, is_digital), payments
 * (a.6) and the payment-account ledger (a.7: amounts signed minor units, `balance` the running
 * balance after the entry, sequence_number higher = newer, the listed ledger and reference types,
 * vat_seller_services linked by parent_entry_id), the fee schedule (a.8: 2.5 % conversion when
 * the listing and payment-account currencies differ; VAT on fees for UK/EU sellers; the
 * regulatory operating fee for UK and French sellers), and the ECB files (c.1).
 */
interface Line {
  cost: number;
  shipping_cost: number;
  quantity: number;
  metadata: { sku: string };
}
interface PrintifyOrder {
  id: string;
  status: string;
  created_at: string;
  line_items: Line[];
  metadata: {
    order_type: string;
    shop_order_id?: number | string;
    shop_order_label?: string;
    is_reprint: boolean;
    reprinted_order_ids: string[];
    child_reprinted_order_ids: string[];
  };
}
interface Entry {
  entry_id: number;
  sequence_number: number;
  amount: number;
  balance: number;
  currency: string;
  ledger_type: string;
  reference_type: string;
  reference_id: number | string | null;
  parent_entry_id: number;
  created_timestamp: number;
}
interface Money {
  amount: number;
  divisor: number;
  currency_code: string;
}
interface Receipt {
  receipt_id: number;
  is_paid: boolean;
  create_timestamp: number;
  grandtotal: Money;
  total_vat_cost: Money;
  country_iso: string;
  transactions: Array<{ transaction_id: number; listing_id: number; is_digital: boolean; sku: string }>;
}

const DAY = 86_400;
const WINDOW = 2_678_400;
/** Fees Etsy charges (a.7/a.8): each carries VAT for a UK or EU seller. */
const FEE_TYPES = [
  'transaction',
  'transaction_quantity',
  'shipping_transaction',
  'renew_sold',
  'renew_sold_auto',
  'listing',
  'renew_expired',
  'auto_renew_expired',
  'offsite_ads_fee',
  'regulatory_operating_fee',
  'prolist',
  'subscription',
  'shipping_labels',
];

describe('sandbox: every case of issue 17, shaped as the docs say', () => {
  let app: FastifyInstance;
  let clock: Clock;
  beforeAll(async () => {
    ({ app, clock } = await newSandbox({ etsyQps: 100_000, etsyQpd: 100_000_000, printifyRpm: 100_000 }));
  });
  afterAll(() => app.close());
  const now = () => Math.floor(clock.ms / 1000);

  /** A demo-sized seller (6 months of 120 orders) and everything the APIs serve of it. */
  async function seller(body: Record<string, unknown>) {
    const tenant = await createTenant(app, { months: 6, ordersPerMonth: 120, ...body });
    const tokens = await connectEtsy(app, tenant.tenantId);
    const get = async <T>(url: string) => (await etsyGet(app, url, tokens.access_token)).json<T>();
    const receipts: Receipt[] = [];
    for (let offset = 0; ; offset += 100) {
      const page = await get<{ count: number; results: Receipt[] }>(
        `/v3/application/shops/${tenant.etsy.shopId}/receipts?limit=100&offset=${offset}`,
      );
      receipts.push(...page.results);
      if (offset + 100 >= page.count) break;
    }
    const entries = new Map<number, Entry>();
    for (let end = now(); end >= now() - 200 * DAY; end -= WINDOW + 1)
      for (let offset = 0; ; offset += 100) {
        const start = Math.max(946_684_800, end - WINDOW);
        const page = await get<{ count: number; results: Entry[] }>(
          `/v3/application/shops/${tenant.etsy.shopId}/payment-account/ledger-entries?min_created=${start}&max_created=${end}&limit=100&offset=${offset}`,
        );
        for (const e of page.results) entries.set(e.entry_id, e);
        if (offset + 100 >= page.count) break;
      }
    const ledger = [...entries.values()].sort((a, b) => a.sequence_number - b.sequence_number);
    const printify: PrintifyOrder[] = [];
    const shop = tenant.printify.shops[0].id;
    for (let page = 1; ; page++) {
      const body = (
        await printifyGet(app, `/v1/shops/${shop}/orders.json?limit=10&page=${page}`, tenant.printify.token)
      ).json<{
        data: PrintifyOrder[];
      }>();
      if (body.data.length === 0) break;
      printify.push(...body.data);
    }
    return { tenant, receipts, ledger, printify, get };
  }

  const charged = (o: PrintifyOrder) => o.line_items.reduce((s, l) => s + l.cost * l.quantity + l.shipping_cost, 0);
  const receiptOf = (o: PrintifyOrder) =>
    o.metadata.shop_order_id === undefined ? undefined : String(o.metadata.shop_order_id);

  describe('the default US seller', () => {
    let data: Awaited<ReturnType<typeof seller>>;
    beforeAll(async () => {
      data = await seller({ seed: 'cases-us', profile: 'us-seller' });
    }, 60_000);

    it('has reprints: an extra order with its own cost, days later, linked both ways and to the same receipt', () => {
      const byId = new Map(data.printify.map((o) => [o.id, o]));
      const reprints = data.printify.filter((o) => o.metadata.is_reprint);
      expect(reprints.length).toBeGreaterThanOrEqual(2);
      for (const reprint of reprints) {
        expect(reprint.metadata.reprinted_order_ids).toHaveLength(1);
        const original = byId.get(reprint.metadata.reprinted_order_ids[0]);
        expect(original?.metadata.is_reprint).toBe(false);
        expect(original?.metadata.child_reprinted_order_ids).toContain(reprint.id);
        expect(Date.parse(reprint.created_at) - Date.parse(original?.created_at ?? '')).toBeGreaterThan(DAY * 1000);
        expect(reprint.metadata.order_type).toBe(original?.metadata.order_type);
        expect(receiptOf(reprint)).toBe(original && receiptOf(original));
        if (reprint.status !== 'canceled') expect(charged(reprint)).toBeGreaterThan(0);
      }
      expect(reprints.some((r) => receiptOf(r) !== undefined)).toBe(true);
    });

    it('has split orders: two Printify orders naming one receipt, each with part of its physical lines', () => {
      const receipts = new Map(data.receipts.map((r) => [String(r.receipt_id), r]));
      const byReceipt = new Map<string, PrintifyOrder[]>();
      for (const o of data.printify)
        if (!o.metadata.is_reprint && receiptOf(o) !== undefined)
          byReceipt.set(receiptOf(o) as string, [...(byReceipt.get(receiptOf(o) as string) ?? []), o]);
      const splits = [...byReceipt].filter(([, orders]) => orders.length === 2);
      expect(splits.length).toBeGreaterThanOrEqual(2);
      expect([...byReceipt.values()].every((orders) => orders.length <= 2)).toBe(true);
      for (const [id, [a, b]] of splits) {
        const receipt = receipts.get(id);
        expect(receipt).toBeDefined();
        expect(a.metadata.shop_order_label).toBe(id);
        expect(b.metadata.shop_order_label).toBe(id);
        expect(a.line_items.length).toBeGreaterThan(0);
        expect(b.line_items.length).toBeGreaterThan(0);
        const physical = receipt?.transactions.filter((t) => !t.is_digital) ?? [];
        expect(a.line_items.length + b.line_items.length).toBe(physical.length);
        if (a.status !== 'canceled') expect(charged(a) > 0 && charged(b) > 0).toBe(true);
      }
    });

    it('has digital-only receipts with no Printify order', () => {
      const named = new Set(data.printify.map(receiptOf));
      const digital = data.receipts.filter(
        (r) => r.is_paid && r.transactions.length > 0 && r.transactions.every((t) => t.is_digital),
      );
      expect(digital.length).toBeGreaterThanOrEqual(3);
      for (const r of digital) expect(named.has(String(r.receipt_id))).toBe(false);
    });

    it('has samples and manual orders with no shop order id, and canceled ones that cost nothing', () => {
      const own = data.printify.filter((o) => receiptOf(o) === undefined && !o.metadata.is_reprint);
      expect(own.some((o) => o.metadata.order_type === 'sample')).toBe(true);
      expect(own.some((o) => o.metadata.order_type === 'manual')).toBe(true);
      const canceled = own.filter((o) => o.status === 'canceled');
      expect(canceled.length).toBeGreaterThanOrEqual(1);
      for (const o of canceled) expect(charged(o)).toBe(0);
    });

    it('has unpaid receipts (is_paid false)', () => {
      expect(data.receipts.some((r) => !r.is_paid)).toBe(true);
    });

    it('keeps a ledger whose balance is the running sum and whose deposits take the balance', () => {
      expectRunningBalance(data.ledger);
    });

    it('charges Etsy Ads every day, Etsy Plus monthly, labels, new and expired listing fees; no VAT, no regulatory fee', () => {
      const { ledger } = data;
      const types = new Set(ledger.map((e) => e.ledger_type));
      for (const type of [
        'prolist',
        'subscription',
        'shipping_labels',
        'shipping_label_refund',
        'listing',
        'REFUND_GROSS',
        'transaction_refund',
        'DISBURSE2',
        'PAYMENT_GROSS',
      ])
        expect(types).toContain(type);
      expect(types.has('renew_expired') || types.has('auto_renew_expired')).toBe(true);
      expect(types.has('vat_seller_services')).toBe(false);
      expect(types.has('regulatory_operating_fee')).toBe(false);
      // Etsy Ads on every full day of the history (the last 150 days here).
      const adDays = new Set(
        ledger.filter((e) => e.ledger_type === 'prolist').map((e) => Math.floor(e.created_timestamp / DAY)),
      );
      for (let day = Math.floor(now() / DAY) - 150; day < Math.floor(now() / DAY) - 1; day++)
        expect(adDays.has(day)).toBe(true);
      const plus = ledger.filter((e) => e.ledger_type === 'subscription');
      expect(plus.length).toBeGreaterThanOrEqual(5);
      expect(plus.every((e) => e.amount === -1000 && e.currency === 'USD')).toBe(true);
      // New listings over the history: `listing` fees after the first week too.
      const first = ledger[0].created_timestamp;
      expect(ledger.some((e) => e.ledger_type === 'listing' && e.created_timestamp > first + 7 * DAY)).toBe(true);
    });

    it('charges renew_sold on the LISTING of a sale that exists, at or after it', () => {
      const sales = new Map<string, number[]>();
      for (const r of data.receipts)
        for (const t of r.transactions)
          sales.set(String(t.listing_id), [...(sales.get(String(t.listing_id)) ?? []), r.create_timestamp]);
      const renewals = data.ledger.filter((e) => e.ledger_type === 'renew_sold' || e.ledger_type === 'renew_sold_auto');
      expect(renewals.length).toBeGreaterThan(50);
      expect(renewals.some((e) => e.ledger_type === 'renew_sold_auto')).toBe(true);
      for (const e of renewals) {
        expect(e.reference_type).toBe('listing');
        const times = sales.get(String(e.reference_id));
        expect(times?.some((t) => t <= e.created_timestamp)).toBe(true);
      }
    });
  });

  describe('a UK seller listing in USD with a GBP payment account', () => {
    let data: Awaited<ReturnType<typeof seller>>;
    beforeAll(async () => {
      data = await seller({ seed: 'cases-uk-usd', profile: 'uk-usd-listing' });
    }, 60_000);

    it('sells in USD and keeps the ledger in GBP, with balances and deposits that add up', () => {
      expect(data.receipts.every((r) => r.grandtotal.currency_code === 'USD')).toBe(true);
      expect(data.ledger.every((e) => e.currency === 'GBP')).toBe(true);
      expectRunningBalance(data.ledger);
      const types = new Set(data.ledger.map((e) => e.ledger_type));
      expect(types).toContain('vat_seller_services');
      expect(types).toContain('regulatory_operating_fee');
    });

    it('posts each sale converted at the latest ECB rate less the 2.5 % conversion fee', async () => {
      const hist = (await app.inject({ url: '/stats/eurofxref/eurofxref-hist.xml' })).body;
      const perEur = new Map<string, { usd: number; gbp: number }>();
      for (const m of hist.matchAll(/<Cube time="(\d{4}-\d\d-\d\d)">(.*?)<\/Cube>\s*(?=<Cube time|<\/Cube>)/gs)) {
        const usd = Number(/currency="USD" rate="([\d.]+)"/.exec(m[2])?.[1]);
        const gbp = Number(/currency="GBP" rate="([\d.]+)"/.exec(m[2])?.[1]);
        perEur.set(m[1], { usd, gbp });
      }
      const dates = [...perEur.keys()].sort();
      // The latest fixing published at the entry's moment (c.1: about 16:00 CET, 15:00 UTC).
      const rateOn = (ts: number) => {
        const date = new Date((ts - 15 * 3600) * 1000).toISOString().slice(0, 10);
        const fixing = dates.filter((d) => d <= date).at(-1) as string;
        const { usd, gbp } = perEur.get(fixing) as { usd: number; gbp: number };
        return gbp / usd;
      };
      const gross = data.ledger.filter((e) => e.ledger_type === 'PAYMENT_GROSS').slice(-40);
      expect(gross.length).toBe(40);
      const ids = gross.map((e) => String(e.reference_id)).join(',');
      const payments = await data.get<{
        results: Array<{ payment_id: number; amount_gross: Money; shop_currency: string }>;
      }>(`/v3/application/shops/${data.tenant.etsy.shopId}/payments?payment_ids=${ids}`);
      const byId = new Map(payments.results.map((p) => [String(p.payment_id), p]));
      for (const e of gross) {
        const payment = byId.get(String(e.reference_id));
        // Values in the listing currency, whatever the label (a.6: issue #564 labels some in the buyer's).
        expect(payment?.shop_currency).toBe('USD');
        const usd = (payment?.amount_gross.amount ?? 0) / ((payment?.amount_gross.divisor ?? 100) / 100);
        const converted = usd * rateOn(e.created_timestamp);
        expect(Math.abs(e.amount - converted * 0.975)).toBeLessThanOrEqual(1.5);
      }
    });
  });

  describe('a VAT-registered UK seller', () => {
    let data: Awaited<ReturnType<typeof seller>>;
    beforeAll(async () => {
      data = await seller({ seed: 'cases-uk-vat', profile: 'uk-vat-registered' });
    }, 60_000);

    it('is a GBP shop in the UK whose prices include VAT: home sales show no VAT on top', async () => {
      const answer = (await app.inject({ url: `/__sandbox/tenants/${data.tenant.tenantId}`, headers: ADMIN })).json<{
        etsy: { currency: string; paymentCurrency: string; country: string; vatRegistered: boolean };
      }>();
      expect(answer.etsy).toMatchObject({
        currency: 'GBP',
        paymentCurrency: 'GBP',
        country: 'GB',
        vatRegistered: true,
      });
      const home = data.receipts.filter((r) => r.country_iso === 'GB' && r.transactions.every((t) => !t.is_digital));
      expect(home.length).toBeGreaterThan(50);
      expect(home.every((r) => r.total_vat_cost.amount === 0)).toBe(true);
    });

    it('still pays VAT on every Etsy fee (vat_seller_services, linked by parent_entry_id)', () => {
      const { ledger } = data;
      expectRunningBalance(ledger);
      const vatOf = new Map<number, Entry>();
      for (const e of ledger) if (e.ledger_type === 'vat_seller_services') vatOf.set(e.parent_entry_id, e);
      const fees = ledger.filter((e) => FEE_TYPES.includes(e.ledger_type) && e.amount < 0);
      expect(new Set(fees.map((e) => e.ledger_type)).size).toBeGreaterThanOrEqual(8);
      for (const fee of fees) {
        const vat = vatOf.get(fee.entry_id);
        if (Math.round(fee.amount * 0.2) === 0) continue;
        expect({ type: fee.ledger_type, vat: vat?.amount }).toEqual({
          type: fee.ledger_type,
          vat: Math.round(fee.amount * 0.2),
        });
        expect(vat?.reference_type).toBe('etsy');
      }
      expect(ledger.some((e) => e.ledger_type === 'regulatory_operating_fee')).toBe(true);
    });
  });
});

/**
 * a.7: `balance` is the running balance after each entry, in sequence order; a DISBURSE2 deposit
 * pays out what accrued since the previous one (the balance available), leaving nothing.
 */
function expectRunningBalance(ledger: Entry[]): void {
  expect(ledger.length).toBeGreaterThan(500);
  let balance = 0;
  let accrued = 0;
  let deposits = 0;
  for (let k = 0; k < ledger.length; k++) {
    const e = ledger[k];
    expect(Number.isInteger(e.amount)).toBe(true);
    if (k > 0) {
      expect(e.sequence_number).toBeGreaterThan(ledger[k - 1].sequence_number);
      expect(e.created_timestamp).toBeGreaterThanOrEqual(ledger[k - 1].created_timestamp);
    }
    if (e.ledger_type === 'DISBURSE2') {
      expect(e.reference_type).toBe('disbursement');
      expect(e.amount).toBe(-accrued);
      expect(-e.amount).toBe(balance);
      accrued = 0;
      deposits++;
    } else accrued += e.amount;
    balance += e.amount;
    expect(e.balance).toBe(balance);
  }
  // Weekly deposits over about six months.
  expect(deposits).toBeGreaterThanOrEqual(20);
}
