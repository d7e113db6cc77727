import { Module } from '@nestjs/common';
import { JobEventsController } from './job-events.controller';
import { LastCompletionStore } from './last-completion.store';

/**
 * The gateway's listening side of domain events. Its handlers run only once main.ts connects
 * the transport: `app.connectMicroservice(redisEventsTransportOptions(config))` and
 * `await app.startAllMicroservices()` (see @pod/queue).
 */
@Module({
  controllers: [JobEventsController],
  providers: [LastCompletionStore],
  exports: [LastCompletionStore],
})
export class EventsModule {}
