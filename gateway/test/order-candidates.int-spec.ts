import type { DataSource } from 'typeorm';
import type { MatchCandidatesResponse } from '@pod/contracts';
import { createDataSource } from '@pod/db';
import { storeSyncedOrders, type SideFixture } from '@pod/testing';
import { DAY_MS, matchAndFigure, recordIdOf, signedInSeller } from './support/order-sellers';
import { GatewayTestBed, SAME_ORIGIN, type TestGateway } from './support/test-gateway';

/**
 * GET /api/orders/:id/candidates (issue 18): ranked by fit, filtered and searched in the server,
 * paged; orders that need no fulfilment and 0%-fit orders are never offered unless searched for
 * (the 0%-fit ones; no-fulfilment ones never).
 */
const bed = new GatewayTestBed();
let gw: TestGateway;
let dataSource: DataSource;
let seller: { cookie: string; userId: string };
const NOW = new Date();
const ago = (days: number) => new Date(NOW.getTime() - days * DAY_MS);
const mug = [{ title: 'Compiler Mug', sku: 'MUG-C', quantity: 1 }];

beforeAll(async () => {
  await bed.setUp();
  gw = await bed.start();
  dataSource = await createDataSource(
    { DATABASE_URL: bed.database.url, DATABASE_POOL_SIZE: 2 },
    'candidates-test',
  ).initialize();
  seller = await signedInSeller(gw, bed.database.url, 'candidates');
  const receipt = (id: string, buyerName: string, days: number, over: Partial<SideFixture> = {}): SideFixture => ({
    shopId: 'cd-etsy',
    id,
    buyerName,
    orderedAt: ago(days),
    lines: mug,
    ...over,
  });
  await storeSyncedOrders(
    dataSource,
    seller.userId,
    [
      receipt('cd-r1', 'Grace Hopper', 10),
      receipt('cd-r-low', 'Ken Thompson', 12, { lines: [{ title: 'Unix Poster', sku: 'POST-U', quantity: 1 }] }),
      receipt('cd-r-far', 'Grace Hopper', 100),
      receipt('cd-r-digital', 'Grace Hopper', 10, { digital: true }),
    ],
    [
      { shopId: 'cd-pfy', id: 'cd-p1', buyerName: 'Grace Hopper', orderedAt: ago(10), lines: mug },
      {
        shopId: 'cd-pfy',
        id: 'cd-p-sample',
        buyerName: 'Grace Hopper',
        orderedAt: ago(10),
        lines: mug,
        orderType: 'sample',
      },
    ],
  );
  await matchAndFigure(dataSource, seller.userId, NOW);
  // The matcher pairs cd-r1 with cd-p1; unmatched by hand, both are lone and stay so.
  const pair = await recordIdOf(bed.database.url, seller.userId, { receipt: 'cd-r1' });
  const unmatched = await gw.app.inject({
    method: 'POST',
    url: `/api/orders/${pair}/unmatch`,
    headers: { ...SAME_ORIGIN, cookie: seller.cookie },
  });
  expect(unmatched.statusCode).toBe(200);
}, 90_000);

afterAll(async () => {
  await dataSource?.destroy();
  await bed.tearDown();
});

const candidatesOf = async (side: { receipt?: string; order?: string }, query = '') => {
  const id = await recordIdOf(bed.database.url, seller.userId, side);
  const response = await gw.app.inject({
    method: 'GET',
    url: `/api/orders/${id}/candidates?currency=USD${query}`,
    headers: { cookie: seller.cookie },
  });
  return { statusCode: response.statusCode, body: response.json<MatchCandidatesResponse>() };
};
const receiptsOf = (body: MatchCandidatesResponse) => body.candidates.map((c) => c.order.etsyReceiptId);

describe('manual-match candidates', () => {
  it('ranks by fit, leaves out digital receipts and 0%-fit ones, and names the parts of each fit', async () => {
    const { statusCode, body } = await candidatesOf({ order: 'cd-p1' });
    expect(statusCode).toBe(200);
    expect(receiptsOf(body)).toEqual(['cd-r1', 'cd-r-low']);
    expect(body).toMatchObject({ total: 2, page: 1, pageSize: 20, lowFitBelow: 0.55 });
    expect(body.candidates[0].fit).toEqual({ score: 1, buyerName: 1, date: 1, items: 1 });
    const low = body.candidates[1];
    expect(low.fit).toMatchObject({ buyerName: 0, date: 1, items: 0 });
    expect(low.score).toBe(low.fit.score);
    expect(low.score).toBeGreaterThan(0);
    expect(low.score).toBeLessThan(body.lowFitBelow);
  });

  it('leaves out Printify samples for a receipt', async () => {
    const { body } = await candidatesOf({ receipt: 'cd-r1' });
    expect(body.candidates.map((c) => c.order.printifyOrderId)).toEqual(['cd-p1']);
  });

  it('a search lists every hit of the term at any date, ranked by fit, never an order that needs no fulfilment', async () => {
    const grace = await candidatesOf({ order: 'cd-p1' }, '&search=grace');
    expect(receiptsOf(grace.body)).toEqual(['cd-r1', 'cd-r-far']);
    expect(grace.body.candidates[1].fit).toMatchObject({ score: 0, date: 0, buyerName: 1 });
    // A term too short for the trigram index is answered by a scan of the user's records.
    expect(receiptsOf((await candidatesOf({ order: 'cd-p1' }, '&search=d-')).body)).toEqual([
      'cd-r1',
      'cd-r-low',
      'cd-r-far',
    ]);
    expect((await candidatesOf({ order: 'cd-p1' }, '&search=nobody')).body).toMatchObject({ candidates: [], total: 0 });
  });

  it('pages in the server and refuses a page that is not a whole number', async () => {
    const second = await candidatesOf({ order: 'cd-p1' }, '&page=2');
    expect(second.body).toMatchObject({ candidates: [], total: 2, page: 2 });
    const bad = await candidatesOf({ order: 'cd-p1' }, '&page=0');
    expect(bad.statusCode).toBe(400);
    const long = await candidatesOf({ order: 'cd-p1' }, `&search=${'x'.repeat(101)}`);
    expect(long.statusCode).toBe(400);
  });
});
