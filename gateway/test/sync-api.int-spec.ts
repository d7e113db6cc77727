import { Queue } from 'bullmq';
import { queryDatabase } from '@pod/testing';
import { loadConfig } from '@pod/config';
import { bullConnection, bullPrefix } from '@pod/queue';
import { SyncMaintenanceService } from '../src/sync/sync-maintenance.service';
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
 * /api/sync: the gateway only enqueues (no worker runs here, so runs stay queued). One active
 * run per user and provider however many triggers race across replicas (security plan item 6),
 * 404 for a shop that is not the user's, 409 when not connected, the first syncs start on their
 * own once both providers are connected, and the scheduled fan-out and reconciler.
 */
const REDIRECT_URI = `${ORIGIN}/api/connections/etsy/callback`;
const bed = new GatewayTestBed();
const sandbox = new SandboxProviders();
let seller: SandboxTenant;
let stranger: SandboxTenant;
let gw: TestGateway;
let replica: TestGateway;
let printifyQueue: Queue;
let etsyQueue: Queue;

beforeAll(async () => {
  await sandbox.start(REDIRECT_URI);
  seller = await sandbox.newTenant(3);
  sandbox.consentTenant = seller.tenantId;
  stranger = await sandbox.newTenant(1);
  await bed.setUp();
  gw = await bed.start(sandbox.env(REDIRECT_URI));
  replica = await bed.start(sandbox.env(REDIRECT_URI));
  const config = loadConfig({ REDIS_PREFIX: bed.redisPrefix });
  printifyQueue = new Queue('printify-sync', {
    connection: bullConnection(config, 'producer'),
    prefix: bullPrefix(config),
  });
  etsyQueue = new Queue('etsy-sync', { connection: bullConnection(config, 'producer'), prefix: bullPrefix(config) });
}, 60_000);
afterAll(async () => {
  await Promise.all([printifyQueue?.close(), etsyQueue?.close()]);
  await bed.tearDown();
  await sandbox.stop();
});

type App = TestGateway['app'];
const post = (url: string, cookie: string, payload?: unknown, app: App = gw.app) =>
  app.inject({ method: 'POST', url, headers: { ...SAME_ORIGIN, cookie }, payload: payload as object });
const status = async (cookie: string) =>
  (await gw.app.inject({ method: 'GET', url: '/api/sync/status', headers: { cookie } })).json();

async function newSeller(label: string): Promise<string> {
  return sessionCookie(await register(gw.app, uniqueEmail(label)));
}

async function connectPrintify(cookie: string, tenant = seller, shopIndex = 0): Promise<void> {
  const response = await post('/api/connections/printify', cookie, {
    token: tenant.printify.token,
    shopId: String(tenant.printify.shops[shopIndex].id),
  });
  expect(response.statusCode).toBe(200);
}

async function connectEtsy(cookie: string): Promise<void> {
  const start = await post('/api/connections/etsy/oauth', cookie);
  const { code, state } = await sandbox.consent(start.json().authUrl);
  const callback = await gw.app.inject({
    method: 'GET',
    url: `/api/connections/etsy/callback?${new URLSearchParams({ code, state })}`,
    headers: { cookie },
  });
  expect(callback.headers.location).toBe('/connections?etsy=connected');
}

const sql = <T>(text: string, params: unknown[] = []) => queryDatabase<T>(bed.database.url, text, params);

describe('POST /api/sync/*', () => {
  it('asks to connect first (409 with a code), and refuses without a session (401)', async () => {
    const cookie = await newSeller('unconnected');
    const etsy = await post('/api/sync/etsy', cookie);
    expect(etsy.statusCode).toBe(409);
    expect(etsy.json()).toMatchObject({
      code: 'etsy_not_connected',
      message: expect.stringContaining('Connect it on the Connections page'),
    });
    expect((await post('/api/sync/printify', cookie, {})).json()).toMatchObject({
      statusCode: 409,
      code: 'printify_not_connected',
    });
    expect((await gw.app.inject({ method: 'POST', url: '/api/sync/etsy', headers: SAME_ORIGIN })).statusCode).toBe(401);
    expect((await status(cookie)).active).toBe(false);
  });

  it('20 simultaneous triggers over two gateways make one run and one job; all answer 202 with its id', async () => {
    const cookie = await newSeller('race');
    await connectPrintify(cookie);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => post('/api/sync/printify', cookie, {}, i % 2 ? replica.app : gw.app)),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array(20).fill(202));
    const ids = new Set(responses.map((r) => r.json().run.id));
    expect(ids.size).toBe(1);
    expect(responses.filter((r) => r.json().alreadyRunning === false)).toHaveLength(1);
    const [runId] = [...ids];
    const runs = await sql<{ id: string; status: string; trigger: string }>(
      `SELECT id, status, trigger FROM sync_run WHERE provider = 'printify' AND id = $1`,
      [runId],
    );
    expect(runs).toEqual([{ id: runId, status: 'queued', trigger: 'user' }]);
    const job = await printifyQueue.getJob(runId);
    expect(job).toMatchObject({ name: 'sync', data: { runId } });
    const body = await status(cookie);
    expect(body).toMatchObject({
      active: true,
      etsy: null,
      printify: { id: runId, status: 'queued', provider: 'printify', ordersDone: 0, percent: null },
    });
  });

  it('404 for a shop of another account, 400 for a malformed id; another shop of the account becomes the synced one', async () => {
    const cookie = await newSeller('shops');
    await connectPrintify(cookie);
    const foreign = await post('/api/sync/printify', cookie, { shopId: String(stranger.printify.shops[0].id) });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ code: 'not_found', field: 'shopId' });
    const malformed = await post('/api/sync/printify', cookie, { shopId: '12; DROP TABLE sync_run' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ code: 'validation_failed', field: 'shopId' });
    expect(
      await sql(
        `SELECT 1 FROM sync_run r JOIN app_user u ON u.id = r.user_id WHERE r.provider = 'printify' AND u.email LIKE 'shops.%'`,
      ),
    ).toHaveLength(0);
    const second = seller.printify.shops[1];
    const chosen = await post('/api/sync/printify', cookie, { shopId: second.id });
    expect(chosen.statusCode).toBe(202);
    expect(chosen.json().run).toMatchObject({ shopId: String(second.id), status: 'queued' });
    const connection = (
      await gw.app.inject({ method: 'GET', url: '/api/connections/status', headers: { cookie } })
    ).json();
    expect(connection.printify).toMatchObject({ shopId: String(second.id), shopTitle: second.title });
  });

  it('409 reconnect_required when the provider refused the stored access', async () => {
    const cookie = await newSeller('expired');
    await connectPrintify(cookie);
    await sql(
      `UPDATE provider_connection SET status = 'expired' WHERE provider = 'printify' AND user_id = (SELECT id FROM app_user ORDER BY created_at DESC LIMIT 1)`,
    );
    const response = await post('/api/sync/printify', cookie, {});
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('reconnect_required');
  });

  it('the first syncs start on their own once both providers are connected', async () => {
    const cookie = await newSeller('first');
    await connectPrintify(cookie);
    expect((await status(cookie)).active).toBe(false);
    await connectEtsy(cookie);
    const body = await status(cookie);
    expect(body.active).toBe(true);
    expect(body.etsy).toMatchObject({ status: 'queued', trigger: 'connect', shopId: String(seller.etsy.shopId) });
    expect(body.printify).toMatchObject({ status: 'queued', trigger: 'connect' });
    expect(await etsyQueue.getJob(body.etsy.id)).toBeTruthy();
  });
});

describe('scheduled syncs', () => {
  it('the fan-out starts a run per connected shop and skips those already active; the reconciler re-enqueues a lost job', async () => {
    const maintenance = gw.app.get(SyncMaintenanceService);
    const [{ count }] = await sql<{ count: number }>(
      `SELECT count(*)::int AS count FROM provider_connection WHERE status = 'connected'`,
    );
    const first = await maintenance.fanOut('nightly');
    expect(first.started + first.alreadyActive).toBe(count);
    const nightly = await sql<{ id: string }>(`SELECT id FROM sync_run WHERE trigger = 'nightly' AND mode = 'nightly'`);
    expect(nightly).toHaveLength(first.started);
    const again = await maintenance.fanOut('incremental');
    expect(again).toEqual({ started: 0, alreadyActive: count });

    const lost =
      nightly[0] ?? (await sql<{ id: string }>(`SELECT id FROM sync_run WHERE status = 'queued' LIMIT 1`))[0];
    const [run] = await sql<{ provider: string }>(`SELECT provider FROM sync_run WHERE id = $1`, [lost.id]);
    const queue = run.provider === 'etsy' ? etsyQueue : printifyQueue;
    await (await queue.getJob(lost.id))?.remove();
    await sql(`UPDATE sync_run SET updated_at = now() - interval '10 minutes' WHERE id = $1`, [lost.id]);
    expect(await maintenance.reconcile()).toMatchObject({ requeued: 1 });
    expect(await queue.getJob(lost.id)).toMatchObject({ name: 'sync', data: { runId: lost.id } });
  });
});
