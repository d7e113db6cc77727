import { Queue } from 'bullmq';
import { loadConfig } from '@pod/config';
import { bullConnection, bullPrefix } from '@pod/queue';
import { queryDatabase } from '@pod/testing';
import {
  GatewayTestBed,
  SAME_ORIGIN,
  register,
  sessionCookie,
  uniqueEmail,
  type TestGateway,
} from './support/test-gateway';

/**
 * GET and PATCH /api/profit-settings (ADR 0026): the seller's VAT registration (on the Etsy
 * connection) and Printify cost reading (on the Printify one). A change is stored for the
 * signed-in user only and queues compute-profits with force for them; bad bodies are clear 400s,
 * a setting of an unconnected provider a 409, a cross-site PATCH a 403.
 */
const bed = new GatewayTestBed();
let gw: TestGateway;
let matcherQueue: Queue;

beforeAll(async () => {
  await bed.setUp();
  gw = await bed.start();
  const config = loadConfig({ REDIS_PREFIX: bed.redisPrefix });
  matcherQueue = new Queue('matcher', { connection: bullConnection(config, 'producer'), prefix: bullPrefix(config) });
}, 60_000);
afterAll(async () => {
  await matcherQueue?.close();
  await bed.tearDown();
});

async function newSeller(label: string, providers: ('etsy' | 'printify')[]) {
  const email = uniqueEmail(label);
  const cookie = sessionCookie(await register(gw.app, email));
  const [{ id }] = await queryDatabase<{ id: string }>(bed.database.url, 'SELECT id FROM app_user WHERE email = $1', [
    email,
  ]);
  for (const provider of providers)
    await queryDatabase(
      bed.database.url,
      `INSERT INTO provider_connection (user_id, provider, shop_id, shop_country, access_token_enc, key_version)
       VALUES ($1, $2, $3, 'gb', 'x', 1)`,
      [id, provider, `${provider}-${label}`],
    );
  return { cookie, userId: id };
}

const get = (cookie: string) => gw.app.inject({ method: 'GET', url: '/api/profit-settings', headers: { cookie } });
const patch = (cookie: string, payload: unknown, headers: Record<string, string> = SAME_ORIGIN) =>
  gw.app.inject({
    method: 'PATCH',
    url: '/api/profit-settings',
    headers: { ...headers, cookie },
    payload: payload as object,
  });

async function refigureJobsOf(userId: string) {
  const jobs = await matcherQueue.getJobs(['waiting', 'delayed', 'prioritized', 'active']);
  return jobs.filter((job) => job.name === 'compute-profits' && job.data.userId === userId).map((job) => job.data);
}

describe('/api/profit-settings', () => {
  it('needs a session', async () => {
    expect((await gw.app.inject({ method: 'GET', url: '/api/profit-settings' })).statusCode).toBe(401);
    expect(
      (await gw.app.inject({ method: 'PATCH', url: '/api/profit-settings', headers: SAME_ORIGIN, payload: {} }))
        .statusCode,
    ).toBe(401);
  });

  it('reads the defaults, and refuses a setting of a provider not connected (409)', async () => {
    const { cookie } = await newSeller('unconnected', []);
    expect((await get(cookie)).json()).toEqual({
      vatRegistered: false,
      printifyCostReading: 'per_unit',
      etsyConnected: false,
      printifyConnected: false,
    });
    const response = await patch(cookie, { vatRegistered: true });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'not_connected' });
  });

  it.each([
    ['a non-boolean switch', { vatRegistered: 'yes' }],
    ['an unknown reading', { printifyCostReading: 'per_box' }],
    ['nothing to change', {}],
  ])('answers %s with a clear 400', async (_what, payload) => {
    const { cookie } = await newSeller(`bad${Math.random().toString(36).slice(2, 6)}`, ['etsy', 'printify']);
    const response = await patch(cookie, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'validation_failed' });
  });

  it('refuses a cross-site change (403)', async () => {
    const { cookie } = await newSeller('xsite', ['etsy']);
    const response = await patch(cookie, { vatRegistered: true }, { origin: 'https://evil.example' });
    expect(response.statusCode).toBe(403);
  });

  it("stores the signed-in seller's settings, queues their orders to be figured again, and leaves another seller's alone", async () => {
    const seller = await newSeller('owner', ['etsy', 'printify']);
    const other = await newSeller('bystander', ['etsy', 'printify']);
    const response = await patch(seller.cookie, { vatRegistered: true, printifyCostReading: 'per_line' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      vatRegistered: true,
      printifyCostReading: 'per_line',
      etsyConnected: true,
      printifyConnected: true,
      recalculating: true,
    });
    expect((await get(seller.cookie)).json()).toMatchObject({ vatRegistered: true, printifyCostReading: 'per_line' });
    expect(await refigureJobsOf(seller.userId)).toEqual([{ userId: seller.userId, reason: 'settings', force: true }]);

    expect((await get(other.cookie)).json()).toMatchObject({ vatRegistered: false, printifyCostReading: 'per_unit' });
    expect(await refigureJobsOf(other.userId)).toEqual([]);
    const rows = await queryDatabase<{ provider: string; vat_registered: boolean; printify_cost_reading: string }>(
      bed.database.url,
      `SELECT provider, vat_registered, printify_cost_reading FROM provider_connection WHERE user_id = $1 ORDER BY provider`,
      [other.userId],
    );
    expect(rows).toEqual([
      { provider: 'etsy', vat_registered: false, printify_cost_reading: 'per_unit' },
      { provider: 'printify', vat_registered: false, printify_cost_reading: 'per_unit' },
    ]);
  });

  it('queues nothing when the settings did not change', async () => {
    const seller = await newSeller('same', ['etsy']);
    const response = await patch(seller.cookie, { vatRegistered: false });
    expect(response.json()).toMatchObject({ vatRegistered: false, recalculating: false });
    expect(await refigureJobsOf(seller.userId)).toEqual([]);
  });
});
