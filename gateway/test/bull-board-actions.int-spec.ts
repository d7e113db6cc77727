import { getQueueToken } from '@nestjs/bullmq';
import { Queue, UnrecoverableError, Worker } from 'bullmq';
import { bullConnection, bullPrefix } from '@pod/queue';
import { TEST_OPERATOR_TOKEN } from '@pod/testing';
import { BULL_BOARD_PATH } from '../src/admin/bull-board';
import { GatewayTestBed, type TestGateway } from './support/test-gateway';

/**
 * Bull Board changes nothing unless BULL_BOARD_MODE says so: by default every change it offers
 * (add a job with any payload, clean, empty, obliterate a paused queue, pause, edit or remove
 * a job scheduler, retry, promote…) is refused with 403 and leaves Redis as it was; with
 * BULL_BOARD_MODE=retry, retrying a failed job and promoting a delayed one work, and nothing else.
 */
const bed = new GatewayTestBed();
let readOnly: TestGateway;
let retrying: TestGateway;
const bearer = { authorization: `Bearer ${TEST_OPERATOR_TOKEN}`, 'content-type': 'application/json' };
const PING = { requestedAt: '2026-05-01T10:00:00.000Z', requestedBy: 'test' };

beforeAll(async () => {
  await bed.setUp();
  readOnly = await bed.start();
  retrying = await bed.start({ BULL_BOARD_MODE: 'retry' });
});
afterAll(() => bed.tearDown());

const queueOf = (gw: TestGateway, name: string) => gw.app.get<Queue>(getQueueToken(name), { strict: false });
const board = (gw: TestGateway, method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body: unknown = {}) =>
  gw.app.inject({ method, url: `${BULL_BOARD_PATH}${path}`, headers: bearer, payload: JSON.stringify(body) });

/** A job that failed once (a throwaway worker fails it as unrecoverable, then stops). */
async function failedJob(gw: TestGateway, queueName: string): Promise<string> {
  const job = await queueOf(gw, queueName).add('ping', PING, { attempts: 1 });
  const worker = new Worker(queueName, async () => Promise.reject(new UnrecoverableError('made to fail')), {
    connection: bullConnection(gw.config, 'worker'),
    prefix: bullPrefix(gw.config),
  });
  try {
    for (let i = 0; i < 100 && (await queueOf(gw, queueName).getJobState(String(job.id))) !== 'failed'; i++)
      await new Promise((r) => setTimeout(r, 100));
  } finally {
    await worker.close();
  }
  expect(await queueOf(gw, queueName).getJobState(String(job.id))).toBe('failed');
  return String(job.id);
}

/** Every change the board's API offers, against a queue with a failed, a delayed job and a scheduler. */
function changes(ids: { failed: string; delayed: string }): Array<['POST' | 'PUT' | 'PATCH', string, unknown?]> {
  return [
    ['POST', '/api/queues/printify-sync/add', { name: 'sync', data: { userId: 'not-a-uuid' } }],
    ['POST', '/api/queues/matcher/add', { name: 'compute-profits', data: { userId: "x' OR 1=1", reason: 'operator' } }],
    ['PUT', '/api/queues/etsy-sync/obliterate'],
    ['PUT', '/api/queues/etsy-sync/clean/failed'],
    ['PUT', '/api/queues/etsy-sync/clean/delayed'],
    ['PUT', '/api/queues/etsy-sync/empty'],
    ['PUT', '/api/queues/etsy-sync/pause'],
    ['PUT', '/api/queues/pause'],
    ['PUT', '/api/queues/etsy-sync/concurrency', { concurrency: 50 }],
    ['PUT', '/api/queues/maintenance/job-schedulers/sync-reconcile/remove'],
    ['PATCH', '/api/queues/maintenance/job-schedulers/sync-reconcile', { every: 1 }],
    ['PUT', '/api/queues/maintenance/job-schedulers/sync-reconcile/run'],
    ['PUT', `/api/queues/etsy-sync/${ids.failed}/clean`],
    ['PATCH', `/api/queues/etsy-sync/${ids.delayed}/update-data`, { data: { runId: 'x' } }],
    ['PATCH', `/api/queues/etsy-sync/${ids.delayed}/delay`, { delay: 1 }],
    ['PUT', '/api/queues/etsy-sync/retry/completed'],
  ];
}

/** What the refused changes would have touched. */
async function redisState(gw: TestGateway, ids: { failed: string; delayed: string }) {
  const etsy = queueOf(gw, 'etsy-sync');
  return {
    counts: await etsy.getJobCounts('waiting', 'failed', 'delayed', 'completed', 'paused'),
    printifyCounts: await queueOf(gw, 'printify-sync').getJobCounts('waiting', 'paused'),
    matcherCounts: await queueOf(gw, 'matcher').getJobCounts('waiting', 'paused'),
    paused: await etsy.isPaused(),
    failed: await etsy.getJobState(ids.failed),
    delayed: await etsy.getJobState(ids.delayed),
    delayedData: (await etsy.getJob(ids.delayed))?.data as unknown,
    scheduler: (await queueOf(gw, 'maintenance').getJobScheduler('sync-reconcile'))?.every,
  };
}

describe('Bull Board, read-only by default', () => {
  it('refuses every change with 403 bull_board_read_only and leaves the queues, jobs and schedulers as they were', async () => {
    const failed = await failedJob(readOnly, 'etsy-sync');
    const delayed = String((await queueOf(readOnly, 'etsy-sync').add('ping', PING, { delay: 3_600_000 })).id);
    const ids = { failed, delayed };
    // Obliterating needs a paused queue: pause it the supported way (the JSON operator route) first.
    expect(
      (
        await readOnly.app.inject({
          method: 'POST',
          url: '/api/admin/queues/etsy-sync/pause',
          headers: { authorization: bearer.authorization },
        })
      ).statusCode,
    ).toBe(200);
    const before = await redisState(readOnly, ids);
    expect(before.scheduler).toBe(60_000);

    const refusals = [
      ...changes(ids),
      ['PUT', `/api/queues/etsy-sync/${failed}/retry`] as const,
      ['PUT', `/api/queues/etsy-sync/${delayed}/promote`] as const,
      ['PUT', '/api/queues/etsy-sync/retry/failed'] as const,
      ['PUT', '/api/queues/etsy-sync/promote'] as const,
    ];
    for (const [method, path, body] of refusals) {
      const response = await board(readOnly, method, path, body);
      expect({ method, path, status: response.statusCode, code: response.json<{ code?: string }>().code }).toEqual({
        method,
        path,
        status: 403,
        code: 'bull_board_read_only',
      });
    }
    expect(await redisState(readOnly, ids)).toEqual(before);
    // Reading still works.
    expect(
      (await readOnly.app.inject({ method: 'GET', url: `${BULL_BOARD_PATH}/api/queues`, headers: bearer })).statusCode,
    ).toBe(200);
    await readOnly.app.inject({
      method: 'POST',
      url: '/api/admin/queues/etsy-sync/resume',
      headers: { authorization: bearer.authorization },
    });
  });
});

describe('Bull Board with BULL_BOARD_MODE=retry', () => {
  it('retries a failed job and promotes a delayed one, and still refuses every other change', async () => {
    const failed = await failedJob(retrying, 'fx-rate');
    const delayed = String((await queueOf(retrying, 'fx-rate').add('ping', PING, { delay: 3_600_000 })).id);
    expect((await board(retrying, 'PUT', `/api/queues/fx-rate/${failed}/retry`)).statusCode).toBe(204);
    expect((await board(retrying, 'PUT', `/api/queues/fx-rate/${delayed}/promote`)).statusCode).toBe(204);
    const fx = queueOf(retrying, 'fx-rate');
    expect([await fx.getJobState(failed), await fx.getJobState(delayed)]).toEqual(['waiting', 'waiting']);

    const ids = {
      failed: await failedJob(retrying, 'etsy-sync'),
      delayed: String((await queueOf(retrying, 'etsy-sync').add('ping', PING, { delay: 3_600_000 })).id),
    };
    const before = await redisState(retrying, ids);
    for (const [method, path, body] of changes(ids)) {
      const response = await board(retrying, method, path, body);
      expect({ method, path, status: response.statusCode, code: response.json<{ code?: string }>().code }).toEqual({
        method,
        path,
        status: 403,
        code: 'bull_board_read_only',
      });
    }
    expect(await redisState(retrying, ids)).toEqual(before);
    // The queue-wide forms work too.
    expect((await board(retrying, 'PUT', '/api/queues/etsy-sync/retry/failed')).statusCode).toBeLessThan(300);
    expect((await board(retrying, 'PUT', '/api/queues/etsy-sync/promote')).statusCode).toBeLessThan(300);
    const etsy = queueOf(retrying, 'etsy-sync');
    expect([await etsy.getJobState(ids.failed), await etsy.getJobState(ids.delayed)]).toEqual(['waiting', 'waiting']);
  });
});
