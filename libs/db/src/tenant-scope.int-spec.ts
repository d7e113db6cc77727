import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import type { StoredOrderBreakdown } from '@pod/domain';
import { createFixtureUser, createTestDatabase, queryDatabase, storeProfitOrder, TEST_SERVER_URL, type TestDatabase } from '@pod/testing';
import { createDataSource } from './data-source';
import { createRoleIfMissingSql, ROW_SECURED_TABLES as FIRST_SECURED_TABLES } from './migrations/1764900000000-tenant-scope';
import { ROLLUP_SECURED_TABLES } from './migrations/1765300000000-dashboard-rollups';
import { MatchRunsRepository } from './repositories/match-runs.repository';
import { OrderProfitsRepository } from './repositories/order-profits.repository';
import { OrderRecordsRepository } from './repositories/order-records.repository';
import { prepareDatabase, waitForSchema } from './prepare-database';
import { inTenantScope, withAllTenants, withTenant } from './repositories/tenant-scope';
import { withTransaction } from './repositories/database-session';
import { assertRuntimeRole, RuntimeRoleError } from './runtime-role';

/**
 * Security test plan item 24 against real PostgreSQL: the role the runtime pools query as
 * (ADR 0015). The test machines' login, postgres, is a superuser: the pools must not be.
 */
/** Every tenant table under row-level security: the first migration's and the dashboard rollup. */
const ROW_SECURED_TABLES = [...FIRST_SECURED_TABLES, ...ROLLUP_SECURED_TABLES];

let database: TestDatabase;
let app: DataSource;

beforeAll(async () => {
  database = await createTestDatabase('tenant_scope');
  await prepareDatabase({ DATABASE_URL: database.url });
  app = await createDataSource({ DATABASE_URL: database.url, DATABASE_POOL_SIZE: 3 }, 'tenant-scope-test').initialize();
}, 60_000);

afterAll(async () => {
  await app?.destroy();
  await database?.drop();
});

const sqlState = (error: unknown) => (error as { driverError?: { code?: string }; code?: string }).driverError?.code ?? (error as { code?: string }).code;

describe('the runtime role', () => {
  it('is what every pooled connection queries as: podprofit_app, neither SUPERUSER nor BYPASSRLS, taken from the superuser login', async () => {
    // Three transactions at once hold three different pooled connections.
    const rows = await Promise.all(
      [0, 1, 2].map(() =>
        app.transaction(async (manager) => {
          const [row] = await manager.query(
            `SELECT current_user AS "currentUser", session_user AS login, rolsuper, rolbypassrls, pg_backend_pid() AS pid FROM pg_roles WHERE rolname = current_user`,
          );
          await manager.query('SELECT pg_sleep(0.05)');
          return row;
        }),
      ),
    );
    expect(new Set(rows.map((row) => row.pid)).size).toBe(3);
    for (const row of rows) expect(row).toMatchObject({ currentUser: 'podprofit_app', login: 'postgres', rolsuper: false, rolbypassrls: false });
    expect(await assertRuntimeRole(app)).toEqual({ currentUser: 'podprofit_app', superuser: false, bypassRls: false, login: 'postgres' });
  });

  it('is checked before a worker takes jobs: a pool as the superuser login is refused', async () => {
    const asLogin = createDataSource({ DATABASE_URL: database.url, DATABASE_POOL_SIZE: 1 }, 'tenant-scope-login', { connectAs: 'login' });
    try {
      await expect(waitForSchema(asLogin, { pollMs: 50 })).rejects.toBeInstanceOf(RuntimeRoleError);
      await expect(assertRuntimeRole(asLogin)).rejects.toThrow(/"postgres" is a superuser: row-level security would not apply/);
    } finally {
      await asLogin.destroy();
    }
    const asNone = createDataSource({ DATABASE_URL: database.url, DATABASE_POOL_SIZE: 1, DATABASE_APP_ROLE: 'none' }, 'tenant-scope-none');
    try {
      await expect(waitForSchema(asNone, { pollMs: 50 })).rejects.toBeInstanceOf(RuntimeRoleError);
    } finally {
      await asNone.destroy();
    }
  });

  it('may read and write rows but neither create, drop, truncate nor change a table, nor turn row-level security off', async () => {
    for (const ddl of [
      `CREATE TABLE intruder (id int)`,
      `DROP TABLE order_record`,
      `TRUNCATE order_record`,
      `ALTER TABLE order_record DISABLE ROW LEVEL SECURITY`,
      `ALTER TABLE order_profit NO FORCE ROW LEVEL SECURITY`,
      `INSERT INTO schema_migration (timestamp, name) VALUES (1, 'x')`,
    ]) {
      const error = await app.query(ddl).then(
        () => null,
        (caught: unknown) => caught,
      );
      expect({ ddl, code: error === null ? 'succeeded' : sqlState(error) }).toEqual({ ddl, code: '42501' });
    }
    expect(await app.query(`SELECT count(*)::int AS n FROM schema_migration`)).toEqual([{ n: expect.any(Number) }]);
  });

  it('ANALYZEs the synced tables through analyze_synced_tables, as their owner, and no other table through it', async () => {
    const before = await queryDatabase<{ relname: string; analyzed: number }>(
      database.url,
      `SELECT relname, analyze_count::int AS analyzed FROM pg_stat_user_tables WHERE relname IN ('etsy_payment', 'app_user') ORDER BY relname`,
    );
    await app.query(`SELECT analyze_synced_tables(ARRAY['etsy_payment', 'app_user'])`);
    let after = before;
    for (let tries = 0; tries < 40 && after[1].analyzed === before[1].analyzed; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      after = await queryDatabase(database.url, `SELECT relname, analyze_count::int AS analyzed FROM pg_stat_user_tables WHERE relname IN ('etsy_payment', 'app_user') ORDER BY relname`);
    }
    expect(after).toEqual([
      { relname: 'app_user', analyzed: before[0].analyzed },
      { relname: 'etsy_payment', analyzed: before[1].analyzed + 1 },
    ]);
  });

  it('is created race-safely: databases of one cluster migrating at once all succeed, and the role exists once', async () => {
    const role = `podprofit_race_${randomBytes(4).toString('hex')}`;
    const clients = Array.from({ length: 6 }, () => new Client({ connectionString: `${TEST_SERVER_URL}/postgres` }));
    await Promise.all(clients.map((client) => client.connect()));
    try {
      const outcomes = await Promise.allSettled(clients.map((client) => client.query(createRoleIfMissingSql(role))));
      expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
      const found = await clients[0].query(`SELECT rolcanlogin, rolsuper, rolbypassrls FROM pg_roles WHERE rolname = $1`, [role]);
      expect(found.rows).toEqual([{ rolcanlogin: false, rolsuper: false, rolbypassrls: false }]);
    } finally {
      await clients[0].query(`DROP ROLE IF EXISTS ${role}`);
      await Promise.all(clients.map((client) => client.end()));
    }
  });
});

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const settings = (db: DataSource | import('typeorm').EntityManager) =>
  db.query(`SELECT current_setting('app.user_id', true) AS "userId", current_setting('app.all_tenants', true) AS "allTenants", pg_backend_pid() AS pid`);

describe('the scope of a transaction', () => {
  it('is set inside withTenant only, and a pooled connection reused after it carries no app.user_id', async () => {
    const one = await createDataSource({ DATABASE_URL: database.url, DATABASE_POOL_SIZE: 1 }, 'tenant-scope-one').initialize();
    try {
      const [inside] = await withTenant(one, A, (manager) => settings(manager));
      expect(inside.userId).toBe(A);
      // The pool has one connection: this is the very connection the transaction used.
      const [after] = await settings(one);
      expect(after.pid).toBe(inside.pid);
      expect(after.userId ?? '').toBe('');
      const [next] = await one.transaction((manager) => settings(manager));
      expect({ pid: next.pid, userId: next.userId ?? '' }).toEqual({ pid: inside.pid, userId: '' });
      const [escape] = await withAllTenants(one, (manager) => settings(manager));
      expect(escape).toMatchObject({ pid: inside.pid, allTenants: 'on' });
      expect((await settings(one))[0].allTenants ?? '').toBe('');
    } finally {
      await one.destroy();
    }
  });

  it("joins the caller's transaction, and refuses to move it to another user or to all users", async () => {
    await withTransaction(app, async (manager) => {
      await inTenantScope(manager, A, async (scoped) => expect(scoped).toBe(manager));
      expect((await settings(manager))[0].userId).toBe(A);
      await expect(inTenantScope(manager, B, async () => 'never')).rejects.toThrow(/scoped to another user/);
      await expect(withAllTenants(manager, async () => 'never')).rejects.toThrow(/scoped to one user/);
      expect((await settings(manager))[0].userId).toBe(A);
    });
    await expect(withTenant(app, 'not-a-uuid', async () => 'never')).rejects.toThrow(/must be a UUID/);
  });
});

describe('row-level security on the tenant tables', () => {
  let a: string;
  let b: string;
  /** Rows per table and user, counted as the login (a superuser: no policy applies to it). */
  const stored = async (table: string, userId: string) =>
    (await queryDatabase<{ n: number }>(database.url, `SELECT count(*)::int AS n FROM ${table} WHERE user_id = $1`, [userId]))[0].n;
  /** One of the user's rows, as JSON (the login reads it), to try writing it back. */
  const rowOf = async (table: string, userId: string) =>
    (await queryDatabase<{ row: Record<string, unknown> }>(database.url, `SELECT to_jsonb(t) AS row FROM ${table} t WHERE user_id = $1 LIMIT 1`, [userId]))[0].row;
  const insertRow = (db: DataSource | import('typeorm').EntityManager, table: string, row: Record<string, unknown>) =>
    db.query(`INSERT INTO ${table} SELECT * FROM jsonb_populate_record(NULL::${table}, $1::jsonb)`, [JSON.stringify(row)]);
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => 'written',
      (error: unknown) => `${sqlState(error)} ${(error as Error).message}`,
    );

  beforeAll(async () => {
    [a, b] = [await createFixtureUser(app, 'rls-a'), await createFixtureUser(app, 'rls-b')];
    for (const [userId, prefix] of [[a, 'a'], [b, 'b']] as const) {
      await storeProfitOrder(app, userId, {
        etsyShopId: `${prefix}-shop`,
        receiptId: `${prefix}-1001`,
        currency: 'USD',
        buyerName: 'Ada Lovelace',
        orderedAt: new Date('2026-06-01T10:00:00Z'),
        title: 'Cat Mug',
        sku: 'MUG',
        totalPriceMinor: 2500,
        paymentFeesMinor: 105,
        ledger: [{ id: `${prefix}-l1`, type: 'transaction', amountMinor: -163 }],
        printify: { shopId: `${prefix}-pfy`, orderId: `${prefix}-ord`, currency: 'USD', lines: [{ quantity: 1, costMinor: 900, shippingMinor: 400 }] },
      });
      const records = new OrderRecordsRepository(app);
      await records.applyChanges(userId, {
        deletes: [],
        updates: [],
        inserts: [
          {
            receipt: { shopId: `${prefix}-shop`, id: `${prefix}-1001` },
            order: { shopId: `${prefix}-pfy`, id: `${prefix}-ord` },
            status: 'matched',
            method: 'exact',
            confidence: 1,
            orderDate: new Date('2026-06-01T10:00:00Z'),
            customerName: 'Ada Lovelace',
            productTitle: 'Cat Mug',
            productSku: 'MUG',
          },
        ],
      });
      const [record] = await records.listForMatching(userId);
      await new OrderProfitsRepository(app).upsert(
        userId,
        [
          {
            orderRecordId: record.id,
            currency: 'USD',
            recordSides: 'sides',
            inputsHash: 'hash',
            figures: 'ok',
            revenueMinor: 2500,
            costsMinor: 1568,
            netProfitMinor: 932,
            hasEstimatedFees: false,
            breakdown: {} as StoredOrderBreakdown,
          },
        ],
        new Date(),
      );
      await new MatchRunsRepository(app).queueOrGetQueued(userId, 'user');
    }
  }, 30_000);

  it("is on, and forced, on every table the migration lists, issue 9's and the synced order tables among them", async () => {
    expect(ROW_SECURED_TABLES).toEqual(expect.arrayContaining(['order_record', 'order_profit', 'match_run', 'etsy_receipt', 'etsy_receipt_line', 'etsy_payment', 'etsy_ledger_entry', 'printify_order', 'printify_order_line', 'dashboard_day']));
    const flags = await queryDatabase<{ relname: string; relrowsecurity: boolean; relforcerowsecurity: boolean }>(
      database.url,
      `SELECT relname, relrowsecurity, relforcerowsecurity FROM pg_class WHERE relname = ANY($1::text[]) AND relkind = 'r' ORDER BY relname`,
      [[...ROW_SECURED_TABLES]],
    );
    expect(flags).toEqual([...ROW_SECURED_TABLES].sort().map((relname) => ({ relname, relrowsecurity: true, relforcerowsecurity: true })));
    // Every table holds rows of both users, so the tests below have something to hide.
    for (const table of ROW_SECURED_TABLES) expect({ table, a: (await stored(table, a)) > 0, b: (await stored(table, b)) > 0 }).toEqual({ table, a: true, b: true });
  });

  it.each(ROW_SECURED_TABLES.map((table) => [table]))('%s: without app.user_id, a query sees 0 rows and an insert is refused', async (table) => {
    expect(await app.query(`SELECT count(*)::int AS n FROM ${table}`)).toEqual([{ n: 0 }]);
    expect(await app.transaction((manager) => manager.query(`SELECT count(*)::int AS n FROM ${table}`))).toEqual([{ n: 0 }]);
    expect(await refusal(insertRow(app, table, await rowOf(table, a)))).toMatch(/^42501 new row violates row-level security policy/);
    expect((await app.query(`UPDATE ${table} SET user_id = user_id`))[1]).toBe(0);
    expect((await app.query(`DELETE FROM ${table}`))[1]).toBe(0);
  });

  it.each(ROW_SECURED_TABLES.map((table) => [table]))("%s: scoped to user A, B's rows are invisible and unwritable, A's are there", async (table) => {
    const [bRows, aRow, bRow] = [await stored(table, b), await rowOf(table, a), await rowOf(table, b)];
    await withTenant(app, a, async (manager) => {
      expect(await manager.query(`SELECT count(*)::int AS n FROM ${table}`)).toEqual([{ n: await stored(table, a) }]);
      expect(await manager.query(`SELECT count(*)::int AS n FROM ${table} WHERE user_id = $1`, [b])).toEqual([{ n: 0 }]);
      expect((await manager.query(`UPDATE ${table} SET user_id = user_id WHERE user_id = $1`, [b]))[1]).toBe(0);
      expect((await manager.query(`DELETE FROM ${table} WHERE user_id = $1`, [b]))[1]).toBe(0);
    });
    // Each refused write in a transaction of its own (an error ends the transaction).
    expect(await refusal(withTenant(app, a, (manager) => insertRow(manager, table, bRow)))).toMatch(/^42501 new row violates row-level security policy/);
    expect(await refusal(withTenant(app, a, (manager) => manager.query(`UPDATE ${table} SET user_id = $1 WHERE user_id = $2`, [b, a])))).toMatch(
      /^42501 new row violates row-level security policy/,
    );
    expect(await refusal(withTenant(app, a, (manager) => insertRow(manager, table, { ...aRow, user_id: b })))).toMatch(/^42501 new row violates row-level security policy/);
    expect(await stored(table, b)).toBe(bRows);
  });

  it('lets the escape read across users, and write nothing', async () => {
    expect(await withAllTenants(app, (manager) => manager.query(`SELECT count(DISTINCT user_id)::int AS n FROM order_record`))).toEqual([{ n: 2 }]);
    expect(await withAllTenants(app, async (manager) => (await manager.query(`UPDATE order_record SET updated_at = now()`))[1])).toBe(0);
    expect(await refusal(withAllTenants(app, async (manager) => insertRow(manager, 'match_run', { ...(await rowOf('match_run', a)), id: '00000000-0000-4000-8000-0000000000ff', status: 'failed' })))).toMatch(
      /^42501 new row violates row-level security policy/,
    );
    expect(await new OrderProfitsRepository(app).usersToRefigure(null)).toEqual([a, b].sort());
  });

  it('a pooled connection reused after a scoped transaction sees no tenant row', async () => {
    const one = await createDataSource({ DATABASE_URL: database.url, DATABASE_POOL_SIZE: 1 }, 'tenant-scope-reuse').initialize();
    try {
      const [{ n: inside, pid }] = await withTenant(one, a, (manager) => manager.query(`SELECT count(*)::int AS n, pg_backend_pid() AS pid FROM order_record`));
      expect(inside).toBe(1);
      expect(await one.query(`SELECT count(*)::int AS n, pg_backend_pid() AS pid FROM order_record`)).toEqual([{ n: 0, pid }]);
    } finally {
      await one.destroy();
    }
  });

  it('still lets an account go: deleting the user cascades through every policy', async () => {
    const gone = await createFixtureUser(app, 'rls-gone');
    await storeProfitOrder(app, gone, {
      etsyShopId: 'g-shop',
      receiptId: 'g-1',
      currency: 'USD',
      buyerName: 'Grace Hopper',
      orderedAt: new Date('2026-06-02T10:00:00Z'),
      title: 'Poster',
      sku: 'P',
      totalPriceMinor: 1000,
      printify: { shopId: 'g-pfy', orderId: 'g-ord', currency: 'USD', lines: [{ quantity: 1, costMinor: 500, shippingMinor: 300 }] },
    });
    expect(await stored('etsy_receipt', gone)).toBe(1);
    await app.query(`DELETE FROM app_user WHERE id = $1`, [gone]);
    for (const table of ROW_SECURED_TABLES) expect({ table, n: await stored(table, gone) }).toEqual({ table, n: 0 });
  });
});
