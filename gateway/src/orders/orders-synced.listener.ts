import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { PinoLogger } from 'nestjs-pino';
import { EVENT_NAMES, type OrdersSyncedEvent } from '@pod/contracts';
import { isUuid } from '@pod/db';
import { Public } from '../auth/public.decorator';
import { MatchRunsService } from './match-runs.service';

/**
 * Hears `orders.synced` (a sync run or a webhook refresh added or changed orders) and queues a
 * match run for that user. The sync worker already queued it (ADR 0037), so this usually joins
 * that run and re-adds its job id; it matters when the worker's own queueing failed. Every
 * gateway replica hears each event; the one-queued-run-per-user index makes them agree on one
 * run. No HTTP routes; @Public() so no session guard applies.
 */
@Public()
@Controller()
export class OrdersSyncedListener {
  constructor(
    private readonly runs: MatchRunsService,
    private readonly logger: PinoLogger,
  ) {
    logger.setContext(OrdersSyncedListener.name);
  }

  @EventPattern(EVENT_NAMES.ordersSynced)
  async onOrdersSynced(@Payload() payload: unknown): Promise<void> {
    const userId = (payload as Partial<OrdersSyncedEvent> | null)?.userId;
    if (typeof userId !== 'string' || !isUuid(userId)) {
      this.logger.warn({ event: 'match.bad_event' }, 'ignored a malformed orders.synced event');
      return;
    }
    try {
      await this.runs.queue(userId, 'sync');
    } catch (error) {
      // A hint lost (Redis or PostgreSQL away, or the user deleted): the next trigger matches.
      this.logger.warn(
        { event: 'match.queue_failed', userId, reason: (error as Error)?.name },
        'could not queue a match run after a sync',
      );
    }
  }
}
