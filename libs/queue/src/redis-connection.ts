import type { RedisOptions } from 'ioredis';
import type { AppConfig } from '@pod/config';

type RedisConfig = Pick<AppConfig, 'REDIS_URL' | 'REDIS_PREFIX'>;

/** REDIS_URL (redis:// or rediss://) as ioredis options, so every client reads it the same way. */
export function redisOptionsFromUrl(redisUrl: string): RedisOptions {
  const url = new URL(redisUrl);
  const db = url.pathname.replace(/^\//, '');
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : 6379,
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    ...(db ? { db: Number(db) } : {}),
    ...(url.protocol === 'rediss:' ? { tls: {} } : {}),
  };
}

/**
 * Delay before the n-th reconnect attempt: doubling from 250 ms, capped at 10 s, with up to
 * 25% jitter so replicas do not reconnect in lockstep. Never gives up: a worker that lost
 * Redis must come back by itself, not crash-loop.
 */
export function reconnectDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(10_000, 250 * 2 ** Math.min(Math.max(attempt - 1, 0), 10));
  return Math.round(base * (1 - 0.25 * random()));
}

/** Every BullMQ key of the stack lives under `<REDIS_PREFIX>:bull`, apart from our own keys. */
export function bullPrefix(config: Pick<AppConfig, 'REDIS_PREFIX'>): string {
  return `${config.REDIS_PREFIX}:bull`;
}

/**
 * ioredis options for BullMQ.
 * - worker: commands wait through an outage (`maxRetriesPerRequest: null`, which BullMQ
 *   requires for blocking connections) and run once Redis is back.
 * - producer (the gateway): commands fail at once while Redis is away, so an HTTP request
 *   gets a 503 instead of hanging on an offline queue.
 * No ioredis `keyPrefix`: BullMQ refuses it and prefixes keys itself (see bullPrefix).
 */
export function bullConnection(config: RedisConfig, role: 'worker' | 'producer'): RedisOptions {
  const base: RedisOptions = {
    ...redisOptionsFromUrl(config.REDIS_URL),
    connectTimeout: 5_000,
    retryStrategy: (attempt) => reconnectDelayMs(attempt),
  };
  return role === 'worker'
    ? { ...base, maxRetriesPerRequest: null, enableOfflineQueue: true }
    : { ...base, maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2_000 };
}

/**
 * A small client for health checks and dependency waits: it fails fast while disconnected
 * (so a check reports the outage instead of hanging) and keeps reconnecting behind the scenes.
 */
export function probeConnection(config: RedisConfig): RedisOptions {
  return {
    ...redisOptionsFromUrl(config.REDIS_URL),
    connectTimeout: 2_000,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: (attempt) => reconnectDelayMs(attempt),
  };
}
