import { Queue, QueueEvents } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import {
  createTestDatabase,
  deleteRedisPrefix,
  queryDatabase,
  uniqueRedisPrefix,
  type TestDatabase,
} from '@pod/testing';
import { prepareDatabase } from '@pod/db';
import { bullPrefix, type FxRefreshResult } from '@pod/queue';
import { createSandboxApp } from '../sandbox/src/app';
import { ensureBuilt, pollUntil, startWorker, waitForHttp, type WorkerProcess } from './support/fleet';

/**
 * The built fx-rate worker against the sandbox's ECB files: at start it loads the whole
 * history into the empty table by itself; a second refresh changes nothing; business days
 * missing at the end are filled from the 90-day file.
 */
jest.setTimeout(180_000);

const connection = { host: '127.0.0.1', port: 6379, maxRetriesPerRequest: null };
let database: TestDatabase;
let sandbox: FastifyInstance;
let sandboxUrl: string;
let worker: WorkerProcess;
let queue: Queue;
let matcherQueue: Queue;
let events: QueueEvents;
const redisPrefix = uniqueRedisPrefix('fx');
const sql = <T>(text: string, params: unknown[] = []) => queryDatabase<T>(database.url, text, params);

beforeAll(async () => {
  ensureBuilt();
  database = await createTestDatabase('fx');
  await prepareDatabase({ DATABASE_URL: database.url });
  sandbox = createSandboxApp({ port: 0, seed: 'fx-worker', defaultTenant: false });
  sandboxUrl = await sandbox.listen({ host: '127.0.0.1', port: 0 });
  queue = new Queue('fx-rate', { connection, prefix: bullPrefix({ REDIS_PREFIX: redisPrefix }) });
  matcherQueue = new Queue('matcher', { connection, prefix: bullPrefix({ REDIS_PREFIX: redisPrefix }) });
  events = new QueueEvents('fx-rate', { connection, prefix: bullPrefix({ REDIS_PREFIX: redisPrefix }) });
  await events.waitUntilReady();
  worker = await startWorker('fx-rate', {
    DATABASE_URL: database.url,
    REDIS_PREFIX: redisPrefix,
    SANDBOX_URL: sandboxUrl,
    SHUTDOWN_TIMEOUT_MS: '5000',
  });
  await waitForHttp(worker.healthUrl, { process: worker, timeoutMs: 60_000 });
}, 120_000);

afterAll(async () => {
  if (process.env.FX_TEST_LOGS) console.log(worker?.logs());
  await worker?.stop('SIGTERM', 10_000);
  await Promise.all([queue?.close(), matcherQueue?.close(), events?.close()]);
  await sandbox?.close();
  await database?.drop();
  await deleteRedisPrefix(redisPrefix);
});

async function refresh(): Promise<FxRefreshResult> {
  const job = await queue.add('refresh-rates', { reason: 'operator' });
  return (await job.waitUntilFinished(events, 60_000)) as FxRefreshResult;
}

/** The refigure-profits jobs the worker queued for the matcher (no matcher runs here, so they wait). */
async function refigureJobs(): Promise<Array<{ previousLatestRateDate: string | null }>> {
  const jobs = await matcherQueue.getJobs(['waiting', 'delayed', 'prioritized'], 0, 100);
  return jobs
    .filter((job) => job.name === 'refigure-profits')
    .map((job) => job.data as { previousLatestRateDate: string | null });
}

const snapshot = () =>
  sql<{ rows: string; latest: string; fetched: string }>(
    `SELECT count(*)::text AS rows, max(rate_date)::text AS latest, max(fetched_at)::text AS fetched FROM fx_rate`,
  );

describe('the fx-rate worker', () => {
  it('loads the whole ECB history into the empty table at start, each currency at its own rate', async () => {
    const startup = await pollUntil(
      'the start-up refresh',
      async () => {
        const done = await queue.getJobs(['completed'], 0, 10);
        return done.find((job) => job.name === 'refresh-rates' && job.data.reason === 'startup');
      },
      90_000,
      500,
    );
    expect(startup.returnvalue).toMatchObject({ file: 'historyZip', changed: 0, unchanged: 0 });
    const [{ rows, latest }] = await snapshot();
    expect(Number(rows)).toBe((startup.returnvalue as FxRefreshResult).inserted);
    expect(Number(rows)).toBeGreaterThan(150_000);
    const daily = await (await fetch(`${sandboxUrl}/stats/eurofxref/eurofxref-daily.xml`)).text();
    expect(latest).toBe(/time='(\d{4}-\d\d-\d\d)'/.exec(daily)?.[1]);
    const sample = await sql<{ date: string; currency: string; per_eur: string }>(
      `SELECT rate_date::text AS date, currency, per_eur::text FROM fx_rate WHERE rate_date IN ('2025-12-31', '2026-01-05') AND currency IN ('BGN', 'GBP', 'JPY') ORDER BY 1, 2`,
    );
    expect(sample.map((r) => `${r.date} ${r.currency}`)).toEqual([
      '2025-12-31 BGN',
      '2025-12-31 GBP',
      '2025-12-31 JPY',
      '2026-01-05 GBP',
      '2026-01-05 JPY',
    ]);
    for (const row of sample.filter((r) => r.currency === 'GBP')) expect(Number(row.per_eur)).toBeLessThan(1.2);
    expect(sample.find((r) => r.currency === 'BGN')?.per_eur).toBe('1.9558');
    expect(await sql(`SELECT 1 FROM fx_rate WHERE rate_date = '2025-05-01'`)).toEqual([]);
    // The first rates ever stored: the matcher re-figures every order waiting for a rate.
    expect(await refigureJobs()).toEqual([{ previousLatestRateDate: null }]);
  });

  it('changes nothing when it runs again', async () => {
    const before = await snapshot();
    const result = await refresh();
    expect(result).toMatchObject({ inserted: 0, changed: 0 });
    expect(result.unchanged).toBeGreaterThan(0);
    expect(await snapshot()).toEqual(before);
    expect(await refigureJobs()).toHaveLength(1);
  });

  it('fills business days missing at the end from the 90-day file', async () => {
    const [{ rows }] = await snapshot();
    const cut = await sql<{ date: string }>(
      `SELECT DISTINCT rate_date::text AS date FROM fx_rate ORDER BY 1 DESC LIMIT 4`,
    );
    const removed = await sql<{ n: string }>(
      `WITH gone AS (DELETE FROM fx_rate WHERE rate_date >= $1 RETURNING 1) SELECT count(*)::text AS n FROM gone`,
      [cut[2].date],
    );
    const result = await refresh();
    expect(result).toMatchObject({ file: 'last90Days', inserted: Number(removed[0].n), changed: 0 });
    expect((await snapshot())[0].rows).toBe(rows);
    const queued = await refigureJobs();
    expect(queued).toHaveLength(2);
    // Orders dated after the day that was latest before this refresh get re-figured.
    expect(queued).toContainEqual({ previousLatestRateDate: cut[3].date });
  });
});
