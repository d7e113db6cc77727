import { Queue } from 'bullmq';
import { loadConfig } from '@pod/config';
import { bullConnection, bullPrefix } from '@pod/queue';
import { queryDatabase } from '@pod/testing';
import { OrdersSyncedListener } from '../src/orders/orders-synced.listener';
import {
  GatewayTestBed,
  SAME_ORIGIN,
  register,
  sessionCookie,
  uniqueEmail,
  type TestGateway,
} from './support/test-gateway';

/**
 * POST /api/orders/match and its status: the gateway only queues (no matcher runs here, so runs
 * stay queued). One queued run and one job per user however many triggers race over two
 * replicas, the sync's `orders.synced` news joins the same run, and nobody sees another's run.
 */
const bed = new GatewayTestBed();
let gw: TestGateway;
let replica: TestGateway;
let matcherQueue: Queue;

beforeAll(async () => {
  await bed.setUp();
  gw = await bed.start();
  replica = await bed.start();
  const config = loadConfig({ REDIS_PREFIX: bed.redisPrefix });
  matcherQueue = new Queue('matcher', { connection: bullConnection(config, 'producer'), prefix: bullPrefix(config) });
}, 60_000);
afterAll(async () => {
  await matcherQueue?.close();
  await bed.tearDown();
});

type App = TestGateway['app'];
const post = (url: string, cookie: string, app: App = gw.app) =>
  app.inject({ method: 'POST', url, headers: { ...SAME_ORIGIN, cookie } });
const status = async (cookie: string) =>
  (await gw.app.inject({ method: 'GET', url: '/api/orders/match/status', headers: { cookie } })).json();

async function newSeller(label: string): Promise<{ cookie: string; userId: string }> {
  const email = uniqueEmail(label);
  const cookie = sessionCookie(await register(gw.app, email));
  const [{ id }] = await queryDatabase<{ id: string }>(bed.database.url, 'SELECT id FROM app_user WHERE email = $1', [
    email,
  ]);
  return { cookie, userId: id };
}

describe('POST /api/orders/match', () => {
  it('refuses without a session (401) and shows no run before the first', async () => {
    expect((await gw.app.inject({ method: 'POST', url: '/api/orders/match', headers: SAME_ORIGIN })).statusCode).toBe(
      401,
    );
    const { cookie } = await newSeller('nomatch');
    expect(await status(cookie)).toEqual({ run: null, active: false });
  });

  it('20 simultaneous triggers over two gateways make one queued run and one job; all answer 202 with its id', async () => {
    const { cookie, userId } = await newSeller('race');
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => post('/api/orders/match', cookie, i % 2 ? replica.app : gw.app)),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(Array(20).fill(202));
    const ids = new Set(responses.map((response) => response.json().run.id));
    expect(ids.size).toBe(1);
    const [runId] = ids;
    expect(responses.filter((response) => response.json().alreadyQueued === false)).toHaveLength(1);
    expect(await matcherQueue.getJob(runId)).toMatchObject({ name: 'match-user', data: { runId } });
    expect(await status(cookie)).toMatchObject({ active: true, run: { id: runId, status: 'queued', trigger: 'user' } });
    const runs = await queryDatabase(bed.database.url, 'SELECT id FROM match_run WHERE user_id = $1', [userId]);
    expect(runs).toHaveLength(1);
  });

  it('a queued run whose job was lost (Redis lost it) gets its job back at the next trigger, instead of staying queued forever', async () => {
    const { cookie } = await newSeller('lostjob');
    const first = (await post('/api/orders/match', cookie)).json();
    await (await matcherQueue.getJob(first.run.id))?.remove();
    expect(await matcherQueue.getJob(first.run.id)).toBeUndefined();
    const again = await post('/api/orders/match', cookie);
    expect(again.statusCode).toBe(202);
    expect(again.json()).toMatchObject({ alreadyQueued: true, run: { id: first.run.id } });
    expect(await matcherQueue.getJob(first.run.id)).toMatchObject({
      name: 'match-user',
      data: { runId: first.run.id },
    });
  });

  it("an orders.synced event joins the user's queued run, or queues one; a malformed one is ignored", async () => {
    const { cookie, userId } = await newSeller('synced');
    const listener = gw.app.get(OrdersSyncedListener);
    const event = {
      userId,
      provider: 'etsy',
      shopId: '1',
      syncRunId: null,
      ordersAdded: 1,
      ordersChanged: 0,
      syncedAt: new Date().toISOString(),
    };
    await listener.onOrdersSynced(event);
    const first = await status(cookie);
    expect(first).toMatchObject({ active: true, run: { status: 'queued', trigger: 'sync' } });
    await replica.app.get(OrdersSyncedListener).onOrdersSynced(event);
    expect((await post('/api/orders/match', cookie)).json()).toMatchObject({
      alreadyQueued: true,
      run: { id: first.run.id },
    });
    await listener.onOrdersSynced({ userId: "1' OR 1=1" });
    await listener.onOrdersSynced(null);
    expect(await queryDatabase(bed.database.url, 'SELECT id FROM match_run WHERE user_id = $1', [userId])).toHaveLength(
      1,
    );
  });

  it('is throttled per user like sync: past 30 requests in 10 minutes a 429 with a code, Retry-After and a message; another user is not', async () => {
    const [a, b] = [await newSeller('throttle-a'), await newSeller('throttle-b')];
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => post('/api/orders/match', a.cookie, i % 2 ? replica.app : gw.app)),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(30).fill(202));
    const refused = await post('/api/orders/match', a.cookie, replica.app);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({
      code: 'too_many_attempts',
      message: expect.stringMatching(/^Too many Match Orders requests\. Try again in \d+ seconds\.$/),
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(500);
    expect((await post('/api/orders/match', b.cookie)).statusCode).toBe(202);
    expect(
      await queryDatabase(bed.database.url, 'SELECT id FROM match_run WHERE user_id = $1', [a.userId]),
    ).toHaveLength(1);
  });

  it('shows each user only their own run', async () => {
    const [a, b] = [await newSeller('own-a'), await newSeller('own-b')];
    const run = (await post('/api/orders/match', a.cookie)).json().run;
    expect((await status(b.cookie)).run).toBeNull();
    expect((await post('/api/orders/match', b.cookie)).json().run.id).not.toBe(run.id);
  });
});
