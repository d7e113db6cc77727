import { createServer, connect, type Server, type Socket } from 'node:net';
import { Queue } from 'bullmq';
import { loadConfig } from '@pod/config';
import type { QueueName } from '@pod/contracts';
import { bullConnection, bullPrefix } from '@pod/queue';
import { freePort, startTestStack, TEST_APP_SECRET, type TestStack } from '@pod/testing';
import {
  deleteRedisPrefix,
  ensureBuilt,
  pollUntil,
  startWorker,
  waitForHttp,
  WORKERS,
  type WorkerProcess,
} from './support/fleet';

/**
 * Jobs whose data breaks their queue contract, put straight into Redis (as Bull Board's "add",
 * a producer bug or anyone with Redis access could): the built workers, running as their own
 * processes, fail each one as unrecoverable with a reason naming the field, at the first
 * attempt, and touch neither PostgreSQL nor a provider. Every worker reaches PostgreSQL and the
 * sandbox (Etsy, Printify, the ECB) through a byte-counting TCP relay, so "no I/O" is measured,
 * not assumed.
 */
jest.setTimeout(180_000);

/** A TCP relay to `target` that counts the bytes its clients send. */
async function countingRelay(target: {
  host: string;
  port: number;
}): Promise<{ port: number; sent: () => number; close: () => Promise<void> }> {
  let sent = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    }
    client.on('data', (chunk: Buffer) => (sent += chunk.length));
    client.pipe(upstream).pipe(client);
  });
  const port = await freePort();
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  return {
    port,
    sent: () => sent,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((done) => server.close(done));
    },
  };
}

const SQL_LOOKING = "00000000-0000-0000-0000-000000000000' OR '1'='1";
const USER = '5b0c5e8e-1c1f-4f0e-9d7a-0b6f1c2d3e4f';
/** [queue, job, data, the reason's tail]: one bad job (or more) per job of each worker's queue. */
const BAD_JOBS: Array<[QueueName, string, unknown, string]> = [
  ['printify-sync', 'sync', { userId: 'not-a-uuid' }, 'data has 1 unknown field(s)'],
  [
    'printify-sync',
    'refresh-order',
    { userId: USER, shopId: '815256', orderId: '../../shops' },
    'orderId is not an id',
  ],
  ['printify-sync', 'ping', { requestedAt: 'now', requestedBy: 'operator' }, 'requestedAt is not an ISO 8601 time'],
  ['etsy-sync', 'sync', { runId: SQL_LOOKING }, 'runId is not a uuid'],
  ['etsy-sync', 'refresh-receipt', { userId: USER, shopId: '12345678' }, 'receiptId is missing'],
  ['matcher', 'compute-profits', { userId: SQL_LOOKING, reason: 'operator' }, 'userId is not a uuid'],
  ['matcher', 'match-user', { runId: 42 }, 'runId is not a uuid'],
  [
    'matcher',
    'refigure-profits',
    { previousLatestRateDate: "2026-01-01'; DROP TABLE fx_rate; --" },
    'previousLatestRateDate is not a date or null',
  ],
  ['fx-rate', 'refresh-rates', { reason: 'history', url: 'http://169.254.169.254/' }, 'data has 1 unknown field(s)'],
  ['fx-rate', 'refresh-rates', null, 'data is not an object'],
];

describe('workers refuse jobs that break their queue contract', () => {
  let stack: TestStack;
  let queues: Map<QueueName, Queue>;
  const workers: WorkerProcess[] = [];
  const relays: Array<Awaited<ReturnType<typeof countingRelay>>> = [];
  let postgres: Awaited<ReturnType<typeof countingRelay>>;
  let sandbox: Awaited<ReturnType<typeof countingRelay>>;

  beforeAll(async () => {
    ensureBuilt();
    stack = await startTestStack({}, { sandbox: true });
    const database = new URL(stack.database.url);
    const sandboxUrl = new URL(stack.sandbox?.url ?? '');
    postgres = await countingRelay({ host: database.hostname, port: Number(database.port || 5432) });
    sandbox = await countingRelay({ host: sandboxUrl.hostname, port: Number(sandboxUrl.port) });
    relays.push(postgres, sandbox);
    database.host = `127.0.0.1:${postgres.port}`;
    const env = {
      DATABASE_URL: database.toString(),
      REDIS_PREFIX: stack.redisPrefix,
      SANDBOX_URL: `http://127.0.0.1:${sandbox.port}`,
      SANDBOX_ADMIN_TOKEN: stack.sandbox?.adminToken ?? '',
    };
    for (const name of WORKERS) workers.push(await startWorker(name, env));
    for (const worker of workers) await waitForHttp(worker.healthUrl, { process: worker, timeoutMs: 60_000 });
    const config = loadConfig({ REDIS_PREFIX: stack.redisPrefix, APP_SECRET: TEST_APP_SECRET });
    queues = new Map(
      (['etsy-sync', 'printify-sync', 'matcher', 'fx-rate', 'maintenance'] as const).map((name) => [
        name,
        new Queue(name, { connection: bullConnection(config, 'producer'), prefix: bullPrefix(config) }),
      ]),
    );
  });

  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.stop('SIGTERM', 15_000)));
    await Promise.all([...(queues?.values() ?? [])].map((queue) => queue.close()));
    await Promise.all(relays.map((relay) => relay.close()));
    if (stack) {
      await stack.stop();
      await deleteRedisPrefix(stack.redisPrefix);
    }
  });

  /**
   * Waits until no worker queue has a job to run now (the fx-rate worker's start-up refresh and
   * what it triggers); delayed jobs are the schedulers' next runs, hours away.
   */
  async function settled(): Promise<void> {
    await pollUntil(
      'the worker queues idle',
      async () => {
        const counts = await Promise.all(
          WORKERS.map((name) => queues.get(name)?.getJobCounts('waiting', 'active', 'prioritized')),
        );
        return counts.every((count) => Object.values(count ?? {}).every((n) => n === 0)) ? true : undefined;
      },
      90_000,
      500,
    );
  }

  it('fails each bad job at its first attempt as unrecoverable, with the field named, and without touching PostgreSQL or a provider', async () => {
    await settled();
    // Anything in flight (pool set-up, the last writes of the start-up refresh) has landed.
    await new Promise((done) => setTimeout(done, 1_500));
    const before = { postgres: postgres.sent(), sandbox: sandbox.sent() };

    const added = await Promise.all(
      BAD_JOBS.map(([queue, name, data]) =>
        (queues.get(queue) as Queue).add(name, data, { attempts: 5, backoff: { type: 'fixed', delay: 100 } }),
      ),
    );
    const outcomes = await Promise.all(
      added.map((job, i) =>
        pollUntil(`bad job ${BAD_JOBS[i][0]}/${BAD_JOBS[i][1]} failed`, async () => {
          const queue = queues.get(BAD_JOBS[i][0]) as Queue;
          if ((await queue.getJobState(String(job.id))) !== 'failed') return undefined;
          const current = await queue.getJob(String(job.id));
          return { state: 'failed', attemptsMade: current?.attemptsMade, reason: current?.failedReason };
        }),
      ),
    );
    outcomes.forEach((outcome, i) => {
      const [queue, name, , reason] = BAD_JOBS[i];
      expect({ queue, name, ...outcome }).toEqual({
        queue,
        name,
        state: 'failed',
        attemptsMade: 1,
        reason: `invalid job data for ${queue}/${name}: ${reason}`,
      });
    });
    // Past any retry the back-off would have allowed: still nothing sent.
    await new Promise((done) => setTimeout(done, 1_500));
    expect({ postgres: postgres.sent(), sandbox: sandbox.sent() }).toEqual(before);

    // Each refusal is logged without the untrusted value.
    const logs = workers.map((worker) => worker.logs()).join('\n');
    expect(logs).toContain('invalid job data for matcher/compute-profits: userId is not a uuid');
    expect(logs).not.toContain("'1'='1");
    expect(logs).not.toContain('DROP TABLE');
    expect(logs).not.toContain('169.254.169.254');
  });

  it('the gateway’s maintenance worker refuses them the same way', async () => {
    const maintenance = queues.get('maintenance') as Queue;
    const job = await maintenance.add('sync-fan-out', { mode: "nightly'; --" }, { attempts: 3 });
    const outcome = await pollUntil('the bad maintenance job failed', async () => {
      if ((await maintenance.getJobState(String(job.id))) !== 'failed') return undefined;
      const current = await maintenance.getJob(String(job.id));
      return { attemptsMade: current?.attemptsMade, reason: current?.failedReason };
    });
    expect(outcome).toEqual({
      attemptsMade: 1,
      reason: 'invalid job data for maintenance/sync-fan-out: mode is not one of incremental, nightly',
    });
  });
});
