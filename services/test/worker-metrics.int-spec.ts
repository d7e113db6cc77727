import { Queue } from 'bullmq';
import { prepareDatabase } from '@pod/db';
import { bullPrefix, jobOptionsFor } from '@pod/queue';
import { createTestDatabase, uniqueRedisPrefix, type TestDatabase } from '@pod/testing';
import {
  deleteRedisPrefix,
  ensureBuilt,
  pollUntil,
  startWorker,
  waitForHttp,
  type WorkerProcess,
} from './support/fleet';

/**
 * A built worker (matcher) as its own process: its health server also serves the process's
 * Prometheus metrics at /metrics (on HEALTH_HOST, loopback here), with the job it ran and its
 * queue's depth, and the worker runs with WORKER_LOCK_DURATION_MS, WORKER_STALLED_INTERVAL_MS
 * and WORKER_MAX_STALLED_COUNT applied over the queue contract.
 */
jest.setTimeout(120_000);

describe('a worker’s metrics endpoint', () => {
  let database: TestDatabase;
  const redisPrefix = uniqueRedisPrefix('metrics');
  let worker: WorkerProcess;
  let queue: Queue;
  let metricsUrl: string;

  beforeAll(async () => {
    ensureBuilt();
    database = await createTestDatabase('metrics');
    await prepareDatabase({ DATABASE_URL: database.url });
    worker = await startWorker('matcher', {
      DATABASE_URL: database.url,
      REDIS_PREFIX: redisPrefix,
      WORKER_LOCK_DURATION_MS: '45000',
      WORKER_STALLED_INTERVAL_MS: '20000',
      WORKER_MAX_STALLED_COUNT: '2',
    });
    await waitForHttp(worker.healthUrl, { process: worker, timeoutMs: 60_000 });
    metricsUrl = worker.healthUrl.replace(/\/healthz$/, '/metrics');
    queue = new Queue('matcher', {
      connection: { host: '127.0.0.1', port: 6379 },
      prefix: bullPrefix({ REDIS_PREFIX: redisPrefix }),
    });
  });

  afterAll(async () => {
    await queue?.close();
    await worker?.stop('SIGTERM', 15_000);
    await database?.drop();
    await deleteRedisPrefix(redisPrefix);
  });

  async function scrape(): Promise<string> {
    const response = await fetch(metricsUrl, { signal: AbortSignal.timeout(5_000) });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return response.text();
  }

  it('serves the process metrics, labelled with the worker, on the health port', async () => {
    const body = await scrape();
    expect(body).toMatch(/^process_cpu_user_seconds_total\{service="matcher"\} /m);
    expect(body).toMatch(/^nodejs_heap_size_used_bytes\{service="matcher"\} /m);
    expect(body).toMatch(/^podprofit_queue_jobs\{queue="matcher",state="waiting",service="matcher"\} 0$/m);
  });

  it('times the jobs it runs and reports its queue’s depth at each scrape', async () => {
    const job = await queue.add(
      'ping',
      { requestedAt: new Date().toISOString(), requestedBy: 'operator' },
      jobOptionsFor('matcher', 'ping'),
    );
    await pollUntil('the ping completes', async () => ((await job.getState()) === 'completed' ? true : undefined));
    const body = await pollUntil('the completed ping is counted', async () => {
      const text = await scrape();
      return /^podprofit_queue_jobs\{queue="matcher",state="completed",service="matcher"\} 1$/m.test(text)
        ? text
        : undefined;
    });
    expect(body).toMatch(
      /^podprofit_job_duration_seconds_count\{[^}]*queue="matcher",job="ping",outcome="completed"[^}]*\} 1$/m,
    );
  });

  it('runs with the lock and stall settings of its environment', () => {
    const running = worker
      .logs()
      .split('\n')
      .filter((line) => line.includes('"event":"worker.running"'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(running).toHaveLength(1);
    expect(running[0]).toMatchObject({
      queue: 'matcher',
      lockDuration: 45_000,
      stalledInterval: 20_000,
      maxStalledCount: 2,
    });
  });
});
