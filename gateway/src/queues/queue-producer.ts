import { HttpStatus, Injectable, Logger } from '@nestjs/common';
import type { EnqueuedJob, QueueName } from '@pod/contracts';
import { jobOptionsFor, shortReason, withTimeout, type JobName, type JobPayload } from '@pod/queue';
import { QueueRegistry } from './queue-registry';
import { ApiException } from '../http/api-exception';

/** How long a request waits for Redis to take a job before answering 503. */
export const ENQUEUE_TIMEOUT_MS = 2_000;
export const QUEUE_UNAVAILABLE_MESSAGE = 'The job queue is unavailable; try again shortly.';

/**
 * Enqueues jobs for HTTP handlers. Every add is awaited: a caller is told "accepted" only once
 * Redis holds the job, and gets a 503 when Redis does not answer in time.
 */
@Injectable()
export class QueueProducer {
  private readonly logger = new Logger(QueueProducer.name);

  constructor(private readonly registry: QueueRegistry) {}

  /**
   * `jobId`: BullMQ keeps one job per id, so adding the same id again returns the existing job.
   * `deduplication`: one waiting job per id (see computeProfitsJobOptions).
   */
  async enqueue<Q extends QueueName, J extends JobName<Q>>(
    queue: Q,
    name: J,
    payload: JobPayload<Q, J>,
    options: { jobId?: string; delay?: number; deduplication?: { id: string; keepLastIfActive?: boolean } } = {},
  ): Promise<EnqueuedJob> {
    const target = this.registry.get(queue);
    try {
      // While Redis is away at boot the client is still connecting: give up without issuing the
      // add, so the job cannot land later behind a 503 the caller already got.
      const client = await withTimeout(target.client, ENQUEUE_TIMEOUT_MS);
      if (client.status !== 'ready') throw new Error(`Redis connection is ${client.status}`);
      const job = await withTimeout(
        target.add(name, payload, { ...jobOptionsFor(queue, name), ...options }),
        ENQUEUE_TIMEOUT_MS,
      );
      return { id: String(job.id), queue, name };
    } catch (error) {
      this.logger.warn(`Could not enqueue ${queue}/${name}: ${shortReason(error)}`);
      throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, 'service_unavailable', QUEUE_UNAVAILABLE_MESSAGE);
    }
  }
}
