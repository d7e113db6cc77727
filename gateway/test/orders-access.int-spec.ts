import { Queue } from 'bullmq';
import fc from 'fast-check';
import type { DataSource } from 'typeorm';
import { loadConfig } from '@pod/config';
import { createDataSource } from '@pod/db';
import { bullConnection, bullPrefix } from '@pod/queue';
import { queryDatabase, storeGoldenRates, storeSyncedOrders } from '@pod/testing';
import { UserMatcher, UserProfits } from '@pod/orders';
import {
  DAY_MS,
  goldenDay,
  matchAndFigure,
  recordIdOf,
  seedOrderSeller,
  signedInSeller,
} from './support/order-sellers';
import { GatewayTestBed, SAME_ORIGIN, type TestGateway } from './support/test-gateway';

/**
 * The per-record routes (manual match, unmatch, archive, restore, candidates), the access matrix
 * of every order route with an id (item 23: another user's ids and guessed ids answer the same
 * 404, and change nothing of theirs), strict number parsing, and a fast-check fuzz pass over the
 * query strings, path parameters and bodies of these routes: never a 5xx (item 30).
 */
const bed = new GatewayTestBed();
let gw: TestGateway;
let dataSource: DataSource;
let matcherQueue: Queue;
let a: { cookie: string; userId: string };
let b: { cookie: string; userId: string };
const NOW = new Date();

const seed = Number(process.env.FC_SEED ?? Date.now() % 2_147_483_647);
const numRuns = Number(process.env.FC_RUNS ?? 200);

beforeAll(async () => {
  console.log(`orders fuzz: fast-check seed ${seed} (FC_SEED=${seed} replays it), ${numRuns} runs per route`);
  await bed.setUp();
  gw = await bed.start();
  dataSource = await createDataSource(
    { DATABASE_URL: bed.database.url, DATABASE_POOL_SIZE: 3 },
    'orders-access-test',
  ).initialize();
  const config = loadConfig({ REDIS_PREFIX: bed.redisPrefix });
  matcherQueue = new Queue('matcher', { connection: bullConnection(config, 'producer'), prefix: bullPrefix(config) });
  await storeGoldenRates(dataSource, [goldenDay(NOW)]);
  a = await signedInSeller(gw, bed.database.url, 'access-a');
  b = await signedInSeller(gw, bed.database.url, 'access-b');
  for (const [seller, prefix] of [
    [a, 'xa'],
    [b, 'xb'],
  ] as const) {
    await seedOrderSeller(dataSource, seller, prefix, NOW);
    // A look-alike of the 60-day-old receipt (same buyer and product, a day later): the matcher pairs them (fuzzy).
    await storeSyncedOrders(
      dataSource,
      seller.userId,
      [],
      [
        {
          shopId: `${prefix}-pfy`,
          id: `${prefix}-hoodie`,
          buyerName: 'Barbara Liskov',
          orderedAt: new Date(NOW.getTime() - 59 * DAY_MS),
          lines: [{ title: 'Hoodie', sku: 'HOOD', quantity: 2 }],
        },
      ],
    );
    await matchAndFigure(dataSource, seller.userId, NOW);
  }
}, 90_000);

afterAll(async () => {
  await matcherQueue?.close();
  await dataSource?.destroy();
  await bed.tearDown();
});

type Seller = { cookie: string; userId: string };
const send = (method: 'GET' | 'POST', url: string, seller: Seller, payload?: unknown) =>
  gw.app.inject({
    method,
    url,
    headers: method === 'POST' ? { ...SAME_ORIGIN, cookie: seller.cookie } : { cookie: seller.cookie },
    payload: payload as object | undefined,
  });
const idOf = (seller: Seller, side: { receipt?: string; order?: string }) =>
  recordIdOf(bed.database.url, seller.userId, side);

/** Everything of the user that the routes could change. */
const snapshot = async (userId: string) => ({
  records: await queryDatabase(bed.database.url, `SELECT * FROM order_record WHERE user_id = $1 ORDER BY id`, [userId]),
  profits: await queryDatabase(
    bed.database.url,
    `SELECT * FROM order_profit WHERE user_id = $1 ORDER BY order_record_id, currency`,
    [userId],
  ),
});

describe('per-record routes', () => {
  it('unmatch splits a pair into two manual lone records; the matcher never pairs them again', async () => {
    const pairId = await idOf(a, { receipt: 'xa7060' });
    const [pair] = await queryDatabase<{ status: string; match_method: string; printify_order_id: string }>(
      bed.database.url,
      `SELECT * FROM order_record WHERE id = $1`,
      [pairId],
    );
    expect(pair).toMatchObject({ status: 'matched', match_method: 'fuzzy', printify_order_id: 'xa-hoodie' });
    const response = await send('POST', `/api/orders/${pairId}/unmatch`, a);
    expect(response.statusCode).toBe(200);
    const orders = response.json().orders;
    expect(orders).toHaveLength(2);
    expect(orders).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: pairId,
          status: 'unmatched',
          source: 'etsy',
          matchMethod: 'manual',
          printifyOrderId: null,
        }),
        expect.objectContaining({
          status: 'unmatched',
          source: 'printify',
          matchMethod: 'manual',
          printifyOrderId: 'xa-hoodie',
          productTitle: 'Hoodie',
        }),
      ]),
    );
    await new UserMatcher(dataSource).matchUser(a.userId, NOW);
    expect((await send('GET', `/api/orders/${pairId}`, a)).json().order).toMatchObject({
      status: 'unmatched',
      printifyOrderId: null,
    });
    expect((await send('POST', `/api/orders/${pairId}/unmatch`, a)).json()).toMatchObject({ code: 'conflict' });
  });

  it('candidates: the other side only, not matched or archived, best first; a manual match pairs them and queues the profits', async () => {
    const receiptId = await idOf(a, { receipt: 'xa7060' });
    const hoodieId = await idOf(a, { order: 'xa-hoodie' });
    const { order, candidates } = (await send('GET', `/api/orders/${receiptId}/candidates?currency=USD`, a)).json();
    expect(order.id).toBe(receiptId);
    expect(candidates[0].order.id).toBe(hoodieId);
    expect(candidates.length).toBeLessThanOrEqual(50);
    const scores = candidates.map((candidate: { score: number }) => candidate.score);
    expect([...scores].sort((x, y) => y - x)).toEqual(scores);
    for (const candidate of candidates) expect(candidate.order).toMatchObject({ source: 'printify', archived: false });
    expect(candidates.map((c: { order: { status: string } }) => c.order.status)).not.toContain('matched');

    const matched = await send('POST', `/api/orders/${receiptId}/match`, a, { withOrderId: hoodieId });
    expect(matched.statusCode).toBe(200);
    expect(matched.json().orders).toEqual([
      expect.objectContaining({
        id: receiptId,
        status: 'matched',
        matchMethod: 'manual',
        matchConfidence: null,
        printifyOrderId: 'xa-hoodie',
      }),
    ]);
    // The pair's sides are those its figures were stored for before the unmatch, so they are current ('ok'); new sides read 'not_computed' until the job runs.
    const jobs = await matcherQueue.getJobs(['waiting', 'delayed', 'prioritized']);
    expect(jobs.some((job) => job.name === 'compute-profits' && job.data.userId === a.userId)).toBe(true);
    await new UserMatcher(dataSource).matchUser(a.userId, NOW);
    await new UserProfits(dataSource, () => NOW).computeUser(a.userId);
    const details = (await send('GET', `/api/orders/${receiptId}?currency=USD`, a)).json();
    expect(details.order).toMatchObject({ status: 'matched', matchMethod: 'manual', figures: 'ok' });
    expect(details.printify).toMatchObject({ orderId: 'xa-hoodie' });
    expect(details.profit.costLines.some((line: { kind: string }) => line.kind === 'printify_production')).toBe(true);
  });

  // Issue 17: a matched receipt may take another Printify order, so "a matched order with a lone
  // Printify order" is no longer refused; two receipts (one of them matched) still are.
  it('409 with a clear message: two receipts (matched or not), two Printify orders, an order with itself', async () => {
    const golden = await idOf(a, { receipt: 'xa9001' });
    const lone = await idOf(a, { order: 'xa-lone-1' });
    const otherLone = await idOf(a, { order: 'xa-lone-2' });
    const receipt = await idOf(a, { receipt: 'xa7020' });
    const otherReceipt = await idOf(a, { receipt: 'xa7002' });
    for (const [id, withOrderId] of [
      [receipt, golden],
      [receipt, otherReceipt],
      [lone, otherLone],
      [lone, lone],
    ]) {
      const response = await send('POST', `/api/orders/${id}/match`, a, { withOrderId });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({
        code: 'conflict',
        message: expect.stringContaining('cannot be matched'),
      });
    }
    expect((await send('GET', `/api/orders/${golden}`, a)).json().order).toMatchObject({
      status: 'matched',
      matchMethod: 'exact',
    });
  });

  it('archive and restore answer the order as it now is, twice alike; an archived order cannot be unmatched', async () => {
    const golden = await idOf(a, { receipt: 'xa9002' });
    for (let i = 0; i < 2; i += 1)
      expect((await send('POST', `/api/orders/${golden}/archive`, a)).json().orders).toEqual([
        expect.objectContaining({ id: golden, archived: true }),
      ]);
    expect((await send('POST', `/api/orders/${golden}/unmatch`, a)).statusCode).toBe(409);
    for (let i = 0; i < 2; i += 1)
      expect((await send('POST', `/api/orders/${golden}/restore`, a)).json().orders).toEqual([
        expect.objectContaining({ id: golden, archived: false }),
      ]);
  });
});

describe('several Printify orders on one receipt (issue 17)', () => {
  const onReceipts = async (orderId: string) =>
    (
      await queryDatabase<{ n: number }>(
        bed.database.url,
        `SELECT ((SELECT count(*) FROM order_record WHERE user_id = $1 AND printify_order_id = $2)
           + (SELECT count(*) FROM order_record_printify_order WHERE user_id = $1 AND printify_order_id = $2))::int AS n`,
        [a.userId, orderId],
      )
    )[0].n;

  it('adds a Printify order to a receipt that has one, lists it with its own cost, keeps it through matching, removes it again', async () => {
    const golden = await idOf(a, { receipt: 'xa9001' });
    const lone = await idOf(a, { order: 'xa-lone-1' });
    const added = await send('POST', `/api/orders/${golden}/match`, a, { withOrderId: lone });
    expect(added.statusCode).toBe(200);
    expect(added.json().orders).toEqual([
      expect.objectContaining({
        id: golden,
        status: 'matched',
        matchMethod: 'manual',
        printifyOrderId: 'xa-pfy-9001',
        extraPrintifyOrders: [{ printifyOrderId: 'xa-lone-1', reason: 'manual' }],
        // Its figures were for the receipt without the added order: still being calculated.
        figures: 'not_computed',
      }),
    ]);
    expect((await send('GET', `/api/orders/${lone}`, a)).statusCode).toBe(404);
    await matchAndFigure(dataSource, a.userId, NOW);
    const details = (await send('GET', `/api/orders/${golden}?currency=USD`, a)).json();
    expect(details.order).toMatchObject({ figures: 'ok', extraPrintifyOrders: [{ printifyOrderId: 'xa-lone-1' }] });
    expect(details.printify).toMatchObject({ orderId: 'xa-pfy-9001' });
    expect(details.printifyOrders.map((o: { orderId: string; role: string }) => [o.orderId, o.role])).toEqual([
      ['xa-pfy-9001', 'original'],
      ['xa-lone-1', 'manual'],
    ]);
    // The fixture's order: 3 sticker lines' cost 1200 each (per unit) and 400 shipping.
    expect(details.printifyOrders[1]).toMatchObject({
      productionCost: { minor: 3600, currency: 'USD' },
      shippingCost: { minor: 400, currency: 'USD' },
      totalCost: { minor: 4000, currency: 'USD' },
    });
    expect(await onReceipts('xa-lone-1')).toBe(1);

    const removed = await send('POST', `/api/orders/${golden}/remove-printify-order`, a, {
      printifyOrderId: 'xa-lone-1',
    });
    expect(removed.statusCode).toBe(200);
    // The changed records, in no promised order (rowsByIds reads them by id).
    expect(removed.json().orders).toHaveLength(2);
    expect(removed.json().orders).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: golden, extraPrintifyOrders: [] }),
        expect.objectContaining({ printifyOrderId: 'xa-lone-1', status: 'unmatched', matchMethod: 'manual' }),
      ]),
    );
    const again = await send('POST', `/api/orders/${golden}/remove-printify-order`, a, {
      printifyOrderId: 'xa-lone-1',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('not on this Etsy order'),
    });
    const bad = await send('POST', `/api/orders/${golden}/remove-printify-order`, a, { printifyOrderId: 'x y' });
    expect(bad.statusCode).toBe(400);
  });

  it('two adds of one Printify order to two receipts at once: one wins, the other is refused, the order is on one receipt', async () => {
    const lone = await idOf(a, { order: 'xa-lone-1' });
    const [first, second] = [await idOf(a, { receipt: 'xa9001' }), await idOf(a, { receipt: 'xa9002' })];
    const answers = await Promise.all([
      send('POST', `/api/orders/${first}/match`, a, { withOrderId: lone }),
      send('POST', `/api/orders/${second}/match`, a, { withOrderId: lone }),
    ]);
    // The loser finds the lone order's record gone (404), or the lock still held (409 matching_in_progress).
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, expect.any(Number)]);
    expect([404, 409]).toContain(answers.map((answer) => answer.statusCode).sort()[1]);
    expect(await onReceipts('xa-lone-1')).toBe(1);
  });
});

describe('access matrix (item 23)', () => {
  it("user A with B's ids and with guessed ids gets the same 404 on every route with an id; B's rows do not change", async () => {
    const before = await snapshot(b.userId);
    const bIds = [
      await idOf(b, { receipt: 'xb9001' }),
      await idOf(b, { receipt: 'xb7020' }),
      await idOf(b, { order: 'xb-lone-1' }),
    ];
    const aLone = await idOf(a, { order: 'xa-lone-2' });
    const aReceipt = await idOf(a, { receipt: 'xa7020' });
    const guessed = ['00000000-0000-4000-8000-000000000000', crypto.randomUUID()];
    const notFound = (await send('GET', `/api/orders/${guessed[1]}`, a)).json();
    expect(notFound).toMatchObject({ statusCode: 404, code: 'not_found', message: 'Order not found.' });
    for (const id of [...bIds, ...guessed]) {
      const requests: [string, 'GET' | 'POST', unknown?][] = [
        [`/api/orders/${id}`, 'GET'],
        [`/api/orders/${id}?currency=GBP`, 'GET'],
        [`/api/orders/${id}/candidates`, 'GET'],
        [`/api/orders/${id}/match`, 'POST', { withOrderId: aLone }],
        [`/api/orders/${aReceipt}/match`, 'POST', { withOrderId: id }],
        [`/api/orders/${id}/unmatch`, 'POST'],
        [`/api/orders/${id}/archive`, 'POST'],
        [`/api/orders/${id}/restore`, 'POST'],
      ];
      for (const [url, method, payload] of requests) {
        const response = await send(method, url, a, payload);
        expect([url, response.statusCode]).toEqual([url, 404]);
        expect(response.json()).toEqual(notFound);
      }
    }
    expect(await snapshot(b.userId)).toEqual(before);
    // A's lists never show B's orders.
    const list = (await send('GET', '/api/orders?pageSize=100&search=xb', a)).json();
    expect(list.filteredTotal).toBe(0);
  });

  it('without a session every order route answers 401', async () => {
    for (const url of [
      '/api/orders',
      `/api/orders/${crypto.randomUUID()}`,
      '/api/matching/orders',
      '/api/dashboard/metrics',
    ]) {
      expect((await gw.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    }
  });
});

describe('strict parsing and fuzz (item 30)', () => {
  it('refuses numbers that are not whole and plain, with a clear message and a code', async () => {
    for (const value of ['1e3', '12abc', ' 1', '01', '-1', '0', '1.0', '0x10', '1000000']) {
      const response = await send('GET', `/api/orders?page=${encodeURIComponent(value)}`, a);
      expect([value, response.statusCode]).toEqual([value, 400]);
      expect(response.json()).toMatchObject({
        code: 'validation_failed',
        field: 'page',
        message: expect.stringContaining('page must be a whole number'),
      });
    }
    for (const url of [
      '/api/orders?pageSize=101',
      '/api/orders?days=180',
      '/api/dashboard/metrics?days=1e3',
      '/api/matching/orders?month=2026-13',
      '/api/orders?currency=JPY',
      '/api/orders?page=1&page=2',
      '/api/orders?nope=1',
    ]) {
      expect([url, (await send('GET', url, a)).statusCode]).toEqual([url, 400]);
    }
    // Months outside the supported years (1999–2099): 0000-01 used to answer 1900-01's orders.
    for (const month of ['0000-01', '1900-01', '1998-12', '2100-01', '9999-12', '-000001-12', '+010000-01']) {
      const response = await send('GET', `/api/matching/orders?month=${encodeURIComponent(month)}`, a);
      expect([month, response.statusCode]).toEqual([month, 400]);
      expect(response.json()).toMatchObject({
        code: 'validation_failed',
        field: 'month',
        message: 'month must be a month as YYYY-MM from 1999-01 to 2099-12',
      });
    }
    expect((await send('GET', '/api/orders/not-a-uuid', a)).json()).toMatchObject({
      code: 'validation_failed',
      message: expect.stringContaining('id must be an order id'),
    });
  });

  const queryValue = fc.oneof(
    fc.constantFrom(
      '1',
      '2',
      '7',
      '30',
      '90',
      '365',
      '100',
      'USD',
      'EUR',
      'GBP',
      'all',
      'matched',
      'pending',
      'unmatched',
      'etsy',
      'printify',
      'active',
      'archived',
      '2026-11',
      '0000-01',
      '9999-12',
      '-000001-12',
      '1e3',
      '12abc',
      ' 1',
      '',
      '%',
      '_',
      '\\',
      "'",
      '"',
      '%00',
      '-1',
      '9'.repeat(30),
    ),
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'grapheme', maxLength: 20 }),
  );
  const queryKey = fc.constantFrom(
    'search',
    'status',
    'days',
    'source',
    'view',
    'page',
    'pageSize',
    'currency',
    'month',
    'id',
    'constructor',
    '__proto__',
    'x',
  );
  const queryString = fc
    .array(fc.tuple(queryKey, queryValue), { maxLength: 5 })
    .map((pairs) => pairs.map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`).join('&'));
  const pathId = fc.oneof(
    fc.uuid(),
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'grapheme', maxLength: 10 }),
    fc.constantFrom('match', 'status', '..', '%00', '00000000-0000-0000-0000-000000000000'),
  );
  const body = fc.oneof(
    fc.constant(undefined),
    fc.record({ withOrderId: fc.oneof(fc.uuid(), fc.string(), fc.integer(), fc.constant(null)) }),
    fc.jsonValue({ maxDepth: 2 }),
  );

  it('never answers 5xx to any query string, path parameter or body', async () => {
    const fuzzer = await signedInSeller(gw, bed.database.url, 'fuzz');
    await seedOrderSeller(dataSource, fuzzer, 'fz', NOW);
    await matchAndFigure(dataSource, fuzzer.userId, NOW);
    const ids = (await send('GET', '/api/orders?pageSize=100', fuzzer)).json().orders.map((o: { id: string }) => o.id);
    const id = fc.oneof(pathId, fc.constantFrom(...ids));
    const check = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
      const response = await send(method, url, fuzzer, payload);
      if (response.statusCode >= 500)
        throw new Error(`${method} ${url} ${JSON.stringify(payload)} → ${response.statusCode} ${response.body}`);
    };
    const routes: fc.Arbitrary<[string, 'GET' | 'POST', unknown]>[] = [
      queryString.map((q) => [`/api/orders?${q}`, 'GET', undefined]),
      queryString.map((q) => [`/api/matching/orders?${q}`, 'GET', undefined]),
      queryString.map((q) => [`/api/dashboard/metrics?${q}`, 'GET', undefined]),
      fc.tuple(id, queryString).map(([i, q]) => [`/api/orders/${encodeURIComponent(i)}?${q}`, 'GET', undefined]),
      fc
        .tuple(id, queryString)
        .map(([i, q]) => [`/api/orders/${encodeURIComponent(i)}/candidates?${q}`, 'GET', undefined]),
      fc.tuple(id, body).map(([i, p]) => [`/api/orders/${encodeURIComponent(i)}/match`, 'POST', p]),
      fc
        .tuple(
          id,
          fc.oneof(
            body,
            fc.record({
              printifyOrderId: fc.oneof(fc.constantFrom('fz-lone-1', 'fz-pfy-9001'), fc.string(), fc.integer()),
            }),
          ),
        )
        .map(([i, p]) => [`/api/orders/${encodeURIComponent(i)}/remove-printify-order`, 'POST', p]),
      fc
        .tuple(id, fc.constantFrom('unmatch', 'archive', 'restore'))
        .map(([i, action]) => [`/api/orders/${encodeURIComponent(i)}/${action}`, 'POST', undefined]),
    ];
    for (const route of routes) {
      await fc.assert(
        fc.asyncProperty(route, async ([url, method, payload]) => check(method, url, payload)),
        { seed, numRuns },
      );
    }
  }, 300_000);
});
