import type { DataSource } from 'typeorm';
import type { DashboardMetricsResponse, OrderDetailsResponse, OrdersPageResponse } from '@pod/contracts';
import { createDataSource, FxRatesRepository } from '@pod/db';
import { latestTargetDayOnOrBefore, nextTargetDay } from '@pod/domain';
import { goldenEurOrder, goldenUsdOrder, queryDatabase, storeProfitOrder } from '@pod/testing';
import { DAY_MS, matchAndFigure, recordIdOf, signedInSeller } from './support/order-sellers';
import { GatewayTestBed, type TestGateway } from './support/test-gateway';

/**
 * What the order routes say about figures a seller would otherwise misread: an order whose ECB
 * day is not loaded yet shows provisional figures (the rate and day used, the day awaited) and
 * counts in the dashboard's totals and its provisional count; every Profit Summary line has a
 * label of its own (an estimated processing fee's percentage and fixed part, a fee charged in
 * two currencies).
 */
const bed = new GatewayTestBed();
let gw: TestGateway;
let dataSource: DataSource;
let seller: { cookie: string; userId: string };
const NOW = new Date();
const day = (date: Date) => date.toISOString().slice(0, 10);
// The latest loaded ECB day, at least 5 days back; the provisional order is dated on the next ECB day, whose rates are not loaded.
const LOADED = latestTargetDayOnOrBefore(day(new Date(NOW.getTime() - 5 * DAY_MS)));
const AWAITED = nextTargetDay(LOADED);

beforeAll(async () => {
  await bed.setUp();
  gw = await bed.start();
  dataSource = await createDataSource(
    { DATABASE_URL: bed.database.url, DATABASE_POOL_SIZE: 3 },
    'order-figure-lines-test',
  ).initialize();
  // EUR→GBP 0.85 and USD→GBP 0.8, as in the golden scenarios.
  await new FxRatesRepository(dataSource).upsertRates(
    [
      { date: LOADED, currency: 'GBP', perEur: '0.85' },
      { date: LOADED, currency: 'USD', perEur: '1.0625' },
    ],
    'test',
    new Date(),
  );
  seller = await signedInSeller(gw, bed.database.url, 'lines');
  // The shop's (so the bank account's) country sets the processing fee schedule: US, 3% + USD 0.25.
  await queryDatabase(
    bed.database.url,
    `INSERT INTO provider_connection (user_id, provider, shop_id, shop_country, access_token_enc, key_version) VALUES ($1, 'etsy', 'fl-usd-shop', 'us', 'x', 1)`,
    [seller.userId],
  );
  await storeProfitOrder(
    dataSource,
    seller.userId,
    goldenEurOrder('pv', { orderedAt: new Date(`${AWAITED}T08:00:00Z`) }),
  );
  // No payment yet: the processing fee is estimated; the ledger holds transaction fees in two currencies.
  await storeProfitOrder(
    dataSource,
    seller.userId,
    goldenUsdOrder('fl', {
      orderedAt: new Date(`${LOADED}T10:00:00Z`),
      paymentFeesMinor: undefined,
      ledger: [
        { id: 'fl-t1', type: 'transaction', amountMinor: -195 },
        { id: 'fl-t2', type: 'shipping_transaction', amountMinor: -33 },
        { id: 'fl-t3', type: 'transaction', amountMinor: -20, currency: 'EUR' },
      ],
    }),
  );
  await matchAndFigure(dataSource, seller.userId, NOW);
}, 90_000);

afterAll(async () => {
  await dataSource?.destroy();
  await bed.tearDown();
});

async function get<T>(url: string): Promise<T> {
  const response = await gw.app.inject({ method: 'GET', url, headers: { cookie: seller.cookie } });
  expect(response.statusCode).toBe(200);
  return response.json<T>();
}

describe('provisional figures', () => {
  it("an order dated after the latest loaded ECB day shows the figures at that day's rates, says they are provisional and which day they wait for", async () => {
    const id = await recordIdOf(bed.database.url, seller.userId, { receipt: 'pv9002' });
    const details = await get<OrderDetailsResponse>(`/api/orders/${id}?currency=GBP`);
    // The golden EUR order in GBP at the loaded day's rates: revenue 39.10, costs 21.53, profit 17.57.
    expect(details.order).toMatchObject({
      figures: 'provisional',
      revenue: { minor: 3910, currency: 'GBP' },
      cost: { minor: 2153 },
      profit: { minor: 1757 },
      profitMarginPercent: 44.9,
    });
    expect(details.profit).toMatchObject({
      figures: 'provisional',
      totalRevenue: { minor: 3910 },
      netProfit: { minor: 1757 },
      marginPercent: 44.9,
      provisional: { rateDate: LOADED, awaitingRateDate: AWAITED },
    });
    expect(details.profit?.ratesUsed.map((rate) => rate.date)).toEqual([LOADED, LOADED]);
    expect(details.printify).toMatchObject({ totalCost: { minor: 1600, currency: 'GBP' } });
    const list = await get<OrdersPageResponse>('/api/orders?currency=GBP&search=pv9002');
    expect(list.orders).toEqual([
      expect.objectContaining({ figures: 'provisional', profit: { minor: 1757, currency: 'GBP' } }),
    ]);
  });

  it('a final order says nothing of the kind', async () => {
    const id = await recordIdOf(bed.database.url, seller.userId, { receipt: 'fl9001' });
    const details = await get<OrderDetailsResponse>(`/api/orders/${id}?currency=GBP`);
    expect(details.order.figures).toBe('ok');
    expect(details.profit).toMatchObject({ figures: 'ok', provisional: null });
  });

  it('the dashboard sums provisional figures and counts them', async () => {
    const metrics = await get<DashboardMetricsResponse>('/api/dashboard/metrics?days=30&currency=GBP');
    const rows = await queryDatabase<{ figures: string; revenue_minor: string; net_profit_minor: string }>(
      bed.database.url,
      `SELECT figures, revenue_minor, net_profit_minor FROM order_profit WHERE user_id = $1 AND currency = 'GBP'`,
      [seller.userId],
    );
    expect(rows.map((row) => row.figures).sort()).toEqual(['ok', 'provisional']);
    expect(metrics).toMatchObject({
      ordersProvisional: 1,
      ordersWithoutRate: 0,
      ordersNotComputed: 0,
      totalRevenue: { minor: rows.reduce((sum, row) => sum + Number(row.revenue_minor), 0) },
      netProfit: { minor: rows.reduce((sum, row) => sum + Number(row.net_profit_minor), 0) },
    });
  });
});

describe('Profit Summary lines', () => {
  it('gives every line its own label: the estimated processing fee in its percentage and fixed part, a fee charged in two currencies by currency', async () => {
    const id = await recordIdOf(bed.database.url, seller.userId, { receipt: 'fl9001' });
    const { profit } = await get<OrderDetailsResponse>(`/api/orders/${id}?currency=USD`);
    const lines = (profit?.costLines ?? []).map((line) => [
      line.label,
      line.source,
      line.estimated,
      line.amount?.minor,
      `${line.original.minor} ${line.original.currency}`,
    ]);
    // Buyer paid 37.13: 3% = 1.1139 → 1.11, plus the fixed USD 0.25. Transaction: 1.95 + 0.33 in USD; 0.20 EUR at EUR→USD 1.0625 = 0.2125 → 0.21.
    expect(lines).toEqual([
      ['Printify production', 'printify', false, 1250, '1250 USD'],
      ['Printify shipping', 'printify', false, 475, '475 USD'],
      ['Printify tax', 'printify', false, 0, '0 USD'],
      ['Transaction fee (charged in USD)', 'ledger', false, 228, '228 USD'],
      ['Transaction fee (charged in EUR)', 'ledger', false, 21, '20 EUR'],
      ['Payment processing fee (3% of order total)', 'estimate', true, 111, '111 USD'],
      ['Payment processing fee (fixed $0.25)', 'estimate', true, 25, '25 USD'],
      ['Listing fee', 'estimate', true, 20, '20 USD'],
      // No conversion fee: the payment account's currency is the shop's ledger's (two of its three
      // entries are in USD, the listing's), not another order's payment currency (ADR 0026).
    ]);
    // The labels are the same in every display currency.
    const inEuro = await get<OrderDetailsResponse>(`/api/orders/${id}?currency=EUR`);
    expect(inEuro.profit?.costLines.map((line) => line.label)).toEqual(lines.map(([label]) => label));
  });
});
