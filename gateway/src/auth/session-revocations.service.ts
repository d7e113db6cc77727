import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import Redis from 'ioredis';
import { AppConfig } from '@pod/config';
import { shortReason } from '@pod/queue';
import { REDIS } from '../core/core.module';
import { SessionCache } from './session-cache';

/** What one gateway tells the others when sessions end. */
export type Revocation = { kind: 'session'; idHash: string } | { kind: 'user'; userId: string } | { kind: 'all' };

export function parseRevocation(message: string): Revocation | null {
  try {
    const value = JSON.parse(message) as Record<string, unknown>;
    if (value?.kind === 'session' && typeof value.idHash === 'string') return { kind: 'session', idHash: value.idHash };
    if (value?.kind === 'user' && typeof value.userId === 'string') return { kind: 'user', userId: value.userId };
    if (value?.kind === 'all') return { kind: 'all' };
  } catch {
    // Not JSON: handled below like any message we cannot read.
  }
  return null;
}

/**
 * Keeps every gateway's SessionCache honest: evicts here at once, then publishes the revocation
 * on `<REDIS_PREFIX>:session.revoked`, which every gateway (this one too) hears on its own
 * subscriber connection. Pub/sub drops what is published while a subscriber reconnects, so the
 * cache answers only while the subscription is up, and forgets everything whenever it goes
 * down or comes back; the cache's TTL bounds a message lost in the instant before a drop is noticed.
 */
@Injectable()
export class SessionRevocationsService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(SessionRevocationsService.name);
  readonly cache: SessionCache;
  private readonly channel: string;
  private readonly subscriber: Redis;

  constructor(
    config: AppConfig,
    @Inject(REDIS) private readonly redis: Redis,
  ) {
    this.cache = new SessionCache(config.SESSION_CACHE_TTL_MS);
    this.channel = `${config.REDIS_PREFIX}:session.revoked`;
    // Its own connection: a subscribed connection can run no other command. Reconnects forever.
    this.subscriber = new Redis(config.REDIS_URL, {
      lazyConnect: true,
      maxRetriesPerRequest: null,
      connectTimeout: 2_000,
    });
  }

  onModuleInit(): void {
    if (!this.cache.configured) return; // SESSION_CACHE_TTL_MS=0: nothing kept, nothing to hear
    this.subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.channel) this.apply(parseRevocation(message));
    });
    this.subscriber.on('ready', () => void this.listen());
    this.subscriber.on('close', () => {
      if (this.cache.enabled)
        this.logger.warn(
          'Session revocations unheard (Redis subscriber disconnected): reading every session from PostgreSQL',
        );
      this.cache.setLive(false);
    });
    this.subscriber.on('error', () => undefined); // 'close' follows; ioredis reconnects.
    this.subscriber
      .connect()
      .catch((error: unknown) =>
        this.logger.warn(
          `Redis is not reachable yet; sessions are read from PostgreSQL until it is (${shortReason(error)})`,
        ),
      );
  }

  async onApplicationShutdown(): Promise<void> {
    this.cache.setLive(false);
    await this.subscriber.quit().catch(() => this.subscriber.disconnect());
  }

  /** One session ended (logout, expiry). */
  revokeSession(idHash: string): Promise<void> {
    return this.broadcast({ kind: 'session', idHash });
  }

  /** Sessions of the user ended or the user changed (password change, settings). */
  revokeUser(userId: string): Promise<void> {
    return this.broadcast({ kind: 'user', userId });
  }

  /** Accounts went in bulk (the demo sweep). */
  revokeAll(): Promise<void> {
    return this.broadcast({ kind: 'all' });
  }

  private async broadcast(revocation: Revocation): Promise<void> {
    this.apply(revocation);
    try {
      await this.redis.publish(this.channel, JSON.stringify(revocation));
    } catch (error) {
      // The row is already gone; another gateway still trusts its copy for at most the TTL,
      // and with Redis away its subscriber is down too, so it reads PostgreSQL anyway.
      this.logger.warn(`Could not broadcast a session revocation: ${shortReason(error)}`);
    }
  }

  private async listen(): Promise<void> {
    try {
      // ioredis resubscribes on reconnect; subscribing again is harmless and says when it is done.
      await this.subscriber.subscribe(this.channel);
      this.cache.setLive(true);
    } catch (error) {
      this.logger.warn(`Could not subscribe to session revocations: ${shortReason(error)}`);
    }
  }

  private apply(revocation: Revocation | null): void {
    if (revocation?.kind === 'session') this.cache.evictSession(revocation.idHash);
    else if (revocation?.kind === 'user') this.cache.evictUser(revocation.userId);
    else this.cache.flush(); // 'all', or a message we cannot read: forget everything to be safe.
  }
}
