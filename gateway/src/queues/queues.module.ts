import { BullModule } from '@nestjs/bullmq';
import { Global, Module } from '@nestjs/common';
import { AppConfig } from '@pod/config';
import { QUEUE_NAMES } from '@pod/contracts';
import { bullConnection, bullPrefix, queueRegistration } from '@pod/queue';
import { QueueProducer } from './queue-producer';
import { QueueRegistry } from './queue-registry';

/**
 * The gateway's side of BullMQ: one Queue per contract row, producer connections that fail
 * fast while Redis is away (so requests get 503s), and the QueueProducer for handlers.
 * Needs AppConfig provided globally (CoreModule).
 */
@Global()
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        connection: bullConnection(config, 'producer'),
        prefix: bullPrefix(config),
      }),
    }),
    BullModule.registerQueue(...QUEUE_NAMES.map(queueRegistration)),
  ],
  providers: [QueueRegistry, QueueProducer],
  exports: [QueueRegistry, QueueProducer],
})
export class QueuesModule {}
