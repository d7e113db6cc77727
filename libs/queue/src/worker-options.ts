import type { JobsOptions, WorkerOptions } from 'bullmq';
import type { QueueName } from '@pod/contracts';
import { contractOf } from './queue-contracts';

/**
 * Options for `@Processor(queue, workerOptionsFor(queue))`. The worker is created paused
 * (`autorun: false`): the worker runtime starts it only once PostgreSQL, the schema and Redis
 * answer. Concurrency here is the queue's default; the runtime applies WORKER_CONCURRENCY.
 */
export function workerOptionsFor(queue: QueueName): Omit<WorkerOptions, 'connection'> {
  const { concurrency, lockDuration, stalledInterval, maxStalledCount } = contractOf(queue).worker;
  return { autorun: false, concurrency, lockDuration, stalledInterval, maxStalledCount };
}

/** For `BullModule.registerQueue(...)`: the queue with its contract's job defaults. */
export function queueRegistration(queue: QueueName): { name: QueueName; defaultJobOptions: JobsOptions } {
  return { name: queue, defaultJobOptions: { ...contractOf(queue).jobDefaults } };
}
