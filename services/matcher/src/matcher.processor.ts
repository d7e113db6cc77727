import { Processor } from '@nestjs/bullmq';
import { workerOptionsFor, type JobHandlers } from '@pod/queue';
import { ContractProcessor, pingHandler } from '@pod/worker-runtime';

const QUEUE = 'matcher';

/** Matches Etsy receipts to Printify orders (match runs arrive in a later issue). */
@Processor(QUEUE, workerOptionsFor(QUEUE))
export class MatcherProcessor extends ContractProcessor<typeof QUEUE> {
  readonly queue = QUEUE;
  readonly handlers: JobHandlers<typeof QUEUE> = {
    ping: pingHandler(QUEUE),
  };
}
