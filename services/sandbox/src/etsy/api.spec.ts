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

interface Money {
  amount: number;
  divisor: number;
  currency_code: string;
}
interface Receipt {
  receipt_id: number;
  status: string;
  create_timestamp: number;
  created_timestamp: number;
  update_timestamp: number;
  updated_timestamp: number;
  is_shipped: boolean;
  grandtotal: Money;
  subtotal: Money;
  total_price: Money;
  total_shipping_cost: Money;
  total_tax_cost: Money;
  total_vat_cost: Money;
  discount_amt: Money;
  transactions: Array<{
    title: string;
    price: Money;
    quantity: number;
    sku: string;
    transaction_id: number;
    is_digital: boolean;
  }>;
  refunds: unknown[];
  shipments: unknown[];
}

describe('Etsy API: keys, shop, receipts, payments, ledger, rate limits', () => {
  let app: FastifyInstance;
  let clock: Clock;
  let tenant: TenantInfo;
  let tokens: Tokens;
  let receiptsUrl: string;

  beforeAll(async () => {
    ({ app, clock } = await newSandbox({ etsyQps: 1000, etsyQpd: 1_000_000 }));
    tenant = await createTenant(app, { seed: 'api-spec', months: 6, ordersPerMonth: 300 });
    tokens = await connectEtsy(app, tenant.tenantId);
    receiptsUrl = `/v3/application/shops/${tenant.etsy.shopId}/receipts`;
  });
  afterAll(() => app.close());

  const receipts = async (query: string) => {
    const res = await etsyGet(app, `${receiptsUrl}?${query}`, tokens.access_token);
    expect(res.statusCode).toBe(200);
    return res.json<{ count: number; results: Receipt[] }>();
  };

  it('answers the x-api-key mistakes with the documented 403s', async () => {
    const url = `/v3/application/shops/${tenant.etsy.shopId}`;
    expect((await etsyGet(app, url, undefined, 'sandbox-keystring')).json()).toEqual({
      error: 'Shared secret is required in x-api-key header.',
    });
    for (const malformed of ['sandbox-keystring:', ':secret', 'a:b:c', 'sandbox keystring']) {
      const res = await etsyGet(app, url, undefined, malformed);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: "Invalid API key: should be in the format 'keystring:shared_secret'." });
    }
    const unknown = await etsyGet(app, url, undefined, 'someone:else');
    expect(unknown.statusCode).toBe(403);
    expect(unknown.json().error).toContain('API key not found or not active');
    const ok = await etsyGet(app, '/v3/application/openapi-ping', undefined);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ application_id: expect.any(Number) });
    // Also on OAuth endpoints, and before the token is looked at.
    expect((await etsyGet(app, receiptsUrl, tokens.access_token, 'sandbox-keystring')).statusCode).toBe(403);
  });

  it('serves getShop with the useful fields, and the same under the /etsy prefix', async () => {
    const shop = (await etsyGet(app, `/v3/application/shops/${tenant.etsy.shopId}`)).json();
    expect(shop).toMatchObject({
      shop_id: tenant.etsy.shopId,
      user_id: tenant.etsy.userId,
      shop_name: tenant.etsy.shopName,
      login_name: tenant.etsy.loginName,
      currency_code: 'USD',
      is_shop_us_based: true,
    });
    expect(shop.created_timestamp).toBe(shop.create_date);
    const prefixed = await etsyGet(app, `/etsy/v3/application/shops/${tenant.etsy.shopId}`);
    expect(prefixed.json()).toEqual(shop);
    expect((await etsyGet(app, '/v3/application/shops/1')).statusCode).toBe(404);
  });

  it('pages receipts: limit 1-100 (default 25), count of all matches, offset at most 12000', async () => {
    const first = await receipts('');
    expect(first.count).toBe(1800);
    expect(first.results).toHaveLength(25);
    expect((await receipts('limit=100&offset=1790')).results).toHaveLength(10);
    for (const bad of [
      'limit=0',
      'limit=101',
      'limit=abc',
      'offset=-1',
      'offset=12001',
      'sort_on=price',
      'sort_order=sideways',
      'was_paid=maybe',
      'min_created=12',
    ]) {
      const res = await etsyGet(app, `${receiptsUrl}?${bad}`, tokens.access_token);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: expect.any(String) });
    }
    expect((await receipts('offset=12000')).results).toHaveLength(0);
    // Paging with offsets visits every receipt exactly once.
    const seen = new Set<number>();
    for (let offset = 0; offset < 1800; offset += 100)
      for (const r of (await receipts(`limit=100&offset=${offset}`)).results) seen.add(r.receipt_id);
    expect(seen.size).toBe(1800);
  });

  it('sorts by created, updated or receipt_id with every alias of sort_order', async () => {
    const desc = (await receipts('limit=100')).results;
    expect(desc.map((r) => r.created_timestamp)).toEqual(
      [...desc.map((r) => r.created_timestamp)].sort((a, b) => b - a),
    );
    for (const alias of ['asc', 'ascending', 'up']) {
      const asc = (await receipts(`limit=50&sort_order=${alias}`)).results;
      expect(asc.map((r) => r.receipt_id)).toEqual([...asc.map((r) => r.receipt_id)].sort((a, b) => a - b));
    }
    for (const alias of ['desc', 'descending', 'down'])
      expect((await receipts(`limit=10&sort_order=${alias}`)).results[0].receipt_id).toBe(desc[0].receipt_id);
    const updated = (await receipts('sort_on=updated&sort_order=asc&limit=100')).results.map(
      (r) => r.updated_timestamp,
    );
    expect(updated).toEqual([...updated].sort((a, b) => a - b));
    const byId = (await receipts('sort_on=receipt_id&limit=100')).results.map((r) => r.receipt_id);
    expect(byId).toEqual([...byId].sort((a, b) => b - a));
  });

  it('filters by created and last-modified windows and the was_* flags', async () => {
    const all = (await receipts('limit=100&sort_order=asc')).results;
    const min = all[10].created_timestamp;
    const max = all[40].created_timestamp;
    const window = await receipts(`min_created=${min}&max_created=${max}&limit=100&sort_order=asc`);
    expect(window.results.every((r) => r.created_timestamp >= min && r.created_timestamp <= max)).toBe(true);
    expect(window.count).toBe(window.results.length);
    expect(window.results[0].receipt_id).toBe(all.find((r) => r.created_timestamp === min)?.receipt_id);
    const recent = await receipts(
      `min_last_modified=${Math.floor(clock.ms / 1000) - 7 * 86_400}&sort_on=updated&limit=100`,
    );
    expect(recent.count).toBeGreaterThan(0);
    expect(recent.results.every((r) => r.updated_timestamp >= Math.floor(clock.ms / 1000) - 7 * 86_400)).toBe(true);
    const canceled = await receipts('was_canceled=true&limit=100');
    expect(canceled.count).toBeGreaterThan(0);
    expect(canceled.results.every((r) => r.status === 'Canceled')).toBe(true);
    const open = await receipts('was_shipped=false&was_canceled=0&limit=100');
    expect(open.results.every((r) => !r.is_shipped && ['Paid', 'Payment Processing', 'Open'].includes(r.status))).toBe(
      true,
    );
    const notCanceled = await receipts('was_canceled=false');
    expect(notCanceled.count + canceled.count).toBe(1800);
    const unpaid = await receipts('was_paid=false&limit=100');
    expect(unpaid.count + (await receipts('was_paid=true')).count).toBe(1800);
  });

  it('renders receipts like live traffic: Title Case statuses, both timestamp names, Money, escaped titles', async () => {
    const page = (await receipts('limit=100&offset=0')).results.concat(
      (await receipts('limit=100&offset=100')).results,
    );
    const statuses = new Set(
      (
        await Promise.all(
          [0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100, 1200, 1300, 1400, 1500, 1600, 1700].map((o) =>
            receipts(`limit=100&offset=${o}`),
          ),
        )
      ).flatMap((p) => p.results.map((r) => r.status)),
    );
    expect([...statuses].sort()).toEqual(
      expect.arrayContaining(['Canceled', 'Completed', 'Fully Refunded', 'Paid', 'Partially Refunded']),
    );
    for (const r of page) {
      expect(r.create_timestamp).toBe(r.created_timestamp);
      expect(r.update_timestamp).toBe(r.updated_timestamp);
      expect(r.grandtotal.amount).toBe(
        r.subtotal.amount + r.total_shipping_cost.amount + r.total_tax_cost.amount + r.total_vat_cost.amount,
      );
      expect(r.subtotal.amount).toBe(r.total_price.amount - r.discount_amt.amount);
      const itemsTotal = r.transactions.reduce(
        (sum, t) => sum + (t.price.amount / t.price.divisor) * 100 * t.quantity,
        0,
      );
      expect(Math.round(itemsTotal)).toBe(r.total_price.amount);
      for (const t of r.transactions) {
        expect([100, 1000]).toContain(t.price.divisor);
        expect(t.title).not.toMatch(/["']/);
      }
    }
    const titles = page.flatMap((r) => r.transactions.map((t) => t.title)).join('\n');
    expect(titles).toMatch(/&quot;|&#39;|&amp;/);
  });

  it('serves one receipt, its transactions and its payment', async () => {
    const [receipt] = (await receipts('was_shipped=true&limit=1')).results;
    const one = await etsyGet(app, `${receiptsUrl}/${receipt.receipt_id}`, tokens.access_token);
    expect(one.json()).toEqual(receipt);
    const transactions = (
      await etsyGet(app, `${receiptsUrl}/${receipt.receipt_id}/transactions`, tokens.access_token)
    ).json();
    expect(transactions.count).toBe(receipt.transactions.length);
    const payments = (await etsyGet(app, `${receiptsUrl}/${receipt.receipt_id}/payments`, tokens.access_token)).json();
    expect(payments.count).toBe(1);
    const payment = payments.results[0];
    expect(payment.receipt_id).toBe(receipt.receipt_id);
    expect(payment.amount_gross).toEqual(receipt.grandtotal);
    expect(payment.amount_net.amount).toBe(payment.amount_gross.amount - payment.amount_fees.amount);
    expect(payment.posted_gross).toEqual(payment.amount_gross);
    const byId = (
      await etsyGet(
        app,
        `/v3/application/shops/${tenant.etsy.shopId}/payments?payment_ids=${payment.payment_id}`,
        tokens.access_token,
      )
    ).json();
    expect(byId.results[0]).toEqual(payment);
    expect(
      (await etsyGet(app, `/v3/application/shops/${tenant.etsy.shopId}/payments`, tokens.access_token)).statusCode,
    ).toBe(400);
    expect((await etsyGet(app, `${receiptsUrl}/1`, tokens.access_token)).statusCode).toBe(404);
  });

  it("refuses another seller's shop", async () => {
    const other = await createTenant(app, { months: 1, ordersPerMonth: 5 });
    const res = await etsyGet(app, `/v3/application/shops/${other.etsy.shopId}/receipts`, tokens.access_token);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: expect.any(String) });
  });

  describe('ledger entries', () => {
    const ledger = (query: string) =>
      etsyGet(
        app,
        `/v3/application/shops/${tenant.etsy.shopId}/payment-account/ledger-entries?${query}`,
        tokens.access_token,
      );
    const now = () => Math.floor(clock.ms / 1000);

    it('needs min_created and max_created, at most 31 days apart, with the exact error', async () => {
      expect((await ledger(`max_created=${now()}`)).statusCode).toBe(400);
      expect((await ledger(`min_created=${now() - 86_400}`)).statusCode).toBe(400);
      const wide = await ledger(`min_created=${now() - 2_678_401}&max_created=${now()}`);
      expect(wide.statusCode).toBe(400);
      expect(wide.json()).toEqual({
        error: 'Time window between min_created and max_created must be no more than 2678400 seconds (31 days).',
      });
      expect((await ledger(`min_created=${now() - 2_678_400}&max_created=${now()}`)).statusCode).toBe(200);
    });

    it('lists signed minor-unit entries with the fee types and a running balance', async () => {
      const types = new Set<string>();
      let total = 0;
      for (let end = now(); end > now() - 180 * 86_400; end -= 2_678_400) {
        for (let offset = 0; ; offset += 100) {
          const page = (
            await ledger(`min_created=${end - 2_678_400 + 1}&max_created=${end}&limit=100&offset=${offset}`)
          ).json();
          for (const entry of page.results) {
            types.add(entry.ledger_type);
            const fine =
              Number.isInteger(entry.amount) &&
              ['number', 'string', 'object'].includes(typeof entry.reference_id) &&
              entry.description === entry.ledger_type &&
              entry.create_date === entry.created_timestamp &&
              entry.currency === 'USD';
            if (!fine) expect(entry).toBe('a well-formed ledger entry');
          }
          total = page.count;
          if (page.results.length < 100) break;
        }
      }
      expect(total).toBeGreaterThan(0);
      for (const type of [
        'transaction',
        'shipping_transaction',
        'PAYMENT_PROCESSING_FEE',
        'PAYMENT_GROSS',
        'renew_sold',
        'listing',
        'sales_tax',
        'DISBURSE2',
        'REFUND_GROSS',
        'offsite_ads_fee',
      ])
        expect(types).toContain(type);
      expect(types).not.toContain('vat_seller_services');
    });
  });

  it('charges UK sellers the regulatory fee and VAT on fees, linked to the fee they tax', async () => {
    const gb = await createTenant(app, { seed: 'uk-ledger', shopCurrency: 'GBP', months: 1, ordersPerMonth: 150 });
    const gbTokens = await connectEtsy(app, gb.tenantId);
    const now = Math.floor(clock.ms / 1000);
    const entries: Array<{
      entry_id: number;
      ledger_type: string;
      parent_entry_id: number;
      amount: number;
      currency: string;
      reference_type: string;
    }> = [];
    for (let offset = 0; ; offset += 100) {
      const page = (
        await etsyGet(
          app,
          `/v3/application/shops/${gb.etsy.shopId}/payment-account/ledger-entries?min_created=${now - 2_678_400}&max_created=${now}&limit=100&offset=${offset}`,
          gbTokens.access_token,
        )
      ).json();
      entries.push(...page.results);
      if (page.results.length < 100) break;
    }
    const types = new Set(entries.map((e) => e.ledger_type));
    for (const type of ['regulatory_operating_fee', 'vat_seller_services', 'transaction', 'PAYMENT_PROCESSING_FEE'])
      expect(types).toContain(type);
    expect(entries.every((e) => e.currency === 'GBP')).toBe(true);
    const vat = entries.find((e) => e.ledger_type === 'vat_seller_services');
    const parent = entries.find((e) => e.entry_id === vat?.parent_entry_id);
    expect(vat?.reference_type).toBe('etsy');
    expect(parent?.amount).toBeLessThan(0);
    expect(vat?.amount).toBe(Math.round((parent?.amount ?? 0) * 0.2));
  });

  describe('rate limits', () => {
    it('sends the limit headers on success and 429 with retry-after past the per-second limit', async () => {
      const { app: limited, clock: c } = await newSandbox({ etsyQps: 3, etsyQpd: 5 });
      try {
        const t = await createTenant(limited, { months: 1, ordersPerMonth: 10 });
        const tk = await connectEtsy(limited, t.tenantId);
        const me = () => etsyGet(limited, '/v3/application/users/me', tk.access_token);
        const first = await me();
        expect(first.headers).toMatchObject({
          'x-limit-per-second': '3',
          'x-remaining-this-secon': '2',
          'x-remaining-this-second': '2',
          'x-limit-per-day': '5',
          'x-remaining-today': '4',
        });
        await me();
        await me();
        const refused = await me();
        expect(refused.statusCode).toBe(429);
        expect(refused.headers['retry-after']).toBe('1');
        c.advance(1);
        expect((await me()).statusCode).toBe(200);
        const overDay = await me();
        c.advance(1);
        const daily = await me();
        expect(overDay.statusCode).toBe(200);
        expect(daily.statusCode).toBe(429);
        expect(Number(daily.headers['retry-after'])).toBeGreaterThan(80_000);
        // Key-only calls count per API key, not per token.
        expect((await etsyGet(limited, '/v3/application/openapi-ping')).statusCode).toBe(200);
        const log = (await limited.inject({ url: `/__sandbox/requests?tenantId=${t.tenantId}`, headers: ADMIN })).json()
          .requests;
        expect(log.filter((r: { status: number }) => r.status === 429)).toHaveLength(2);
        expect(JSON.stringify(log)).not.toContain(tk.access_token);
      } finally {
        await limited.close();
      }
    });
  });
});
