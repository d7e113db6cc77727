import { Global, Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { AppConfig } from '@pod/config';
import { TokenCipher } from '@pod/crypto';
import { ConnectionsRepository, TableStatisticsRepository } from '@pod/db';
import { RedisRateLimiter, withLimiterWaitHook, type ProviderLogger, type RateLimiter } from '@pod/integrations';
import type { ProcessMetrics } from '@pod/observability';
import { DomainEventPublisher } from '@pod/queue';
import { workerShutdownSignal, WORKER_LOGGER, WORKER_METRICS } from '@pod/worker-runtime';
import { SyncRunner } from '../sync-runner';
import { DEFAULT_LOOKBACKS, type SyncLookbacks } from '../streams/windows';
import { MATCH_QUEUER, matchQueuerProviders, type MatchQueuer } from './match-queuer';

export const LIMITER_REDIS = Symbol('LIMITER_REDIS');
export const SYNC_LOOKBACKS = Symbol('SYNC_LOOKBACKS');
/** The shared limiter, reporting its waits to the process's metrics: what the provider clients take. */
export const PROVIDER_LIMITER = Symbol('PROVIDER_LIMITER');

/** The limiter's own Redis connection (keys `<REDIS_PREFIX>:ratelimit:…`, shared with the gateway and every replica). */
@Injectable()
export class LimiterRedisCloser implements OnApplicationShutdown {
  constructor(@Inject(LIMITER_REDIS) private readonly redis: Redis) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

export function providerLoggerFrom(logger: Logger): ProviderLogger {
  return {
    info: (fields, message) => logger.info(fields, message),
    warn: (fields, message) => logger.warn(fields, message),
  };
}

/** How often a process checks the synced tables' statistics (a catalog read) while it syncs. */
const STATISTICS_CHECK_EVERY_MS = 2_000;

/** Before a page: analyzes the synced tables whose statistics lag far behind (at most one check every 2 s). */
function statisticsKeeper(statistics: TableStatisticsRepository, logger: Logger): () => Promise<void> {
  let lastCheck = 0;
  return async () => {
    if (Date.now() - lastCheck < STATISTICS_CHECK_EVERY_MS) return;
    lastCheck = Date.now();
    const analyzed = await statistics.analyzeStale();
    if (analyzed.length > 0)
      logger.info(
        { event: 'sync.analyzed', tables: analyzed, ms: Date.now() - lastCheck },
        'refreshed the planner statistics of tables the sync fills',
      );
  };
}

/**
 * What both sync workers share: the token cipher, the provider rate limiter (one bucket per
 * Etsy connection or Printify account across every replica), the connections repository, the
 * matcher queue's producer (MATCH_QUEUER: a sync queues its user's match run itself) and the
 * SyncRunner that walks a run's streams page by page.
 */
@Global()
@Module({
  providers: [
    {
      provide: TokenCipher,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => TokenCipher.fromConfig(config),
    },
    {
      provide: LIMITER_REDIS,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => {
        const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2, connectTimeout: 2_000 });
        // Failures surface on the calls (the job retries); ioredis would otherwise print every reconnect.
        redis.on('error', () => undefined);
        return redis;
      },
    },
    LimiterRedisCloser,
    {
      provide: RedisRateLimiter,
      inject: [LIMITER_REDIS, AppConfig],
      useFactory: (redis: Redis, config: AppConfig) => new RedisRateLimiter({ redis, keyPrefix: config.REDIS_PREFIX }),
    },
    {
      provide: PROVIDER_LIMITER,
      inject: [RedisRateLimiter, WORKER_METRICS],
      useFactory: (limiter: RedisRateLimiter, metrics: ProcessMetrics): RateLimiter =>
        withLimiterWaitHook(limiter, metrics.onLimiterWait),
    },
    {
      provide: ConnectionsRepository,
      inject: [DataSource, TokenCipher],
      useFactory: (dataSource: DataSource, cipher: TokenCipher) => new ConnectionsRepository(dataSource, cipher),
    },
    { provide: SYNC_LOOKBACKS, useValue: DEFAULT_LOOKBACKS satisfies SyncLookbacks },
    ...matchQueuerProviders,
    {
      provide: SyncRunner,
      inject: [DataSource, ConnectionsRepository, DomainEventPublisher, MATCH_QUEUER, WORKER_LOGGER, WORKER_METRICS],
      useFactory: (
        dataSource: DataSource,
        connections: ConnectionsRepository,
        events: DomainEventPublisher,
        queueMatch: MatchQueuer,
        logger: Logger,
        metrics: ProcessMetrics,
      ) =>
        new SyncRunner({
          dataSource,
          markConnection: (userId, provider, status) => connections.markStatus(userId, provider, status),
          publish: (name, payload) => events.publish(name, payload),
          queueMatch,
          logger: {
            info: (fields, message) => logger.info(fields, message),
            warn: (fields, message) => logger.warn(fields, message),
          },
          shutdown: workerShutdownSignal,
          onPage: metrics.onSyncPage,
          beforePage: statisticsKeeper(new TableStatisticsRepository(dataSource), logger),
        }),
    },
  ],
  exports: [
    TokenCipher,
    RedisRateLimiter,
    PROVIDER_LIMITER,
    ConnectionsRepository,
    SYNC_LOOKBACKS,
    SyncRunner,
    MATCH_QUEUER,
  ],
})
export class SyncWorkerKitModule {}
