import { Queue } from 'bullmq';
import { loadConfig } from '@pod/config';
import { USER_DATA_TABLES } from '@pod/db';
import { bullConnection, bullPrefix } from '@pod/queue';
import { freePort, queryDatabase, spawnService, TEST_APP_SECRET, waitForHttp, type ServiceProcess } from '@pod/testing';
import { ensureBuilt, pollUntil, startWorker, type WorkerProcess } from '../../services/test/support/fleet';
import { SandboxProviders } from './support/sandbox-providers';
import { connectSeller, triggerSync, type Seller } from './support/sync-sellers';
import {
  GatewayTestBed,
  ORIGIN,
  SAME_ORIGIN,
  STRONG_PASSWORD,
  register,
  sessionCookie,
  uniqueEmail,
  type TestGateway,
} from './support/test-gateway';

/**
 * Settings → Data Management (issue 19, security plan item 36): Delete All Data removes exactly
 * the seller's synced and derived rows of every table (another seller's stay; the account and
 * connections stay), also while syncs of the seller are writing page after page on 3 replicas of
 * each sync worker, after which the seller syncs again cleanly; Delete Account wants the password
 * (wrong: 400, throttled like a sign-in), then, during a sync, removes every row of the user,
 * their queued jobs, their Printify webhook subscriptions and their sessions on every gateway,
 * including a built replica that had the session cached.
 */
jest.setTimeout(240_000);

const REDIRECT_URI = `${ORIGIN}/api/connections/etsy/callback`;
/** What Delete All Data keeps of a user: the account's own rows. */
const KEPT_TABLES = ['provider_connection', 'user_session', 'oauth_state'];
const TENANT = { months: 6, ordersPerMonth: 60, printifyShops: 1 };

const bed = new GatewayTestBed();
const sandbox = new SandboxProviders();
const workers: WorkerProcess[] = [];
let gw: TestGateway;
let replica: ServiceProcess;
let replicaBase: string;
let alice: Seller;
let bob: Seller;
let userTables: string[];
/** Alice's rows after her first sync, before any delete. */
let firstSync: Record<string, number>;
const queues: Queue[] = [];

const sql = <T>(text: string, params: unknown[] = []) => queryDatabase<T>(bed.database.url, text, params);
const call = (seller: { cookie: string }, method: 'DELETE' | 'POST' | 'GET', url: string, payload?: object) =>
  gw.app.inject({ method, url, headers: { ...SAME_ORIGIN, cookie: seller.cookie }, payload });

/** Rows of the user in every table with a user_id column (read from the schema, not from our list). */
async function rowsOf(userId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of userTables) {
    const [{ n }] = await sql<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE user_id = $1`, [userId]);
    counts[table] = n;
  }
  return counts;
}

/** Until no job of the user queues is waiting, delayed or running. */
async function queuesIdle(): Promise<void> {
  await pollUntil(
    'queues idle',
    async () => {
      for (const queue of queues) {
        const counts = await queue.getJobCounts('active', 'waiting', 'delayed', 'prioritized');
        if (Object.values(counts).some((n) => n > 0)) return undefined;
      }
      return true;
    },
    120_000,
    300,
  );
}

const runFinished = (runId: string) =>
  pollUntil(
    `run ${runId} finished`,
    async () => {
      const [run] = await sql<{ status: string }>(`SELECT status FROM sync_run WHERE id = $1`, [runId]);
      return run && ['succeeded', 'failed', 'interrupted'].includes(run.status) ? run.status : undefined;
    },
    120_000,
    250,
  );

/** Until the run has committed a page and has more to walk. */
const writing = (runId: string) =>
  pollUntil(
    'the sync to be writing',
    async () => {
      const [run] = await sql<{ status: string; pages_done: number }>(
        `SELECT status, pages_done FROM sync_run WHERE id = $1`,
        [runId],
      );
      return run?.status === 'running' && run.pages_done >= 1 ? true : undefined;
    },
    60_000,
    20,
  );

beforeAll(async () => {
  ensureBuilt();
  await sandbox.start(REDIRECT_URI);
  await bed.setUp();
  // On a real port, so that Printify webhook subscriptions are made on connect (the sandbox
  // delivers to it): Delete Account can be seen to remove them.
  const gwPort = await freePort();
  gw = await bed.start({ ...sandbox.env(REDIRECT_URI), WEBHOOK_PUBLIC_URL: `http://127.0.0.1:${gwPort}` });
  await gw.app.listen({ port: gwPort, host: '127.0.0.1' });
  const env = { DATABASE_URL: bed.database.url, REDIS_PREFIX: bed.redisPrefix, ...sandbox.env(REDIRECT_URI) };
  // Three replicas of each sync worker (security plan item 36), one matcher.
  for (const name of [
    'etsy-sync',
    'printify-sync',
    'etsy-sync',
    'printify-sync',
    'etsy-sync',
    'printify-sync',
    'matcher',
  ] as const)
    workers.push(await startWorker(name, env));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: bed.database.url,
    REDIS_PREFIX: bed.redisPrefix,
    APP_SECRET: TEST_APP_SECRET,
  });
  for (const name of ['etsy-sync', 'printify-sync', 'matcher'])
    queues.push(new Queue(name, { connection: bullConnection(config, 'producer'), prefix: bullPrefix(config) }));
  // A built replica on the same database and Redis that keeps sessions a minute: only the
  // revocation broadcast can make it forget one within the test.
  const port = await freePort();
  replicaBase = `http://127.0.0.1:${port}`;
  replica = spawnService('gateway-2', 'dist/gateway/src/main.js', {
    PORT: String(port),
    PUBLIC_ORIGIN: replicaBase,
    DATABASE_URL: bed.database.url,
    REDIS_PREFIX: bed.redisPrefix,
    APP_SECRET: TEST_APP_SECRET,
    SESSION_CACHE_TTL_MS: '60000',
    ...sandbox.env(REDIRECT_URI),
  });
  await waitForHttp(`${replicaBase}/healthz`, { process: replica, timeoutMs: 60_000 });
  userTables = (
    await sql<{ table_name: string }>(
      `SELECT table_name FROM information_schema.columns
       WHERE table_schema = current_schema() AND column_name = 'user_id' ORDER BY table_name`,
    )
  ).map((row) => row.table_name);
  alice = await connectSeller(gw, sandbox, bed.database.url, TENANT);
  bob = await connectSeller(gw, sandbox, bed.database.url, TENANT);
  // Both first syncs, their matching and figures.
  await pollUntil(
    'figures of both sellers',
    async () => {
      const rows = await sql<{ n: number }>(
        `SELECT count(DISTINCT user_id)::int AS n FROM order_profit WHERE user_id = ANY($1::uuid[])`,
        [[alice.userId, bob.userId]],
      );
      return rows[0].n === 2 ? true : undefined;
    },
    180_000,
    500,
  );
  await queuesIdle();
}, 300_000);

afterAll(async () => {
  await Promise.all(queues.map((queue) => queue.close()));
  await Promise.all(workers.map((worker) => worker.stop()));
  await replica?.stop();
  await bed.tearDown();
  await sandbox.stop();
});

it('Delete All Data covers every table with a user_id, apart from the account rows it keeps', () => {
  expect([...USER_DATA_TABLES, ...KEPT_TABLES].sort()).toEqual([...userTables].sort());
});

it("removes exactly the seller's orders, payments, ledger, records, figures, runs and cursors; the account, connections and another seller's rows stay", async () => {
  const before = await rowsOf(alice.userId);
  firstSync = before;
  const bobBefore = await rowsOf(bob.userId);
  for (const table of ['etsy_receipt', 'etsy_payment', 'printify_order', 'order_record', 'order_profit', 'sync_run'])
    expect(before[table]).toBeGreaterThan(0);

  const response = await call(alice, 'DELETE', '/api/orders/delete-all');
  expect(response.statusCode).toBe(200);
  expect(response.json()).toEqual({ ok: true });

  const after = await rowsOf(alice.userId);
  for (const table of USER_DATA_TABLES) expect({ table, rows: after[table] }).toEqual({ table, rows: 0 });
  for (const table of KEPT_TABLES) expect({ table, rows: after[table] }).toEqual({ table, rows: before[table] });
  expect(await rowsOf(bob.userId)).toEqual(bobBefore);
  const orders = await call(alice, 'GET', '/api/orders');
  expect(orders.statusCode).toBe(200);
  expect(orders.json().total).toBe(0);
  const status = await call(alice, 'GET', '/api/connections/status');
  expect(status.json().etsy.connected).toBe(true);
  expect(status.json().printify.connected).toBe(true);
});

it('races running syncs on 3 replicas: no worker writes after the delete, and the seller syncs again cleanly', async () => {
  await queuesIdle();
  const bobBefore = await rowsOf(bob.userId);
  // A full resync of both providers at once: two runs on two of the replicas.
  const runId = await triggerSync(gw, alice, 'etsy');
  await triggerSync(gw, alice, 'printify');
  // Mid-run: at least one page committed, more to come.
  await writing(runId);
  const response = await call(alice, 'DELETE', '/api/orders/delete-all');
  expect(response.statusCode).toBe(200);
  await queuesIdle();
  // The running job stopped at its next write: refused by the epoch or by its deleted run.
  expect(workers.map((worker) => worker.logs()).join('\n')).toMatch(/sync\.data_deleted|sync\.lost_ownership/);
  const after = await rowsOf(alice.userId);
  for (const table of USER_DATA_TABLES) expect({ table, rows: after[table] }).toEqual({ table, rows: 0 });
  expect(await rowsOf(bob.userId)).toEqual(bobBefore);

  // Synced again from the start: every order once, matched and figured.
  const [etsyRun, printifyRun] = [await triggerSync(gw, alice, 'etsy'), await triggerSync(gw, alice, 'printify')];
  expect(await runFinished(etsyRun)).toBe('succeeded');
  expect(await runFinished(printifyRun)).toBe('succeeded');
  await queuesIdle();
  const resynced = await rowsOf(alice.userId);
  for (const table of [
    'etsy_receipt',
    'etsy_receipt_line',
    'etsy_payment',
    'printify_order',
    'order_record',
    'order_profit',
  ])
    expect({ table, rows: resynced[table] }).toEqual({ table, rows: firstSync[table] });
});

describe('Delete Account', () => {
  it('refuses a wrong or missing password with a clear 400, and throttles guesses like sign-in', async () => {
    const email = uniqueEmail('guesser');
    const guesser = { cookie: sessionCookie(await register(gw.app, email)) };
    const missing = await call(guesser, 'POST', '/api/user/delete', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('Please enter your password');
    const wrong = await call(guesser, 'POST', '/api/user/delete', { password: 'not-the-password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'wrong_current_password', message: 'Password is incorrect' });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1)
      statuses.push((await call(guesser, 'POST', '/api/user/delete', { password: `guess-${i}` })).statusCode);
    expect(statuses).toContain(429);
    // Even the right password waits out the window: the account is still there.
    expect((await call(guesser, 'POST', '/api/user/delete', { password: STRONG_PASSWORD })).statusCode).toBe(429);
    expect(await sql(`SELECT 1 FROM app_user WHERE email = $1`, [email])).toHaveLength(1);
  });

  it("during a sync, removes every row of the user, their queued jobs, webhook subscriptions and sessions on every gateway; another user's rows stay", async () => {
    await queuesIdle();
    const bobBefore = await rowsOf(bob.userId);
    // The replica has read (and now keeps) Alice's session.
    const onReplica = () =>
      fetch(`${replicaBase}/api/connections/status`, { headers: { cookie: alice.cookie } }).then((r) => r.status);
    expect(await onReplica()).toBe(200);
    // A queued job of hers, as a webhook or a rate refresh would leave one.
    const matcher = queues[2];
    const queued = await matcher.add(
      'compute-profits',
      { userId: alice.userId, reason: 'operator' },
      { delay: 60_000, jobId: `later-${alice.userId}` },
    );

    const printifyWebhooks = async () =>
      (await sandbox.admin<{ webhooks: unknown[] }>('GET', `/tenants/${alice.tenant.tenantId}/printify-webhooks`))
        .webhooks.length;
    expect(await printifyWebhooks()).toBeGreaterThan(0);

    // During a sync walking every page again (her cursors reset, as before a first sync).
    await sql(`DELETE FROM sync_cursor WHERE user_id = $1`, [alice.userId]);
    await writing(await triggerSync(gw, alice, 'etsy'));

    const response = await call(alice, 'POST', '/api/user/delete', { password: STRONG_PASSWORD });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true });
    expect(String(response.headers['set-cookie'])).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/);

    expect(await matcher.getJob(queued.id!)).toBeUndefined();
    expect(await printifyWebhooks()).toBe(0);
    expect(Object.values(await rowsOf(alice.userId)).every((n) => n === 0)).toBe(true);
    await queuesIdle();
    expect(Object.values(await rowsOf(alice.userId)).every((n) => n === 0)).toBe(true);
    expect(await sql(`SELECT 1 FROM app_user WHERE id = $1`, [alice.userId])).toHaveLength(0);
    expect((await call(alice, 'GET', '/api/connections/status')).statusCode).toBe(401);
    await pollUntil('the replica to forget the session', async () => ((await onReplica()) === 401 ? true : undefined));
    expect(await rowsOf(bob.userId)).toEqual(bobBefore);
  });
});
