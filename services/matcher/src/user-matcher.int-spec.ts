import type { DataSource } from 'typeorm';
import {
  createDataSource,
  MatchRunsRepository,
  OrderEditsService,
  OrderRecordsRepository,
  prepareDatabase,
  withTransaction,
} from '@pod/db';
import {
  createFixtureUser,
  createTestDatabase,
  queryDatabase,
  storeSyncedOrders,
  type SideFixture,
  type TestDatabase,
} from '@pod/testing';
import { MatchRunsHandler } from './match-runs.handler';
import { UserMatcher } from '@pod/orders';

/**
 * The matcher against real PostgreSQL: what one user's run stores, that a second run changes
 * nothing, that the other user is never touched, that two replicas on one user agree, and that
 * a manual match survives later runs.
 */
let database: TestDatabase;
let dataSource: DataSource;

beforeAll(async () => {
  database = await createTestDatabase('matcher');
  await prepareDatabase({ DATABASE_URL: database.url });
  dataSource = await createDataSource(
    { DATABASE_URL: database.url, DATABASE_POOL_SIZE: 6 },
    'matcher-test',
  ).initialize();
}, 60_000);

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
});

const NOW = new Date('2026-06-30T12:00:00Z');
const day = (n: number, hour = 10) => new Date(Date.UTC(2026, 5, n, hour));
const mug = [{ title: 'Cat Mug 11oz', sku: 'MUG-CAT-11', quantity: 1 }];
const poster = [{ title: 'Dog Poster A3', sku: 'POSTER-DOG', quantity: 1 }];

/** Per user: an exact pair, a fuzzy pair, a recent lone receipt, an old lone receipt, a lone Printify order. */
function shop(prefix: string): { receipts: SideFixture[]; orders: SideFixture[] } {
  return {
    receipts: [
      { shopId: `${prefix}-etsy`, id: '1001', buyerName: 'Ada Lovelace', orderedAt: day(1), lines: mug },
      { shopId: `${prefix}-etsy`, id: '1002', buyerName: 'Grace Hopper', orderedAt: day(2), lines: poster },
      { shopId: `${prefix}-etsy`, id: '1003', buyerName: 'Alan Turing', orderedAt: day(28), lines: mug },
      {
        shopId: `${prefix}-etsy`,
        id: '1004',
        buyerName: 'Edsger Dijkstra',
        orderedAt: day(3),
        lines: [{ title: 'Tote', sku: 'TOTE', quantity: 1 }],
      },
    ],
    orders: [
      {
        shopId: `${prefix}-pfy`,
        id: 'ord-a',
        buyerName: 'Someone',
        orderedAt: day(1, 11),
        lines: mug,
        shopOrderId: '1001',
      },
      { shopId: `${prefix}-pfy`, id: 'ord-b', buyerName: 'grace HOPPER', orderedAt: day(2, 12), lines: poster },
      {
        shopId: `${prefix}-pfy`,
        id: 'ord-c',
        buyerName: 'Barbara Liskov',
        orderedAt: day(10),
        lines: [{ title: 'Hoodie', sku: 'HOOD', quantity: 2 }],
      },
    ],
  };
}

interface Row {
  id: string;
  etsy_receipt_id: string | null;
  printify_order_id: string | null;
  status: string;
  match_method: string | null;
  match_confidence: string | null;
}

const recordsOf = (userId: string) =>
  queryDatabase<Row>(
    database.url,
    `SELECT id, etsy_receipt_id, printify_order_id, status, match_method, match_confidence FROM order_record WHERE user_id = $1
     ORDER BY etsy_receipt_id NULLS LAST, printify_order_id`,
    [userId],
  );
const summary = (rows: Row[]) =>
  rows.map((row) => [row.etsy_receipt_id, row.printify_order_id, row.status, row.match_method]);

async function twoSellers(): Promise<[string, string]> {
  const [a, b] = [await createFixtureUser(dataSource, 'match-a'), await createFixtureUser(dataSource, 'match-b')];
  for (const [userId, prefix] of [
    [a, 'a'],
    [b, 'b'],
  ] as const) {
    const { receipts, orders } = shop(prefix);
    await storeSyncedOrders(dataSource, userId, receipts, orders);
  }
  return [a, b];
}

describe('UserMatcher', () => {
  it("stores one record per order, touches no other user's, and a second run changes nothing", async () => {
    const [a, b] = await twoSellers();
    const matcher = new UserMatcher(dataSource);
    expect(await matcher.matchUser(a, NOW)).toEqual({ added: 5, changed: 0, removed: 0 });
    expect(summary(await recordsOf(a))).toEqual([
      ['1001', 'ord-a', 'matched', 'exact'],
      ['1002', 'ord-b', 'matched', 'fuzzy'],
      ['1003', null, 'pending', null],
      ['1004', null, 'unmatched', null],
      [null, 'ord-c', 'unmatched', null],
    ]);
    expect(await recordsOf(b)).toEqual([]);
    const before = await recordsOf(a);
    expect(await matcher.matchUser(a, NOW)).toEqual({ added: 0, changed: 0, removed: 0 });
    expect(await recordsOf(a)).toEqual(before);
  });

  it('keeps the receipt record id when its Printify order arrives later; the lone order record goes', async () => {
    const userId = await createFixtureUser(dataSource, 'match-late');
    const receipt: SideFixture = {
      shopId: 'late-etsy',
      id: '2001',
      buyerName: 'Ada Lovelace',
      orderedAt: day(25),
      lines: mug,
    };
    await storeSyncedOrders(dataSource, userId, [receipt], []);
    const matcher = new UserMatcher(dataSource);
    await matcher.matchUser(userId, NOW);
    const [lone] = await recordsOf(userId);
    expect(lone).toMatchObject({ etsy_receipt_id: '2001', status: 'pending' });
    await storeSyncedOrders(
      dataSource,
      userId,
      [],
      [
        {
          shopId: 'late-pfy',
          id: 'ord-x',
          buyerName: 'Ada Lovelace',
          orderedAt: day(25, 13),
          lines: mug,
          shopOrderId: '2001',
        },
      ],
    );
    await matcher.matchUser(userId, NOW);
    expect(await recordsOf(userId)).toEqual([
      { ...lone, printify_order_id: 'ord-x', status: 'matched', match_method: 'exact', match_confidence: '1.0000' },
    ]);
  });

  it('two replicas matching one user at once take turns and agree (the user lock and unique indexes)', async () => {
    const [a] = await twoSellers();
    const matcher = new UserMatcher(dataSource);
    const results = await Promise.all([
      matcher.matchUser(a, NOW),
      matcher.matchUser(a, NOW),
      matcher.matchUser(a, NOW),
    ]);
    expect(results.map((r) => r.added).sort()).toEqual([0, 0, 5]);
    expect(await recordsOf(a)).toHaveLength(5);
  });

  it('a run waits for the user lock another transaction holds (a manual match, another replica)', async () => {
    const [a] = await twoSellers();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const holder = withTransaction(dataSource, async (manager) => {
      await new OrderRecordsRepository(manager).lockUserForMatching(a);
      locked();
      await held;
    });
    await lockTaken;
    let finished = false;
    const run = new UserMatcher(dataSource).matchUser(a, NOW).then((result) => ((finished = true), result));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(finished).toBe(false);
    release();
    await holder;
    await expect(run).resolves.toEqual({ added: 5, changed: 0, removed: 0 });
  });

  it('the unique indexes refuse a second record for one receipt or one Printify order, even from concurrent writers', async () => {
    const [a] = await twoSellers();
    const record = (receipt: string | null, order: string | null) => ({
      receipt: receipt ? { shopId: 'a-etsy', id: receipt } : null,
      order: order ? { shopId: 'a-pfy', id: order } : null,
      attached: [],
      status: 'unmatched' as const,
      notNeededReason: null,
      method: null,
      confidence: null,
      orderDate: null,
      customerName: null,
      productTitle: null,
      productSku: null,
    });
    const insert =
      (shape: ReturnType<typeof record>) => (manager: Parameters<Parameters<typeof withTransaction>[1]>[0]) =>
        new OrderRecordsRepository(manager).applyChanges(a, { inserts: [shape], updates: [], deletes: [] });
    for (const shape of [record('1004', null), record(null, 'ord-c')]) {
      let commitFirst!: () => void;
      const gate = new Promise<void>((resolve) => (commitFirst = resolve));
      const first = withTransaction(dataSource, async (manager) => {
        await insert(shape)(manager);
        await gate;
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      const second = withTransaction(dataSource, insert(shape));
      await new Promise((resolve) => setTimeout(resolve, 100));
      commitFirst();
      await first;
      await expect(second).rejects.toMatchObject({ driverError: { code: '23505' } });
    }
    expect(await recordsOf(a)).toHaveLength(2);
  });

  it('a manual match survives later runs, even against an exact claim', async () => {
    const [a] = await twoSellers();
    const matcher = new UserMatcher(dataSource);
    await matcher.matchUser(a, NOW);
    const rows = await recordsOf(a);
    const lonely = rows.find((row) => row.etsy_receipt_id === '1004')!;
    const loneOrder = rows.find((row) => row.printify_order_id === 'ord-c')!;
    const outcome = await new OrderEditsService(dataSource).matchByHand(a, lonely.id, loneOrder.id);
    expect(outcome).toEqual({ ids: [lonely.id] });
    expect(await matcher.matchUser(a, NOW)).toEqual({ added: 0, changed: 0, removed: 0 });
    expect(summary(await recordsOf(a))).toContainEqual(['1004', 'ord-c', 'matched', 'manual']);
    // A new Printify order that names receipt 1004 does not take it from the user's choice.
    await storeSyncedOrders(
      dataSource,
      a,
      [],
      [
        {
          shopId: 'a-pfy',
          id: 'ord-d',
          buyerName: 'Edsger Dijkstra',
          orderedAt: day(3, 12),
          lines: [],
          shopOrderId: '1004',
        },
      ],
    );
    await matcher.matchUser(a, NOW);
    expect(summary(await recordsOf(a))).toEqual(
      expect.arrayContaining([
        ['1004', 'ord-c', 'matched', 'manual'],
        [null, 'ord-d', 'unmatched', null],
      ]),
    );
  });

  it("a manual match refuses another user's record as not found", async () => {
    const [a, b] = await twoSellers();
    const matcher = new UserMatcher(dataSource);
    await matcher.matchUser(a, NOW);
    await matcher.matchUser(b, NOW);
    const mine = (await recordsOf(a)).find((row) => row.etsy_receipt_id === '1004')!;
    const theirs = (await recordsOf(b)).find((row) => row.printify_order_id === 'ord-c')!;
    const outcome = await new OrderEditsService(dataSource).matchByHand(a, mine.id, theirs.id);
    expect(outcome).toBe('not_found');
    expect(summary(await recordsOf(b))).toContainEqual([null, 'ord-c', 'unmatched', null]);
  });
});

describe('UserMatcher: several Printify orders on one receipt, orders that need no match (issue 17)', () => {
  const attachedOf = (userId: string) =>
    queryDatabase<{ etsy_receipt_id: string | null; printify_order_id: string; reason: string }>(
      database.url,
      `SELECT r.etsy_receipt_id, a.printify_order_id, a.reason FROM order_record_printify_order a
       JOIN order_record r ON r.id = a.order_record_id WHERE a.user_id = $1 ORDER BY a.printify_order_id`,
      [userId],
    );
  const notNeededOf = (userId: string) =>
    queryDatabase<{ etsy_receipt_id: string | null; printify_order_id: string | null; not_needed_reason: string }>(
      database.url,
      `SELECT etsy_receipt_id, printify_order_id, not_needed_reason FROM order_record
       WHERE user_id = $1 AND status = 'not_needed' ORDER BY etsy_receipt_id NULLS LAST, printify_order_id`,
      [userId],
    );

  it('attaches a reprint (named only by reprinted_order_ids) and a split order to the receipt; digital, sample and canceled-empty need no match; a second run changes nothing', async () => {
    const owner = await createFixtureUser(dataSource, 'several');
    await storeSyncedOrders(
      dataSource,
      owner,
      [
        { shopId: 'e', id: '3001', buyerName: 'Ada Lovelace', orderedAt: day(1), lines: mug },
        { shopId: 'e', id: '3002', buyerName: 'Grace Hopper', orderedAt: day(2), lines: poster, digital: true },
      ],
      [
        { shopId: 'p', id: 'orig', buyerName: 'Ada Lovelace', orderedAt: day(1, 11), lines: mug, shopOrderId: '3001' },
        {
          shopId: 'p',
          id: 'split',
          buyerName: 'Ada Lovelace',
          orderedAt: day(1, 12),
          lines: poster,
          shopOrderId: '3001',
        },
        // Printify's reprints carry no shop_order_id; they name their original.
        {
          shopId: 'p',
          id: 'again',
          buyerName: null,
          orderedAt: day(9),
          lines: mug,
          orderType: 'manual',
          reprintOf: 'orig',
        },
        { shopId: 'p', id: 'sample', buyerName: 'Me', orderedAt: day(4), lines: poster, orderType: 'sample' },
        { shopId: 'p', id: 'gone', buyerName: 'Nobody', orderedAt: day(5), lines: [], status: 'canceled' },
      ],
    );
    const matcher = new UserMatcher(dataSource);
    await expect(matcher.matchUser(owner, NOW)).resolves.toEqual({ added: 4, changed: 0, removed: 0 });
    expect(summary(await recordsOf(owner))).toEqual([
      ['3001', 'orig', 'matched', 'exact'],
      ['3002', null, 'not_needed', null],
      [null, 'gone', 'not_needed', null],
      [null, 'sample', 'not_needed', null],
    ]);
    expect(await attachedOf(owner)).toEqual([
      { etsy_receipt_id: '3001', printify_order_id: 'again', reason: 'reprint' },
      { etsy_receipt_id: '3001', printify_order_id: 'split', reason: 'split' },
    ]);
    expect((await notNeededOf(owner)).map((row) => row.not_needed_reason)).toEqual([
      'digital',
      'canceled_empty',
      'printify_sample',
    ]);
    await expect(matcher.matchUser(owner, NOW)).resolves.toEqual({ added: 0, changed: 0, removed: 0 });
  });

  it('the database keeps a Printify order on one receipt, even when a primary and an attachment race', async () => {
    const [a] = await twoSellers();
    const shape = (receipt: string | null, order: string, attached: string[]) => ({
      receipt: receipt ? { shopId: 'a-etsy', id: receipt } : null,
      order: { shopId: 'a-pfy', id: order },
      attached: attached.map((id) => ({ order: { shopId: 'a-pfy', id }, reason: 'manual' as const })),
      status: receipt ? ('matched' as const) : ('unmatched' as const),
      notNeededReason: null,
      method: receipt ? ('manual' as const) : null,
      confidence: receipt ? 1 : null,
      orderDate: null,
      customerName: null,
      productTitle: null,
      productSku: null,
    });
    type Shape = ReturnType<typeof shape>;
    const insert = (record: Shape) => (manager: Parameters<Parameters<typeof withTransaction>[1]>[0]) =>
      new OrderRecordsRepository(manager).applyChanges(a, { inserts: [record], updates: [], deletes: [] });
    // Each way round: the first writer holds its transaction open while the second writes the same order.
    for (const [firstShape, secondShape] of [
      [shape('1001', 'ord-a', ['ord-c']), shape(null, 'ord-c', [])],
      [shape(null, 'ord-c', []), shape('1001', 'ord-a', ['ord-c'])],
    ]) {
      await queryDatabase(database.url, `DELETE FROM order_record WHERE user_id = $1`, [a]);
      let commitFirst!: () => void;
      const gate = new Promise<void>((resolve) => (commitFirst = resolve));
      const first = withTransaction(dataSource, async (manager) => {
        await insert(firstShape)(manager);
        await gate;
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      const second = withTransaction(dataSource, insert(secondShape));
      await new Promise((resolve) => setTimeout(resolve, 100));
      commitFirst();
      await first;
      await expect(second).rejects.toMatchObject({
        driverError: { code: '23505', constraint: 'order_record_printify_order_once' },
      });
    }
    const onTwo = await queryDatabase<{ n: number }>(
      database.url,
      `SELECT count(*)::int AS n FROM order_record r JOIN order_record_printify_order x
         ON x.user_id = r.user_id AND x.printify_order_id = r.printify_order_id AND x.printify_shop_id = r.printify_shop_id
       WHERE r.user_id = $1`,
      [a],
    );
    expect(onTwo).toEqual([{ n: 0 }]);
  });
});

describe('match runs', () => {
  it('of ten triggers at once, one queues the run and the others join it', async () => {
    const userId = await createFixtureUser(dataSource, 'match-race');
    const results = await Promise.all(
      Array.from({ length: 10 }, () => new MatchRunsRepository(dataSource).queueOrGetQueued(userId, 'sync')),
    );
    expect(results.filter((result) => result.created)).toHaveLength(1);
    expect(new Set(results.map((result) => result.run.id)).size).toBe(1);
  });
});

describe('the match-user job', () => {
  it('runs its run once, queues the profits before it reads as finished, records the counts and announces orders.matched; a duplicate job is skipped', async () => {
    const [a] = await twoSellers();
    const runs = new MatchRunsRepository(dataSource);
    const { run } = await runs.queueOrGetQueued(a, 'user');
    expect((await runs.queueOrGetQueued(a, 'sync')).run.id).toBe(run.id);
    const publish = jest.fn().mockResolvedValue(true);
    const logger = { info: jest.fn(), warn: jest.fn() } as never;
    // What the run reads as when its profit job is queued: the status's `settling` must never see
    // the run finished and the job not yet queued (a poll then would stop following the figures).
    const statusWhenProfitsQueued: string[] = [];
    const afterRun = jest.fn(async () => {
      statusWhenProfitsQueued.push((await runs.findForUser(a, run.id))?.status ?? 'missing');
    });
    const handler = new MatchRunsHandler(runs, new UserMatcher(dataSource), { publish }, logger, () => NOW, afterRun);
    const job = { data: { runId: run.id }, attemptsMade: 0, opts: { attempts: 5 } } as never;
    await expect(handler.handle(job)).resolves.toEqual({
      runId: run.id,
      status: 'succeeded',
      added: 5,
      changed: 0,
      removed: 0,
    });
    // Profits are queued after every run (a refund changes no record but changes the figures).
    expect(afterRun).toHaveBeenCalledWith(a);
    expect(statusWhenProfitsQueued).toEqual(['running']);
    expect(await runs.findForUser(a, run.id)).toMatchObject({ status: 'succeeded', recordsAdded: 5 });
    expect(publish).toHaveBeenCalledWith(
      'orders.matched',
      expect.objectContaining({ userId: a, matchRunId: run.id, recordsAdded: 5 }),
    );
    await expect(handler.handle(job)).resolves.toMatchObject({ status: 'skipped' });
    // Finished: the next trigger queues a new run.
    expect((await runs.queueOrGetQueued(a, 'sync')).created).toBe(true);
  });
});
