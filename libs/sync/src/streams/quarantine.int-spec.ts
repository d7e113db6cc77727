import type { DataSource } from 'typeorm';
import { createDataSource, prepareDatabase, QUARANTINE_LIMITS, UsersRepository, withTransaction } from '@pod/db';
import { mapPrintifyOrderPage } from '@pod/integrations';
import { createTestDatabase, queryDatabase, type TestDatabase } from '@pod/testing';
import type { SyncStreamContext } from '../sync-stream';
import { printifyOrdersStream, type PrintifyOrdersApi } from './printify-orders-stream';
import { DEFAULT_LOOKBACKS } from './windows';

/**
 * sync_quarantine stays small (issue 16, "quarantine keys accumulating"): a payload the mapper
 * refuses again and again is one row however it is paged, the rows of a user and provider are
 * bounded in number and age, and a record accepted later leaves. The Printify orders stream
 * runs over pages served from memory, mapped by the real client mapper, written through the
 * real repositories on migrated PostgreSQL.
 */
let database: TestDatabase;
let dataSource: DataSource;

beforeAll(async () => {
  database = await createTestDatabase('quarantine');
  await prepareDatabase({ DATABASE_URL: database.url });
  dataSource = await createDataSource({ DATABASE_URL: database.url, DATABASE_POOL_SIZE: 4 }, 'quarantine').initialize();
}, 60_000);

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
});

async function aUser(): Promise<string> {
  const user = await new UsersRepository(dataSource).create({
    email: `quarantine-${Math.random().toString(36).slice(2)}@example.com`,
    passwordHash: 'x',
    firstName: 'Q',
    lastName: 'R',
  });
  if (!user) throw new Error('no user');
  return user.id;
}

/** A Printify order that fails the schema: its id is no id, so only its content can name it. */
const NO_ID = { id: 'not an id!', total_price: 'lots', created_at: 'yesterday', line_items: [] };
/** A Printify order with a readable id whose total fails the schema. */
const badTotal = (id: string) => ({ id, total_price: 12.5, created_at: '2026-05-01 10:00:00+00:00', line_items: [] });
/** The same order, now as the schema wants it. */
const fixed = (id: string) => ({
  id,
  status: 'fulfilled',
  total_price: 1250,
  total_shipping: 400,
  total_tax: 0,
  created_at: '2026-05-01 10:00:00+00:00',
  line_items: [],
});

/** Writes the pages of one pass of the stream (page n serves `pages[n - 1]`) as the driver would. */
async function syncPages(userId: string, pages: unknown[][]): Promise<void> {
  const api: PrintifyOrdersApi = {
    listOrders: async (_auth, _shopId, query) => {
      const page = mapPrintifyOrderPage(
        { current_page: query.page, last_page: pages.length, data: pages[query.page - 1] },
        'USD',
        query.page,
      );
      return { ...page, orders: page.records };
    },
  };
  const stream = printifyOrdersStream(api, {
    auth: { token: 'unused' } as never,
    currency: 'USD',
    syncFromMs: null,
    lookbacks: DEFAULT_LOOKBACKS,
    now: Date.now,
  });
  const ctx: SyncStreamContext = {
    runId: '00000000-0000-0000-0000-000000000000',
    userId,
    provider: 'printify',
    shopId: '815256',
    mode: 'incremental',
    signal: new AbortController().signal,
  };
  let position = stream.begin(ctx, stream.initial(ctx));
  for (;;) {
    const page = await stream.fetchPage(ctx, position);
    await withTransaction(dataSource, (tx) => page.write(tx));
    if (page.done) return;
    position = page.next;
  }
}

const quarantined = (userId: string) =>
  queryDatabase<{ record_key: string; times_seen: number; provider: string }>(
    database.url,
    `SELECT record_key, times_seen, provider FROM sync_quarantine WHERE user_id = $1 ORDER BY record_key`,
    [userId],
  );

it('keeps a payload refused on every fetch as one row, wherever its page puts it', async () => {
  const userId = await aUser();
  await syncPages(userId, [[NO_ID, badTotal('5001')]]);
  // The next passes serve the same refused payloads on other pages and at other positions.
  await syncPages(userId, [[badTotal('5002')], [badTotal('5001'), badTotal('5003'), NO_ID]]);
  await syncPages(userId, [[badTotal('5003')], [badTotal('5004')], [NO_ID]]);
  const rows = await quarantined(userId);
  expect(rows.map((row) => row.record_key)).toEqual([
    expect.stringMatching(/^#[A-Za-z0-9_-]{43}$/),
    '5001',
    '5002',
    '5003',
    '5004',
  ]);
  expect(rows.map((row) => row.times_seen)).toEqual([3, 2, 1, 2, 1]);
});

it('drops a record once a later fetch accepts it', async () => {
  const userId = await aUser();
  await syncPages(userId, [[badTotal('6001'), badTotal('6002')]]);
  await syncPages(userId, [[fixed('6001')]]);
  expect((await quarantined(userId)).map((row) => row.record_key)).toEqual(['6002']);
});

it(`keeps the newest ${QUARANTINE_LIMITS.rowsPerProvider} rows of a user and provider, none unseen for ${QUARANTINE_LIMITS.maxAgeDays} days, and no other user's or provider's row is touched`, async () => {
  const [userId, other] = [await aUser(), await aUser()];
  // Rows from earlier syncs (as the login, past the row policies): the i-th last seen i hours ago.
  const seed = (user: string, provider: string, count: number) =>
    queryDatabase(
      database.url,
      `INSERT INTO sync_quarantine (user_id, provider, shop_id, stream, record_key, field, reason, last_seen_at)
       SELECT $1, $2, '815256', CASE WHEN $2 = 'etsy' THEN 'etsy:receipts' ELSE 'printify:orders' END, 'old-' || i, 'f', 'r', now() - i * interval '1 hour'
       FROM generate_series(1, $3::int) i`,
      [user, provider, count],
    );
  const limit = QUARANTINE_LIMITS.rowsPerProvider;
  await seed(userId, 'printify', limit + 40);
  await seed(userId, 'etsy', limit + 40);
  await seed(other, 'printify', limit + 40);
  await syncPages(userId, [[badTotal('7001'), badTotal('7002'), NO_ID]]);
  const printify = (await quarantined(userId)).filter((row) => row.provider === 'printify');
  expect(printify).toHaveLength(limit);
  const keys = new Set(printify.map((row) => row.record_key));
  expect(['7001', '7002', 'old-1', `old-${limit - 3}`].every((key) => keys.has(key))).toBe(true);
  expect(keys.has(`old-${limit - 2}`)).toBe(false);
  expect((await quarantined(userId)).filter((row) => row.provider === 'etsy')).toHaveLength(limit + 40);
  expect(await quarantined(other)).toHaveLength(limit + 40);

  // Age: a page write that refuses nothing still drops the provider's rows unseen for too long.
  const ageUser = await aUser();
  await queryDatabase(
    database.url,
    `INSERT INTO sync_quarantine (user_id, provider, shop_id, stream, record_key, field, reason, last_seen_at)
     VALUES ($1, 'printify', '815256', 'printify:orders', 'stale', 'f', 'r', now() - make_interval(days => $2 + 1)),
            ($1, 'printify', '815256', 'printify:orders', 'recent', 'f', 'r', now() - make_interval(days => $2 - 1))`,
    [ageUser, QUARANTINE_LIMITS.maxAgeDays],
  );
  await syncPages(ageUser, [[fixed('8001')]]);
  expect((await quarantined(ageUser)).map((row) => row.record_key)).toEqual(['recent']);
});
