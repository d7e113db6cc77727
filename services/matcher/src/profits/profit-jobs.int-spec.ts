import { Queue } from 'bullmq';
import pino from 'pino';
import { deleteRedisPrefix, uniqueRedisPrefix } from '@pod/testing';
import { ProfitJobs } from './profit-jobs';
import type { UserProfits } from './user-profits';

/**
 * How profit triggers land on a real BullMQ queue (no worker takes them): one waiting job per
 * user and kind, and a forced run (new rates) is never swallowed by a plain one already waiting.
 */
describe('ProfitJobs.queueFor on a real queue', () => {
  const prefix = uniqueRedisPrefix('profit-jobs');
  const queue = new Queue('matcher', { connection: { host: '127.0.0.1', port: 6379 }, prefix });
  const jobs = new ProfitJobs(queue, {} as UserProfits, { usersToRefigure: () => Promise.resolve(['user-b', 'user-a']) }, pino({ level: 'silent' }));

  afterAll(async () => {
    await queue.close();
    await deleteRedisPrefix(prefix);
  });

  const waiting = async (userId: string) =>
    (await queue.getJobs(['waiting', 'delayed', 'prioritized'])).filter((job) => job.data.userId === userId).map((job) => ({ reason: job.data.reason, force: job.data.force === true }));

  it('plain triggers while one waits join it; a forced one waits beside it, once', async () => {
    await jobs.queueFor('user-1', 'matched');
    await jobs.queueFor('user-1', 'record_changed');
    await jobs.queueFor('user-1', 'rates', true);
    await jobs.queueFor('user-1', 'rates', true);
    const queued = await waiting('user-1');
    expect(queued).toHaveLength(2);
    expect(queued).toEqual(expect.arrayContaining([{ reason: 'matched', force: false }, { reason: 'rates', force: true }]));
  });

  it('refigure-profits queues a plain run for each user the stored figures name, joining one already waiting', async () => {
    await jobs.queueFor('user-a', 'matched');
    await jobs.refigure({ data: { previousLatestRateDate: '2026-11-20' } } as Parameters<ProfitJobs['refigure']>[0]);
    expect(await waiting('user-a')).toEqual([{ reason: 'matched', force: false }]);
    expect(await waiting('user-b')).toEqual([{ reason: 'rates', force: false }]);
  });
});
