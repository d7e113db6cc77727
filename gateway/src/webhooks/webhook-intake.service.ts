import { createHash } from 'node:crypto';
import { HttpStatus, Injectable } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { AppConfig } from '@pod/config';
import { TokenDecryptError } from '@pod/crypto';
import type { Provider } from '@pod/contracts';
import { ConnectionsRepository, type PrintifyWebhookTarget } from '@pod/db';
import { ApiException } from '../http/api-exception';
import { QueueProducer } from '../queues/queue-producer';
import { DeliveryLedger } from './delivery-ledger';
import { parseEtsyDelivery, parsePrintifyDelivery, type PrintifyDelivery } from './payloads';
import {
  timestampProblem,
  verifyEtsySignature,
  verifyPrintifySignature,
  type StandardWebhookHeaders,
} from './signatures';

/** What a delivery led to; the provider only needs the 200. */
export type WebhookOutcome = 'enqueued' | 'duplicate' | 'ignored';
export interface WebhookAck {
  received: true;
  outcome: WebhookOutcome;
}

/** A Printify webhook key as we issue them: 32 random bytes, base64url. */
export const WEBHOOK_KEY_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** Printify deliveries older than this are acknowledged and skipped (a replay past the dedupe window). */
export const PRINTIFY_MAX_AGE_MS = 24 * 3600 * 1000;
/** The Etsy events that change a receipt (a.12). */
export const ETSY_ORDER_EVENTS: readonly string[] = [
  'order.paid',
  'order.shipped',
  'order.canceled',
  'order.delivered',
];

const ack = (outcome: WebhookOutcome): WebhookAck => ({ received: true, outcome });
const signatureInvalid = () =>
  new ApiException(
    HttpStatus.UNAUTHORIZED,
    'webhook_signature_invalid',
    'The delivery signature is missing or does not match.',
  );
const payloadInvalid = (message: string) =>
  new ApiException(HttpStatus.BAD_REQUEST, 'webhook_payload_invalid', message);
const notFound = (message: string) => new ApiException(HttpStatus.NOT_FOUND, 'not_found', message);

/** A BullMQ job id (no ':') per target and delivery: the same delivery enqueued twice is one job. */
export function refreshJobId(kind: 'order' | 'receipt', ...parts: string[]): string {
  return `refresh-${kind}-${createHash('sha256').update(parts.join('\n')).digest('base64url').slice(0, 32)}`;
}

/**
 * Takes in provider deliveries: the signature is checked over the raw body first (constant
 * time), then staleness and the body; a delivery id seen before (Redis, every replica) is
 * acknowledged without work; otherwise the targeted refresh job is enqueued and 200 comes back at
 * once. Printify blocks a webhook after refused deliveries (b.5), so everything well-formed and
 * signed gets 200, duplicates and events we do not use included. Logs carry ids and outcomes,
 * never a signature, secret or key.
 */
@Injectable()
export class WebhookIntakeService {
  constructor(
    private readonly connections: ConnectionsRepository,
    private readonly ledger: DeliveryLedger,
    private readonly producer: QueueProducer,
    private readonly config: AppConfig,
    private readonly logger: PinoLogger,
  ) {
    logger.setContext(WebhookIntakeService.name);
  }

  /** POST /api/webhooks/printify/:connectionKey. */
  async printify(key: string, signature: string | undefined, rawBody: Buffer, nowMs = Date.now()): Promise<WebhookAck> {
    const target = WEBHOOK_KEY_PATTERN.test(key) ? await this.printifyTarget(key) : null;
    if (!target?.secret) throw notFound('No webhook is registered at this address.');
    if (!verifyPrintifySignature(rawBody, signature, target.secret)) {
      this.logger.warn(
        {
          event: 'webhook.rejected',
          provider: 'printify',
          userId: target.userId,
          reason: signature ? 'signature_mismatch' : 'signature_missing',
        },
        'Printify delivery refused',
      );
      throw signatureInvalid();
    }
    const delivery = parsePrintifyDelivery(rawBody);
    if (typeof delivery === 'string') {
      this.logger.warn(
        { event: 'webhook.rejected', provider: 'printify', userId: target.userId, reason: 'payload' },
        'Printify delivery refused',
      );
      throw payloadInvalid(delivery);
    }
    const skip = this.printifySkipReason(delivery, target, nowMs);
    if (skip) return this.done('printify', target.userId, delivery.type, 'ignored', skip);
    if (!(await this.ledger.claim('printify', target.connectionId, delivery.id)))
      return this.done('printify', target.userId, delivery.type, 'duplicate');
    try {
      await this.producer.enqueue(
        'printify-sync',
        'refresh-order',
        { userId: target.userId, shopId: target.shopId as string, orderId: delivery.resource.id },
        { jobId: refreshJobId('order', target.connectionId, delivery.resource.id, delivery.id) },
      );
    } catch (error) {
      await this.ledger.release('printify', target.connectionId, delivery.id);
      throw error;
    }
    return this.done('printify', target.userId, delivery.type, 'enqueued');
  }

  /** POST /api/webhooks/etsy. */
  async etsy(headers: Partial<StandardWebhookHeaders>, rawBody: Buffer, nowMs = Date.now()): Promise<WebhookAck> {
    const secret = this.config.ETSY_WEBHOOK_SECRET;
    if (!secret) throw notFound('Etsy webhooks are not set up here.');
    const { id, timestamp, signature } = headers;
    if (
      !id ||
      !/^[A-Za-z0-9_.-]{1,200}$/.test(id) ||
      !timestamp ||
      !/^\d{1,12}$/.test(timestamp) ||
      !signature ||
      signature.length > 2_000
    ) {
      this.logger.warn({ event: 'webhook.rejected', provider: 'etsy', reason: 'headers' }, 'Etsy delivery refused');
      throw signatureInvalid();
    }
    if (!verifyEtsySignature(rawBody, { id, timestamp, signature }, secret)) {
      this.logger.warn(
        { event: 'webhook.rejected', provider: 'etsy', reason: 'signature_mismatch' },
        'Etsy delivery refused',
      );
      throw signatureInvalid();
    }
    const age = timestampProblem(Number(timestamp), nowMs);
    if (age) {
      this.logger.warn(
        { event: 'webhook.rejected', provider: 'etsy', reason: `timestamp_${age}` },
        'Etsy delivery refused',
      );
      throw new ApiException(
        HttpStatus.UNAUTHORIZED,
        'webhook_stale',
        'The delivery timestamp is too far from the current time.',
      );
    }
    const delivery = parseEtsyDelivery(rawBody);
    if (typeof delivery === 'string') {
      this.logger.warn({ event: 'webhook.rejected', provider: 'etsy', reason: 'payload' }, 'Etsy delivery refused');
      throw payloadInvalid(delivery);
    }
    if (!ETSY_ORDER_EVENTS.includes(delivery.eventType))
      return this.done('etsy', null, delivery.eventType, 'ignored', 'event');
    const owners = await this.etsyOwners(delivery.shopId);
    // A shop nobody (or nobody still connected) has: nothing to refresh, and nothing to retry.
    if (owners.length === 0) return this.done('etsy', null, delivery.eventType, 'ignored', 'unknown_shop');
    if (!(await this.ledger.claim('etsy', 'app', id))) return this.done('etsy', null, delivery.eventType, 'duplicate');
    try {
      for (const owner of owners) {
        await this.producer.enqueue(
          'etsy-sync',
          'refresh-receipt',
          { userId: owner.userId, shopId: delivery.shopId, receiptId: delivery.receiptId },
          { jobId: refreshJobId('receipt', owner.connectionId, delivery.receiptId, id) },
        );
      }
    } catch (error) {
      // Jobs already added keep their ids, so the retry adds only the missing ones.
      await this.ledger.release('etsy', 'app', id);
      throw error;
    }
    return this.done('etsy', owners.length === 1 ? owners[0].userId : null, delivery.eventType, 'enqueued');
  }

  private async printifyTarget(key: string): Promise<PrintifyWebhookTarget | null> {
    try {
      return await this.connections.findPrintifyWebhookTarget(key);
    } catch (error) {
      if (error instanceof TokenDecryptError) {
        // A secret that no longer decrypts (APP_SECRET changed): the delivery cannot be checked.
        this.logger.warn(
          { event: 'webhook.secret_unreadable', provider: 'printify', reason: error.reason },
          'stored webhook secret unreadable',
        );
        throw signatureInvalid();
      }
      throw this.unavailable('printify', error);
    }
  }

  private async etsyOwners(shopId: string): Promise<{ connectionId: string; userId: string }[]> {
    try {
      return await this.connections.listEtsyConnectionsOfShop(shopId);
    } catch (error) {
      throw this.unavailable('etsy', error);
    }
  }

  /** PostgreSQL did not answer: 503, so the provider delivers again later (never a 500). */
  private unavailable(provider: Provider, error: unknown): ApiException {
    this.logger.warn(
      { event: 'webhook.unavailable', provider, err: { name: (error as Error)?.name } },
      'webhook delivery could not be looked up',
    );
    return new ApiException(
      HttpStatus.SERVICE_UNAVAILABLE,
      'service_unavailable',
      'The delivery could not be taken in; try again shortly.',
    );
  }

  /** Why a signed, well-formed Printify delivery leads to no job, or null when it does. */
  private printifySkipReason(delivery: PrintifyDelivery, target: PrintifyWebhookTarget, nowMs: number): string | null {
    if (!delivery.type.startsWith('order:') || delivery.resource.type !== 'order') return 'topic';
    if (!/^[A-Za-z0-9]{1,64}$/.test(delivery.resource.id)) return 'order_id';
    if (target.status !== 'connected' || !target.shopId) return 'not_connected';
    // Subscriptions are per shop; one of another shop of the account is not the synced one.
    if (delivery.resource.shopId !== null && delivery.resource.shopId !== target.shopId) return 'other_shop';
    if (delivery.createdAt && nowMs - delivery.createdAt.getTime() > PRINTIFY_MAX_AGE_MS) return 'stale';
    return null;
  }

  private done(
    provider: Provider,
    userId: string | null,
    event: string,
    outcome: WebhookOutcome,
    reason?: string,
  ): WebhookAck {
    this.logger.info(
      { event: 'webhook.received', provider, userId: userId ?? undefined, topic: event.slice(0, 100), outcome, reason },
      'webhook delivery taken in',
    );
    return ack(outcome);
  }
}
