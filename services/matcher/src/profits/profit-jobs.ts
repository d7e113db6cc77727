import type { Job, Queue } from 'bullmq';
import type { Logger } from 'pino';
import type { OrderProfitsRepository } from '@pod/db';
import {
  computeProfitsJobOptions,
  jobOptionsFor,
  type ComputeProfitsPayload,
  type ComputeProfitsResult,
  type RefigureProfitsPayload,
} from '@pod/queue';
import type { OrderStatistics, UserProfits } from '@pod/orders';

/**
 * The matcher queue's profit jobs. They live beside match-user because they need what it has
 * (the synced rows, the user's matching lock) and run CPU-bound engine passes; one queue keeps
 * one concurrency budget per process. `queueFor` is how every trigger asks: after a match run,
 * after the user changes a record, after new rates (through refigure-profits).
 */
export class ProfitJobs {
  constructor(
    private readonly queue: Pick<Queue, 'add'>,
    private readonly profits: UserProfits,
    private readonly stored: Pick<OrderProfitsRepository, 'usersToRefigure'>,
    private readonly logger: Logger,
    /** Analyzes the order tables when the run's writes left their statistics behind. */
    private readonly statistics?: Pick<OrderStatistics, 'afterWrite'>,
    /** Marks the user's figures as changed just now (markProfitsFinished), for the settling signal. */
    private readonly finished?: (userId: string) => Promise<void>,
  ) {}

  async queueFor(userId: string, reason: ComputeProfitsPayload['reason']): Promise<void> {
    const payload: ComputeProfitsPayload = { userId, reason };
    await this.queue.add('compute-profits', payload, {
      ...jobOptionsFor('matcher', 'compute-profits'),
      ...computeProfitsJobOptions(userId),
    });
  }

  async compute(job: Job<ComputeProfitsPayload>): Promise<ComputeProfitsResult> {
    const { userId, force } = job.data;
    const counts = await this.profits.computeUser(userId, { force: force === true });
    this.logger.info({ event: 'profits.computed', userId, reason: job.data.reason, ...counts }, 'profits computed');
    await this.statistics?.afterWrite(userId, { order_profit: counts.written });
    // Last, while the job still reads as active: no instant between the two reads "settled".
    await this.finished?.(userId);
    return { userId, ...counts };
  }

  async refigure(job: Job<RefigureProfitsPayload>): Promise<{ usersQueued: number }> {
    const users = await this.stored.usersToRefigure(job.data.previousLatestRateDate);
    // Not forced: a plain run recomputes every record whose figures are not final ('provisional',
    // 'rate_unavailable') or not stored, the only ones new rate days change; final figures stay.
    for (const userId of users) await this.queueFor(userId, 'rates');
    this.logger.info(
      { event: 'profits.refigure', users: users.length, previousLatestRateDate: job.data.previousLatestRateDate },
      'profits re-figured after new rates',
    );
    return { usersQueued: users.length };
  }
}
