import { Transport } from '@nestjs/microservices';
import { bullConnection, bullPrefix, probeConnection, reconnectDelayMs, redisOptionsFromUrl } from './redis-connection';
import { eventsClientOptions, eventsRedisOptions, PrefixedRedisServer } from './events-transport';

const config = { REDIS_URL: 'redis://127.0.0.1:6380/2', REDIS_PREFIX: 'run42' };

describe('Redis connection options', () => {
  it('reads host, port, credentials, database and TLS from REDIS_URL', () => {
    expect(redisOptionsFromUrl('redis://127.0.0.1:6379')).toEqual({ host: '127.0.0.1', port: 6379 });
    expect(redisOptionsFromUrl('rediss://user:p%40ss@cache.example:6390/3')).toEqual({
      host: 'cache.example',
      port: 6390,
      username: 'user',
      password: 'p@ss',
      db: 3,
      tls: {},
    });
    expect(redisOptionsFromUrl('redis://[::1]:6379').host).toBe('::1');
  });

  it('backs off reconnects from 250 ms to at most 10 s, with jitter, and never gives up', () => {
    expect(reconnectDelayMs(1, () => 0)).toBe(250);
    expect(reconnectDelayMs(2, () => 0)).toBe(500);
    expect(reconnectDelayMs(1_000, () => 0)).toBe(10_000);
    expect(reconnectDelayMs(1_000, () => 1)).toBe(7_500);
  });

  it('lets workers wait through outages and makes producers fail fast', () => {
    const worker = bullConnection(config, 'worker');
    expect(worker).toMatchObject({ host: '127.0.0.1', port: 6380, db: 2, maxRetriesPerRequest: null });
    const producer = bullConnection(config, 'producer');
    expect(producer).toMatchObject({ maxRetriesPerRequest: 1, enableOfflineQueue: false });
    // The third reconnect waits 1 s less up to 25% jitter: never null, which would stop reconnecting.
    expect(producer.retryStrategy?.(3)).toBeGreaterThanOrEqual(750);
    expect(producer.retryStrategy?.(3)).toBeLessThanOrEqual(1_000);
    expect(probeConnection(config)).toMatchObject({ enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    // BullMQ rejects ioredis key prefixes; its own prefix carries REDIS_PREFIX instead.
    expect(worker.keyPrefix).toBeUndefined();
    expect(bullPrefix(config)).toBe('run42:bull');
  });
});

describe('the events transport', () => {
  it('keeps reconnecting (Nest stops unless retryAttempts is set)', () => {
    expect(eventsRedisOptions(config)).toMatchObject({
      host: '127.0.0.1',
      port: 6380,
      db: 2,
      retryAttempts: Number.MAX_SAFE_INTEGER,
    });
    expect(eventsClientOptions(config)).toEqual({ transport: Transport.REDIS, options: eventsRedisOptions(config) });
  });

  it('subscribes handlers under the stack prefix', () => {
    const server = new PrefixedRedisServer('run42', eventsRedisOptions(config));
    const handler = Object.assign(async () => undefined, {});
    server.addHandler('job.completed', handler, true);
    expect([...server.getHandlers().keys()]).toEqual(['run42:job.completed']);
    expect(server.getHandlerByPattern('run42:job.completed')).toBe(handler);
    expect(server.getHandlerByPattern('job.completed')).toBeNull();
  });
});
