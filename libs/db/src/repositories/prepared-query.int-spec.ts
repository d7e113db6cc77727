import type { DataSource } from 'typeorm';
import { QueryFailedError } from 'typeorm';
import { createFixtureUser, createTestDatabase, queryDatabase, type TestDatabase } from '@pod/testing';
import { createDataSource } from '../data-source';
import { prepareDatabase } from '../prepare-database';
import { preparedQuery } from './prepared-query';
import { withTenant } from './tenant-scope';

/**
 * preparedQuery (ADR 0038, third amendment): a named statement per text on the transaction's
 * connection, its plan kept by PostgreSQL — and row-level security still per user when one
 * pooled connection runs the same statement for several users, past the runs after which
 * PostgreSQL switches to a generic plan.
 */
let database: TestDatabase;
let dataSource: DataSource;
let users: string[];

beforeAll(async () => {
  database = await createTestDatabase('prepared_query');
  await prepareDatabase({ DATABASE_URL: database.url });
  // One connection: every transaction below reuses the same server session and its statements.
  dataSource = await createDataSource({ DATABASE_URL: database.url, DATABASE_POOL_SIZE: 1 }, 'prepared').initialize();
  users = [await createFixtureUser(dataSource, 'prep-a'), await createFixtureUser(dataSource, 'prep-b')];
  for (const [index, userId] of users.entries())
    await queryDatabase(
      database.url,
      `INSERT INTO etsy_receipt (user_id, shop_id, receipt_id, status, is_paid, is_shipped, currency, grandtotal_minor,
         subtotal_minor, total_price_minor, total_shipping_minor, total_tax_minor, item_count, ordered_at,
         source_updated_at, payload, payload_hash, fetched_at)
       SELECT $1, 'S', 'R' || n, 'paid', true, true, 'USD', 100, 100, 100, 0, 0, 1, now(), now(), '{}', 'h', now()
       FROM generate_series(1, $2::int) n`,
      [userId, (index + 1) * 3],
    );
}, 60_000);

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
});

const COUNT_SQL = `SELECT count(*)::int AS receipts, min(user_id::text) AS owner FROM etsy_receipt WHERE shop_id = $1`;

describe('preparedQuery', () => {
  it('prepares one named statement per text on the connection and reuses it', async () => {
    const statements = async (userId: string) =>
      withTenant(dataSource, userId, async (manager) => {
        await preparedQuery(manager, COUNT_SQL, ['S']);
        return manager.query(`SELECT name, statement FROM pg_prepared_statements WHERE statement = $1`, [COUNT_SQL]);
      });
    const first = await statements(users[0]);
    const again = await statements(users[1]);
    expect(first).toHaveLength(1);
    expect(first[0].name).toMatch(/^pp_[0-9a-f]{20}$/);
    expect(again).toEqual(first);
  });

  it('keeps row-level security per user through the cached (generic) plan on one connection', async () => {
    const seen: { receipts: number; owner: string | null }[] = [];
    for (let run = 0; run < 8; run += 1)
      for (const userId of users)
        seen.push(
          (
            await withTenant(dataSource, userId, (manager) => preparedQuery(manager, COUNT_SQL, ['S']), {
              // Half the runs on the generic plan for sure (PostgreSQL's own choice comes after five custom ones).
              settings: run % 2 ? 'SET LOCAL plan_cache_mode = force_generic_plan' : undefined,
            })
          )[0] as never,
        );
    expect(seen).toEqual(
      Array.from({ length: 8 }, () => [
        { receipts: 3, owner: users[0] },
        { receipts: 6, owner: users[1] },
      ]).flat(),
    );
    // Outside any scope: no tenant row (a plain query then, as outside a transaction).
    expect(await preparedQuery(dataSource.manager, COUNT_SQL, ['S'])).toEqual([{ receipts: 0, owner: null }]);
  });

  it('fails as manager.query does: a QueryFailedError carrying the SQL state', async () => {
    const failure = await withTenant(dataSource, users[0], (manager) =>
      preparedQuery(manager, `SELECT 1 / (count(*) - count(*)) FROM etsy_receipt WHERE shop_id = $1`, ['S']),
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(QueryFailedError);
    expect((failure as QueryFailedError & { driverError: { code: string } }).driverError.code).toBe('22012');
  });
});
