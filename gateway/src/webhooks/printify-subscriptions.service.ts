import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { AppConfig } from '@pod/config';
import { ConnectionsRepository, type WebhookStatus } from '@pod/db';
import { NotFoundError, PRINTIFY_ORDER_TOPICS, ProviderError } from '@pod/integrations';
import { withTimeout } from '@pod/queue';
import { PRINTIFY_API, type PrintifyWebhooksPort } from '../connections/provider-ports';

/** Where a connection's deliveries go, under WEBHOOK_PUBLIC_URL. */
export const PRINTIFY_WEBHOOK_PATH = '/api/webhooks/printify/';
/** A connect or disconnect waits at most this long for Printify (the rest goes on, or fails, in the background). */
export const SUBSCRIPTION_DEADLINE_MS = 8_000;

type Auth = { token: string; accountKey: string };

/** The key of one of our webhook URLs (on any host: WEBHOOK_PUBLIC_URL may have changed since), or null. */
export function webhookKeyOf(url: string): string | null {
  if (!URL.canParse(url)) return null;
  const path = new URL(url).pathname;
  const at = path.lastIndexOf(PRINTIFY_WEBHOOK_PATH);
  return at === -1 ? null : path.slice(at + PRINTIFY_WEBHOOK_PATH.length) || null;
}

/**
 * Printify webhook subscriptions of a connection. On connect (when WEBHOOK_PUBLIC_URL is set): a
 * fresh unguessable path key and signing secret (stored encrypted), one subscription per order
 * topic to `$WEBHOOK_PUBLIC_URL/api/webhooks/printify/<key>`, then the connection's previous
 * subscriptions are removed. On disconnect: its subscriptions are removed (with the `host` rule).
 * Neither ever fails the connect or the disconnect: a failure is logged and recorded in
 * `webhook_status` ('failed'), and the scheduled syncs keep the data current without webhooks.
 */
@Injectable()
export class PrintifySubscriptionsService {
  constructor(
    @Inject(PRINTIFY_API) private readonly printify: PrintifyWebhooksPort,
    private readonly connections: ConnectionsRepository,
    private readonly config: AppConfig,
    private readonly logger: PinoLogger,
  ) {
    logger.setContext(PrintifySubscriptionsService.name);
  }

  /** Subscribes the user's Printify connection; the resulting status, or null when webhooks are off. Never throws. */
  async register(userId: string): Promise<WebhookStatus | null> {
    const base = this.config.webhookPublicBase;
    if (!base) return null;
    const work = this.subscribe(userId, base);
    try {
      return await withTimeout(work, SUBSCRIPTION_DEADLINE_MS);
    } catch (error) {
      // Past the deadline the calls go on; their own outcome is recorded when they end.
      this.logger.warn(
        { event: 'printify.webhooks_failed', userId, reason: reasonOf(error) },
        'Printify webhook subscriptions not made; syncs continue on schedule',
      );
      return 'failed';
    }
  }

  /** Removes the user's subscriptions, before the connection (and its token) goes. Never throws. */
  async unregister(userId: string): Promise<number> {
    try {
      return await withTimeout(this.unsubscribe(userId), SUBSCRIPTION_DEADLINE_MS);
    } catch (error) {
      this.logger.warn(
        { event: 'printify.webhooks_unsubscribe_failed', userId, reason: reasonOf(error) },
        'Printify webhook subscriptions not removed',
      );
      return 0;
    }
  }

  private async subscribe(userId: string, base: string): Promise<WebhookStatus | null> {
    const stored = await this.connections.readPrintifyToken(userId);
    const shopId = stored?.connection.shopId;
    if (!stored || !shopId || stored.connection.status !== 'connected') return null;
    const previous = await this.connections.readPrintifyWebhook(userId);
    const key = randomBytes(32).toString('base64url');
    // As the docs suggest (`openssl rand -hex 20`).
    const secret = randomBytes(20).toString('hex');
    if (!(await this.connections.setPrintifyWebhook(userId, { key, secret, status: 'pending' }))) return null;
    const auth: Auth = { token: stored.token, accountKey: stored.connection.externalAccountId ?? `user:${userId}` };
    try {
      const existing = (await this.printify.listWebhooks(auth, shopId)).webhooks;
      const url = `${base}${PRINTIFY_WEBHOOK_PATH}${key}`;
      for (const topic of PRINTIFY_ORDER_TOPICS)
        await this.printify.createWebhook(auth, shopId, { topic, url, secret });
      await this.connections.markPrintifyWebhook(userId, key, 'registered');
      // The connection's earlier subscriptions (an older key) go once the new ones exist.
      const stale = existing.filter((hook) => previous?.key && webhookKeyOf(hook.url) === previous.key);
      await this.remove(auth, shopId, stale, userId);
      this.logger.info(
        { event: 'printify.webhooks_registered', userId, topics: PRINTIFY_ORDER_TOPICS.length, replaced: stale.length },
        'Printify webhook subscriptions made',
      );
      return 'registered';
    } catch (error) {
      await this.connections.markPrintifyWebhook(userId, key, 'failed').catch(() => undefined);
      throw error;
    }
  }

  private async unsubscribe(userId: string): Promise<number> {
    const hook = await this.connections.readPrintifyWebhook(userId);
    if (!hook?.key) return 0;
    const stored = await this.connections.readPrintifyToken(userId);
    const shopId = stored?.connection.shopId;
    if (!stored || !shopId) return 0;
    const auth: Auth = { token: stored.token, accountKey: stored.connection.externalAccountId ?? `user:${userId}` };
    const ours = (await this.printify.listWebhooks(auth, shopId)).webhooks.filter(
      (w) => webhookKeyOf(w.url) === hook.key,
    );
    const removed = await this.remove(auth, shopId, ours, userId);
    this.logger.info({ event: 'printify.webhooks_removed', userId, removed }, 'Printify webhook subscriptions removed');
    return removed;
  }

  /** Deletes each subscription with its URL's host (b.5); one already gone counts as removed. */
  private async remove(
    auth: Auth,
    shopId: string,
    hooks: Array<{ id: string; url: string }>,
    userId: string,
  ): Promise<number> {
    let removed = 0;
    for (const hook of hooks) {
      try {
        await this.printify.deleteWebhook(auth, shopId, hook.id, new URL(hook.url).host);
        removed++;
      } catch (error) {
        if (error instanceof NotFoundError) {
          removed++;
          continue;
        }
        this.logger.warn(
          { event: 'printify.webhook_delete_failed', userId, reason: reasonOf(error) },
          'a Printify webhook subscription was not removed',
        );
      }
    }
    return removed;
  }
}

/** A short, secret-free reason: the provider error's code, else the error's name. */
function reasonOf(error: unknown): string {
  if (error instanceof ProviderError) return `${error.code}${error.status ? ` ${error.status}` : ''}`;
  return error instanceof Error ? error.name : 'unknown';
}
