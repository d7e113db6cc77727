import type { DataSource } from 'typeorm';
import { createDataSource, EtsyOrdersRepository, PrintifyOrdersRepository } from '@pod/db';
import { goldenUsdOrder, queryDatabase, storeGoldenRates, storeProfitOrder } from '@pod/testing';
import { DAY_MS, goldenDay, matchAndFigure, recordIdOf, signedInSeller } from './support/order-sellers';
import { GatewayTestBed, SAME_ORIGIN, type TestGateway } from './support/test-gateway';

/**
 * Shop costs on the Dashboard and the Payouts page (docs/adr/0027), worked by hand on a seeded
 * USD seller: the golden USD order (30 days ago) with its ledger, a week of shop costs, a
 * Printify sample, and two deposits: one that reconciles to 0.00, one that does not because an
 * entry (sequence 14, 3.00) is missing from what we hold, shown by its sequence gap.
 */
const bed = new GatewayTestBed();
let gw: TestGateway;
let dataSource: DataSource;
let seller: { cookie: string; userId: string };
let other: { cookie: string; userId: string };
/**
 * "Now" for the fixture, moved back 1-3 days when the rate day (goldenDay, 30 days before) would
 * fall on a Friday or a weekend: the days after a Friday rate take that rate as final (the ECB
 * publishes none on Saturday or Sunday), so the shop costs placed after it would not all be
 * provisional; a Monday-Thursday rate day keeps the fixture's meaning on any weekday.
 */
function fixtureNow(): Date {
  const now = new Date();
  const rateWeekday = new Date(`${goldenDay(now)}T00:00:00Z`).getUTCDay();
  const back = { 5: 1, 6: 2, 0: 3 }[rateWeekday] ?? 0;
  return new Date(now.getTime() - back * DAY_MS);
}
const NOW = fixtureNow();
const SHOP = 'sc-usd-shop';
const RECEIPT = 'sc9001';

/** [sequence, type, amount, Etsy's balance after, days after the order, parent sequence] */
type Line = [number, string, number, number, number, number?];
const LEDGER: Line[] = [
  [1, 'PAYMENT_GROSS', 3713, 3713, 0],
  [2, 'sales_tax', -213, 3500, 0],
  [3, 'transaction', -195, 3305, 0],
  [4, 'shipping_transaction', -33, 3272, 0],
  [5, 'PAYMENT_PROCESSING_FEE', -136, 3136, 0],
  [6, 'renew_sold', -20, 3116, 0],
  [7, 'prolist', -150, 2966, 1],
  [8, 'subscription', -1000, 1966, 1],
  [9, 'vat_seller_services', -200, 1766, 1, 8],
  [10, 'shipping_labels', -450, 1316, 2],
  [11, 'shipping_label_refund', 450, 1766, 3],
  [12, 'mystery_fee', -75, 1691, 3],
  [13, 'DISBURSE2', -1691, 0, 4],
  [14, 'prolist', -150, -150, 5],
  // 15: a 3.00 entry Etsy has and we do not (a missed page): Etsy's balance goes on from -450.
  [16, 'prolist', -150, -600, 6],
  [17, 'seller_credit', 1000, 400, 6],
  [18, 'DISBURSE2', -400, 0, 7],
];
const RECEIPT_TYPES = new Set([
  'PAYMENT_GROSS',
  'sales_tax',
  'transaction',
  'shipping_transaction',
  'PAYMENT_PROCESSING_FEE',
  'renew_sold',
]);

async function seedSeller(userId: string): Promise<void> {
  const day = new Date(`${goldenDay(NOW)}T10:00:00Z`);
  await storeProfitOrder(dataSource, userId, goldenUsdOrder('sc', { orderedAt: day, ledger: [] }));
  const etsy = new EtsyOrdersRepository(dataSource);
  await etsy.upsertLedgerEntries(
    userId,
    SHOP,
    LEDGER.map(([seq, type, amount, balance, days, parent]) => ({
      entryId: `${9000 + seq}`,
      ledgerType: type,
      referenceType: RECEIPT_TYPES.has(type) ? 'receipt' : null,
      referenceId: RECEIPT_TYPES.has(type) ? RECEIPT : null,
      parentEntryId: parent ? `${9000 + parent}` : null,
      currency: 'USD',
      amountMinor: amount,
      entryCreatedAt: new Date(day.getTime() + days * DAY_MS + seq * 60_000),
      payload: { entry_id: 9000 + seq, sequence_number: seq, amount, balance, ledger_type: type, currency: 'USD' },
    })),
  );
  await etsy.linkPendingLedgerEntries(userId, SHOP);
  // A Printify sample (no marketplace order): 8.00 + 4.00 shipping, two days after the order.
  await new PrintifyOrdersRepository(dataSource).upsertOrders(
    userId,
    'sc-pfy',
    [
      {
        orderId: 'sc-sample-1',
        appOrderId: null,
        status: 'fulfilled',
        orderType: 'sample',
        shopOrderId: null,
        shopOrderLabel: null,
        buyerName: 'The Seller',
        zip: null,
        country: null,
        currency: 'USD',
        totalPriceMinor: 800,
        totalShippingMinor: 400,
        totalTaxMinor: 0,
        isReprint: false,
        orderedAt: new Date(day.getTime() + 2 * DAY_MS),
        sentToProductionAt: null,
        fulfilledAt: null,
        lines: [
          {
            productId: null,
            variantId: null,
            sku: 'SAMPLE-MUG',
            title: 'Sample Mug',
            variantLabel: null,
            quantity: 1,
            currency: 'USD',
            costMinor: 800,
            shippingMinor: 400,
            retailPriceMinor: null,
            status: 'fulfilled',
          },
        ],
        payload: { id: 'sc-sample-1', order_type: 'sample' },
      },
    ],
    new Date(),
  );
  await matchAndFigure(dataSource, userId, NOW);
}

beforeAll(async () => {
  await bed.setUp();
  gw = await bed.start();
  dataSource = await createDataSource(
    { DATABASE_URL: bed.database.url, DATABASE_POOL_SIZE: 3 },
    'shop-costs-test',
  ).initialize();
  await storeGoldenRates(dataSource, [goldenDay(NOW)]);
  seller = await signedInSeller(gw, bed.database.url, 'shopcosts');
  other = await signedInSeller(gw, bed.database.url, 'shopcosts-other');
  await seedSeller(seller.userId);
}, 90_000);

afterAll(async () => {
  await dataSource?.destroy();
  await bed.tearDown();
});

const get = async (url: string, cookie = seller.cookie) => {
  const response = await gw.app.inject({ method: 'GET', url, headers: { cookie } });
  return { status: response.statusCode, body: response.json() };
};

describe('the Dashboard with shop costs', () => {
  it('shows other Etsy costs by kind, other Printify costs, and profit after shop costs (worked by hand)', async () => {
    const { status, body } = await get('/api/dashboard/metrics?days=90&currency=USD');
    expect(status).toBe(200);
    // The golden order: 35.00 revenue − 17.25 Printify − 1.95 − 0.33 − 1.36 − 0.20 listing = 13.91.
    expect(body.netProfit).toEqual({ minor: 1391, currency: 'USD' });
    expect(body.otherEtsyCosts.byKind).toEqual([
      { kind: 'credits', label: 'Credits from Etsy', cost: { minor: -1000, currency: 'USD' }, entries: 1 },
      { kind: 'etsy_ads', label: 'Etsy Ads', cost: { minor: 450, currency: 'USD' }, entries: 3 },
      { kind: 'shipping_labels', label: 'Shipping labels', cost: { minor: 0, currency: 'USD' }, entries: 2 },
      { kind: 'subscription', label: 'Subscriptions (Etsy Plus)', cost: { minor: 1200, currency: 'USD' }, entries: 2 },
      { kind: 'unclassified', label: 'Unclassified', cost: { minor: 75, currency: 'USD' }, entries: 1 },
    ]);
    expect(body.otherEtsyCosts).toMatchObject({ total: { minor: 725, currency: 'USD' }, withoutRate: 0 });
    expect(body.otherPrintifyCosts).toMatchObject({
      total: { minor: 1200, currency: 'USD' },
      byKind: [{ kind: 'sample', label: 'Samples', cost: { minor: 1200, currency: 'USD' }, entries: null }],
    });
    expect(body.profitAfterShopCosts).toEqual({ minor: 1391 - 725 - 1200, currency: 'USD' });
    for (const source of [
      body.netProfitSource,
      body.otherEtsyCosts.source,
      body.otherPrintifyCosts.source,
      body.profitAfterShopCostsSource,
    ]) {
      expect(source.length).toBeGreaterThan(20);
    }
  });

  it('profit after shop costs equals the ledger (non-payout entries) less the Printify charges, the receipt being in the ledger’s sale', async () => {
    const [ledger] = await queryDatabase<{ sum: string; sale: string }>(
      bed.database.url,
      `SELECT sum(amount_minor) FILTER (WHERE lower(ledger_type) <> 'disburse2')::text AS sum,
         sum(amount_minor) FILTER (WHERE ledger_type IN ('PAYMENT_GROSS', 'sales_tax'))::text AS sale
       FROM etsy_ledger_entry WHERE user_id = $1`,
      [seller.userId],
    );
    const [printify] = await queryDatabase<{ sum: string }>(
      bed.database.url,
      `SELECT sum(total_price_minor + total_shipping_minor + total_tax_minor)::text AS sum FROM printify_order WHERE user_id = $1`,
      [seller.userId],
    );
    const [receipt] = await queryDatabase<{ revenue: string }>(
      bed.database.url,
      `SELECT (total_price_minor + total_shipping_minor)::text AS revenue FROM etsy_receipt WHERE user_id = $1`,
      [seller.userId],
    );
    // The receipt's revenue (items + shipping, tax out) is what the ledger's sale less sales tax credits.
    expect(Number(ledger.sale)).toBe(Number(receipt.revenue));
    const { body } = await get('/api/dashboard/metrics?days=90&currency=USD');
    expect(body.profitAfterShopCosts.minor).toBe(Number(ledger.sum) - Number(printify.sum));
  });

  it('keeps an archived sample’s cost in the totals; the 7-day range holds none of it', async () => {
    const before = (await get('/api/dashboard/metrics?days=90&currency=USD')).body;
    const id = await recordIdOf(bed.database.url, seller.userId, { order: 'sc-sample-1' });
    const archived = await gw.app.inject({
      method: 'POST',
      url: `/api/orders/${id}/archive`,
      headers: { ...SAME_ORIGIN, cookie: seller.cookie },
    });
    expect(archived.statusCode).toBe(200);
    const after = (await get('/api/dashboard/metrics?days=90&currency=USD')).body;
    expect(after.otherPrintifyCosts.total).toEqual(before.otherPrintifyCosts.total);
    expect(after.profitAfterShopCosts).toEqual(before.profitAfterShopCosts);
    const week = (await get('/api/dashboard/metrics?days=7&currency=USD')).body;
    expect(week.otherEtsyCosts.total.minor).toBe(0);
    expect(week.otherPrintifyCosts.total.minor).toBe(0);
  });

  it('converts shop costs into another display currency at each entry’s date', async () => {
    const { body } = await get('/api/dashboard/metrics?days=90&currency=EUR');
    // 7.25 USD at 1.0625 per EUR (the golden rate, provisional for the later days) = 6.82 EUR, kind by kind.
    const perKind = body.otherEtsyCosts.byKind.map((kind: { cost: { minor: number } }) => kind.cost.minor);
    expect(body.otherEtsyCosts.total.minor).toBe(perKind.reduce((a: number, b: number) => a + b, 0));
    expect(Math.abs(body.otherEtsyCosts.total.minor - Math.round(725 / 1.0625))).toBeLessThanOrEqual(3);
    expect(body.otherEtsyCosts.withoutRate).toBe(0);
    // Every shop cost falls after the only loaded rate day (the order's): all 9 provisional, and said so.
    expect(body.otherEtsyCosts.provisional).toBe(9);
    expect((await get('/api/dashboard/metrics?days=90&currency=USD')).body.otherEtsyCosts.provisional).toBe(0);
  });
});

describe('GET /api/payouts', () => {
  it('lists each deposit newest first, reconciled: one to 0.00, one off by the missing entry, which it shows', async () => {
    const { status, body } = await get('/api/payouts');
    expect(status).toBe(200);
    expect(body).toMatchObject({ total: 2, page: 1, pageSize: 10 });
    const [latest, first] = body.payouts;
    expect(first).toMatchObject({
      amount: { minor: 1691, currency: 'USD' },
      openingBalance: { minor: 0 },
      ourSum: { minor: 1691 },
      leftInAccount: { minor: 0 },
      difference: { minor: 0 },
      reconciled: true,
      explanations: [],
    });
    expect(
      first.lines.map((line: { line: string; sum: { minor: number }; entries: number }) => [
        line.line,
        line.sum.minor,
        line.entries,
      ]),
    ).toEqual([
      ['sales', 3713, 1],
      ['fees', -384, 4],
      ['shop_costs', -1350, 5],
      ['taxes', -213, 1],
      ['other', -75, 1],
    ]);
    expect(first.lines.find((line: { line: string }) => line.line === 'other').items).toEqual([
      expect.objectContaining({ entryId: '9012', ledgerType: 'mystery_fee', amount: { minor: -75, currency: 'USD' } }),
    ]);
    // 0.00 + (−1.50 − 1.50 + 10.00) = 7.00 by our entries; Etsy paid 4.00 and kept 0.00: 3.00 apart.
    expect(latest).toMatchObject({
      amount: { minor: 400 },
      openingBalance: { minor: 0 },
      ourSum: { minor: 700 },
      difference: { minor: 300 },
      reconciled: false,
    });
    expect(latest.explanations).toEqual([
      expect.objectContaining({ entryId: '9016', kind: 'sequence_gap' }),
      expect.objectContaining({ entryId: '9016', kind: 'balance_mismatch' }),
    ]);
    expect(latest.explanations[1].message).toContain('-$3.00');
  });

  it('pages, refuses bad paging with a 400, and shows another seller nothing', async () => {
    const second = await get('/api/payouts?page=2&pageSize=1');
    expect(second.body).toMatchObject({ total: 2, page: 2, pageSize: 1 });
    expect(second.body.payouts.map((payout: { amount: { minor: number } }) => payout.amount.minor)).toEqual([1691]);
    expect((await get('/api/payouts?page=9')).body).toMatchObject({ total: 2, payouts: [] });
    for (const query of ['pageSize=0', 'pageSize=51', 'page=0', 'page=1e3']) {
      expect((await get(`/api/payouts?${query}`)).status).toBe(400);
    }
    expect((await get('/api/payouts', other.cookie)).body).toEqual({
      unpaid: [],
      payouts: [],
      total: 0,
      page: 1,
      pageSize: 10,
    });
    const anonymous = await gw.app.inject({ method: 'GET', url: '/api/payouts' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('shows each deposit in the display currency asked for, at its date’s rate (provisional past the loaded days)', async () => {
    const inEur = (await get('/api/payouts?currency=EUR')).body.payouts;
    // 16.91 USD four days after the only loaded rate day, at its 1.0625 USD per EUR: 15.92 EUR, provisional.
    expect(inEur[1].displayAmount).toEqual({ amount: { minor: 1592, currency: 'EUR' }, provisional: true });
    expect(inEur[0].displayAmount).toEqual({
      amount: { minor: Math.round(400 / 1.0625), currency: 'EUR' },
      provisional: true,
    });
    expect((await get('/api/payouts?currency=USD')).body.payouts[0].displayAmount).toBeNull();
    expect((await get('/api/payouts')).body.payouts[0].displayAmount).toBeNull();
    expect((await get('/api/payouts?currency=JPY')).status).toBe(400);
  });

  it('shows the money not paid out yet: the entries since the last deposit, reconciled the same way', async () => {
    const none = (await get('/api/payouts')).body.unpaid;
    expect(none).toEqual([
      expect.objectContaining({
        shopId: SHOP,
        openingBalance: { minor: 0, currency: 'USD' },
        lines: [],
        reconciled: true,
      }),
    ]);
    // After deposit 18 (balance 0.00): Etsy Ads −1.50, then a sale of 20.00 whose Etsy balance is 18.50.
    const day = new Date(`${goldenDay(NOW)}T10:00:00Z`);
    await new EtsyOrdersRepository(dataSource).upsertLedgerEntries(
      seller.userId,
      SHOP,
      [
        [19, 'prolist', -150, -150],
        [20, 'seller_credit', 2000, 1850],
      ].map(([seq, type, amount, balance]) => ({
        entryId: `${9000 + Number(seq)}`,
        ledgerType: String(type),
        referenceType: null,
        referenceId: null,
        parentEntryId: null,
        currency: 'USD',
        amountMinor: Number(amount),
        entryCreatedAt: new Date(day.getTime() + 8 * DAY_MS + Number(seq) * 60_000),
        payload: {
          entry_id: 9000 + Number(seq),
          sequence_number: seq,
          amount,
          balance,
          ledger_type: type,
          currency: 'USD',
        },
      })),
    );
    const [unpaid] = (await get('/api/payouts?page=2&pageSize=1')).body.unpaid;
    expect(unpaid).toMatchObject({
      shopId: SHOP,
      openingBalance: { minor: 0 },
      ourSum: { minor: 1850 },
      balanceNow: { minor: 1850 },
      difference: { minor: 0 },
      reconciled: true,
      explanations: [],
    });
    expect(unpaid.sinceDeposit).toBe(new Date(day.getTime() + 7 * DAY_MS + 18 * 60_000).toISOString());
    expect(unpaid.lines.map((line: { line: string; sum: { minor: number } }) => [line.line, line.sum.minor])).toEqual([
      ['shop_costs', 1850],
    ]);
  });
});
