import { hostname } from 'node:os';
import { MetricsTime, type JobsOptions, type WorkerOptions } from 'bullmq';
import type { QueueName } from '@pod/contracts';
import { contractOf } from './queue-contracts';

/**
 * Options for `@Processor(queue, workerOptionsFor(queue))`. The worker is created paused
 * (`autorun: false`): the worker runtime starts it only once PostgreSQL, the schema and Redis
 * answer. Concurrency and the lock and stall settings here are the queue's defaults; the runtime
 * applies WORKER_CONCURRENCY, WORKER_LOCK_DURATION_MS, WORKER_STALLED_INTERVAL_MS and
 * WORKER_MAX_STALLED_COUNT on top. Workers keep BullMQ's per-minute completed/failed counts
 * (a week of them; `Queue.getMetrics`, the operator's /api/admin/workers and Bull Board) and are
 * named hostname:pid, so `Queue.getWorkers()` tells replicas apart.
 */
export function workerOptionsFor(queue: QueueName): Omit<WorkerOptions, 'connection'> {
  const { concurrency, lockDuration, stalledInterval, maxStalledCount } = contractOf(queue).worker;
  return {
    autorun: false,
    concurrency,
    lockDuration,
    stalledInterval,
    maxStalledCount,
    metrics: { maxDataPoints: MetricsTime.ONE_WEEK },
    name: `${hostname()}:${process.pid}`,
  };
}

/** For `BullModule.registerQueue(...)`: the queue with its contract's job defaults. */
export function queueRegistration(queue: QueueName): { name: QueueName; defaultJobOptions: JobsOptions } {
  return { name: queue, defaultJobOptions: { ...contractOf(queue).jobDefaults } };
}
