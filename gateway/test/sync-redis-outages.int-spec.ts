import { Queue } from 'bullmq';
import { loadConfig } from '@pod/config';
import { bullConnection, bullPrefix } from '@pod/queue';
import { queryDatabase, waitForHttp } from '@pod/testing';
import {
  dedicatedRedis,
  ensureBuilt,
  pollUntil,
  readHealth,
  startWorker,
  stopAndTime,
  type DedicatedRedis,
  type WorkerProcess,
} from '../../services/test/support/fleet';
import {
  diffVersions,
  duplicateKeys,
  refetchedPages,
  SourceOracle,
  storedVersions,
  type LoggedRequest,
} from '../../services/test/support/sync-fleet';
import { SandboxProviders } from './support/sandbox-providers';
import { connectSeller, runsOf, triggerSync, type Seller } from './support/sync-sellers';
import { GatewayTestBed, ORIGIN, type TestGateway } from './support/test-gateway';

/**
 * Security plan items 11 and 8 with Redis itself failing: the gateway (in process) and a built
 * etsy-sync worker on their own redis-server, which keeps nothing on disk (as on test machines),
 * so a restart empties the queues:
 * - item 11: a run parked for Etsy's spent daily quota survives a Redis restart: PostgreSQL
 *   still says waiting_for_quota, the gateway (its connection ready again) puts its lost job
 *   back delayed until the resume time (no call spends quota meanwhile), and once the quota
 *   resets it completes;
 * - item 37: after a Redis restart the job schedulers come back without a gateway restart, and
 *   a queued run whose job vanished is put back within seconds, not at the minute sweep's two;
 * - item 8: SIGTERM to a worker while Redis is stopped: the hard-stop timer ends it within its
 *   bound, the page in progress committed or rolled back whole, and once Redis and a worker are
 *   back the run completes.
 * The scheduled sweep (every minute, runs untouched for 2 minutes) stays the fallback. Invariants: the rows equal the source, no natural key twice, no
 * page fetched twice (or once, for the page abandoned at SIGTERM).
 */
const REDIRECT_URI = `${ORIGIN}/api/connections/etsy/callback`;
const SHUTDOWN_TIMEOUT_MS = 3_000;
/** A loaded 2-core machine: how late a process may exit after its hard-stop timer fired. */
const EXIT_SLACK_MS = 2_000;
const ETSY_QPS = 30;

const bed = new GatewayTestBed();
const sandbox = new SandboxProviders();
let redis: DedicatedRedis;
/** Whether the dedicated redis-server runs (a second start on its port would fail and leave the first behind). */
let redisUp = false;
let gw: TestGateway;
const workers: WorkerProcess[] = [];
const dbUrl = () => bed.database.url;

function workerEnv(): Record<string, string> {
  return {
    DATABASE_URL: bed.database.url,
    REDIS_URL: redis.url,
    REDIS_PREFIX: bed.redisPrefix,
    ...sandbox.env(REDIRECT_URI),
    ETSY_REQUESTS_PER_SECOND: String(ETSY_QPS),
    SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
    WORKER_LOCK_DURATION_MS: '2000',
    WORKER_STALLED_INTERVAL_MS: '1000',
  };
}

async function startEtsyWorker(): Promise<WorkerProcess> {
  const worker = await startWorker('etsy-sync', workerEnv());
  workers.push(worker);
  await waitForHttp(worker.healthUrl, { process: worker, timeoutMs: 60_000 });
  return worker;
}

/** The etsy-sync queue on the dedicated Redis, for one look (closed again, so nothing reconnects while Redis is down). */
function withEtsyQueue<T>(look: (queue: Queue) => Promise<T>): Promise<T> {
  return withQueue('etsy-sync', look);
}

async function withQueue<T>(name: 'etsy-sync' | 'maintenance', look: (queue: Queue) => Promise<T>): Promise<T> {
  const config = loadConfig({ REDIS_PREFIX: bed.redisPrefix, REDIS_URL: redis.url });
  const queue = new Queue(name, { connection: bullConnection(config, 'producer'), prefix: bullPrefix(config) });
  try {
    return await look(queue);
  } finally {
    await queue.close();
  }
}

async function runRow(runId: string) {
  const [row] = await queryDatabase<{ status: string; pages_done: number; resume_at: Date | null; updated_at: Date }>(
    dbUrl(),
    `SELECT status, pages_done, resume_at, updated_at FROM sync_run WHERE id = $1`,
    [runId],
  );
  return row;
}

async function etsyRequests(seller: Seller, sinceMs = 0): Promise<LoggedRequest[]> {
  const { requests } = await sandbox.admin<{ requests: LoggedRequest[] }>(
    'GET',
    `/requests?tenantId=${seller.tenant.tenantId}&target=etsy&limit=100000`,
  );
  return requests.filter((request) => !request.path.includes('/oauth/') && request.timestampMs >= sinceMs);
}

/** The rows and counters a committed page moves together: receipts stored = receipts the runs counted, cursor moves = pages. */
async function expectWholePages(seller: Seller): Promise<{ pages: number; receipts: number }> {
  const [row] = await queryDatabase<{ receipts: number; counted: number; pages: number; moves: number }>(
    dbUrl(),
    `SELECT (SELECT count(*)::int FROM etsy_receipt WHERE user_id = $1) AS receipts,
            (SELECT coalesce(sum(orders_added), 0)::int FROM sync_run WHERE user_id = $1) AS counted,
            (SELECT coalesce(sum(pages_done), 0)::int FROM sync_run WHERE user_id = $1) AS pages,
            (SELECT coalesce(sum(version), 0)::int FROM sync_cursor WHERE user_id = $1) AS moves`,
    [seller.userId],
  );
  expect(row.receipts).toBe(row.counted);
  expect(row.moves).toBe(row.pages);
  return { pages: row.pages, receipts: row.receipts };
}

async function expectEqualsSource(seller: Seller): Promise<void> {
  const oracle = await new SourceOracle(
    sandbox.url,
    (m, p, b) => sandbox.admin(m, p, b),
    seller.tenant,
    REDIRECT_URI,
  ).connect();
  const receipts = await oracle.receipts();
  expect(receipts.size).toBe(seller.tenant.orders);
  expect(diffVersions(receipts, await storedVersions(dbUrl(), seller.userId, 'receipts'))).toEqual({
    missing: [],
    extra: [],
    changed: [],
  });
  const [{ oldest }] = await queryDatabase<{ oldest: Date }>(
    dbUrl(),
    `SELECT min(ordered_at) AS oldest FROM etsy_receipt WHERE user_id = $1`,
    [seller.userId],
  );
  const ledger = await oracle.ledger(Math.floor(oldest.getTime() / 1000) - 86_400, Math.floor(Date.now() / 1000));
  const storedLedger = await storedVersions(dbUrl(), seller.userId, 'ledger');
  expect(diffVersions(ledger, storedLedger)).toEqual({ missing: [], extra: [], changed: [] });
  expect(storedLedger.size).toBe(ledger.size);
  expect(await duplicateKeys(dbUrl(), seller.userId)).toEqual([]);
}

async function succeeded(seller: Seller, runId: string): Promise<void> {
  await pollUntil(
    `run ${runId} succeeds`,
    async () => {
      const run = (await runsOf(dbUrl(), seller, 'etsy')).find((row) => row.id === runId);
      if (run?.status === 'failed') throw new Error(`the run failed: ${run.error_code}`);
      return run?.status === 'succeeded' ? true : undefined;
    },
    90_000,
    200,
  );
}

beforeAll(async () => {
  ensureBuilt();
  redis = await dedicatedRedis();
  await redisStart();
  await sandbox.start(REDIRECT_URI);
  await sandbox.admin('PATCH', '/settings', { etsyQps: ETSY_QPS });
  await bed.setUp();
  gw = await bed.start({
    ...sandbox.env(REDIRECT_URI),
    REDIS_URL: redis.url,
    ETSY_REQUESTS_PER_SECOND: String(ETSY_QPS),
  });
}, 120_000);

afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop('SIGKILL')));
  await sandbox.clearFaults();
});

afterAll(async () => {
  try {
    if (redis && !redisUp) await redisStart();
    // After a test that failed with Redis away: BullMQ's close() waits on a connection still
    // backing off (security plan §0.3), so the gateway closes once it reaches Redis again.
    if (gw)
      await pollUntil(
        'the gateway reaches Redis again',
        async () => ((await gw.app.inject({ method: 'GET', url: '/healthz' })).statusCode === 200 ? true : undefined),
        30_000,
        250,
      ).catch(() => undefined);
    await bed.tearDown();
    await sandbox.stop();
  } finally {
    // Always, or the redis-server child keeps Jest from exiting.
    await redisKill();
  }
}, 90_000);

async function redisStart(): Promise<void> {
  await redis.start();
  redisUp = true;
}

async function redisKill(): Promise<void> {
  await redis?.kill();
  redisUp = false;
}

jest.setTimeout(180_000);

describe('sync runs when Redis itself fails', () => {
  it('item 11: a run waiting for the daily quota survives a Redis restart: its job comes back delayed to the resume time, no call spends quota meanwhile, and it completes once the quota resets', async () => {
    await startEtsyWorker();
    const seller = await connectSeller(
      gw,
      sandbox,
      dbUrl(),
      { seed: 'quota-restart', months: 2, ordersPerMonth: 150 },
      { etsyOnly: true },
    );
    // A few pages in, Etsy says the day's quota is spent (retry-after: an hour).
    await sandbox.fault({
      target: 'etsy',
      kind: 'quota-exhausted',
      retryAfterSeconds: 3_600,
      skip: 4,
      match: { tenantId: seller.tenant.tenantId, pathPrefix: '/v3/application/shops' },
    });
    const asked = Date.now();
    const runId = await triggerSync(gw, seller, 'etsy');
    const parked = await pollUntil(
      'the run waits for the quota',
      async () => {
        const run = await runRow(runId);
        return run.status === 'waiting_for_quota' ? run : undefined;
      },
      30_000,
      100,
    );
    expect(parked.resume_at?.getTime()).toBeGreaterThanOrEqual(asked + 3_590_000);
    expect(await withEtsyQueue(async (queue) => queue.getJobState(runId))).toBe('delayed');
    const before = await expectWholePages(seller);
    const callsBefore = (await etsyRequests(seller, asked)).length;

    await redisKill();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await redisStart();
    // Redis came back empty: the job is gone; PostgreSQL still holds the run, parked. The
    // gateway, seeing its connection ready again, checks every active run and puts it back.
    expect(await runRow(runId)).toMatchObject({ status: 'waiting_for_quota', resume_at: parked.resume_at });
    const job = await pollUntil(
      'the gateway puts the lost job back',
      () =>
        withEtsyQueue(async (queue) => {
          const found = await queue.getJob(runId);
          return found
            ? { state: await found.getState(), runsAt: found.timestamp + (found.opts.delay ?? 0) }
            : undefined;
        }),
      30_000,
      250,
    );
    expect(job.state).toBe('delayed');
    // Delayed to the resume time (give or take the clock of a loaded machine), not put back at once.
    expect(Math.abs(job.runsAt - (parked.resume_at as Date).getTime())).toBeLessThan(5_000);
    // The worker reconnected, and nothing calls Etsy before the resume time.
    await pollUntil(
      'the worker is healthy again',
      async () => ((await readHealth(workers[0])).status === 200 ? true : undefined),
      30_000,
      200,
    );
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect((await etsyRequests(seller, asked)).length).toBe(callsBefore);
    expect((await runRow(runId)).status).toBe('waiting_for_quota');

    // The quota resets; the job's time comes (promoted here instead of waiting an hour).
    await sandbox.admin('PATCH', '/settings', { resetRateLimits: true });
    await withEtsyQueue(async (queue) => (await queue.getJob(runId))?.promote());
    await succeeded(seller, runId);

    const calls = await etsyRequests(seller, asked);
    // One 429 in all (the one that parked the run), no page fetched twice, and the run counted each call it made once.
    expect(calls.filter((call) => call.status === 429)).toHaveLength(1);
    expect(refetchedPages(calls)).toEqual([]);
    const [{ made }] = await queryDatabase<{ made: number }>(
      dbUrl(),
      `SELECT requests_made AS made FROM sync_run WHERE id = $1`,
      [runId],
    );
    expect(made).toBe(calls.filter((call) => call.status === 200).length);
    const after = await expectWholePages(seller);
    expect(after.pages).toBeGreaterThan(before.pages);
    await expectEqualsSource(seller);
  });

  it('item 37: after a Redis restart, without a gateway restart, the job schedulers come back and a queued run whose job vanished is put back at once (not two minutes on), then completes', async () => {
    const maintenanceSchedulers = () =>
      withQueue('maintenance', async (queue) => (await queue.getJobSchedulers()).map((row) => row.key).sort());
    await pollUntil(
      'the schedulers registered at start',
      async () => ((await maintenanceSchedulers()).includes('sync-reconcile') ? true : undefined),
      30_000,
      250,
    );
    const before = await maintenanceSchedulers();
    expect(before).toEqual(expect.arrayContaining(['demo-cleanup', 'sync-reconcile']));
    // No worker yet: the run's job waits in Redis, the run is queued in PostgreSQL.
    const seller = await connectSeller(
      gw,
      sandbox,
      dbUrl(),
      { seed: 'redis-restart', months: 1, ordersPerMonth: 40 },
      { etsyOnly: true },
    );
    const runId = await triggerSync(gw, seller, 'etsy');
    expect(await withEtsyQueue((queue) => queue.getJobState(runId))).toBe('waiting');

    await redisKill();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await redisStart();
    const restartedAt = Date.now();
    let last: unknown;
    const back = await pollUntil(
      'the schedulers and the lost job are back',
      async () => {
        const schedulers = await maintenanceSchedulers();
        const state = await withEtsyQueue((queue) => queue.getJobState(runId));
        last = { schedulers, state };
        return schedulers.length === before.length && state === 'waiting' ? { schedulers, state } : undefined;
      },
      30_000,
      250,
    ).catch((error: Error) => {
      throw new Error(`${error.message}: ${JSON.stringify({ before, last })}`);
    });
    expect(back.schedulers).toEqual(before);
    const delayMs = Date.now() - restartedAt;
    console.log(`after the Redis restart: schedulers and the lost job back in ${delayMs} ms`);
    // The sweep would have taken at least two minutes (runs untouched that long).
    expect(delayMs).toBeLessThan(30_000);
    expect((await runRow(runId)).status).toBe('queued');

    await startEtsyWorker();
    await succeeded(seller, runId);
    await expectEqualsSource(seller);
  });

  it('item 8: SIGTERM to a sync worker while Redis is stopped: the hard-stop timer ends it within its bound, no page is half-written, and with Redis and a worker back the run completes', async () => {
    const worker = await startEtsyWorker();
    const seller = await connectSeller(
      gw,
      sandbox,
      dbUrl(),
      { seed: 'term-no-redis', months: 2, ordersPerMonth: 300 },
      { etsyOnly: true },
    );
    const runId = await triggerSync(gw, seller, 'etsy');
    await pollUntil('three pages', async () => ((await runRow(runId)).pages_done >= 3 ? true : undefined), 60_000, 25);

    await redisKill();
    const stopped = await stopAndTime(worker, 'SIGTERM');
    console.log(
      `item 8: SIGTERM with Redis gone: exit ${stopped.code} after ${stopped.elapsedMs} ms (bound ${SHUTDOWN_TIMEOUT_MS} ms)`,
    );
    expect(stopped.signal).toBeNull();
    // 0 if the worker managed to close, 1 when the hard-stop timer ended it; never hanging.
    expect([0, 1]).toContain(stopped.code);
    expect(stopped.elapsedMs).toBeLessThan(SHUTDOWN_TIMEOUT_MS + EXIT_SLACK_MS);
    if (stopped.code === 1) expect(worker.logs()).toContain('"event":"worker.hard_stop"');
    // Whatever page was in progress committed whole or not at all: rows, cursors and counters agree.
    const atStop = await expectWholePages(seller);
    expect(atStop.pages).toBeGreaterThanOrEqual(3);
    expect((await runRow(runId)).status).toBe('running');

    await redisStart();
    // Redis came back empty: the run's job went with it, and the gateway, its connection ready
    // again, puts it back (waiting: no worker has it yet).
    await pollUntil(
      'the gateway puts the lost job back',
      async () => ((await withEtsyQueue((queue) => queue.getJobState(runId))) === 'waiting' ? true : undefined),
      30_000,
      250,
    );
    await startEtsyWorker();
    await succeeded(seller, runId);
    const calls = await etsyRequests(seller);
    // At most the page being fetched when the worker stopped is fetched again.
    expect(refetchedPages(calls).length).toBeLessThanOrEqual(1);
    expect((await expectWholePages(seller)).pages).toBeGreaterThan(atStop.pages);
    await expectEqualsSource(seller);
  });
});
