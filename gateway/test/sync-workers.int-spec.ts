import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { loadConfig } from '@pod/config';
import { bullConnection, bullPrefix } from '@pod/queue';
import { freePort, queryDatabase } from '@pod/testing';
import { ensureBuilt, pollUntil, startWorker, type WorkerProcess } from '../../services/test/support/fleet';
import { SandboxProviders, type SandboxTenant } from './support/sandbox-providers';
import {
  GatewayTestBed,
  ORIGIN,
  SAME_ORIGIN,
  register,
  sessionCookie,
  uniqueEmail,
  type TestGateway,
} from './support/test-gateway';

/**
 * The whole sync path: the gateway enqueues, the built etsy-sync and printify-sync workers (OS
 * processes) walk the sandbox, and the status the web app polls tells how it went. Connecting
 * both providers starts the first syncs on their own; a re-sync adds nothing; reconnecting the
 * same shop never duplicates an order; a revoked Etsy grant asks the seller to reconnect; an
 * exhausted daily quota parks the run until the quota resets.
 */
const REDIRECT_URI = `${ORIGIN}/api/connections/etsy/callback`;
const bed = new GatewayTestBed();
const sandbox = new SandboxProviders();
let seller: SandboxTenant;
let gw: TestGateway;
let cookie: string;
const workers: WorkerProcess[] = [];

const post = (url: string, payload?: unknown) =>
  gw.app.inject({ method: 'POST', url, headers: { ...SAME_ORIGIN, cookie }, payload: payload as object });
const del = (url: string) => gw.app.inject({ method: 'DELETE', url, headers: { ...SAME_ORIGIN, cookie } });
const syncStatus = async () =>
  (await gw.app.inject({ method: 'GET', url: '/api/sync/status', headers: { cookie } })).json();
const sql = <T>(text: string, params: unknown[] = []) => queryDatabase<T>(bed.database.url, text, params);

type RunView = {
  id: string;
  status: string;
  ordersAdded: number;
  ordersChanged: number;
  errorCode: string | null;
  resumeAt: string | null;
};

/** Waits until the provider's latest run is no longer active, and returns it. */
async function settled(provider: 'etsy' | 'printify', timeoutMs = 90_000): Promise<RunView> {
  return pollUntil(
    `${provider} run to settle`,
    async () => {
      const run = (await syncStatus())[provider] as RunView | null;
      return run && !['queued', 'running', 'waiting_for_quota'].includes(run.status) ? run : undefined;
    },
    timeoutMs,
    250,
  );
}

async function connectEtsy(): Promise<void> {
  const start = await post('/api/connections/etsy/oauth');
  const { code, state } = await sandbox.consent(start.json().authUrl);
  const callback = await gw.app.inject({
    method: 'GET',
    url: `/api/connections/etsy/callback?${new URLSearchParams({ code, state })}`,
    headers: { cookie },
  });
  expect(callback.headers.location).toBe('/connections?etsy=connected');
}

async function connectPrintify(): Promise<void> {
  const response = await post('/api/connections/printify', {
    token: seller.printify.token,
    shopId: String(seller.printify.shops[0].id),
  });
  expect(response.statusCode).toBe(200);
}

const storedCounts = async () =>
  (
    await sql<{ receipts: number; orders: number }>(
      `SELECT (SELECT count(*)::int FROM etsy_receipt) AS receipts, (SELECT count(*)::int FROM printify_order) AS orders`,
    )
  )[0];

const ETSY_WEBHOOK_SECRET = `whsec_${Buffer.from('etsy-portal-secret-for-worker-tests').toString('base64')}`;

beforeAll(async () => {
  ensureBuilt();
  await sandbox.start(REDIRECT_URI, { webhookTimeScale: 0.001 });
  seller = await sandbox.admin<SandboxTenant>('POST', '/tenants', { months: 3, ordersPerMonth: 40, printifyShops: 1 });
  sandbox.consentTenant = seller.tenantId;
  await bed.setUp();
  // A real port, so the sandbox can deliver webhooks to it (WEBHOOK_PUBLIC_URL names it).
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  gw = await bed.start({ ...sandbox.env(REDIRECT_URI), WEBHOOK_PUBLIC_URL: publicUrl, ETSY_WEBHOOK_SECRET });
  await gw.app.listen({ port, host: '127.0.0.1' });
  await sandbox.admin('PUT', '/etsy-webhook', { url: `${publicUrl}/api/webhooks/etsy`, secret: ETSY_WEBHOOK_SECRET });
  const env = { DATABASE_URL: bed.database.url, REDIS_PREFIX: bed.redisPrefix, ...sandbox.env(REDIRECT_URI) };
  for (const name of ['etsy-sync', 'printify-sync'] as const) workers.push(await startWorker(name, env));
  cookie = sessionCookie(await register(gw.app, uniqueEmail('workers')));
}, 90_000);

afterAll(async () => {
  if (process.env.DEBUG_WORKERS)
    for (const worker of workers)
      console.log(
        worker
          .logs()
          .split('\n')
          .filter((l) => !l.includes('job.completed'))
          .slice(-40)
          .join('\n'),
      );
  await Promise.all(workers.map((worker) => worker.stop()));
  await bed.tearDown();
  await sandbox.stop();
});

jest.setTimeout(60_000);

describe('sync workers end to end', () => {
  it('connecting both providers syncs every order on its own', async () => {
    await connectEtsy();
    await connectPrintify();
    const etsy = await settled('etsy');
    const printify = await settled('printify');
    expect(etsy).toMatchObject({ status: 'succeeded', errorCode: null });
    expect(printify).toMatchObject({ status: 'succeeded', errorCode: null });
    const counts = await storedCounts();
    expect(counts.receipts).toBe(etsy.ordersAdded);
    expect(counts.orders).toBe(printify.ordersAdded);
    expect(counts.receipts).toBeGreaterThan(80);
    expect(counts.orders).toBeGreaterThan(60);
    const [connections] = await sql<{ synced: number }>(
      `SELECT count(*)::int AS synced FROM provider_connection WHERE last_sync_at IS NOT NULL`,
    );
    expect(connections.synced).toBe(2);
  });

  it('a re-sync adds nothing, and reconnecting the same shop never duplicates an order', async () => {
    const before = await storedCounts();
    expect((await post('/api/sync/etsy')).statusCode).toBe(202);
    expect(await settled('etsy')).toMatchObject({ status: 'succeeded', ordersAdded: 0, ordersChanged: 0 });
    expect((await del('/api/connections/printify')).statusCode).toBe(200);
    await connectPrintify();
    expect((await post('/api/sync/printify', {})).statusCode).toBe(202);
    expect(await settled('printify')).toMatchObject({ status: 'succeeded', ordersAdded: 0 });
    expect(await storedCounts()).toEqual(before);
  });

  it('webhooks bring new orders and their Printify orders in within seconds, without a sync run', async () => {
    const runsBefore = await sql<{ n: number }>(`SELECT count(*)::int AS n FROM sync_run`);
    const [printifyBefore] = await sql<{ n: number }>(`SELECT count(*)::int AS n FROM printify_order`);
    type Delivery = { seq: number; provider: string; event: string; outcome: string };
    const deliveries = async (afterSeq?: number) =>
      (
        await sandbox.admin<{ deliveries: Delivery[] }>(
          'GET',
          `/webhook-deliveries?tenantId=${seller.tenantId}${afterSeq === undefined ? '' : `&afterSeq=${afterSeq}`}`,
        )
      ).deliveries;
    const lastSeq = Math.max(0, ...(await deliveries()).map((delivery) => delivery.seq));
    // Several orders: the sandbox draws each one as a real shop would, and a digital-only or
    // natural-cancelled order never reaches Printify (no order:created), while a Printify order
    // made by hand or unlinked carries no receipt id. Each Printify order the sandbox announced
    // must be stored, whatever it links to; four orders announce at least one all but always.
    const { inserted } = await sandbox.admin<{ inserted: number[] }>('POST', `/tenants/${seller.tenantId}/mutations`, {
      insert: 4,
      printify: true,
    });
    const receiptIds = inserted.map(String);
    let last: unknown = null;
    const stored = await pollUntil(
      'the webhook-refreshed receipts and the Printify orders announced for them',
      async () => {
        const announced = (await deliveries(lastSeq)).filter(
          (delivery) => delivery.provider === 'printify' && delivery.event === 'order:created',
        );
        const [row] = await sql<{ receipts: number; printify: number }>(
          `SELECT (SELECT count(*)::int FROM etsy_receipt WHERE receipt_id = ANY($1::text[])) AS receipts,
                (SELECT count(*)::int FROM printify_order) AS printify`,
          [receiptIds],
        );
        last = { ...row, announced: announced.map((delivery) => delivery.outcome) };
        const allIn = row.receipts === receiptIds.length && row.printify === printifyBefore.n + announced.length;
        return allIn && announced.length > 0 ? { receipts: row.receipts, printifyAdded: announced.length } : undefined;
      },
      20_000,
      200,
    ).catch((error: Error) => {
      throw new Error(`${error.message}; last seen ${JSON.stringify(last)}`);
    });
    expect(stored.receipts).toBe(4);
    expect(stored.printifyAdded).toBeGreaterThan(0);
    expect(await sql(`SELECT count(*)::int AS n FROM sync_run`)).toEqual(runsBefore);
  });

  it('an exhausted daily quota parks the run until the quota resets, then it finishes', async () => {
    await sandbox.admin('POST', '/faults', {
      target: 'etsy',
      kind: 'quota-exhausted',
      retryAfterSeconds: 120,
      match: { tenantId: seller.tenantId, pathPrefix: '/v3/application/shops' },
    });
    const asked = Date.now();
    expect((await post('/api/sync/etsy')).statusCode).toBe(202);
    const waiting = await pollUntil(
      'the run to wait for the quota',
      async () => {
        const run = (await syncStatus()).etsy as RunView;
        return run.status === 'waiting_for_quota' ? run : undefined;
      },
      20_000,
      100,
    );
    expect(Date.parse(waiting.resumeAt as string)).toBeGreaterThanOrEqual(asked + 115_000);
    // Parked, not polling: no further Etsy request while the quota is spent.
    const calls = async () =>
      (
        await sandbox.admin<{ requests: unknown[] }>(
          'GET',
          `/requests?tenantId=${seller.tenantId}&since=${asked}&target=etsy`,
        )
      ).requests.length;
    const made = await calls();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await calls()).toBe(made);
    // The quota resets (at Etsy, and the block every replica shares in Redis expires): the parked
    // job's time comes, promoted here instead of waiting two minutes.
    await sandbox.admin('PATCH', '/settings', { resetRateLimits: true });
    const config = loadConfig({ REDIS_PREFIX: bed.redisPrefix });
    const redis = new Redis(config.REDIS_URL);
    const queue = new Queue('etsy-sync', {
      connection: bullConnection(config, 'producer'),
      prefix: bullPrefix(config),
    });
    try {
      const blocks = await redis.keys(`${bed.redisPrefix}:ratelimit:*`);
      expect(blocks.length).toBeGreaterThan(0);
      await redis.del(...blocks);
      const job = await queue.getJob(waiting.id);
      expect(await job?.getState()).toBe('delayed');
      await job?.promote();
    } finally {
      await Promise.all([queue.close(), redis.quit()]);
    }
    expect(await settled('etsy')).toMatchObject({ status: 'succeeded' });
  });

  it('a revoked Etsy grant fails the run once and asks the seller to reconnect', async () => {
    await sandbox.admin('POST', '/faults', {
      target: 'etsy',
      kind: 'expire-access-token',
      match: { tenantId: seller.tenantId },
    });
    await sandbox.admin('POST', '/faults', {
      target: 'etsy',
      kind: 'revoke-refresh-token',
      match: { tenantId: seller.tenantId },
    });
    expect((await post('/api/sync/etsy')).statusCode).toBe(202);
    expect(await settled('etsy')).toMatchObject({ status: 'failed', errorCode: 'needs_reconnecting' });
    const [etsy] = await sql<{ status: string }>(`SELECT status FROM provider_connection WHERE provider = 'etsy'`);
    expect(etsy.status).toBe('reauth_required');
    // The next trigger is refused until the seller reconnects (no run, no provider call).
    expect((await post('/api/sync/etsy')).statusCode).toBe(409);
  });
});
