import { Queue } from 'bullmq';
import pino from 'pino';
import { markProfitsFinished, profitsFinishedRecently } from '@pod/queue';
import { deleteRedisPrefix, uniqueRedisPrefix } from '@pod/testing';
import { ProfitJobs } from './profit-jobs';
import type { UserProfits } from '@pod/orders';

/**
 * How profit triggers land on a real BullMQ queue (no worker takes them): one waiting job per
 * user, whatever asked.
 */
describe('ProfitJobs.queueFor on a real queue', () => {
  const prefix = uniqueRedisPrefix('profit-jobs');
  const queue = new Queue('matcher', { connection: { host: '127.0.0.1', port: 6379 }, prefix });
  const jobs = new ProfitJobs(
    queue,
    {} as UserProfits,
    { usersToRefigure: () => Promise.resolve(['user-b', 'user-a']) },
    pino({ level: 'silent' }),
  );

  afterAll(async () => {
    await queue.close();
    await deleteRedisPrefix(prefix);
  });

  const waiting = async (userId: string) =>
    (await queue.getJobs(['waiting', 'delayed', 'prioritized']))
      .filter((job) => job.data.userId === userId)
      .map((job) => ({ reason: job.data.reason, force: job.data.force === true }));

  it('triggers while one waits join it; another user gets their own', async () => {
    await jobs.queueFor('user-1', 'matched');
    await jobs.queueFor('user-1', 'record_changed');
    await jobs.queueFor('user-1', 'rates');
    await jobs.queueFor('user-2', 'record_changed');
    expect(await waiting('user-1')).toEqual([{ reason: 'matched', force: false }]);
    expect(await waiting('user-2')).toEqual([{ reason: 'record_changed', force: false }]);
  });

  it('refigure-profits queues a plain run for each user the stored figures name, joining one already waiting', async () => {
    await jobs.queueFor('user-a', 'matched');
    await jobs.refigure({ data: { previousLatestRateDate: '2026-11-20' } } as Parameters<ProfitJobs['refigure']>[0]);
    expect(await waiting('user-a')).toEqual([{ reason: 'matched', force: false }]);
    expect(await waiting('user-b')).toEqual([{ reason: 'rates', force: false }]);
  });

  it('compute-profits leaves the finished mark for its user once the figures are written (the settling signal)', async () => {
    const order: string[] = [];
    const computing = new ProfitJobs(
      queue,
      {
        computeUser: async () => {
          order.push('computed');
          return { records: 1, computed: 1, written: 1 };
        },
      } as unknown as UserProfits,
      { usersToRefigure: () => Promise.resolve([]) },
      pino({ level: 'silent' }),
      undefined,
      async (userId) => {
        order.push(`marked ${await profitsFinishedRecently(queue, userId)}`);
        await markProfitsFinished(queue, userId);
      },
    );
    await computing.compute({ data: { userId: 'user-m', reason: 'matched' } } as Parameters<ProfitJobs['compute']>[0]);
    expect(order).toEqual(['computed', 'marked false']);
    expect(await profitsFinishedRecently(queue, 'user-m')).toBe(true);
    expect(await profitsFinishedRecently(queue, 'user-n')).toBe(false);
  });
});
