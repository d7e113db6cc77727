import { OnWorkerEvent, WorkerHost } from '@nestjs/bullmq';
import { Inject, Optional } from '@nestjs/common';
import { DelayedError, RateLimitError, UnrecoverableError, WaitingChildrenError, type Job } from 'bullmq';
import type { Logger } from 'pino';
import { EVENT_NAMES, type QueueName } from '@pod/contracts';
import type { JobOutcome, ProcessMetrics } from '@pod/observability';
import {
  DomainEventPublisher,
  jobDataProblem,
  jobFailure,
  shortReason,
  WarningThrottle,
  type JobHandlers,
} from '@pod/queue';
import { WORKER_LOGGER, WORKER_METRICS } from './tokens';
import { workerId } from './worker-identity';

type AnyHandler = (job: Job, token?: string) => Promise<unknown>;

/**
 * Base of every queue processor: a @nestjs/bullmq WorkerHost that dispatches each job to the
 * handler its contract names, logs outcomes and publishes `job.completed` once BullMQ has
 * marked the job completed, and times every run of a job for the process's metrics
 * (podprofit_job_duration_seconds by queue, job and outcome). Subclasses add `@Processor(queue, workerOptionsFor(queue))`,
 * `queue` and `handlers` (a JobHandlers<Q>: one per job of the contract, or it won't compile).
 */
export abstract class ContractProcessor<Q extends QueueName = QueueName> extends WorkerHost {
  abstract readonly queue: Q;
  abstract readonly handlers: JobHandlers<Q>;

  @Inject(DomainEventPublisher) private readonly events: DomainEventPublisher;
  @Inject(WORKER_LOGGER) protected readonly logger: Logger;
  @Optional() @Inject(WORKER_METRICS) private readonly metrics?: ProcessMetrics;
  private readonly connectionWarnings = new WarningThrottle(30_000);

  override async process(job: Job, token?: string): Promise<unknown> {
    const handler = (this.handlers as unknown as Record<string, AnyHandler | undefined>)[job.name];
    if (typeof handler !== 'function') {
      // Retrying cannot help: no code in this release knows the job.
      throw new UnrecoverableError(`No processor for job "${job.name}" on queue ${this.queue}`);
    }
    // The lock token lets a handler move its job to delayed (quota waits, shutdown hand-over).
    const started = performance.now();
    try {
      // Before any I/O: data that breaks the contract never reaches SQL, a provider or a log
      // line, and retrying cannot mend it.
      const problem = jobDataProblem(this.queue, job.name, job.data);
      if (problem !== null) throw new UnrecoverableError(problem);
      const result = await handler.call(this.handlers, job, token);
      this.metrics?.observeJob(this.queue, job.name, 'completed', (performance.now() - started) / 1000);
      return result;
    } catch (error) {
      this.metrics?.observeJob(this.queue, job.name, jobOutcomeOf(error), (performance.now() - started) / 1000);
      // What BullMQ keeps in Redis (failedReason, stacktrace) must not quote a value PostgreSQL echoed.
      throw jobFailure(error);
    }
  }

  @OnWorkerEvent('completed')
  onCompleted(job: Job): void {
    const jobId = String(job.id);
    this.logger.info(
      { event: 'job.completed', queue: this.queue, jobId, job: job.name, attemptsMade: job.attemptsMade },
      'job completed',
    );
    // Not awaited: the event is a hint and must never hold up the worker.
    void this.events.publish(EVENT_NAMES.jobCompleted, {
      queue: this.queue,
      jobId,
      name: job.name,
      worker: workerId(),
      completedAt: new Date(job.finishedOn ?? Date.now()).toISOString(),
    });
  }

  @OnWorkerEvent('failed')
  onFailed(job: Job | undefined, error: Error): void {
    this.logger.warn(
      {
        event: 'job.failed',
        queue: this.queue,
        jobId: job?.id,
        job: job?.name,
        attemptsMade: job?.attemptsMade,
        reason: shortReason(error),
      },
      'job failed',
    );
  }

  /** BullMQ reports connection trouble here; logged (throttled), never thrown. */
  @OnWorkerEvent('error')
  onError(error: Error): void {
    const suppressed = this.connectionWarnings.take();
    if (suppressed === null) return;
    this.logger.warn(
      { event: 'worker.error', queue: this.queue, reason: shortReason(error), suppressed },
      'worker error (retrying)',
    );
  }
}

/** How a handler's throw ends this run of the job: BullMQ's signals are not failures. */
export function jobOutcomeOf(error: unknown): JobOutcome {
  if (error instanceof DelayedError) return 'delayed';
  if (error instanceof RateLimitError) return 'rate_limited';
  if (error instanceof WaitingChildrenError) return 'waiting_children';
  return 'failed';
}
