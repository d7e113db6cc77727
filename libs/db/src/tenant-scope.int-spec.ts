import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import type { StoredOrderBreakdown } from '@pod/domain';
import {
  createFixtureUser,
  createTestDatabase,
  queryDatabase,
  refreshDashboardRollup,
  storeProfitOrder,
  TEST_SERVER_URL,
  type TestDatabase,
} from '@pod/testing';
import { createDataSource } from './data-source';
import { TokenCipher } from '@pod/crypto';
import { createRoleIfMissingSql } from './migrations/1764900000000-tenant-scope';
import { ConnectionsRepository } from './repositories/connections.repository';
import { MatchRunsRepository } from './repositories/match-runs.repository';
import { ShopCostsRepository } from './repositories/shop-costs.repository';
import { OAuthStatesRepository } from './repositories/oauth-states.repository';
import { SessionsRepository } from './repositories/sessions.repository';
import { SyncCursorsRepository } from './repositories/sync-cursors.repository';
import { SyncQuarantineRepository } from './repositories/sync-quarantine.repository';
import { SyncRunsRepository } from './repositories/sync-runs.repository';
import { UsersRepository } from './repositories/users.repository';
import { OrderProfitsRepository } from './repositories/order-profits.repository';
import { OrderRecordsRepository } from './repositories/order-records.repository';
import { prepareDatabase, waitForSchema } from './prepare-database';
import { inTenantScope, withTenant } from './repositories/tenant-scope';
import { withTransaction } from './repositories/database-session';
import { assertRuntimeRole, RuntimeRoleError } from './runtime-role';

/**
 * Security test plan item 24 against real PostgreSQL: the role the runtime pools query as
 * (ADR 0015). The test machines' login, postgres, is a superuser: the pools must not be.
 */
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

const sqlState = (error: unknown) =>
  (error as { driverError?: { code?: string }; code?: string }).driverError?.code ?? (error as { code?: string }).code;

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
    for (const row of rows)
      expect(row).toMatchObject({
        currentUser: 'podprofit_app',
        login: 'postgres',
        rolsuper: false,
        rolbypassrls: false,
      });
    expect(await assertRuntimeRole(app)).toEqual({
      currentUser: 'podprofit_app',
      superuser: false,
      bypassRls: false,
      ownsTables: false,
      login: 'postgres',
    });
  });

  it('is refused when it owns a table of the schema (the owner reads every row through definer_access)', async () => {
    const owner = `podprofit_owner_${randomBytes(4).toString('hex')}`;
    await queryDatabase(database.url, `CREATE ROLE ${owner} NOLOGIN`);
    await queryDatabase(database.url, `CREATE TABLE owned_probe (id int)`);
    await queryDatabase(database.url, `ALTER TABLE owned_probe OWNER TO ${owner}`);
    const asOwner = await createDataSource(
      { DATABASE_URL: database.url, DATABASE_POOL_SIZE: 1, DATABASE_APP_ROLE: owner },
      'tenant-scope-owner',
    ).initialize();
    try {
      await expect(assertRuntimeRole(asOwner)).rejects.toThrow(new RegExp(`"${owner}" owns the schema's tables`));
    } finally {
      await asOwner.destroy();
      await queryDatabase(database.url, `DROP TABLE owned_probe`);
      await queryDatabase(database.url, `DROP ROLE ${owner}`);
    }
  });

  it('is checked before a worker takes jobs: a pool as the superuser login is refused', async () => {
    const asLogin = createDataSource({ DATABASE_URL: database.url, DATABASE_POOL_SIZE: 1 }, 'tenant-scope-login', {
      connectAs: 'login',
    });
    try {
      await expect(waitForSchema(asLogin, { pollMs: 50 })).rejects.toBeInstanceOf(RuntimeRoleError);
      await expect(assertRuntimeRole(asLogin)).rejects.toThrow(
        /"postgres" is a superuser: row-level security would not apply/,
      );
    } finally {
      await asLogin.destroy();
    }
    const asNone = createDataSource(
      { DATABASE_URL: database.url, DATABASE_POOL_SIZE: 1, DATABASE_APP_ROLE: 'none' },
      'tenant-scope-none',
    );
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
      `ALTER TABLE app_user DISABLE ROW LEVEL SECURITY`,
      `CREATE FUNCTION all_rows() RETURNS SETOF app_user LANGUAGE sql SECURITY DEFINER AS 'SELECT * FROM app_user'`,
      `DROP POLICY tenant_scope ON sync_run`,
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
      after = await queryDatabase(
        database.url,
        `SELECT relname, analyze_count::int AS analyzed FROM pg_stat_user_tables WHERE relname IN ('etsy_payment', 'app_user') ORDER BY relname`,
      );
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
      const found = await clients[0].query(
        `SELECT rolcanlogin, rolsuper, rolbypassrls FROM pg_roles WHERE rolname = $1`,
        [role],
      );
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
  db.query(`SELECT current_setting('app.user_id', true) AS "userId", pg_backend_pid() AS pid`);

describe('the scope of a transaction', () => {
  it('is set inside withTenant only, and a pooled connection reused after it carries no app.user_id', async () => {
    const one = await createDataSource(
      { DATABASE_URL: database.url, DATABASE_POOL_SIZE: 1 },
      'tenant-scope-one',
    ).initialize();
    try {
      const [inside] = await withTenant(one, A, (manager) => settings(manager));
      expect(inside.userId).toBe(A);
      // The pool has one connection: this is the very connection the transaction used.
      const [after] = await settings(one);
      expect(after.pid).toBe(inside.pid);
      expect(after.userId ?? '').toBe('');
      const [next] = await one.transaction((manager) => settings(manager));
      expect({ pid: next.pid, userId: next.userId ?? '' }).toEqual({ pid: inside.pid, userId: '' });
    } finally {
      await one.destroy();
    }
  });

  it("joins the caller's transaction, and refuses to move it to another user", async () => {
    await withTransaction(app, async (manager) => {
      await inTenantScope(manager, A, async (scoped) => expect(scoped).toBe(manager));
      expect((await settings(manager))[0].userId).toBe(A);
      await expect(inTenantScope(manager, B, async () => 'never')).rejects.toThrow(/scoped to another user/);
      expect((await settings(manager))[0].userId).toBe(A);
    });
    await expect(withTenant(app, 'not-a-uuid', async () => 'never')).rejects.toThrow(/must be a UUID/);
  });

  it('starts and scopes its transaction in one round trip: a scoped read is three (START and set_config, the read, COMMIT)', async () => {
    const sent = jest.spyOn(PostgresQueryRunner.prototype, 'query');
    try {
      const [row] = await withTenant(app, A, (manager) => inTenantScope(manager, A, (scoped) => settings(scoped)));
      expect(row.userId).toBe(A);
      expect(sent.mock.calls.map(([sql]) => sql.replace(/'[0-9a-f-]{36}'/, "'<id>'"))).toEqual([
        `START TRANSACTION; SELECT set_config('app.user_id', '<id>', true)`,
        `SELECT current_setting('app.user_id', true) AS "userId", pg_backend_pid() AS pid`,
        'COMMIT',
      ]);
    } finally {
      sent.mockRestore();
    }
  });

  it('as a snapshot: READ ONLY at REPEATABLE READ with its settings, still in one round trip, and scoped', async () => {
    const sent = jest.spyOn(PostgresQueryRunner.prototype, 'query');
    try {
      const seen = await withTenant(
        app,
        A,
        async (manager) => {
          const [row] = await manager.query(
            `SELECT current_setting('transaction_isolation') AS isolation, current_setting('transaction_read_only') AS "readOnly",
               current_setting('jit') AS jit, current_setting('app.user_id', true) AS "userId"`,
          );
          const write = await manager.query(`UPDATE app_user SET email = email WHERE id = $1`, [A]).catch(sqlState);
          return { ...row, write };
        },
        { snapshot: true, settings: 'SET LOCAL jit = off' },
      );
      // 25006: read_only_sql_transaction.
      expect(seen).toEqual({ isolation: 'repeatable read', readOnly: 'on', jit: 'off', userId: A, write: '25006' });
      expect(sent.mock.calls[0][0].replace(/'[0-9a-f-]{36}'/, "'<id>'")).toBe(
        `START TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY; SELECT set_config('app.user_id', '<id>', true); SET LOCAL jit = off`,
      );
    } finally {
      sent.mockRestore();
    }
    // The settings were local to it: the next transaction on the pool has JIT as configured.
    const [after] = await withTenant(app, A, (manager) => manager.query(`SELECT current_setting('jit') AS jit`));
    expect(after.jit).toBe('on');
  });

  it('rolls back on an error, keeps savepoints for nested transactions, and hands the connection back outside any transaction', async () => {
    const one = await createDataSource(
      { DATABASE_URL: database.url, DATABASE_POOL_SIZE: 1 },
      'tenant-scope-rollback',
    ).initialize();
    const exists = async (table: string) =>
      (
        (await one.query(`SELECT to_regclass($1) IS NOT NULL AS present`, [`pg_temp.${table}`])) as {
          present: boolean;
        }[]
      )[0].present;
    try {
      await expect(
        withTenant(one, A, async (manager) => {
          await manager.query(`CREATE TEMP TABLE scope_probe_failed (x int)`);
          throw new Error('work failed');
        }),
      ).rejects.toThrow('work failed');
      expect(await exists('scope_probe_failed')).toBe(false);
      const [inside] = await withTenant(one, A, async (manager) => {
        await manager.query(`CREATE TEMP TABLE scope_probe_kept (x int)`);
        await expect(
          manager.transaction(async (inner) => {
            await inner.query(`CREATE TEMP TABLE scope_probe_savepoint (x int)`);
            throw new Error('inner failed');
          }),
        ).rejects.toThrow('inner failed');
        return settings(manager);
      });
      expect(inside.userId).toBe(A);
      expect({ kept: await exists('scope_probe_kept'), savepoint: await exists('scope_probe_savepoint') }).toEqual({
        kept: true,
        savepoint: false,
      });
      // Outside any transaction: now() moves from one statement to the next.
      const [state] = (await one.query(
        `SELECT now() = statement_timestamp() AS fresh, current_setting('app.user_id', true) AS "userId"`,
      )) as { fresh: boolean; userId: string | null }[];
      expect({ fresh: state.fresh, userId: state.userId ?? '' }).toEqual({ fresh: true, userId: '' });
    } finally {
      await one.destroy();
    }
  });
});

/** Every tenant table, read from the catalogue (so a table added later is covered): a user_id column, or app_user itself. */
interface TenantTable {
  table: string;
  /** The column the policy compares with app.user_id. */
  owner: string;
  rls: boolean;
  forced: boolean;
}
const tenantTables = () =>
  queryDatabase<TenantTable>(
    database.url,
    `SELECT c.relname AS "table", CASE WHEN c.relname = 'app_user' THEN 'id' ELSE 'user_id' END AS owner,
            c.relrowsecurity AS rls, c.relforcerowsecurity AS forced
       FROM pg_class c
      WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p')
        AND (c.relname = 'app_user' OR EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'user_id' AND NOT a.attisdropped))
      ORDER BY c.relname`,
  );

/** The tenant tables of today: the catalogue must find at least these (and the seed fills each for both users). */
const KNOWN_TENANT_TABLES = [
  'app_user',
  'cost_kind_day',
  'dashboard_day',
  'etsy_ledger_entry',
  'etsy_payment',
  'etsy_receipt',
  'etsy_receipt_line',
  'match_run',
  'oauth_state',
  'order_profit',
  'order_record',
  'order_record_printify_order',
  'printify_order',
  'printify_order_line',
  'product_day',
  'provider_connection',
  'shop_cost_day',
  'sync_cursor',
  'sync_quarantine',
  'sync_run',
  'user_session',
];

describe('row-level security on every tenant table', () => {
  let a: string;
  let b: string;
  let tables: TenantTable[];
  const runs: Record<string, string> = {};
  /** Rows per table and user, counted as the login (a superuser: no policy applies to it). */
  const stored = async ({ table, owner }: TenantTable, userId: string) =>
    (
      await queryDatabase<{ n: number }>(database.url, `SELECT count(*)::int AS n FROM ${table} WHERE ${owner} = $1`, [
        userId,
      ])
    )[0].n;
  /** One of the user's rows, as JSON (the login reads it), to try writing it back. */
  const rowOf = async ({ table, owner }: TenantTable, userId: string) =>
    (
      await queryDatabase<{ row: Record<string, unknown> }>(
        database.url,
        `SELECT to_jsonb(t) AS row FROM ${table} t WHERE ${owner} = $1 LIMIT 1`,
        [userId],
      )
    )[0].row;
  const insertRow = (db: DataSource | import('typeorm').EntityManager, table: string, row: Record<string, unknown>) =>
    db.query(`INSERT INTO ${table} SELECT * FROM jsonb_populate_record(NULL::${table}, $1::jsonb)`, [
      JSON.stringify(row),
    ]);
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => 'written',
      (error: unknown) => `${sqlState(error)} ${(error as Error).message}`,
    );
  const RLS_REFUSAL = /^42501 new row violates row-level security policy/;
  /** The rows a write reached, rolled back: where a table is open, the check must not empty it for the checks after it. */
  const rolledBack = async (sql: string) => {
    const undo = new Error('roll back');
    let affected = -1;
    await app
      .transaction(async (manager) => {
        affected = (await manager.query(sql))[1];
        throw undo;
      })
      .catch((error: unknown) => {
        if (error !== undo) throw error;
      });
    return affected;
  };
  /** Runs `check` for every table, collecting what went wrong, so one run names every failing table. */
  const eachTable = async (check: (table: TenantTable) => Promise<unknown[]>) => {
    const problems: unknown[] = [];
    for (const table of tables)
      problems.push(...(await check(table)).map((problem) => ({ table: table.table, problem })));
    return problems;
  };

  beforeAll(async () => {
    [a, b] = [await createFixtureUser(app, 'rls-a'), await createFixtureUser(app, 'rls-b')];
    const now = new Date();
    const cipher = TokenCipher.fromAppSecret('t'.repeat(40));
    for (const [userId, prefix] of [
      [a, 'a'],
      [b, 'b'],
    ] as const) {
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
        printify: {
          shopId: `${prefix}-pfy`,
          orderId: `${prefix}-ord`,
          currency: 'USD',
          lines: [{ quantity: 1, costMinor: 900, shippingMinor: 400 }],
        },
      });
      // A second order whose Printify side is attached to the first receipt (a reprint).
      await storeProfitOrder(app, userId, {
        etsyShopId: `${prefix}-shop`,
        receiptId: `${prefix}-1002`,
        currency: 'USD',
        buyerName: 'Ada Lovelace',
        orderedAt: new Date('2026-06-02T10:00:00Z'),
        title: 'Cat Mug',
        sku: 'MUG',
        totalPriceMinor: 2500,
        paymentFeesMinor: 105,
        ledger: [],
        printify: {
          shopId: `${prefix}-pfy`,
          orderId: `${prefix}-ord2`,
          currency: 'USD',
          lines: [{ quantity: 1, costMinor: 900, shippingMinor: 400 }],
        },
      });
      const records = new OrderRecordsRepository(app);
      await records.applyChanges(userId, {
        deletes: [],
        updates: [],
        inserts: [
          {
            receipt: { shopId: `${prefix}-shop`, id: `${prefix}-1001` },
            order: { shopId: `${prefix}-pfy`, id: `${prefix}-ord` },
            attached: [{ order: { shopId: `${prefix}-pfy`, id: `${prefix}-ord2` }, reason: 'reprint' }],
            notNeededReason: null,
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
      const record = (await records.listForMatching(userId)).find((r) => r.order?.id === `${prefix}-ord`)!;
      await new OrderProfitsRepository(app).upsert(
        userId,
        [
          {
            orderRecordId: record.id,
            currency: 'USD',
            // The record's current sides, so the figures count and the Analytics breakdowns hold them too.
            recordSides: `${prefix}-shop:${prefix}-1001|${prefix}-pfy:${prefix}-ord`,
            inputsHash: 'hash',
            printifyCost: 'printify',
            figures: 'ok',
            revenueMinor: 2500,
            costsMinor: 1568,
            netProfitMinor: 932,
            hasEstimatedFees: false,
            breakdown: {
              costLines: [{ kind: 'printify_production', sign: 1, display: { minor: 1568, currency: 'USD' } }],
            } as unknown as StoredOrderBreakdown,
          },
        ],
        new Date(),
      );
      await refreshDashboardRollup(database.url, userId);
      await new ShopCostsRepository(app).replace(userId, [
        {
          day: '2026-06-01',
          kind: 'etsy_ads',
          currency: 'USD',
          costMinor: 150,
          entries: 1,
          withoutRate: 0,
          provisional: 0,
        },
      ]);
      await new MatchRunsRepository(app).queueOrGetQueued(userId, 'user');
      // The tables issue 16 put under row-level security, each written through its repository.
      const connections = new ConnectionsRepository(app, cipher);
      await connections.savePrintify({
        userId,
        accountKey: `${prefix}-acct`,
        shopId: `${prefix}-pfy`,
        shopTitle: 'Shop',
        salesChannel: null,
        syncFrom: null,
        token: 'token',
        tokenExpiresAt: new Date(now.getTime() + 86_400_000),
      });
      await connections.setPrintifyWebhook(userId, {
        key: `${prefix}-webhook-key`,
        secret: 'secret',
        status: 'registered',
      });
      await new SessionsRepository(app).insert({
        idHash: `${prefix}-session`,
        userId,
        lastSeenAt: now,
        expiresAt: new Date(now.getTime() + 86_400_000),
      });
      await new OAuthStatesRepository(app).addReplacingOld(
        {
          stateHash: `${prefix}-state`,
          userId,
          sessionIdHash: `${prefix}-session`,
          codeVerifierEnc: 'enc',
          redirectUri: 'http://127.0.0.1/cb',
          createdAt: now,
          expiresAt: new Date(now.getTime() + 600_000),
        },
        5,
      );
      const { run } = await new SyncRunsRepository(app).startOrGetActive({
        userId,
        provider: 'printify',
        shopId: `${prefix}-pfy`,
        trigger: 'user',
        mode: 'incremental',
      });
      runs[userId] = run.id;
      const key = {
        userId,
        provider: 'printify' as const,
        shopId: `${prefix}-pfy`,
        stream: 'printify:orders' as const,
      };
      expect(await new SyncCursorsRepository(app).advance(key, 0, { page: 1 }, run.id)).toBe(true);
      await new SyncQuarantineRepository(app).record(key, [
        { recordKey: `${prefix}-bad`, field: 'total', reason: 'not a number', payload: { total: 'x' } },
      ]);
    }
    tables = await tenantTables();
  }, 60_000);

  it('covers every tenant table of the catalogue, each ENABLEd and FORCEd, and the seed fills each for both users', async () => {
    expect(tables.map((table) => table.table)).toEqual(expect.arrayContaining(KNOWN_TENANT_TABLES));
    expect(tables.filter((table) => !table.rls || !table.forced).map((table) => table.table)).toEqual([]);
    const unseeded: string[] = [];
    for (const table of tables.filter((entry) => KNOWN_TENANT_TABLES.includes(entry.table))) {
      if ((await stored(table, a)) === 0 || (await stored(table, b)) === 0) unseeded.push(table.table);
    }
    expect(unseeded).toEqual([]);
  });

  it('lets every policy the app role is subject to compare the owner with app.user_id and nothing else (no all-tenants switch)', async () => {
    const policies = await queryDatabase<{ table: string; policy: string; qual: string | null; check: string | null }>(
      database.url,
      `SELECT p.tablename AS "table", p.policyname AS policy, p.qual, p.with_check AS "check" FROM pg_policies p
        WHERE p.schemaname = current_schema() AND p.tablename = ANY($1::text[])
          AND EXISTS (SELECT 1 FROM unnest(p.roles) r WHERE r = 'public' OR pg_has_role('podprofit_app', r, 'USAGE'))`,
      [tables.map((table) => table.table)],
    );
    const onlyUserId = (expression: string | null, owner: string) =>
      expression !== null &&
      expression.includes(`${owner} = `) &&
      [...expression.matchAll(/current_setting\('([^']*)'/g)].every((match) => match[1] === 'app.user_id') &&
      /current_setting\('app\.user_id'/.test(expression);
    const ownerOf = new Map(tables.map((table) => [table.table, table.owner]));
    expect(
      policies.filter(
        (p) =>
          !onlyUserId(p.qual, ownerOf.get(p.table)!) ||
          (p.check !== null && !onlyUserId(p.check, ownerOf.get(p.table)!)),
      ),
    ).toEqual([]);
    expect(
      tables.filter((table) => !policies.some((p) => p.table === table.table)).map((table) => table.table),
    ).toEqual([]);
  });

  it('shows no row, and refuses every write, without app.user_id — also with app.all_tenants set by the app role itself', async () => {
    const problems = await eachTable(async (table) => {
      const found: unknown[] = [];
      const count = async (db: DataSource | import('typeorm').EntityManager) =>
        (await db.query(`SELECT count(*)::int AS n FROM ${table.table}`))[0].n as number;
      if ((await count(app)) !== 0) found.push('pool: rows seen');
      if ((await app.transaction(count)) !== 0) found.push('transaction: rows seen');
      const forged = await app.transaction(async (manager) => {
        await manager.query(`SELECT set_config('app.all_tenants', 'on', true), set_config('app.tenant', 'all', true)`);
        return count(manager);
      });
      if (forged !== 0) found.push('app.all_tenants: rows seen');
      if ((await rolledBack(`UPDATE ${table.table} SET ${table.owner} = ${table.owner}`)) !== 0)
        found.push('update reached rows');
      if ((await rolledBack(`DELETE FROM ${table.table}`)) !== 0) found.push('delete reached rows');
      if ((await stored(table, a)) > 0) {
        const outcome = await refusal(insertRow(app, table.table, await rowOf(table, a)));
        if (!RLS_REFUSAL.test(outcome)) found.push(`insert: ${outcome}`);
      }
      return found;
    });
    expect(problems).toEqual([]);
  });

  it("scoped to user A, hides B's rows and refuses to write them, and shows A's", async () => {
    const problems = await eachTable(async (table) => {
      const found: unknown[] = [];
      const [aRows, bRows] = [await stored(table, a), await stored(table, b)];
      if (aRows === 0 || bRows === 0) return found;
      const [aRow, bRow] = [await rowOf(table, a), await rowOf(table, b)];
      await withTenant(app, a, async (manager) => {
        const seen = (await manager.query(`SELECT count(*)::int AS n FROM ${table.table}`))[0].n;
        if (seen !== aRows) found.push(`sees ${seen} rows, not A's ${aRows}`);
        if (
          (await manager.query(`SELECT count(*)::int AS n FROM ${table.table} WHERE ${table.owner} = $1`, [b]))[0].n !==
          0
        )
          found.push("sees B's rows");
        if (
          (
            await manager.query(`UPDATE ${table.table} SET ${table.owner} = ${table.owner} WHERE ${table.owner} = $1`, [
              b,
            ])
          )[1] !== 0
        )
          found.push("updates B's rows");
        if ((await manager.query(`DELETE FROM ${table.table} WHERE ${table.owner} = $1`, [b]))[1] !== 0)
          found.push("deletes B's rows");
      });
      // Each refused write in a transaction of its own (an error ends the transaction).
      for (const [label, write] of [
        ["inserts B's row", (manager: import('typeorm').EntityManager) => insertRow(manager, table.table, bRow)],
        [
          "moves A's row to B",
          (manager: import('typeorm').EntityManager) =>
            manager.query(`UPDATE ${table.table} SET ${table.owner} = $1 WHERE ${table.owner} = $2`, [b, a]),
        ],
        [
          'inserts a row for B',
          (manager: import('typeorm').EntityManager) => insertRow(manager, table.table, { ...aRow, [table.owner]: b }),
        ],
      ] as const) {
        const outcome = await refusal(withTenant(app, a, write));
        if (!RLS_REFUSAL.test(outcome)) found.push(`${label}: ${outcome}`);
      }
      if ((await stored(table, b)) !== bRows) found.push("B's rows changed");
      return found;
    });
    expect(problems).toEqual([]);
  });

  it('refuses the app role turning row security off for itself', async () => {
    for (const table of ['app_user', 'provider_connection', 'order_record']) {
      const outcome = await refusal(
        app.transaction(async (manager) => {
          await manager.query(`SET LOCAL row_security = off`);
          return manager.query(`SELECT count(*) FROM ${table}`);
        }),
      );
      expect({ table, outcome }).toEqual({
        table,
        outcome: expect.stringMatching(/^42501 query would be affected by row-level security policy/),
      });
    }
  });

  it('reaches across users only through SECURITY DEFINER functions: search_path pinned, executable by the app role, not by PUBLIC', async () => {
    const functions = await queryDatabase<{
      name: string;
      pinned: boolean;
      publicExecute: boolean;
      appExecute: boolean;
      ownerIsTableOwner: boolean;
    }>(
      database.url,
      `SELECT p.proname AS name,
              coalesce(EXISTS (SELECT 1 FROM unnest(p.proconfig) c WHERE c LIKE 'search_path=%'), false) AS pinned,
              EXISTS (SELECT 1 FROM aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) acl WHERE acl.grantee = 0) AS "publicExecute",
              has_function_privilege('podprofit_app', p.oid, 'EXECUTE') AS "appExecute",
              p.proowner = (SELECT relowner FROM pg_class WHERE oid = 'app_user'::regclass) AS "ownerIsTableOwner"
         FROM pg_proc p WHERE p.pronamespace = current_schema()::regnamespace AND p.prosecdef ORDER BY p.proname`,
    );
    expect(functions.map((fn) => fn.name)).toEqual(
      expect.arrayContaining([
        'session_with_user',
        'user_id_by_email',
        'sync_run_owner',
        'match_run_owner',
        'users_to_refigure',
        'sweep_demo_accounts',
        'connected_shops_after',
      ]),
    );
    expect(functions.filter((fn) => !fn.pinned || fn.publicExecute || !fn.appExecute || !fn.ownerIsTableOwner)).toEqual(
      [],
    );
  });

  it('answers the cross-user lookups through those functions, each narrowly', async () => {
    const sessions = new SessionsRepository(app);
    expect(await sessions.findWithUser('a-session', a)).toMatchObject({ userId: a, user: { id: a, passwordHash: '' } });
    expect(await sessions.findWithUser('a-session', b)).toBeNull();
    const syncRuns = new SyncRunsRepository(app);
    expect(await syncRuns.findById(runs[b])).toMatchObject({ id: runs[b], userId: b });
    expect(await new OAuthStatesRepository(app).find('b-state')).toMatchObject({
      userId: b,
      sessionIdHash: 'b-session',
    });
    expect(
      await new ConnectionsRepository(app, TokenCipher.fromAppSecret('t'.repeat(40))).findPrintifyWebhookTarget(
        'a-webhook-key',
      ),
    ).toMatchObject({ userId: a, secret: 'secret' });
    expect(await new OrderProfitsRepository(app).usersToRefigure(null)).toEqual([a, b].sort());
  });

  it('a pooled connection reused after a scoped transaction sees no tenant row', async () => {
    const one = await createDataSource(
      { DATABASE_URL: database.url, DATABASE_POOL_SIZE: 1 },
      'tenant-scope-reuse',
    ).initialize();
    try {
      const [{ n: inside, pid }] = await withTenant(one, a, (manager) =>
        manager.query(`SELECT count(*)::int AS n, pg_backend_pid() AS pid FROM order_record`),
      );
      expect(inside).toBe(1);
      expect(await one.query(`SELECT count(*)::int AS n, pg_backend_pid() AS pid FROM order_record`)).toEqual([
        { n: 0, pid },
      ]);
    } finally {
      await one.destroy();
    }
  });

  it('still lets an account go: deleting the user, scoped to them, cascades through every policy', async () => {
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
      printify: {
        shopId: 'g-pfy',
        orderId: 'g-ord',
        currency: 'USD',
        lines: [{ quantity: 1, costMinor: 500, shippingMinor: 300 }],
      },
    });
    await new SessionsRepository(app).insert({
      idHash: 'g-session',
      userId: gone,
      lastSeenAt: new Date(),
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    expect(await stored({ table: 'etsy_receipt', owner: 'user_id', rls: true, forced: true }, gone)).toBe(1);
    await new UsersRepository(app).delete(gone);
    expect(await eachTable(async (table) => ((await stored(table, gone)) === 0 ? [] : ['rows left']))).toEqual([]);
  });
});
