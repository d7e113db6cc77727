import { Logger } from '@nestjs/common';
import { ServerRedis, Transport, type CustomStrategy, type RedisOptions } from '@nestjs/microservices';
import type { AppConfig } from '@pod/config';
import { redisOptionsFromUrl } from './redis-connection';

type EventsConfig = Pick<AppConfig, 'REDIS_URL' | 'REDIS_PREFIX'>;
export type EventsRedisOptions = NonNullable<RedisOptions['options']>;

/**
 * Redis options for the events transport, client and server alike. Nest's Redis transport
 * stops reconnecting unless `retryAttempts` is set, so it is effectively unbounded here;
 * `maxRetriesPerRequest: null` keeps a subscription queued through an outage instead of
 * dropping it after 20 attempts.
 */
export function eventsRedisOptions(config: EventsConfig): EventsRedisOptions {
  const { host, port, username, password, db, tls } = redisOptionsFromUrl(config.REDIS_URL);
  return {
    host,
    port,
    username,
    password,
    db,
    tls,
    retryAttempts: Number.MAX_SAFE_INTEGER,
    retryDelay: 1_000,
    maxRetriesPerRequest: null,
  };
}

/** For ClientsModule / ClientProxyFactory: the publishing side (`Transport.REDIS`). */
export function eventsClientOptions(config: EventsConfig): RedisOptions & { transport: Transport.REDIS } {
  return { transport: Transport.REDIS, options: eventsRedisOptions(config) };
}

/**
 * Nest's Redis server with two changes:
 * - every string pattern of an `@EventPattern()` is subscribed as `<REDIS_PREFIX>:<pattern>`
 *   (the channel publishers use, see eventChannel), so handlers name events without the prefix
 *   and stacks sharing a Redis never hear each other;
 * - it subscribes at once and lets ioredis replay the subscriptions when Redis arrives, where
 *   Nest's server fails `startAllMicroservices()` and never subscribes if Redis is down at boot.
 */
export class PrefixedRedisServer extends ServerRedis {
  private readonly startupLogger = new Logger('EventsTransport');

  constructor(
    private readonly channelPrefix: string,
    options: EventsRedisOptions,
  ) {
    super(options);
  }

  override addHandler(
    pattern: unknown,
    ...rest: Parameters<ServerRedis['addHandler']> extends [unknown, ...infer R] ? R : never
  ): void {
    const channel = typeof pattern === 'string' ? `${this.channelPrefix}:${pattern}` : pattern;
    super.addHandler(channel, ...rest);
  }

  override start(callback?: () => void): void {
    for (const client of [this.subClient, this.pubClient]) {
      client.connect().catch((error: unknown) => {
        this.startupLogger.warn(`Redis is not reachable yet; events will be heard once it is (${String(error)})`);
      });
    }
    this.bindEvents(this.subClient, this.pubClient);
    callback?.();
  }
}

/**
 * For the listening side (the gateway): `app.connectMicroservice(redisEventsTransportOptions(config))`
 * then `app.startAllMicroservices()`. The strategy is Nest's Redis transport (see PrefixedRedisServer).
 */
export function redisEventsTransportOptions(config: EventsConfig): CustomStrategy {
  return { strategy: new PrefixedRedisServer(config.REDIS_PREFIX, eventsRedisOptions(config)) };
}
