import { createHash } from 'node:crypto';
import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import type { Provider } from '@pod/contracts';
import { withTimeout } from '@pod/queue';
import { REDIS } from '../core/core.module';
import { ApiException } from '../http/api-exception';

/**
 * How long a delivery id is remembered: Etsy's retries span about 28 hours (a.12), Printify's
 * far less; a replay inside this window is acknowledged but not enqueued again. (Past it, a
 * Printify replay is also older than PRINTIFY_MAX_AGE_MS and skipped; an Etsy one is stale.)
 */
export const DELIVERY_MEMORY_SECONDS = 72 * 3600;
const REDIS_TIMEOUT_MS = 2_000;

/**
 * Delivery ids already taken in, in Redis (`SET NX EX`) so every gateway replica agrees. Keys
 * sit under REDIS_PREFIX (the client's keyPrefix) and hold a hash, never the raw id.
 */
@Injectable()
export class DeliveryLedger {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  /** True the first time (scope, id) is claimed within the window; false for a duplicate. 503 when Redis does not answer. */
  async claim(provider: Provider, scope: string, deliveryId: string): Promise<boolean> {
    const answer = await this.call(() =>
      this.redis.set(keyOf(provider, scope, deliveryId), '1', 'EX', DELIVERY_MEMORY_SECONDS, 'NX'),
    );
    return answer === 'OK';
  }

  /** Forgets a claim whose work could not be enqueued, so the provider's retry is taken in. */
  async release(provider: Provider, scope: string, deliveryId: string): Promise<void> {
    await withTimeout(this.redis.del(keyOf(provider, scope, deliveryId)), REDIS_TIMEOUT_MS).catch(() => undefined);
  }

  private async call<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await withTimeout(operation(), REDIS_TIMEOUT_MS);
    } catch {
      throw new ApiException(
        HttpStatus.SERVICE_UNAVAILABLE,
        'service_unavailable',
        'The delivery could not be recorded; try again shortly.',
      );
    }
  }
}

function keyOf(provider: Provider, scope: string, deliveryId: string): string {
  return `webhooks:delivery:${provider}:${createHash('sha256').update(`${scope}\n${deliveryId}`).digest('base64url')}`;
}
