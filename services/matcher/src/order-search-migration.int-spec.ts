import {
  createDataSource,
  OrderEditsService,
  OrderViewsRepository,
  prepareDatabase,
  withTenant,
  type OrderListFilter,
} from '@pod/db';
import {
  createFixtureUser,
  createTestDatabase,
  queryDatabase,
  storeSyncedOrders,
  type TestDatabase,
} from '@pod/testing';
import type { DataSource } from 'typeorm';
import { UserMatcher } from '@pod/orders';

/**
 * Migration 1765520000000 (search index, search function, record counts) down and up again on a
 * database with records: down leaves the schema of before (no function, table or index), up
 * backfills every user's counts from the records, and the Orders list answers as before.
 */
let database: TestDatabase;
let app: DataSource;

beforeAll(async () => {
  database = await createTestDatabase('order_search_migration');
  await prepareDatabase({ DATABASE_URL: database.url });
  app = await createDataSource({ DATABASE_URL: database.url, DATABASE_POOL_SIZE: 2 }, 'search-migration').initialize();
}, 60_000);

afterAll(async () => {
  await app?.destroy();
  await database?.drop();
});

const schemaObjects = () =>
  queryDatabase<{ name: string }>(
    database.url,
    `SELECT proname AS name FROM pg_proc WHERE proname = 'order_search_hits'
     UNION ALL SELECT relname FROM pg_class
       WHERE relname IN ('order_count_day', 'order_record_user_search_idx', 'order_record_undated_idx', 'order_record_archived_idx')
     ORDER BY 1`,
  );

it('goes down to the schema before it and up again, backfilling the counts of existing records', async () => {
  const now = new Date('2026-03-20T12:00:00Z');
  const users = [await createFixtureUser(app, 'migration-a'), await createFixtureUser(app, 'migration-b')];
  for (const [i, userId] of users.entries()) {
    const receipts = Array.from({ length: 5 + i }, (_, n) => ({
      shopId: 'shop',
      id: `r${n}`,
      buyerName: `Buyer Smith ${n}`,
      orderedAt: new Date(now.getTime() - n * 86_400_000),
      lines: [{ title: 'Mug', sku: 'M', quantity: 1 }],
    }));
    await storeSyncedOrders(app, userId, receipts, []);
    await new UserMatcher(app).matchUser(userId, now);
  }
  const [archivedId] = await queryDatabase<{ id: string }>(
    database.url,
    `SELECT id FROM order_record WHERE user_id = $1 LIMIT 1`,
    [users[0]],
  );
  await new OrderEditsService(app).setArchived(users[0], archivedId.id, true);
  const filter: OrderListFilter = { search: 'smith', status: null, since: null, source: 'all', archived: false };
  const views = new OrderViewsRepository(app);
  const before = {
    counts: await views.listCounts(users[0], filter),
    page: await views.listPage(users[0], 'USD', filter, 50, 0),
  };
  const countRows = () =>
    queryDatabase(database.url, `SELECT * FROM order_count_day ORDER BY user_id, day, archived, status`);
  const storedCounts = await countRows();
  expect(storedCounts.length).toBeGreaterThan(0);
  expect(await schemaObjects()).toHaveLength(5);

  const login = await createDataSource(
    { DATABASE_URL: database.url, DATABASE_POOL_SIZE: 1 },
    'search-migration-login',
    {
      connectAs: 'login',
    },
  ).initialize();
  try {
    // The migrations after it first (1765600000000 and on: their down() runs too), then this one.
    const applied = async () =>
      ((await login.query(`SELECT name FROM schema_migration`)) as { name: string }[]).map((row) => row.name);
    while ((await applied()).includes('OrderSearchAndCounts1765520000000')) await login.undoLastMigration();
    expect(await schemaObjects()).toEqual([]);
    await login.runMigrations();
  } finally {
    await login.destroy();
  }
  expect(await schemaObjects()).toHaveLength(5);
  expect(await countRows()).toEqual(storedCounts);
  expect({
    counts: await views.listCounts(users[0], filter),
    page: await views.listPage(users[0], 'USD', filter, 50, 0),
  }).toEqual(before);
  expect(before.counts).toMatchObject({ total: 4, tabCounts: { all: 4, etsy: 4, printify: 0 } });
  // The function is the app role's to call, and answers only the scoped user.
  const hits = await withTenant(app, users[1], (manager) =>
    manager.query(`SELECT count(*)::int AS n FROM order_search_hits('smith')`),
  );
  expect(hits).toEqual([{ n: 6 }]);
});
