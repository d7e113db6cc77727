import { HttpStatus, Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import {
  QUEUE_NAMES,
  type EnqueuedJob,
  type JobState,
  type JobView,
  type QueueCounts,
  type QueueName,
  type QueueOverview,
} from '@pod/contracts';
import { operatorJob, operatorJobNames, shortReason, withTimeout } from '@pod/queue';
import { LastCompletionStore } from '../events/last-completion.store';
import { QueueProducer, QUEUE_UNAVAILABLE_MESSAGE } from '../queues/queue-producer';
import { QueueRegistry } from '../queues/queue-registry';
import { safeFailedReason } from './safe-failed-reason';
import { ApiException } from '../http/api-exception';

const REDIS_TIMEOUT_MS = 2_000;
const COUNTED_STATES = ['waiting', 'active', 'delayed', 'failed', 'completed', 'paused'] as const;

/** What the operator routes do; each Redis call is bounded and an outage becomes a 503. */
@Injectable()
export class AdminQueuesService {
  private readonly logger = new Logger(AdminQueuesService.name);

  constructor(
    private readonly registry: QueueRegistry,
    private readonly producer: QueueProducer,
    private readonly completions: LastCompletionStore,
  ) {}

  async overview(): Promise<QueueOverview[]> {
    const [lastCompleted, ...queues] = await this.redis('read the queues', () =>
      Promise.all([this.completions.readAll(), ...QUEUE_NAMES.map((name) => this.describe(name))]),
    );
    return queues.map((queue) => ({ ...queue, lastCompletedEvent: lastCompleted[queue.name] }));
  }

  async enqueue(queue: QueueName, name: string): Promise<EnqueuedJob> {
    const job = operatorJob(queue, name);
    if (!job) {
      throw new ApiException(
        HttpStatus.BAD_REQUEST,
        'unknown_job_name',
        `Unknown job name for queue ${queue}; an operator can enqueue: ${operatorJobNames(queue).join(', ')}`,
      );
    }
    // The contract's payload factory matches the job's type; enqueue checks the name.
    return this.producer.enqueue(queue, name as never, job.payload(new Date()) as never);
  }

  async job(queue: QueueName, id: string): Promise<JobView> {
    return this.redis('read the job', async () => {
      const target = this.registry.get(queue);
      // State first, then the job hash: a job finishing between the two reads then shows as
      // completed with its result, never as completed with the data of before.
      const state = (await target.getJobState(id)) as JobState;
      const job = state === 'unknown' ? undefined : await target.getJob(id);
      if (!job) throw new ApiException(HttpStatus.NOT_FOUND, 'not_found', 'Job not found');
      return {
        id: String(job.id),
        name: job.name,
        state,
        result: job.returnvalue ?? null,
        failedReason: safeFailedReason(job.failedReason),
        attemptsMade: job.attemptsMade,
        finishedOn: job.finishedOn ?? null,
      };
    });
  }

  /** Pauses the queue for every worker (BullMQ's global pause): jobs wait until resumed. */
  async setPaused(queue: QueueName, paused: boolean): Promise<{ queue: QueueName; isPaused: boolean }> {
    return this.redis(paused ? 'pause the queue' : 'resume the queue', async () => {
      const target = this.registry.get(queue);
      await (paused ? target.pause() : target.resume());
      return { queue, isPaused: await target.isPaused() };
    });
  }

  /** Moves every failed job back to waiting; answers how many were failed when asked. */
  async retryFailed(queue: QueueName): Promise<{ queue: QueueName; retried: number }> {
    return this.redis('retry failed jobs', async () => {
      const target = this.registry.get(queue);
      const failed = await target.getFailedCount();
      if (failed > 0) await target.retryJobs({ state: 'failed', count: 1_000 });
      return { queue, retried: failed };
    });
  }

  private async describe(name: QueueName): Promise<Omit<QueueOverview, 'lastCompletedEvent'>> {
    const queue: Queue = this.registry.get(name);
    const [counts, workers, isPaused] = await Promise.all([
      queue.getJobCounts(...COUNTED_STATES),
      queue.getWorkers(),
      queue.isPaused(),
    ]);
    const picked = Object.fromEntries(
      COUNTED_STATES.map((state) => [state, counts[state] ?? 0]),
    ) as unknown as QueueCounts;
    return { name, counts: picked, workers: workers.length, isPaused };
  }

  /** Runs a Redis operation within the bound; HTTP errors pass, anything else is a 503. */
  private async redis<T>(what: string, operation: () => Promise<T>): Promise<T> {
    try {
      return await withTimeout(operation(), REDIS_TIMEOUT_MS);
    } catch (error) {
      if (error instanceof ApiException) throw error;
      this.logger.warn(`Could not ${what}: ${shortReason(error)}`);
      throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, 'service_unavailable', QUEUE_UNAVAILABLE_MESSAGE);
    }
  }
}
