import { OnWorkerEvent, Processor } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { workerOptionsFor, type JobHandlers } from '@pod/queue';
import { SyncRunner } from '@pod/sync';
import { ContractProcessor, pingHandler } from '@pod/worker-runtime';
import { PrintifySyncService } from './printify-sync.service';

const QUEUE = 'printify-sync';

/** Walks Printify sync runs (the chosen shop's orders) and refreshes orders webhooks name. */
@Processor(QUEUE, workerOptionsFor(QUEUE))
export class PrintifySyncProcessor extends ContractProcessor<typeof QUEUE> {
  readonly queue = QUEUE;
  readonly handlers: JobHandlers<typeof QUEUE>;

  constructor(
    private readonly runner: SyncRunner,
    printify: PrintifySyncService,
  ) {
    super();
    this.handlers = {
      ping: pingHandler(QUEUE),
      sync: (job, token) => runner.run(job, token, (run) => printify.streamsFor(run)),
      'refresh-order': (job) => printify.refreshOrder(job.data),
    };
  }

  /** A sync job that failed for good outside the runner (stalled past maxStalledCount) interrupts its run at once. */
  @OnWorkerEvent('failed')
  onSyncJobFailed(job: Job | undefined): void {
    this.runner.afterFailedAttempt(job);
  }
}
