import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { Queue } from 'bullmq';
import { loadConfig } from '@pod/config';
import { bullConnection, bullPrefix, schedulesFor, upsertSchedulers } from '@pod/queue';
import { queryDatabase, TEST_APP_SECRET } from '@pod/testing';
import { GatewayTestBed, type TestGateway } from './support/test-gateway';

/**
 * Schedules are BullMQ job schedulers, not timers: two gateways starting register each
 * schedule once; the scheduled job runs and removes an expired demo account; no gateway code
 * starts an interval; `cli.js upsert-schedulers` (npm run schedulers) is idempotent too.
 */
const bed = new GatewayTestBed();
const gateways: TestGateway[] = [];
const intervalsFromGatewayCode: string[] = [];
let maintenance: Queue;
let fxRate: Queue;
const ENV = { DEMO_CLEANUP_EVERY_SECONDS: '1' };
const ALL_KEYS = ['demo-cleanup', 'nightly-resync', 'incremental-sync', 'sync-reconcile'];
const SCHEDULE_CONFIG = {
  DEMO_CLEANUP_EVERY_SECONDS: 1,
  SYNC_EVERY_MINUTES: 15,
  RESYNC_CRON: '0 3 * * *',
  RESYNC_TZ: 'UTC',
  FX_RATES_CRON: '20 16,18 * * 1-5',
};
const queueOf = (name: string) => (name === 'fx-rate' ? fxRate : maintenance);

beforeAll(async () => {
  await bed.setUp();
  // Any setInterval started from gateway/src while the gateways start is a schedule the table missed.
  const original = global.setInterval;
  const spy = jest.spyOn(global, 'setInterval').mockImplementation(((
    handler: () => void,
    ms?: number,
    ...args: unknown[]
  ) => {
    const stack = new Error().stack ?? '';
    if (stack.includes(`${resolve(__dirname, '../src')}/`)) intervalsFromGatewayCode.push(`${ms} ms\n${stack}`);
    return Reflect.apply(original, global, [handler, ms, ...args]) as ReturnType<typeof setInterval>;
  }) as typeof setInterval);
  try {
    gateways.push(await bed.start(ENV), await bed.start(ENV));
  } finally {
    spy.mockRestore();
  }
  const config = loadConfig({ REDIS_PREFIX: bed.redisPrefix });
  maintenance = new Queue('maintenance', {
    connection: bullConnection(config, 'producer'),
    prefix: bullPrefix(config),
  });
  fxRate = new Queue('fx-rate', { connection: bullConnection(config, 'producer'), prefix: bullPrefix(config) });
});
afterAll(async () => {
  await maintenance?.close();
  await fxRate?.close();
  await bed.tearDown();
});

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const sql = <T>(text: string, params: unknown[] = []) => queryDatabase<T>(bed.database.url, text, params);

describe('job schedulers', () => {
  it('two gateways starting make one scheduler per row: demo cleanup, nightly resync, incremental sync, reconcile', async () => {
    const schedulers = await until('the schedulers', async () => {
      const found = await maintenance.getJobSchedulers();
      return found.length === ALL_KEYS.length ? found : undefined;
    });
    expect(schedulers.map((s) => s.key).sort()).toEqual([...ALL_KEYS].sort());
    const byKey = Object.fromEntries(schedulers.map((s) => [s.key, s]));
    expect(byKey['demo-cleanup']).toMatchObject({ name: 'demo-cleanup', every: 1000 });
    expect(byKey['nightly-resync']).toMatchObject({ name: 'sync-fan-out', pattern: '0 3 * * *', tz: 'UTC' });
    expect(byKey['incremental-sync']).toMatchObject({ name: 'sync-fan-out', every: 15 * 60_000 });
    expect(byKey['sync-reconcile']).toMatchObject({ name: 'sync-reconcile', every: 60_000 });
    // The ECB rates' scheduler lives on the fx-rate worker's queue.
    expect(await fxRate.getJobSchedulers()).toMatchObject([
      { key: 'fx-rates-daily', name: 'refresh-rates', pattern: '20 16,18 * * 1-5', tz: 'Europe/Berlin' },
    ]);
  });

  it('runs the demo cleanup, which removes an expired demo account and keeps the rest', async () => {
    const [expired] = await sql<{ id: string }>(
      `INSERT INTO app_user (email, password_hash, first_name, last_name, is_demo, demo_expires_at)
       VALUES ($1, 'x', 'Demo', 'Seller', true, now() - interval '1 minute') RETURNING id`,
      [`expired.${Date.now()}@demo.invalid`],
    );
    const [current] = await sql<{ id: string }>(
      `INSERT INTO app_user (email, password_hash, first_name, last_name, is_demo, demo_expires_at)
       VALUES ($1, 'x', 'Demo', 'Seller', true, now() + interval '1 day') RETURNING id`,
      [`current.${Date.now()}@demo.invalid`],
    );
    await until('the expired demo account to go', async () =>
      (await sql('SELECT 1 FROM app_user WHERE id = $1', [expired.id])).length === 0 ? true : undefined,
    );
    expect(await sql('SELECT 1 FROM app_user WHERE id = $1', [current.id])).toHaveLength(1);
    const completed = await maintenance.getJobs(['completed'], 0, 50);
    expect(completed.filter((job) => job.name === 'demo-cleanup').length).toBeGreaterThanOrEqual(1);
  });

  it('no gateway code starts an interval timer', () => {
    expect(intervalsFromGatewayCode).toEqual([]);
  });

  it('removes a scheduler the table no longer names, and keeps one of each row', async () => {
    await maintenance.upsertJobScheduler(
      'retired-schedule',
      { every: 60_000 },
      { name: 'ping', data: { requestedAt: new Date().toISOString(), requestedBy: 'test' } },
    );
    await upsertSchedulers(schedulesFor(SCHEDULE_CONFIG), queueOf);
    expect((await maintenance.getJobSchedulers()).map((s) => s.key).sort()).toEqual([...ALL_KEYS].sort());
    // A row turned off (SYNC_EVERY_MINUTES=0) is removed from Redis too.
    await upsertSchedulers(schedulesFor({ ...SCHEDULE_CONFIG, SYNC_EVERY_MINUTES: 0 }), queueOf);
    expect((await maintenance.getJobSchedulers()).map((s) => s.key).sort()).toEqual(
      ALL_KEYS.filter((k) => k !== 'incremental-sync').sort(),
    );
    // FX_RATES_CRON=off removes its scheduler, the last one on its queue.
    await upsertSchedulers(schedulesFor({ ...SCHEDULE_CONFIG, FX_RATES_CRON: 'off' }), queueOf);
    expect(await fxRate.getJobSchedulers()).toEqual([]);
  });

  it('`cli.js upsert-schedulers` registers the same scheduler, once, however often it runs', async () => {
    const cli = resolve(__dirname, '../../dist/gateway/src/cli.js');
    const env = {
      ...process.env,
      APP_SECRET: TEST_APP_SECRET,
      REDIS_PREFIX: bed.redisPrefix,
      DATABASE_URL: bed.database.url,
      DEMO_CLEANUP_EVERY_SECONDS: '5',
      RESYNC_CRON: '30 2 * * *',
      RESYNC_TZ: 'Europe/London',
    };
    for (let run = 0; run < 2; run += 1) {
      const { stdout } = await promisify(execFile)(process.execPath, [cli, 'upsert-schedulers'], { env });
      expect(stdout).toContain(
        'Job schedulers registered: demo-cleanup, nightly-resync, incremental-sync, sync-reconcile, fx-rates-daily',
      );
    }
    const schedulers = await maintenance.getJobSchedulers();
    expect(schedulers).toHaveLength(ALL_KEYS.length);
    const byKey = Object.fromEntries(schedulers.map((s) => [s.key, s]));
    expect(byKey['demo-cleanup']).toMatchObject({ every: 5000 });
    expect(byKey['nightly-resync']).toMatchObject({ pattern: '30 2 * * *', tz: 'Europe/London' });
  });
});
