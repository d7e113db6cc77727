import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { AppConfig, effectiveProviders } from '@pod/config';
import { createEtsyTokenService } from '@pod/connections';
import { TokenCipher } from '@pod/crypto';
import { EtsyClient, type RateLimiter } from '@pod/integrations';
import { queueRegistration } from '@pod/queue';
import { PROVIDER_LIMITER, providerLoggerFrom, SyncWorkerKitModule } from '@pod/sync';
import type { ProcessMetrics } from '@pod/observability';
import { WORKER_LOGGER, WORKER_METRICS } from '@pod/worker-runtime';
import { EtsySyncProcessor } from './etsy-sync.processor';
import { ETSY_CLIENT, ETSY_TOKENS, EtsySyncService } from './etsy-sync.service';

@Module({
  imports: [BullModule.registerQueue(queueRegistration('etsy-sync')), SyncWorkerKitModule],
  providers: [
    {
      provide: ETSY_CLIENT,
      inject: [AppConfig, PROVIDER_LIMITER, WORKER_LOGGER, WORKER_METRICS],
      useFactory: (config: AppConfig, limiter: RateLimiter, logger: Logger, metrics: ProcessMetrics) => {
        const { etsy } = effectiveProviders(config);
        return new EtsyClient(
          {
            apiUrl: etsy.apiUrl,
            connectUrl: etsy.connectUrl,
            keystring: etsy.keystring,
            sharedSecret: etsy.sharedSecret,
            redirectUri: etsy.redirectUri,
            perSecondLimit: config.ETSY_REQUESTS_PER_SECOND,
            timeouts: { headersMs: config.PROVIDER_HEADERS_TIMEOUT_MS, bodyMs: config.PROVIDER_BODY_TIMEOUT_MS },
          },
          { limiter, logger: providerLoggerFrom(logger), metrics: metrics.requestHooks },
        );
      },
    },
    {
      provide: ETSY_TOKENS,
      inject: [DataSource, TokenCipher, ETSY_CLIENT, WORKER_LOGGER],
      useFactory: (dataSource: DataSource, cipher: TokenCipher, etsy: EtsyClient, logger: Logger) =>
        createEtsyTokenService({ dataSource, cipher, etsy, logger: providerLoggerFrom(logger) }),
    },
    EtsySyncService,
    EtsySyncProcessor,
  ],
})
export class EtsySyncModule {}
