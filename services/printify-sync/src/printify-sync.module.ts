import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { AppConfig, effectiveProviders } from '@pod/config';
import { PrintifyClient, RedisRateLimiter } from '@pod/integrations';
import { queueRegistration } from '@pod/queue';
import { providerLoggerFrom, SyncWorkerKitModule } from '@pod/sync';
import { WORKER_LOGGER } from '@pod/worker-runtime';
import { PrintifySyncProcessor } from './printify-sync.processor';
import { PRINTIFY_CLIENT, PrintifySyncService } from './printify-sync.service';

@Module({
  imports: [BullModule.registerQueue(queueRegistration('printify-sync')), SyncWorkerKitModule],
  providers: [
    {
      provide: PRINTIFY_CLIENT,
      inject: [AppConfig, RedisRateLimiter, WORKER_LOGGER],
      useFactory: (config: AppConfig, limiter: RedisRateLimiter, logger: Logger) =>
        new PrintifyClient(
          {
            apiUrl: effectiveProviders(config).printify.apiUrl,
            perMinuteLimit: config.PRINTIFY_REQUESTS_PER_MINUTE,
            timeouts: { headersMs: config.PROVIDER_HEADERS_TIMEOUT_MS, bodyMs: config.PROVIDER_BODY_TIMEOUT_MS },
          },
          { limiter, logger: providerLoggerFrom(logger) },
        ),
    },
    PrintifySyncService,
    PrintifySyncProcessor,
  ],
})
export class PrintifySyncModule {}
