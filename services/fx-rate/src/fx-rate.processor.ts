import { Processor } from '@nestjs/bullmq';
import { workerOptionsFor, type JobHandlers } from '@pod/queue';
import { ContractProcessor, pingHandler, workerShutdownSignal } from '@pod/worker-runtime';
import { FxRatesService } from './fx-rates.service';

const QUEUE = 'fx-rate';

/** Fills the fx_rate table from the ECB feed: at start, on the daily schedule, and on an operator's request. */
@Processor(QUEUE, workerOptionsFor(QUEUE))
export class FxRateProcessor extends ContractProcessor<typeof QUEUE> {
  readonly queue = QUEUE;
  readonly handlers: JobHandlers<typeof QUEUE>;

  constructor(rates: FxRatesService) {
    super();
    this.handlers = {
      ping: pingHandler(QUEUE),
      // A shutdown abandons the download at once; the job is retried (or the next run catches up).
      'refresh-rates': (job) => rates.refresh(job.data, workerShutdownSignal),
    };
  }
}
