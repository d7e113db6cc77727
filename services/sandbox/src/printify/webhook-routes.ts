import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SandboxState } from '../core/state';
import type { Tenant } from '../data/tenant';
import { sendPrintifyEvent } from '../webhooks/dispatch';
import {
  MAX_SUBSCRIPTIONS_PER_SHOP,
  PRINTIFY_TOPICS,
  subscriptionJson,
  type PrintifySubscription,
  type PrintifyTopic,
} from '../webhooks/printify-subscriptions';
import { deliveryUrlProblem } from '../webhooks/targets';
import { error, guardPrintify, validationError } from './guard';

/** A webhook secret's longest accepted length (the docs suggest `openssl rand -hex 20`, 40 characters). */
const MAX_SECRET_LENGTH = 256;

type Body = Record<string, unknown>;

function bodyOf(value: unknown): Body | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Body) : null;
}

/**
 * Webhook subscriptions (integrations.md b.5), per tenant and shop, behind Printify's bearer
 * token, User-Agent rule, fault knobs and the account's rate limit, like every Printify call:
 *
 * - `GET /v1/shops/{shop_id}/webhooks.json`: `[{topic, url, shop_id, id}]` (never the secret);
 * - `POST` the same path with `{topic, url, secret?}`: creates one;
 * - `PUT /v1/shops/{shop_id}/webhooks/{id}.json` with `{url}`: moves it;
 * - `DELETE /v1/shops/{shop_id}/webhooks/{id}.json?host=<host>`: the host must be the webhook
 *   URL's (with or without its port: which one Printify compares is UNCONFIRMED);
 * - `POST /v1/shops/{shop_id}/webhooks/{id}/simulate`: sends a test event whose `resource` is the
 *   request body.
 *
 * UNCONFIRMED, the sandbox's choices: answers are 200 (create and move return the subscription,
 * delete and simulate `{}`); an unknown id is 404 `Webhook not found.`; validation errors are the
 * documented 8103 shape.
 */
export function registerPrintifyWebhooks(app: FastifyInstance, state: SandboxState): void {
  const book = state.webhooks.printify;

  const shopOf = (tenant: Tenant, raw: string, reply: FastifyReply): number | null => {
    const shopId = /^\d{1,19}$/.test(raw) ? Number(raw) : NaN;
    if (!tenant.printifyShops.some((s) => s.id === shopId)) {
      error(reply, 404, 'Shop not found.');
      return null;
    }
    return shopId;
  };

  const subscriptionOf = (
    tenant: Tenant,
    shopId: number,
    raw: string,
    reply: FastifyReply,
    suffix: '.json' | '',
  ): PrintifySubscription | null => {
    const id = suffix === '' ? raw : raw.endsWith(suffix) ? raw.slice(0, -suffix.length) : '';
    const subscription = id ? book.get(tenant.id, shopId, id) : undefined;
    if (!subscription) {
      error(reply, 404, 'Webhook not found.');
      return null;
    }
    return subscription;
  };

  app.get('/v1/shops/:shop_id/webhooks.json', async (request, reply) => {
    const tenant = guardPrintify(state, request, reply);
    if (!tenant) return reply;
    const shopId = shopOf(tenant, (request.params as { shop_id: string }).shop_id, reply);
    if (shopId === null) return reply;
    return book.list(tenant.id, shopId).map(subscriptionJson);
  });

  app.post('/v1/shops/:shop_id/webhooks.json', async (request, reply) => {
    const tenant = guardPrintify(state, request, reply);
    if (!tenant) return reply;
    const shopId = shopOf(tenant, (request.params as { shop_id: string }).shop_id, reply);
    if (shopId === null) return reply;
    const body = bodyOf(request.body);
    if (!body) return validationError(reply, 'topic', 'The topic field is required.');
    if (typeof body.topic !== 'string' || !(PRINTIFY_TOPICS as readonly string[]).includes(body.topic)) {
      return validationError(
        reply,
        'topic',
        body.topic === undefined ? 'The topic field is required.' : 'The selected topic is invalid.',
      );
    }
    const urlProblem = deliveryUrlProblem(body.url, state.webhooks.allowedHosts);
    if (urlProblem) return validationError(reply, 'url', urlProblem);
    const secret = body.secret;
    if (
      secret !== undefined &&
      secret !== null &&
      (typeof secret !== 'string' || secret.length === 0 || secret.length > MAX_SECRET_LENGTH)
    ) {
      return validationError(reply, 'secret', `The secret must be a string of 1 to ${MAX_SECRET_LENGTH} characters.`);
    }
    if (book.count(tenant.id, shopId) >= MAX_SUBSCRIPTIONS_PER_SHOP)
      return validationError(reply, 'topic', `A shop may have at most ${MAX_SUBSCRIPTIONS_PER_SHOP} webhooks.`);
    const created = book.create({
      tenantId: tenant.id,
      shopId,
      topic: body.topic as PrintifyTopic,
      url: body.url as string,
      secret: typeof secret === 'string' ? secret : null,
    });
    return subscriptionJson(created);
  });

  app.put('/v1/shops/:shop_id/webhooks/:webhook_file', async (request, reply) => {
    const tenant = guardPrintify(state, request, reply);
    if (!tenant) return reply;
    const params = request.params as { shop_id: string; webhook_file: string };
    const shopId = shopOf(tenant, params.shop_id, reply);
    if (shopId === null) return reply;
    const subscription = subscriptionOf(tenant, shopId, params.webhook_file, reply, '.json');
    if (!subscription) return reply;
    const body = bodyOf(request.body);
    const urlProblem = deliveryUrlProblem(body?.url, state.webhooks.allowedHosts);
    if (urlProblem) return validationError(reply, 'url', urlProblem);
    subscription.url = body?.url as string;
    return subscriptionJson(subscription);
  });

  app.delete('/v1/shops/:shop_id/webhooks/:webhook_file', async (request, reply) => {
    const tenant = guardPrintify(state, request, reply);
    if (!tenant) return reply;
    const params = request.params as { shop_id: string; webhook_file: string };
    const shopId = shopOf(tenant, params.shop_id, reply);
    if (shopId === null) return reply;
    const subscription = subscriptionOf(tenant, shopId, params.webhook_file, reply, '.json');
    if (!subscription) return reply;
    const host = (request.query as { host?: unknown }).host;
    if (typeof host !== 'string' || host === '') return validationError(reply, 'host', 'The host field is required.');
    const url = new URL(subscription.url);
    if (host.toLowerCase() !== url.host.toLowerCase() && host.toLowerCase() !== url.hostname.toLowerCase()) {
      return validationError(reply, 'host', "The host does not match the webhook URL's host.");
    }
    book.remove(tenant.id, subscription.id);
    return {};
  });

  app.post('/v1/shops/:shop_id/webhooks/:webhook_id/simulate', async (request, reply) => {
    const tenant = guardPrintify(state, request, reply);
    if (!tenant) return reply;
    const params = request.params as { shop_id: string; webhook_id: string };
    const shopId = shopOf(tenant, params.shop_id, reply);
    if (shopId === null) return reply;
    const subscription = subscriptionOf(tenant, shopId, params.webhook_id, reply, '');
    if (!subscription) return reply;
    const resource = request.body ?? {};
    if (subscription.blockedUntilMs > state.nowMs()) {
      // No deliveries arrive while a webhook is blocked (b.5), test events included.
      state.webhooks.log.add({
        at: new Date(state.nowMs()).toISOString(),
        provider: 'printify',
        tenantId: tenant.id,
        subscriptionId: subscription.id,
        event: subscription.topic,
        deliveryId: '',
        url: subscription.url,
        attempt: 0,
        status: null,
        error: 'blocked',
        outcome: 'dropped',
      });
    } else {
      sendPrintifyEvent(state, subscription, resource);
    }
    return {};
  });
}
