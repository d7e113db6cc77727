import { Queue, QueueEvents, Worker, type Job } from 'bullmq';
import type { DataSource, EntityManager } from 'typeorm';
import { createDataSource, prepareDatabase } from '@pod/db';
import { AuthError, RateLimitedError, UpstreamError } from '@pod/integrations';
import type { SyncRunPayload } from '@pod/queue';
import { createTestDatabase, queryDatabase, uniqueRedisPrefix, type TestDatabase } from '@pod/testing';
import type { SyncStream } from './sync-stream';
import { SyncRunner, type SyncRunnerDeps } from './sync-runner';

/**
 * The driver against real PostgreSQL and BullMQ, with a stream over an in-memory source (the
 * provider streams have their own tests against the sandbox). Proves: every record exactly
 * once through faults, duplicates, shutdowns; quota waits and reconnects handled as the issue says.
 */
let database: TestDatabase;
let dataSource: DataSource;
/** Seeds and inspects as the login, which row-level security does not restrict (the runner itself uses the app-role pool). */
let asLogin: DataSource;
const prefix = uniqueRedisPrefix('sync-runner');
const connection = { host: '127.0.0.1', port: 6379, maxRetriesPerRequest: null };
let queue: Queue<SyncRunPayload>;
let events: QueueEvents;
let userId: string;

const SOURCE = Array.from({ length: 47 }, (_, index) => `record-${index}`);
const PAGE = 10;

type Position = { offset: number };

/** A stream over SOURCE; `failAt` throws once the given error when fetching that offset. */
function listStream(
  hooks: { failAt?: Map<number, () => Error>; onFetch?: (offset: number) => void | Promise<void> } = {},
): SyncStream<Position> {
  return {
    name: 'etsy:receipts',
    initial: () => ({ offset: 0 }),
    begin: (_ctx, stored) => stored,
    async fetchPage(_ctx, position) {
      await hooks.onFetch?.(position.offset);
      const failure = hooks.failAt?.get(position.offset);
      if (failure) {
        hooks.failAt!.delete(position.offset);
        throw failure();
      }
      const records = SOURCE.slice(position.offset, position.offset + PAGE);
      const next = { offset: position.offset + records.length };
      return {
        next,
        done: next.offset >= SOURCE.length,
        requests: 1,
        expectedPages: Math.ceil(SOURCE.length / PAGE),
        async write(tx: EntityManager) {
          let added = 0;
          for (const id of records) {
            const rows: unknown[] = await tx.query(
              `INSERT INTO runner_test_row (user_id, id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING id`,
              [userId, id],
            );
            added += rows.length;
          }
          return { ordersAdded: added, ordersChanged: 0, rowsWritten: added };
        },
      };
    },
  };
}

const published: unknown[] = [];
/** Users whose match run the runner queued itself (ADR 0037), in order. */
const queuedMatches: string[] = [];
const marked: string[] = [];

function runner(overrides: Partial<SyncRunnerDeps> = {}): SyncRunner {
  return new SyncRunner({
    dataSource,
    markConnection: async (_user, provider, status) => void marked.push(`${provider}:${status}`),
    publish: async (_name, payload) => void published.push(payload),
    queueMatch: async (user) => void queuedMatches.push(user),
    logger: { info: () => undefined, warn: () => undefined },
    shutdown: new AbortController().signal,
    ...overrides,
  });
}

function startWorker(sut: SyncRunner, stream: () => SyncStream<Position>): Worker<SyncRunPayload> {
  return new Worker<SyncRunPayload>(
    'sync-test',
    (job: Job<SyncRunPayload>, token?: string) => sut.run(job, token, async () => [stream() as SyncStream<unknown>]),
    {
      connection,
      prefix,
      concurrency: 2,
    },
  );
}

async function newRun(): Promise<string> {
  await asLogin.query(`DELETE FROM sync_run; DELETE FROM sync_cursor; DELETE FROM runner_test_row`);
  const [row] = await asLogin.query(
    `INSERT INTO sync_run (user_id, provider, shop_id, trigger) VALUES ($1, 'etsy', '42', 'user') RETURNING id`,
    [userId],
  );
  return row.id;
}

async function runRow(runId: string) {
  const [row] = await asLogin.query(
    `SELECT status, pages_done, orders_added, error_code, resume_at FROM sync_run WHERE id = $1`,
    [runId],
  );
  return row as {
    status: string;
    pages_done: number;
    orders_added: number;
    error_code: string | null;
    resume_at: Date | null;
  };
}

async function storedIds(): Promise<string[]> {
  return (await asLogin.query(`SELECT id FROM runner_test_row ORDER BY id`)).map((row: { id: string }) => row.id);
}

async function until(what: string, probe: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  database = await createTestDatabase('sync_runner');
  await prepareDatabase({ DATABASE_URL: database.url });
  dataSource = await createDataSource(
    { DATABASE_URL: database.url, DATABASE_POOL_SIZE: 6 },
    'sync-runner-test',
  ).initialize();
  asLogin = await createDataSource({ DATABASE_URL: database.url, DATABASE_POOL_SIZE: 2 }, 'sync-runner-login', {
    connectAs: 'login',
  }).initialize();
  // DDL as the login (the runtime role may not create tables); the migration's default privileges give the runtime role DML on it.
  await queryDatabase(
    database.url,
    `CREATE TABLE runner_test_row (user_id uuid NOT NULL, id text NOT NULL, PRIMARY KEY (user_id, id))`,
  );
  [{ id: userId }] = await asLogin.query(
    `INSERT INTO app_user (email, password_hash, first_name, last_name) VALUES ('runner@test.invalid', 'x', 'R', 'T') RETURNING id`,
  );
  queue = new Queue<SyncRunPayload>('sync-test', {
    connection,
    prefix,
    defaultJobOptions: { attempts: 3, backoff: { type: 'fixed', delay: 50 } },
  });
  events = new QueueEvents('sync-test', { connection, prefix });
  await events.waitUntilReady();
});

afterAll(async () => {
  await queue?.obliterate({ force: true }).catch(() => undefined);
  await Promise.all([queue?.close(), events?.close()]);
  await dataSource?.destroy();
  await asLogin?.destroy();
  await database?.drop();
});

describe('SyncRunner', () => {
  it('stores every record once, moves the cursor, counts pages and announces the orders', async () => {
    const runId = await newRun();
    const worker = startWorker(runner(), () => listStream());
    try {
      const job = await queue.add('sync', { runId }, { jobId: runId });
      await job.waitUntilFinished(events, 15_000);
      expect(await storedIds()).toEqual([...SOURCE].sort());
      expect(await runRow(runId)).toMatchObject({ status: 'succeeded', pages_done: 5, orders_added: 47 });
      const [cursor] = await asLogin.query(`SELECT position, version FROM sync_cursor`);
      expect(cursor).toMatchObject({ position: { stream: { offset: 47 }, completedByRun: runId }, version: 5 });
      expect(published).toContainEqual(
        expect.objectContaining({ syncRunId: runId, ordersAdded: 47, provider: 'etsy', shopId: '42' }),
      );
    } finally {
      await worker.close();
    }
  });

  it('announces each stream as it ends: the receipts before the ledger is walked, and a ledger that changed no order', async () => {
    const runId = await newRun();
    published.length = 0;
    queuedMatches.length = 0;
    let announcedBeforeLedger: unknown[] = [];
    let queuedBeforeLedger: string[] = [];
    // One page of fees and payments: rows written, no order added or changed (as etsy:ledger).
    const ledger: SyncStream<Position> = {
      name: 'etsy:ledger',
      initial: () => ({ offset: 0 }),
      begin: (_ctx, stored) => stored,
      async fetchPage() {
        announcedBeforeLedger = [...published];
        queuedBeforeLedger = [...queuedMatches];
        return {
          next: { offset: 1 },
          done: true,
          requests: 1,
          expectedPages: 1,
          write: async () => ({ ordersAdded: 0, ordersChanged: 0, rowsWritten: 3 }),
        };
      },
    };
    const job = {
      id: runId,
      data: { runId },
      attemptsMade: 0,
      opts: { attempts: 1 },
    } as unknown as Job<SyncRunPayload>;
    // The run's status each time the runner queues the match run: the last one is queued while the
    // run still reads as running, so the status's `settling` never sees a finished sync with no
    // match run after it.
    const runStatusWhenQueued: string[] = [];
    const queueMatch = async (user: string) => {
      runStatusWhenQueued.push((await runRow(runId)).status);
      queuedMatches.push(user);
    };
    const result = await runner({ queueMatch }).run(job, undefined, async () => [
      listStream() as SyncStream<unknown>,
      ledger as SyncStream<unknown>,
    ]);
    expect(result.status).toBe('succeeded');
    expect(runStatusWhenQueued).toEqual(['running', 'running']);
    expect(announcedBeforeLedger).toEqual([expect.objectContaining({ syncRunId: runId, ordersAdded: 47 })]);
    // The runner queues the user's match run itself at each announcement: the event is only a hint.
    expect(queuedBeforeLedger).toEqual([userId]);
    expect(queuedMatches).toEqual([userId, userId]);
    expect(published).toEqual([
      expect.objectContaining({ syncRunId: runId, ordersAdded: 47, ordersChanged: 0 }),
      expect.objectContaining({ syncRunId: runId, ordersAdded: 0, ordersChanged: 0 }),
    ]);

    // Run again: the receipts cursor is at the end (nothing written), the ledger's page rewrites its rows.
    const [{ id: again }] = await asLogin.query(
      `INSERT INTO sync_run (user_id, provider, shop_id, trigger) VALUES ($1, 'etsy', '42', 'user') RETURNING id`,
      [userId],
    );
    published.length = 0;
    const second = { ...job, id: again, data: { runId: again } } as unknown as Job<SyncRunPayload>;
    await runner().run(second, undefined, async () => [
      listStream() as SyncStream<unknown>,
      ledger as SyncStream<unknown>,
    ]);
    expect(announcedBeforeLedger).toEqual([]);
    expect(published).toEqual([expect.objectContaining({ syncRunId: again, ordersAdded: 0 })]);
  });

  it('finishes the run and still announces when the match run cannot be queued', async () => {
    const runId = await newRun();
    published.length = 0;
    const warnings: string[] = [];
    const job = {
      id: runId,
      data: { runId },
      attemptsMade: 0,
      opts: { attempts: 1 },
    } as unknown as Job<SyncRunPayload>;
    const result = await runner({
      queueMatch: async () => Promise.reject(new Error('Redis connection is reconnecting')),
      logger: { info: () => undefined, warn: (fields) => void warnings.push(String(fields.event)) },
    }).run(job, undefined, async () => [listStream() as SyncStream<unknown>]);
    expect(result.status).toBe('succeeded');
    expect(warnings).toEqual(['sync.match_queue_failed']);
    expect(published).toEqual([expect.objectContaining({ syncRunId: runId, ordersAdded: 47 })]);
  });

  it.each(['after-fetch', 'mid-write', 'before-cursor', 'after-commit'] as const)(
    'a failure at %s on the third page leaves page and cursor together; the retry converges',
    async (point) => {
      const runId = await newRun();
      let pagesSeen = 0;
      let thrown = false;
      const sut = runner({
        faultPoint: (at) => {
          if (at === 'after-fetch') pagesSeen += 1;
          if (at === point && pagesSeen === 3 && !thrown) {
            thrown = true;
            throw new Error(`fault at ${point}`);
          }
        },
      });
      const worker = startWorker(sut, () => listStream());
      try {
        const job = await queue.add('sync', { runId }, { jobId: runId });
        await job.waitUntilFinished(events, 15_000);
        expect(thrown).toBe(true);
        expect(await storedIds()).toEqual([...SOURCE].sort());
        const [{ count }] = await asLogin.query(`SELECT count(*)::int AS count FROM runner_test_row`);
        expect(count).toBe(47);
        expect((await runRow(runId)).status).toBe('succeeded');
      } finally {
        await worker.close();
      }
    },
  );

  it('two workers on the same run (a duplicated job) store every record once; the loser stops', async () => {
    const runId = await newRun();
    const slow = () => listStream({ onFetch: () => new Promise((resolve) => setTimeout(resolve, 20)) });
    const sut = runner();
    const job = {
      id: 'dup',
      data: { runId },
      attemptsMade: 0,
      opts: { attempts: 1 },
    } as unknown as Job<SyncRunPayload>;
    const results = await Promise.all([
      sut.run(job, undefined, async () => [slow() as SyncStream<unknown>]),
      sut.run(job, undefined, async () => [slow() as SyncStream<unknown>]),
    ]);
    expect(results.map((r) => r.status)).toContain('succeeded');
    expect(await storedIds()).toEqual([...SOURCE].sort());
  });

  it('the daily quota parks the run as waiting_for_quota without spending an attempt, then it finishes', async () => {
    const runId = await newRun();
    const failAt = new Map([[20, () => new RateLimitedError(700, 'day', 'etsy', 'etsy: daily quota spent')]]);
    const worker = startWorker(runner(), () => listStream({ failAt }));
    try {
      const job = await queue.add('sync', { runId }, { jobId: runId });
      await until('the quota wait', async () => (await runRow(runId)).status === 'waiting_for_quota');
      const waiting = await runRow(runId);
      expect(waiting.resume_at).not.toBeNull();
      expect(await queue.getJobState(runId)).toBe('delayed');
      await job.waitUntilFinished(events, 15_000);
      expect((await runRow(runId)).status).toBe('succeeded');
      expect((await queue.getJob(runId))?.attemptsMade).toBe(1);
      expect(await storedIds()).toEqual([...SOURCE].sort());
    } finally {
      await worker.close();
    }
  });

  it('a refused credential marks the connection and fails the run without retries', async () => {
    const runId = await newRun();
    marked.length = 0;
    const failAt = new Map([[10, () => new AuthError('etsy', 'etsy: 401')]]);
    const worker = startWorker(runner(), () => listStream({ failAt }));
    try {
      const job = await queue.add('sync', { runId }, { jobId: runId });
      await expect(job.waitUntilFinished(events, 15_000)).rejects.toThrow();
      expect(await runRow(runId)).toMatchObject({ status: 'failed', error_code: 'needs_reconnecting', pages_done: 1 });
      expect(marked).toEqual(['etsy:reauth_required']);
      expect((await queue.getJob(runId))?.attemptsMade).toBe(1);
    } finally {
      await worker.close();
    }
  });

  it('a provider outage is retried; past the last attempt the run fails with a user-safe message and the cursor stays', async () => {
    const runId = await newRun();
    const outage = () => new UpstreamError('etsy', 503, 'etsy: 503 from GET /receipts');
    const failAt = new Map<number, () => Error>([[30, outage]]);
    const always = {
      get: (offset: number) => (offset === 30 ? outage : undefined),
      delete: () => true,
      has: () => true,
    } as unknown as Map<number, () => Error>;
    const worker = startWorker(runner(), () => listStream({ failAt: always }));
    try {
      const job = await queue.add('sync', { runId }, { jobId: runId });
      await expect(job.waitUntilFinished(events, 15_000)).rejects.toThrow();
      const row = await runRow(runId);
      expect(row).toMatchObject({ status: 'failed', error_code: 'provider_unavailable', pages_done: 3 });
      expect((await queue.getJob(runId))?.attemptsMade).toBe(3);
      const [cursor] = await asLogin.query(`SELECT position FROM sync_cursor`);
      expect(cursor.position.stream).toEqual({ offset: 30 });
      expect(failAt.size).toBe(1);
    } finally {
      await worker.close();
    }
  });

  it('on shutdown the run stops after the committed page and another worker finishes it', async () => {
    const runId = await newRun();
    const stopping = new AbortController();
    const first = startWorker(runner({ shutdown: stopping.signal }), () =>
      listStream({ onFetch: (offset) => void (offset === 20 && stopping.abort()) }),
    );
    const job = await queue.add('sync', { runId }, { jobId: runId });
    await until(
      'the hand-back',
      async () =>
        (await runRow(runId)).pages_done === 3 && ['delayed', 'waiting'].includes(await queue.getJobState(runId)),
    );
    await first.close();
    expect((await runRow(runId)).pages_done).toBe(3);
    const second = startWorker(runner(), () => listStream());
    try {
      await job.waitUntilFinished(events, 15_000);
      expect(await runRow(runId)).toMatchObject({ status: 'succeeded', pages_done: 5 });
      expect(await storedIds()).toEqual([...SOURCE].sort());
    } finally {
      await second.close();
    }
  });
});
