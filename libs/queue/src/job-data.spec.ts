import { jobDataProblem, jobNamesOf } from './queue-contracts';
import { QUEUE_NAMES, type QueueName } from '@pod/contracts';

const USER = '5b0c5e8e-1c1f-4f0e-9d7a-0b6f1c2d3e4f';
const RUN = 'a3c9b1e2-7d4f-4c8a-9b1e-2f3a4b5c6d7e';
const PING = { requestedAt: '2026-05-01T10:00:00.000Z', requestedBy: 'operator' };

/** A payload each job's producers really send: every one must pass. */
const VALID: Record<QueueName, Record<string, unknown[]>> = {
  'etsy-sync': {
    ping: [PING, { ...PING, requestedBy: 'test' }],
    sync: [{ runId: RUN }],
    'refresh-receipt': [{ userId: USER, shopId: '12345678', receiptId: '3456789012' }],
  },
  'printify-sync': {
    ping: [PING],
    sync: [{ runId: RUN }],
    'refresh-order': [{ userId: USER, shopId: '815256', orderId: '5a96f649b2439217d070f507' }],
  },
  matcher: {
    ping: [PING],
    'match-user': [{ runId: RUN }],
    'compute-profits': [
      { userId: USER, reason: 'matched' },
      { userId: USER, reason: 'operator', force: true },
    ],
    'refigure-profits': [{ previousLatestRateDate: '2026-04-30' }, { previousLatestRateDate: null }],
  },
  'fx-rate': { ping: [PING], 'refresh-rates': [{ reason: 'startup' }, { reason: 'schedule' }, { reason: 'operator' }] },
  maintenance: {
    ping: [PING],
    'demo-cleanup': [{}],
    'sync-fan-out': [{ mode: 'nightly' }, { mode: 'incremental' }],
    'sync-reconcile': [{}],
  },
};

/** Hostile or broken data: each must be refused, with the field named. */
const INVALID: Array<[QueueName, string, unknown, string]> = [
  ['printify-sync', 'sync', { userId: 'not-a-uuid' }, 'data has 1 unknown field(s)'],
  ['printify-sync', 'sync', { runId: 'not-a-uuid' }, 'runId is not a uuid'],
  ['etsy-sync', 'sync', {}, 'runId is missing'],
  ['etsy-sync', 'sync', null, 'data is not an object'],
  ['etsy-sync', 'sync', [RUN], 'data is not an object'],
  [
    'etsy-sync',
    'refresh-receipt',
    { userId: USER, shopId: '1', receiptId: '../../users/me' },
    'receiptId is not a numeric id',
  ],
  ['etsy-sync', 'refresh-receipt', { userId: USER, shopId: 12, receiptId: '1' }, 'shopId is not a numeric id'],
  ['printify-sync', 'refresh-order', { userId: USER, shopId: '1', orderId: 'a/b?c' }, 'orderId is not an id'],
  ['matcher', 'compute-profits', { userId: "x' OR 1=1 --", reason: 'operator' }, 'userId is not a uuid'],
  ['matcher', 'compute-profits', { userId: USER, reason: 'because' }, 'reason is not one of'],
  ['matcher', 'compute-profits', { userId: USER, reason: 'rates', force: 'yes' }, 'force is not a boolean'],
  ['matcher', 'match-user', { runId: RUN, extra: 1 }, 'data has 1 unknown field(s)'],
  [
    'matcher',
    'refigure-profits',
    { previousLatestRateDate: '1; DROP TABLE fx_rate' },
    'previousLatestRateDate is not a date or null',
  ],
  ['matcher', 'refigure-profits', {}, 'previousLatestRateDate is missing'],
  ['fx-rate', 'refresh-rates', { reason: 'history' }, 'reason is not one of'],
  ['fx-rate', 'ping', { requestedAt: 'yesterday', requestedBy: 'operator' }, 'requestedAt is not an ISO 8601 time'],
  ['maintenance', 'sync-fan-out', { mode: 'everything' }, 'mode is not one of'],
  ['maintenance', 'demo-cleanup', { olderThan: 0 }, 'data has 1 unknown field(s)'],
];

describe('job data checks (each queue contract)', () => {
  it('has valid samples for every job of every queue, and each passes', () => {
    for (const queue of QUEUE_NAMES) {
      expect(Object.keys(VALID[queue]).sort()).toEqual(jobNamesOf(queue).sort());
      for (const [name, samples] of Object.entries(VALID[queue]))
        for (const data of samples)
          expect({ queue, name, problem: jobDataProblem(queue, name, data) }).toEqual({ queue, name, problem: null });
    }
  });

  it.each(INVALID)('refuses %s/%s %j', (queue, name, data, reason) => {
    const problem = jobDataProblem(queue, name, data);
    expect(problem).toContain(`invalid job data for ${queue}/${name}: ${reason}`);
  });

  it('never repeats the untrusted value or an unknown key in its reason', () => {
    expect(jobDataProblem('matcher', 'compute-profits', { userId: 'SECRET-VALUE', reason: 'operator' })).not.toContain(
      'SECRET',
    );
    expect(jobDataProblem('matcher', 'match-user', { runId: RUN, SECRET_KEY: 1 })).not.toContain('SECRET');
  });

  it('refuses a job name the queue does not have', () => {
    expect(jobDataProblem('matcher', 'obliterate', {})).toBe('no job of that name on queue matcher');
  });
});
