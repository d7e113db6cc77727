import { Processor } from '@nestjs/bullmq';
import { workerOptionsFor, type JobHandlers } from '@pod/queue';
import { ContractProcessor, pingHandler } from '@pod/worker-runtime';

const QUEUE = 'fx-rate';

/** Fills the fx_rate table from the ECB feed (the fetch job arrives in a later issue). */
@Processor(QUEUE, workerOptionsFor(QUEUE))
export class FxRateProcessor extends ContractProcessor<typeof QUEUE> {
  readonly queue = QUEUE;
  readonly handlers: JobHandlers<typeof QUEUE> = {
    ping: pingHandler(QUEUE),
  };
}
