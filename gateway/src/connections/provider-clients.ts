import { Inject, Injectable, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import Redis from 'ioredis';
import { PinoLogger } from 'nestjs-pino';
import { AppConfig, effectiveProviders } from '@pod/config';
import {
  createPkcePair,
  EtsyClient,
  PrintifyClient,
  randomState,
  RedisRateLimiter,
  withLimiterWaitHook,
  type ProviderLogger,
} from '@pod/integrations';
import { ProcessMetrics } from '@pod/observability';
import { ETSY_OAUTH, PKCE, PRINTIFY_API, type EtsyOAuthPort, type PkcePort, type PrintifyPort } from './provider-ports';

export const LIMITER_REDIS = Symbol('LIMITER_REDIS');

/**
 * The shared provider rate limiter's own Redis connection: its keys carry REDIS_PREFIX
 * explicitly (`<prefix>:ratelimit:…`), so the workers and the gateway share the same buckets.
 */
@Injectable()
export class LimiterRedisCloser implements OnApplicationShutdown {
  constructor(@Inject(LIMITER_REDIS) private readonly redis: Redis) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/**
 * The gateway calls providers while a person waits (at most HTTP_REQUEST_TIMEOUT_MS): short
 * timeouts and one quick retry, unlike the workers' patient defaults.
 */
export const INTERACTIVE_CALLS = {
  timeouts: { headersMs: 10_000, bodyMs: 10_000 },
  retry: { maxAttempts: 2, baseDelayMs: 250, maxDelayMs: 1_000, maxRetryAfterMs: 2_000 },
} as const;

function providerLogger(logger: PinoLogger): ProviderLogger {
  return {
    info: (fields, message) => logger.info(fields, message),
    warn: (fields, message) => logger.warn(fields, message),
  };
}

/** The real clients from @pod/integrations, pointed at the live hosts or, in demo mode, the sandbox. */
export const providerClientProviders: Provider[] = [
  {
    provide: LIMITER_REDIS,
    inject: [AppConfig],
    useFactory: (config: AppConfig) =>
      new Redis(config.REDIS_URL, {
        maxRetriesPerRequest: 1,
        enableOfflineQueue: false,
        connectTimeout: 2_000,
        lazyConnect: false,
      }),
  },
  LimiterRedisCloser,
  {
    provide: RedisRateLimiter,
    inject: [LIMITER_REDIS, AppConfig],
    useFactory: (redis: Redis, config: AppConfig) => new RedisRateLimiter({ redis, keyPrefix: config.REDIS_PREFIX }),
  },
  {
    provide: ETSY_OAUTH,
    inject: [AppConfig, RedisRateLimiter, PinoLogger, ProcessMetrics],
    useFactory: (
      config: AppConfig,
      limiter: RedisRateLimiter,
      logger: PinoLogger,
      metrics: ProcessMetrics,
    ): EtsyOAuthPort => {
      logger.setContext('EtsyClient');
      const { etsy } = effectiveProviders(config);
      return new EtsyClient(
        {
          apiUrl: etsy.apiUrl,
          connectUrl: etsy.connectUrl,
          keystring: etsy.keystring,
          sharedSecret: etsy.sharedSecret,
          redirectUri: etsy.redirectUri,
          ...INTERACTIVE_CALLS,
        },
        {
          limiter: withLimiterWaitHook(limiter, metrics.onLimiterWait),
          logger: providerLogger(logger),
          metrics: metrics.requestHooks,
        },
      );
    },
  },
  {
    provide: PRINTIFY_API,
    inject: [AppConfig, RedisRateLimiter, PinoLogger, ProcessMetrics],
    useFactory: (
      config: AppConfig,
      limiter: RedisRateLimiter,
      logger: PinoLogger,
      metrics: ProcessMetrics,
    ): PrintifyPort => {
      logger.setContext('PrintifyClient');
      return new PrintifyClient(
        { apiUrl: effectiveProviders(config).printify.apiUrl, ...INTERACTIVE_CALLS },
        {
          limiter: withLimiterWaitHook(limiter, metrics.onLimiterWait),
          logger: providerLogger(logger),
          metrics: metrics.requestHooks,
        },
      );
    },
  },
  { provide: PKCE, useValue: { createPkcePair, randomState } satisfies PkcePort },
];
