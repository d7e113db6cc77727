import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { AppConfig, effectiveProviders } from '@pod/config';
import { PrintifyClient, type RateLimiter } from '@pod/integrations';
import { queueRegistration } from '@pod/queue';
import { PROVIDER_LIMITER, providerLoggerFrom, SyncWorkerKitModule } from '@pod/sync';
import type { ProcessMetrics } from '@pod/observability';
import { WORKER_LOGGER, WORKER_METRICS } from '@pod/worker-runtime';
import { PrintifySyncProcessor } from './printify-sync.processor';
import { PRINTIFY_CLIENT, PrintifySyncService } from './printify-sync.service';

@Module({
  imports: [BullModule.registerQueue(queueRegistration('printify-sync')), SyncWorkerKitModule],
  providers: [
    {
      provide: PRINTIFY_CLIENT,
      inject: [AppConfig, PROVIDER_LIMITER, WORKER_LOGGER, WORKER_METRICS],
      useFactory: (config: AppConfig, limiter: RateLimiter, logger: Logger, metrics: ProcessMetrics) =>
        new PrintifyClient(
          {
            apiUrl: effectiveProviders(config).printify.apiUrl,
            perMinuteLimit: config.PRINTIFY_REQUESTS_PER_MINUTE,
            timeouts: { headersMs: config.PROVIDER_HEADERS_TIMEOUT_MS, bodyMs: config.PROVIDER_BODY_TIMEOUT_MS },
          },
          { limiter, logger: providerLoggerFrom(logger), metrics: metrics.requestHooks },
        ),
    },
    PrintifySyncService,
    PrintifySyncProcessor,
  ],
})
export class PrintifySyncModule {}
