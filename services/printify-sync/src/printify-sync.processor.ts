import { Processor } from '@nestjs/bullmq';
import { UnrecoverableError } from 'bullmq';
import { workerOptionsFor, type JobHandlers } from '@pod/queue';
import { ContractProcessor, pingHandler } from '@pod/worker-runtime';

const QUEUE = 'printify-sync';

/** Pulls Printify orders page by page (sync jobs arrive in a later issue). */
@Processor(QUEUE, workerOptionsFor(QUEUE))
export class PrintifySyncProcessor extends ContractProcessor<typeof QUEUE> {
  readonly queue = QUEUE;
  readonly handlers: JobHandlers<typeof QUEUE> = {
    ping: pingHandler(QUEUE),
    'sync': () => Promise.reject(new UnrecoverableError('not built yet')),
    'refresh-order': () => Promise.reject(new UnrecoverableError('not built yet')),
  };
}
