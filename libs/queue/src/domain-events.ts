import { Inject, Injectable, Logger, Module } from '@nestjs/common';
import { ClientsModule, type ClientProxy } from '@nestjs/microservices';
import { lastValueFrom, timeout } from 'rxjs';
import { AppConfig } from '@pod/config';
import { eventChannel, type EventName, type EventPayloads } from '@pod/contracts';
import { loggableErrorMessage } from '@pod/observability';
import { eventsClientOptions } from './events-transport';

export const EVENTS_CLIENT = Symbol('EVENTS_CLIENT');

/** Longest a publisher waits for Redis to take an event before giving up on it. */
const EMIT_TIMEOUT_MS = 1_000;

/**
 * Publishes domain events on the Redis transport. Events are hints: a failure is logged and
 * reported as `false`, never thrown, so a job never fails because its news was lost.
 */
@Injectable()
export class DomainEventPublisher {
  private readonly logger = new Logger(DomainEventPublisher.name);

  constructor(
    @Inject(EVENTS_CLIENT) private readonly client: ClientProxy,
    private readonly config: AppConfig,
  ) {}

  async publish<N extends EventName>(name: N, payload: EventPayloads[N]): Promise<boolean> {
    try {
      const sent$ = this.client.emit(eventChannel(this.config.REDIS_PREFIX, name), payload);
      await lastValueFrom(sent$.pipe(timeout(EMIT_TIMEOUT_MS)), { defaultValue: undefined });
      return true;
    } catch (error) {
      this.logger.warn(`Could not publish ${name} (${describe(error)}); listeners will miss this hint`);
      return false;
    }
  }
}

function describe(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return `no answer within ${EMIT_TIMEOUT_MS} ms`;
  return loggableErrorMessage(error);
}

/** Needs AppConfig provided globally (the gateway's CoreModule, the worker runtime). */
@Module({
  imports: [
    ClientsModule.registerAsync([
      { name: EVENTS_CLIENT, inject: [AppConfig], useFactory: (config: AppConfig) => eventsClientOptions(config) },
    ]),
  ],
  providers: [DomainEventPublisher],
  exports: [DomainEventPublisher],
})
export class DomainEventsModule {}
