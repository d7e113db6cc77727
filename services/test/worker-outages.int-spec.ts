import { execFileSync } from 'node:child_process';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { Client } from 'pg';
import { EVENT_NAMES, eventChannel } from '@pod/contracts';
import {
  createTestDatabase,
  freePort,
  REPO_ROOT,
  spawnService,
  TEST_APP_SECRET,
  TEST_OPERATOR_TOKEN,
  uniqueRedisPrefix,
  type ServiceProcess,
  type TestDatabase,
} from '@pod/testing';
import {
  dedicatedRedis,
  ensureBuilt,
  pollUntil,
  readHealth,
  startWorker,
  stopAndTime,
  type DedicatedRedis,
  type WorkerProcess,
} from './support/fleet';

/**
 * A worker and the gateway against their own throwaway redis-server: started while Redis is
 * down, the worker reports 503 and both recover when Redis arrives, without exiting (the
 * gateway then hears events it subscribed to before Redis was there); the worker rides out
 * PostgreSQL dropping its connections; the gateway answers 503 fast while Redis is gone; and
 * SIGTERM with Redis gone still ends the worker within the shutdown bound.
 *
 * Each test starts the processes it needs (its own redis-server and key prefix) and stops
 * them afterwards, so any one of them can run alone (`-t`). Only the migrated database is
 * shared: no test depends on what another wrote.
 */
jest.setTimeout(120_000);

const SHUTDOWN_TIMEOUT_MS = 3_000;

interface Stack {
  redis: DedicatedRedis;
  worker: WorkerProcess;
  prefix: string;
  /** Set when the test asked for a gateway. */
  gateway?: ServiceProcess;
  gatewayUrl: string;
}

describe('a worker losing its dependencies', () => {
  let database: TestDatabase;
  const running: Stack[] = [];

  beforeAll(async () => {
    ensureBuilt();
    database = await createTestDatabase('outage');
    // Workers never migrate: the one-shot migrate step does, before they are needed.
    execFileSync(process.execPath, ['dist/gateway/src/cli.js', 'migrate'], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', DATABASE_URL: database.url, APP_SECRET: TEST_APP_SECRET },
      stdio: 'pipe',
    });
  });

  afterEach(async () => {
    for (const stack of running.splice(0)) {
      await stack.gateway?.stop('SIGKILL');
      await stack.worker.stop('SIGKILL');
      await stack.redis.kill();
    }
  });

  afterAll(async () => {
    await database?.drop();
  });

  /** A matcher worker (and, if asked, a gateway) on a fresh redis-server that is already running, or not yet. */
  async function startStack(options: { redisRunning: boolean; withGateway: boolean }): Promise<Stack> {
    const redis = await dedicatedRedis();
    const prefix = uniqueRedisPrefix('outage');
    const stack: Stack = { redis, prefix, gatewayUrl: '', worker: undefined as unknown as WorkerProcess };
    running.push(stack);
    if (options.redisRunning) await redis.start();
    const env = { DATABASE_URL: database.url, REDIS_URL: redis.url, REDIS_PREFIX: prefix };
    stack.worker = await startWorker('matcher', { ...env, SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS) });
    if (options.withGateway) {
      const port = await freePort();
      stack.gatewayUrl = `http://127.0.0.1:${port}`;
      stack.gateway = spawnService('gateway', 'dist/gateway/src/main.js', {
        ...env,
        PORT: String(port),
        APP_SECRET: TEST_APP_SECRET,
        OPERATOR_TOKEN: TEST_OPERATOR_TOKEN,
      });
    }
    return stack;
  }

  /** How many clients listen on `channel` of the stack's redis-server (PUBSUB NUMSUB). */
  async function subscribers(redis: DedicatedRedis, channel: string): Promise<number> {
    const client = new Redis({
      port: redis.port,
      host: '127.0.0.1',
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    try {
      await client.connect();
      const reply = (await client.pubsub('NUMSUB', channel)) as [string, number];
      return Number(reply[1]);
    } catch {
      return 0;
    } finally {
      client.disconnect();
    }
  }

  const healthIs = (worker: WorkerProcess, status: number, what: string, timeoutMs?: number) =>
    pollUntil(
      what,
      async () => {
        const health = await readHealth(worker);
        return health.status === status ? health : undefined;
      },
      timeoutMs,
    );

  async function postPing(
    gatewayUrl: string,
  ): Promise<{ status: number; body: { id?: string; message?: string }; elapsedMs: number }> {
    const started = Date.now();
    const response = await fetch(`${gatewayUrl}/api/admin/queues/matcher/jobs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_OPERATOR_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'ping' }),
      signal: AbortSignal.timeout(10_000),
    });
    return {
      status: response.status,
      body: (await response.json()) as { id?: string; message?: string },
      elapsedMs: Date.now() - started,
    };
  }

  it('reports 503 while Redis is down at start, then recovers without exiting', async () => {
    const { redis, worker, gateway } = await startStack({ redisRunning: false, withGateway: true });
    const down = await healthIs(worker, 503, 'health answers 503 naming redis');
    expect(down.body.failing).toEqual(expect.arrayContaining(['redis', 'queue']));
    expect(down.body.checks.redis.status).toBe('down');
    expect(down.body.checks.queue.running).toBe(false);

    // Several seconds of outage: the worker must wait, not crash or exit.
    await new Promise((r) => setTimeout(r, 3_000));
    expect(worker.child.exitCode).toBeNull();

    await redis.start();
    const up = await healthIs(worker, 200, 'health answers 200 once Redis is up', 30_000);
    expect(up.body.checks).toMatchObject({
      postgres: { status: 'up' },
      redis: { status: 'up' },
      queue: { running: true },
    });
    expect(worker.child.exitCode).toBeNull();
    expect(gateway?.child.exitCode).toBeNull();
  });

  it('lets the gateway, started before Redis, enqueue and hear job.completed once Redis is up', async () => {
    const { redis, worker, gatewayUrl, prefix } = await startStack({ redisRunning: false, withGateway: true });
    // Both processes are up and waiting for Redis before it arrives.
    await healthIs(worker, 503, 'the worker is up without Redis');
    const refused = await pollUntil(
      'the gateway answers without Redis',
      async () => {
        const response = await postPing(gatewayUrl);
        return response.status === 503 ? response : undefined;
      },
      30_000,
      500,
    );
    expect(refused.body.message).toBe('The job queue is unavailable; try again shortly.');

    await redis.start();
    // Events travel by Redis pub/sub, which drops a message published before anyone listens:
    // "hear once Redis is up" means once the gateway's subscription has been replayed, which
    // its reconnect back-off may make later than the queue connection the ping needs.
    await pollUntil(
      'the gateway subscribes to job.completed again',
      async () => ((await subscribers(redis, eventChannel(prefix, EVENT_NAMES.jobCompleted))) > 0 ? true : undefined),
      30_000,
      200,
    );
    const accepted = await pollUntil(
      'the gateway accepts a ping',
      async () => {
        const response = await postPing(gatewayUrl);
        return response.status === 202 ? response : undefined;
      },
      30_000,
      500,
    );
    const id = accepted.body.id as string;
    await pollUntil('the gateway heard job.completed', async () => {
      const response = await fetch(`${gatewayUrl}/api/admin/queues`, {
        headers: { authorization: `Bearer ${TEST_OPERATOR_TOKEN}` },
      });
      const queues = (await response.json()) as Array<{ name: string; lastCompletedEvent: { jobId: string } | null }>;
      return queues.find((q) => q.name === 'matcher')?.lastCompletedEvent?.jobId === id ? true : undefined;
    });
  });

  it('runs jobs after recovering', async () => {
    const { redis, worker, prefix } = await startStack({ redisRunning: false, withGateway: false });
    await healthIs(worker, 503, 'the worker is up without Redis');
    await redis.start();
    await healthIs(worker, 200, 'health answers 200 once Redis is up', 30_000);

    const queue = new Queue('matcher', {
      connection: { host: '127.0.0.1', port: redis.port },
      prefix: `${prefix}:bull`,
    });
    try {
      const job = await queue.add('ping', { requestedAt: new Date().toISOString(), requestedBy: 'test' });
      const done = await pollUntil('ping completed', async () => {
        const fresh = await queue.getJob(String(job.id));
        return fresh?.finishedOn ? fresh : undefined;
      });
      expect(await done.getState()).toBe('completed');
      expect(done.returnvalue.worker).toMatch(new RegExp(`:${worker.child.pid}$`));
    } finally {
      await queue.close();
    }
  });

  it('rides out PostgreSQL dropping its connections', async () => {
    const { worker } = await startStack({ redisRunning: true, withGateway: false });
    await healthIs(worker, 200, 'the worker is healthy', 30_000);
    const admin = new Client({ connectionString: database.url });
    await admin.connect();
    try {
      const terminated = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'podprofit-matcher'`,
        [database.name],
      );
      expect(terminated.rowCount).toBeGreaterThanOrEqual(1);
    } finally {
      await admin.end();
    }
    await new Promise((r) => setTimeout(r, 500));
    await healthIs(worker, 200, 'health answers 200 after PostgreSQL reconnects');
    expect(worker.child.exitCode).toBeNull();
  });

  it('answers enqueues with a quick 503 while Redis is gone, and 202 again once it is back', async () => {
    const { redis, worker, gateway, gatewayUrl } = await startStack({ redisRunning: true, withGateway: true });
    await healthIs(worker, 200, 'the worker is healthy', 30_000);
    await pollUntil(
      'the gateway accepts a ping',
      async () => ((await postPing(gatewayUrl)).status === 202 ? true : undefined),
      30_000,
      500,
    );

    await redis.kill();
    const refused = await postPing(gatewayUrl);
    expect(refused.status).toBe(503);
    expect(refused.body.message).toBe('The job queue is unavailable; try again shortly.');
    expect(refused.elapsedMs).toBeLessThan(3_000);
    // Readiness fails but liveness holds: an orchestrator stops routing to the processes, not restarts them.
    const probe = async (url: string) => {
      const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      return { status: response.status, body: (await response.json()) as { status: string } };
    };
    expect((await probe(`${gatewayUrl}/healthz`)).status).toBe(503);
    expect(await probe(`${gatewayUrl}/livez`)).toEqual({ status: 200, body: { status: 'ok', service: 'gateway' } });
    expect(await probe(worker.healthUrl.replace(/\/healthz$/, '/livez'))).toEqual({
      status: 200,
      body: { status: 'ok' },
    });
    await redis.start();
    await pollUntil(
      'the gateway accepts a ping again',
      async () => ((await postPing(gatewayUrl)).status === 202 ? true : undefined),
      30_000,
      500,
    );
    expect(gateway?.child.exitCode).toBeNull();
  });

  it('takes no job and exits 1 when its database role would skip row-level security (item 24)', async () => {
    const prefix = uniqueRedisPrefix('outage');
    // DATABASE_APP_ROLE=none keeps the login's own role: postgres, a superuser, which RLS does not bind.
    const worker = await startWorker('matcher', {
      DATABASE_URL: database.url,
      REDIS_URL: 'redis://127.0.0.1:6379',
      REDIS_PREFIX: prefix,
      DATABASE_APP_ROLE: 'none',
    });
    try {
      await pollUntil('the worker exits', async () => (worker.child.exitCode !== null ? true : undefined), 30_000);
      expect((await worker.exited).code).toBe(1);
      expect(worker.logs()).toContain('"event":"worker.unsafe_database_role"');
      expect(worker.logs()).toContain('is a superuser: row-level security would not apply');
      expect(worker.logs()).not.toContain('"event":"worker.running"');
    } finally {
      await worker.stop('SIGKILL');
    }
  });

  it('still exits within the bound on SIGTERM once Redis is gone', async () => {
    const { redis, worker } = await startStack({ redisRunning: true, withGateway: false });
    await healthIs(worker, 200, 'the worker is healthy', 30_000);
    await redis.kill();
    await healthIs(worker, 503, 'health notices Redis is gone');
    const { code, signal, elapsedMs } = await stopAndTime(worker, 'SIGTERM');
    expect(signal).toBeNull();
    // 0 if BullMQ managed to close, 1 if the hard-stop timer had to end it; never hanging.
    expect([0, 1]).toContain(code);
    expect(elapsedMs).toBeLessThan(SHUTDOWN_TIMEOUT_MS + 2_000);
    if (code === 1) expect(worker.logs()).toContain('"event":"worker.hard_stop"');
  });
});
