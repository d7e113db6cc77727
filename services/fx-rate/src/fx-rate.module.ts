import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { AppConfig, effectiveProviders } from '@pod/config';
import { EcbClient } from '@pod/integrations';
import type { ProcessMetrics } from '@pod/observability';
import { queueRegistration } from '@pod/queue';
import { providerLoggerFrom } from '@pod/sync';
import { WORKER_LOGGER, WORKER_METRICS } from '@pod/worker-runtime';
import { FxRateStartup } from './fx-rate-startup';
import { FxRateProcessor } from './fx-rate.processor';
import { ECB_CLIENT, FxRatesService } from './fx-rates.service';

@Module({
  // The matcher queue too: new rates queue its refigure-profits job.
  imports: [BullModule.registerQueue(queueRegistration('fx-rate'), queueRegistration('matcher'))],
  providers: [
    {
      provide: ECB_CLIENT,
      inject: [AppConfig, WORKER_LOGGER, WORKER_METRICS],
      useFactory: (config: AppConfig, logger: Logger, metrics: ProcessMetrics) =>
        new EcbClient(
          {
            ratesUrl: effectiveProviders(config).ecb.ratesUrl,
            timeouts: { headersMs: config.PROVIDER_HEADERS_TIMEOUT_MS, bodyMs: config.PROVIDER_BODY_TIMEOUT_MS },
          },
          { logger: providerLoggerFrom(logger), metrics: metrics.requestHooks },
        ),
    },
    FxRatesService,
    FxRateProcessor,
    FxRateStartup,
  ],
})
export class FxRateModule {}
