import { Controller, Logger } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { EVENT_NAMES } from '@pod/contracts';
import { shortReason } from '@pod/queue';
import { Public } from '../auth/public.decorator';
import { isJobCompletedEvent, LastCompletionStore } from './last-completion.store';

/**
 * Hears domain events on the Redis transport (the pattern gets REDIS_PREFIX from the
 * transport, see PrefixedRedisServer). No HTTP routes; @Public() only so no session guard
 * ever applies to it.
 */
@Public()
@Controller()
export class JobEventsController {
  private readonly logger = new Logger(JobEventsController.name);

  constructor(private readonly store: LastCompletionStore) {}

  @EventPattern(EVENT_NAMES.jobCompleted)
  async onJobCompleted(@Payload() payload: unknown): Promise<void> {
    if (!isJobCompletedEvent(payload)) {
      this.logger.warn('Ignored a malformed job.completed event');
      return;
    }
    try {
      await this.store.record(payload);
    } catch (error) {
      // A hint lost: the operator view shows an older completion until the next one.
      this.logger.warn(`Could not record job.completed for ${payload.queue}: ${shortReason(error)}`);
    }
  }
}
