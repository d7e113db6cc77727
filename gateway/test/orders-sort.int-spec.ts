import type { DataSource } from 'typeorm';
import { createDataSource } from '@pod/db';
import { queryDatabase, storeGoldenRates } from '@pod/testing';
import { goldenDay, matchAndFigure, recordIdOf, seedOrderSeller, signedInSeller } from './support/order-sellers';
import { GatewayTestBed, type TestGateway } from './support/test-gateway';

/**
 * GET /api/orders?sort=&dir= (issue 18): each column both ways in the display currency, checked
 * against a plain ORDER BY over every row of the seller (the oracle); orders without the figure
 * last either way; id breaking ties; pages that add up to the whole list; with filters and a
 * search; an unknown sort or direction refused with a clear 400.
 */
const bed = new GatewayTestBed();
let gw: TestGateway;
let dataSource: DataSource;
let seller: { cookie: string; userId: string };
const NOW = new Date();

beforeAll(async () => {
  await bed.setUp();
  gw = await bed.start();
  dataSource = await createDataSource(
    { DATABASE_URL: bed.database.url, DATABASE_POOL_SIZE: 3 },
    'orders-sort-test',
  ).initialize();
  await storeGoldenRates(dataSource, [goldenDay(NOW)]);
  seller = await signedInSeller(gw, bed.database.url, 'orders-sort');
  await seedOrderSeller(dataSource, seller, 'os', NOW, 12);
  await matchAndFigure(dataSource, seller.userId, NOW);
  // One record's figures made stale (its sides "changed" since): it must sort as not computed.
  const stale = await recordIdOf(bed.database.url, seller.userId, { receipt: 'os7020' });
  await queryDatabase(bed.database.url, `UPDATE order_profit SET record_sides = 'stale' WHERE order_record_id = $1`, [
    stale,
  ]);
}, 90_000);

afterAll(async () => {
  await dataSource?.destroy();
  await bed.tearDown();
});

const get = async (url: string) => {
  const response = await gw.app.inject({ method: 'GET', url, headers: { cookie: seller.cookie } });
  return { status: response.statusCode, body: response.json() };
};

type Key = 'date' | 'revenue' | 'cost' | 'profit' | 'margin';
const ORACLE_KEY: Record<Exclude<Key, 'date'>, string> = {
  revenue: `CASE WHEN r.etsy_receipt_id IS NOT NULL THEN p.revenue_minor END`,
  // A receipt awaiting its Printify cost shows no cost, profit or margin (ADR 0031).
  cost: `CASE WHEN p.printify_cost IS DISTINCT FROM 'awaiting' THEN p.costs_minor END`,
  profit: `CASE WHEN p.printify_cost IS DISTINCT FROM 'awaiting' THEN p.net_profit_minor END`,
  // The exact fraction (the page's percent is rounded from it): basis points tie where percents differ.
  margin: `CASE WHEN p.printify_cost IS DISTINCT FROM 'awaiting' THEN (p.breakdown -> 'margin' ->> 'numerator')::numeric / (p.breakdown -> 'margin' ->> 'denominator')::numeric END`,
};

/** The seller's active record ids in the expected order, by a plain sort of every row (no index, no parts). */
async function oracle(key: Key, dir: 'asc' | 'desc', currency: string, where = 'true'): Promise<string[]> {
  const order =
    key === 'date'
      ? `r.order_date ${dir}, r.id ${dir}`
      : `(k.v IS NULL), k.v ${dir}, CASE WHEN k.v IS NULL THEN r.order_date END DESC,
         CASE WHEN k.v IS NOT NULL THEN r.id END ${dir}, r.id DESC`;
  const key_ = key === 'date' ? 'NULL::bigint' : ORACLE_KEY[key];
  const rows = await queryDatabase<{ id: string }>(
    bed.database.url,
    `SELECT r.id FROM order_record r
       LEFT JOIN order_profit p ON p.order_record_id = r.id AND p.currency = $2
         AND p.record_sides = (coalesce(r.etsy_shop_id || ':' || r.etsy_receipt_id, '') || '|' || coalesce(r.printify_shop_id || ':' || r.printify_order_id, ''))
       CROSS JOIN LATERAL (SELECT ${key_} AS v) k
     WHERE r.user_id = $1 AND r.archived_at IS NULL AND ${where}
     ORDER BY ${order}`,
    [seller.userId, currency],
  );
  return rows.map((row) => row.id);
}

const ids = (body: { orders: { id: string }[] }) => body.orders.map((order) => order.id);

describe('GET /api/orders sorted', () => {
  const cases = (['date', 'revenue', 'cost', 'profit', 'margin'] as const).flatMap((key) =>
    (['asc', 'desc'] as const).map((dir) => [key, dir] as const),
  );

  it.each(cases)('by %s %s: the oracle order, pages adding up to it, the sort echoed', async (key, dir) => {
    const whole = await get(`/api/orders?sort=${key}&dir=${dir}&currency=USD&pageSize=100`);
    expect(whole.status).toBe(200);
    expect(whole.body).toMatchObject({ sort: key, dir });
    const expected = await oracle(key, dir, 'USD');
    expect(ids(whole.body)).toEqual(expected);
    const paged: string[] = [];
    for (let page = 1; paged.length < expected.length && page < 20; page += 1)
      paged.push(...ids((await get(`/api/orders?sort=${key}&dir=${dir}&currency=USD&pageSize=4&page=${page}`)).body));
    expect(paged).toEqual(expected);
  });

  it('sorts by the figures in the display currency the page asks for', async () => {
    for (const currency of ['EUR', 'GBP']) {
      const { body } = await get(`/api/orders?sort=profit&dir=desc&currency=${currency}&pageSize=100`);
      expect(ids(body)).toEqual(await oracle('profit', 'desc', currency));
      const profits = body.orders
        .filter((o: { profit: unknown }) => o.profit !== null)
        .map((o: { profit: { minor: number; currency: string } }) => o.profit);
      expect(profits.every((p: { currency: string }) => p.currency === currency)).toBe(true);
      expect(profits.map((p: { minor: number }) => p.minor)).toEqual(
        [...profits.map((p: { minor: number }) => p.minor)].sort((a, b) => b - a),
      );
    }
  });

  it('orders without the figure (stale, lone Printify revenue) come last in either direction', async () => {
    const stale = await recordIdOf(bed.database.url, seller.userId, { receipt: 'os7020' });
    for (const dir of ['asc', 'desc']) {
      const { body } = await get(`/api/orders?sort=profit&dir=${dir}&pageSize=100`);
      const staleAt = ids(body).indexOf(stale);
      expect(body.orders[staleAt].figures).toBe('not_computed');
      expect(body.orders.slice(staleAt).every((o: { profit: unknown }) => o.profit === null)).toBe(true);
      const revenue = (await get(`/api/orders?sort=revenue&dir=${dir}&pageSize=100`)).body.orders;
      const firstWithout = revenue.findIndex((o: { revenue: unknown }) => o.revenue === null);
      expect(firstWithout).toBeGreaterThan(0);
      expect(revenue.slice(firstWithout).every((o: { revenue: unknown }) => o.revenue === null)).toBe(true);
    }
  });

  it('keeps the filters and the search under every sort', async () => {
    const unmatched = await get('/api/orders?sort=cost&dir=asc&status=unmatched&source=printify&pageSize=100');
    expect(ids(unmatched.body)).toEqual(
      await oracle('cost', 'asc', 'USD', `r.status = 'unmatched' AND r.printify_order_id IS NOT NULL`),
    );
    expect(unmatched.body.filteredTotal).toBe(unmatched.body.orders.length);
    const searched = await get('/api/orders?sort=margin&dir=desc&search=month%20item&pageSize=100');
    expect(ids(searched.body)).toEqual(await oracle('margin', 'desc', 'USD', `r.product_title ILIKE '%month item%'`));
    expect(searched.body.orders).toHaveLength(12);
    const short = await get('/api/orders?sort=profit&dir=asc&search=os&days=30&pageSize=100');
    expect(ids(short.body)).toEqual(
      await oracle(
        'profit',
        'asc',
        'USD',
        `r.order_date >= now() - interval '30 days' AND (coalesce(r.etsy_receipt_id, '') || ' ' || coalesce(r.printify_order_id, '') || ' ' || coalesce(r.customer_name, '') || ' ' || coalesce(r.product_title, '')) ILIKE '%os%'`,
      ),
    );
  });

  it('refuses an unknown sort or direction with a clear 400', async () => {
    expect(await get('/api/orders?sort=customer')).toMatchObject({
      status: 400,
      body: {
        code: 'validation_failed',
        field: 'sort',
        message: 'sort must be one of date, revenue, cost, profit or margin',
      },
    });
    expect(await get('/api/orders?sort=profit&dir=up')).toMatchObject({
      status: 400,
      body: { code: 'validation_failed', field: 'dir', message: 'dir must be asc or desc' },
    });
    expect((await get('/api/orders?sort=profit&sort=cost')).status).toBe(400);
  });

  it('without a sort: newest first, as before', async () => {
    const { body } = await get('/api/orders?pageSize=100');
    expect(body).toMatchObject({ sort: 'date', dir: 'desc' });
    expect(ids(body)).toEqual(await oracle('date', 'desc', 'USD'));
  });

  it('by margin, in the order of the percents shown, where two margins round to the same basis points', async () => {
    // 77.4499% and 77.4501%: both 7745 basis points, shown as 77.4% and 77.5%.
    const { body } = await get('/api/orders?sort=margin&dir=desc&currency=USD&pageSize=100');
    const withMargin = body.orders.filter(
      (o: { profitMarginPercent: number | null }) => o.profitMarginPercent !== null,
    );
    const [first, second] = withMargin.map((o: { id: string }) => o.id).sort();
    const setMargin = (id: string, numerator: number) =>
      queryDatabase(
        bed.database.url,
        `UPDATE order_profit SET breakdown = jsonb_set(breakdown, '{margin}', $2::jsonb)
         WHERE order_record_id = $1 AND currency = 'USD'`,
        [id, JSON.stringify({ numerator, denominator: 1_000_000, basisPoints: 7745 })],
      );
    // The lower percent on the larger id, so an id tie-break puts it first in "highest first".
    await setMargin(first, 774_501);
    await setMargin(second, 774_499);
    for (const dir of ['asc', 'desc'] as const) {
      const answer = (await get(`/api/orders?sort=margin&dir=${dir}&currency=USD&pageSize=100`)).body;
      const percents = answer.orders
        .map((o: { profitMarginPercent: number | null }) => o.profitMarginPercent)
        .filter((p: number | null): p is number => p !== null);
      expect(percents).toContain(77.4);
      expect(percents).toContain(77.5);
      expect(percents).toEqual([...percents].sort((a, b) => (dir === 'asc' ? a - b : b - a)));
      expect(ids(answer)).toEqual(await oracle('margin', dir, 'USD'));
    }
  });
});
