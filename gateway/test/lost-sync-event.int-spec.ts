import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { loadConfig } from '@pod/config';
import { EVENT_NAMES, eventChannel } from '@pod/contracts';
import { bullConnection, bullPrefix } from '@pod/queue';
import { queryDatabase, TEST_APP_SECRET, waitForHttp } from '@pod/testing';
import { ensureBuilt, pollUntil, startWorker, type WorkerProcess } from '../../services/test/support/fleet';
import { SandboxProviders } from './support/sandbox-providers';
import { connectSeller, triggerSync, type Seller } from './support/sync-sellers';
import { GatewayTestBed, ORIGIN, type TestGateway } from './support/test-gateway';

/**
 * Security plan item 37, "events are hints": with the gateway (the only listener of
 * `orders.synced`) and the matcher both down, a sync's event reaches no one, yet nothing is
 * lost: the built etsy-sync worker queued the user's match run and its job itself (ADR 0037),
 * and a matcher started afterwards runs it.
 */
const REDIRECT_URI = `${ORIGIN}/api/connections/etsy/callback`;

const bed = new GatewayTestBed();
const sandbox = new SandboxProviders();
const workers: WorkerProcess[] = [];
let seller: Seller;

const sql = <T>(text: string, params: unknown[] = []) => queryDatabase<T>(bed.database.url, text, params);

async function start(name: 'etsy-sync' | 'matcher'): Promise<WorkerProcess> {
  const worker = await startWorker(name, {
    DATABASE_URL: bed.database.url,
    REDIS_PREFIX: bed.redisPrefix,
    ...sandbox.env(REDIRECT_URI),
  });
  workers.push(worker);
  await waitForHttp(worker.healthUrl, { process: worker, timeoutMs: 60_000 });
  return worker;
}

/** Clients subscribed to `orders.synced` under this file's prefix (PUBSUB NUMSUB). */
async function ordersSyncedListeners(): Promise<number> {
  const client = new Redis('redis://127.0.0.1:6379', { lazyConnect: true, maxRetriesPerRequest: 0 });
  try {
    await client.connect();
    const [, count] = (await client.pubsub('NUMSUB', eventChannel(bed.redisPrefix, EVENT_NAMES.ordersSynced))) as [
      string,
      number,
    ];
    return Number(count);
  } finally {
    client.disconnect();
  }
}

beforeAll(async () => {
  ensureBuilt();
  await sandbox.start(REDIRECT_URI);
  await bed.setUp();
  const gw: TestGateway = await bed.start(sandbox.env(REDIRECT_URI));
  seller = await connectSeller(
    gw,
    sandbox,
    bed.database.url,
    { seed: 'lost-event', months: 1, ordersPerMonth: 30 },
    { etsyOnly: true },
  );
  // "Sync now" queues the run (a sync_run row and its job in Redis) ...
  await triggerSync(gw, seller, 'etsy');
  // ... then the gateway goes away before any worker takes the job: no one hears orders.synced.
  await bed.stop(gw);
}, 120_000);

afterAll(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop('SIGKILL')));
  await bed.tearDown();
  await sandbox.stop();
});

jest.setTimeout(120_000);

describe('a lost orders.synced event', () => {
  it('loses nothing: the sync worker queued the match run itself, and a matcher started later runs it', async () => {
    expect(await ordersSyncedListeners()).toBe(0);
    expect(await sql(`SELECT id FROM match_run`)).toEqual([]);

    await start('etsy-sync');
    const [run] = await pollUntil(
      'the first Etsy sync succeeded',
      async () => {
        const rows = await sql<{ status: string; orders_added: number }>(
          `SELECT status, orders_added FROM sync_run WHERE user_id = $1 AND provider = 'etsy'`,
          [seller.userId],
        );
        return rows[0]?.status === 'succeeded' ? rows : undefined;
      },
      60_000,
      250,
    );
    expect(run.orders_added).toBeGreaterThan(0);

    // One queued run for the user (every announcement of the run joined it), its job in Redis.
    const queued = await sql<{ id: string; trigger: string; status: string }>(
      `SELECT id, trigger, status FROM match_run WHERE user_id = $1`,
      [seller.userId],
    );
    expect(queued).toEqual([{ id: expect.any(String), trigger: 'sync', status: 'queued' }]);
    const config = loadConfig({
      NODE_ENV: 'test',
      DATABASE_URL: bed.database.url,
      REDIS_PREFIX: bed.redisPrefix,
      APP_SECRET: TEST_APP_SECRET,
    });
    const matcherQueue = new Queue('matcher', {
      connection: bullConnection(config, 'producer'),
      prefix: bullPrefix(config),
    });
    try {
      const job = await matcherQueue.getJob(queued[0].id);
      expect(job?.name).toBe('match-user');
      expect(job?.data).toEqual({ runId: queued[0].id });
    } finally {
      await matcherQueue.close();
    }

    await start('matcher');
    const [done] = await pollUntil(
      'the match run succeeded',
      async () => {
        const rows = await sql<{ status: string; records_added: number }>(
          `SELECT status, records_added FROM match_run WHERE id = $1`,
          [queued[0].id],
        );
        return rows[0]?.status === 'succeeded' ? rows : undefined;
      },
      60_000,
      250,
    );
    // Every synced receipt got its order record (unmatched: this seller has no Printify account).
    expect(done.records_added).toBe(run.orders_added);
  });
});
