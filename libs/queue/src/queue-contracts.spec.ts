import { hostname } from 'node:os';
import { QUEUE_NAMES } from '@pod/contracts';
import {
  contractOf,
  isJobName,
  jobNamesOf,
  jobOptionsFor,
  missingHandlers,
  operatorJob,
  operatorJobNames,
  QUEUE_CONTRACTS,
  type JobHandlers,
} from './queue-contracts';
import { queueRegistration, workerOptionsFor } from './worker-options';

const HOUR_S = 3600;

describe('the queue contract table', () => {
  it('has exactly one row per queue name, and each queue has a ping job', () => {
    expect(Object.keys(QUEUE_CONTRACTS).sort()).toEqual([...QUEUE_NAMES].sort());
    for (const queue of QUEUE_NAMES) expect(jobNamesOf(queue)).toContain('ping');
  });

  it.each(QUEUE_NAMES)('%s retries with jittered exponential back-off and bounded retention', (queue) => {
    const { jobDefaults, worker } = contractOf(queue);
    expect(jobDefaults.attempts).toBeGreaterThanOrEqual(3);
    expect(jobDefaults.backoff).toMatchObject({ type: 'exponential' });
    expect((jobDefaults.backoff as { jitter: number }).jitter).toBeGreaterThan(0);
    const completed = jobDefaults.removeOnComplete as { age: number; count: number };
    const failed = jobDefaults.removeOnFail as { age: number; count: number };
    expect(completed.age).toBeGreaterThanOrEqual(HOUR_S);
    expect(completed.age).toBeLessThanOrEqual(24 * HOUR_S);
    expect(completed.count).toBeGreaterThan(0);
    expect(failed.age).toBe(7 * 24 * HOUR_S);
    expect(worker.concurrency).toBeGreaterThanOrEqual(1);
    expect(worker.maxStalledCount).toBeGreaterThanOrEqual(1);
    expect(worker.lockDuration).toBeGreaterThanOrEqual(10_000);
  });

  it('lets a job override its queue defaults (a ping is never retried)', () => {
    const options = jobOptionsFor('matcher', 'ping');
    expect(options.attempts).toBe(1);
    expect(options.removeOnFail).toEqual(contractOf('matcher').jobDefaults.removeOnFail);
  });

  it('creates workers paused, with the contract settings, named hostname:pid and keeping a week of per-minute counts', () => {
    expect(workerOptionsFor('fx-rate')).toEqual({
      autorun: false,
      concurrency: 2,
      lockDuration: 60_000,
      stalledInterval: 30_000,
      maxStalledCount: 1,
      metrics: { maxDataPoints: 7 * 24 * 60 },
      name: `${hostname()}:${process.pid}`,
    });
    expect(queueRegistration('etsy-sync')).toEqual({
      name: 'etsy-sync',
      defaultJobOptions: contractOf('etsy-sync').jobDefaults,
    });
  });

  it('knows which job names exist, and which an operator may enqueue', () => {
    expect(isJobName('etsy-sync', 'ping')).toBe(true);
    expect(isJobName('etsy-sync', 'toString')).toBe(false);
    expect(isJobName('etsy-sync', 'sync-page')).toBe(false);
    expect(operatorJobNames('fx-rate')).toEqual(['ping', 'refresh-rates']);
    expect(operatorJob('fx-rate', 'refresh-rates')?.payload(new Date())).toEqual({ reason: 'operator' });
    expect(operatorJob('fx-rate', 'nope')).toBeUndefined();
    const payload = operatorJob('fx-rate', 'ping')?.payload(new Date('2026-01-02T03:04:05Z'));
    expect(payload).toEqual({ requestedAt: '2026-01-02T03:04:05.000Z', requestedBy: 'operator' });
  });

  it('names the jobs a worker has no handler for', () => {
    const run = async () => ({});
    const profits = { 'compute-profits': run, 'refigure-profits': run };
    expect(missingHandlers('matcher', {})).toEqual(['ping', 'match-user', 'compute-profits', 'refigure-profits']);
    expect(missingHandlers('matcher', { ping: 'not a function', 'match-user': run, ...profits })).toEqual(['ping']);
    expect(missingHandlers('matcher', { ping: async () => ({}), 'match-user': run, ...profits })).toEqual([]);
  });

  it('does not compile a handler table that leaves a job out, and names the gap at run time too', () => {
    const matchUser: JobHandlers<'matcher'>['match-user'] = async (job) => ({
      runId: job.data.runId,
      status: 'skipped',
      added: 0,
      changed: 0,
      removed: 0,
    });
    const profitHandlers: Pick<JobHandlers<'matcher'>, 'compute-profits' | 'refigure-profits'> = {
      'compute-profits': async (job) => ({ userId: job.data.userId, records: 0, computed: 0, written: 0 }),
      'refigure-profits': async () => ({ usersQueued: 0 }),
    };
    // @ts-expect-error ping is missing: typecheck fails if JobHandlers stops requiring every job
    const incomplete: JobHandlers<'matcher'> = { 'match-user': matchUser, ...profitHandlers };
    expect(missingHandlers('matcher', incomplete)).toEqual(['ping']);
    const complete: JobHandlers<'matcher'> = {
      ping: async () => ({ queue: 'matcher', worker: 'host:1', completedAt: '2026-01-01T00:00:00.000Z' }),
      'match-user': matchUser,
      ...profitHandlers,
    };
    expect(missingHandlers('matcher', complete)).toEqual([]);
  });
});
