import { OnWorkerEvent, Processor } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { workerOptionsFor, type JobHandlers } from '@pod/queue';
import { SyncRunner } from '@pod/sync';
import { ContractProcessor, pingHandler } from '@pod/worker-runtime';
import { EtsySyncService } from './etsy-sync.service';

const QUEUE = 'etsy-sync';

/** Walks Etsy sync runs (receipts, then the ledger with its payments) and refreshes receipts webhooks name. */
@Processor(QUEUE, workerOptionsFor(QUEUE))
export class EtsySyncProcessor extends ContractProcessor<typeof QUEUE> {
  readonly queue = QUEUE;
  readonly handlers: JobHandlers<typeof QUEUE>;

  constructor(
    private readonly runner: SyncRunner,
    etsy: EtsySyncService,
  ) {
    super();
    this.handlers = {
      ping: pingHandler(QUEUE),
      sync: (job, token) => runner.run(job, token, (run) => etsy.streamsFor(run)),
      'refresh-receipt': (job) => etsy.refreshReceipt(job.data),
    };
  }

  /** A sync job that failed for good outside the runner (stalled past maxStalledCount) interrupts its run at once. */
  @OnWorkerEvent('failed')
  onSyncJobFailed(job: Job | undefined): void {
    this.runner.afterFailedAttempt(job);
  }
}
