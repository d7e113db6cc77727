import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import { jobOptionsFor } from '@pod/queue';
import { WORKER_LOGGER } from '@pod/worker-runtime';

/** At most one start-up refresh waits or runs at a time, however many replicas start together. */
export const FX_STARTUP_DEDUPLICATION_ID = 'fx-rate-startup';

/**
 * Every fx-rate process asks for one refresh when it starts, so an empty table gets the whole
 * history (and a table left behind while the worker was down gets its gap filled) without
 * waiting for the daily schedule. Replicas starting together make one job (BullMQ
 * deduplication); the job itself decides what to load.
 */
@Injectable()
export class FxRateStartup implements OnApplicationBootstrap {
  constructor(
    @InjectQueue('fx-rate') private readonly queue: Queue,
    @Inject(WORKER_LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    // In the background: with Redis down the add waits for it while the worker reports 503.
    void this.queue
      .add(
        'refresh-rates',
        { reason: 'startup' },
        { ...jobOptionsFor('fx-rate', 'refresh-rates'), deduplication: { id: FX_STARTUP_DEDUPLICATION_ID } },
      )
      .then((job) =>
        this.logger.info(
          { event: 'fx.startup_refresh_enqueued', jobId: job.id },
          'start-up refresh of the ECB rates enqueued',
        ),
      )
      .catch((error: unknown) =>
        this.logger.warn(
          { event: 'fx.startup_refresh_failed', reason: (error as Error)?.message },
          'could not enqueue the start-up refresh; the schedule will',
        ),
      );
  }
}
