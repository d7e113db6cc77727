import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { SandboxState } from '../core/state';
import type { Tenant } from '../data/tenant';
import { printifyTime } from '../printify/order-json';
import { ETSY_RETRY_DELAYS_SECONDS, etsySignature, type EtsyEvent } from './etsy-subscriptions';
import {
  PRINTIFY_BLOCK_SECONDS,
  PRINTIFY_RETRY_DELAYS_SECONDS,
  type PrintifySubscription,
  type PrintifyTopic,
} from './printify-subscriptions';

const USER_AGENT = 'PodProfit-Sandbox-Webhooks/1.0';

/**
 * One Printify delivery (b.5): the envelope `{id, type, created_at, resource}`, signed with
 * `X-Pfy-Signature: sha256=<lowercase hex HMAC-SHA256 of the raw body>` when the subscription
 * has a secret. Only a 200 answer counts; after 3 refused retries the subscription is blocked
 * for an hour, and no delivery is sent while it is.
 */
export function sendPrintifyEvent(state: SandboxState, subscription: PrintifySubscription, resource: unknown): void {
  const envelope = {
    id: randomUUID(),
    type: subscription.topic,
    created_at: printifyTime(state.nowSeconds()),
    resource,
  };
  const body = JSON.stringify(envelope);
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': USER_AGENT };
  if (subscription.secret)
    headers['x-pfy-signature'] = `sha256=${createHmac('sha256', subscription.secret).update(body).digest('hex')}`;
  const { tenantId, id } = subscription;
  state.webhooks.sender.send({
    provider: 'printify',
    tenantId,
    subscriptionId: id,
    event: subscription.topic,
    deliveryId: envelope.id,
    body,
    // Re-read before every attempt: a PUT moves the URL, a DELETE or a block stops deliveries.
    target: () => {
      const live = state.webhooks.printify.byId(tenantId, id);
      return live && live.blockedUntilMs <= state.nowMs() ? live.url : null;
    },
    headers: () => headers,
    retryDelaysSeconds: PRINTIFY_RETRY_DELAYS_SECONDS,
    accepted: (status) => status === 200,
    onGiveUp: () => {
      const live = state.webhooks.printify.byId(tenantId, id);
      if (!live) return false;
      live.blockedUntilMs = state.nowMs() + Math.round(PRINTIFY_BLOCK_SECONDS * 1000 * state.live.webhookTimeScale);
      return true;
    },
  });
}

/** Sends `topic` to every subscription of the shop that wants it (none while blocked). */
export function publishPrintify(
  state: SandboxState,
  tenant: Tenant,
  shopId: number,
  topic: PrintifyTopic,
  resource: unknown,
): number {
  const now = state.nowMs();
  let sent = 0;
  for (const subscription of state.webhooks.printify.forTopic(tenant.id, shopId, topic)) {
    if (subscription.blockedUntilMs > now) {
      state.webhooks.log.add({
        at: new Date(now).toISOString(),
        provider: 'printify',
        tenantId: tenant.id,
        subscriptionId: subscription.id,
        event: topic,
        deliveryId: '',
        url: subscription.url,
        attempt: 0,
        status: null,
        error: 'blocked',
        outcome: 'dropped',
      });
      continue;
    }
    sendPrintifyEvent(state, subscription, resource);
    sent++;
  }
  return sent;
}

/**
 * One Etsy delivery (a.12): the flat body `{event_type, resource_url, shop_id}` with the
 * Standard Webhooks headers. `webhook-id` stays the same on every retry; each attempt carries
 * its own `webhook-timestamp` and the signature over it. Any 2xx is a success.
 */
export function publishEtsy(state: SandboxState, tenant: Tenant, event: EtsyEvent, receiptId: number): number {
  const subscription = state.webhooks.etsy.forTenant(tenant.id);
  if (!subscription || !subscription.events.includes(event)) return 0;
  const shopId = tenant.shop.shopId;
  const body = JSON.stringify({
    event_type: event,
    resource_url: `${state.selfUrl()}/v3/application/shops/${shopId}/receipts/${receiptId}`,
    shop_id: shopId,
  });
  const webhookId = `msg_${randomBytes(18).toString('base64url')}`;
  const tenantId = tenant.id;
  state.webhooks.sender.send({
    provider: 'etsy',
    tenantId,
    subscriptionId: state.webhooks.etsy.getTenant(tenantId) ? `tenant:${tenantId}` : 'global',
    event,
    deliveryId: webhookId,
    body,
    // The portal's subscription as it is when the attempt goes out (a removed one stops them).
    target: () => (state.tenants.get(tenantId) ? (state.webhooks.etsy.forTenant(tenantId)?.url ?? null) : null),
    headers: () => {
      const timestamp = state.nowSeconds();
      const secret = state.webhooks.etsy.forTenant(tenantId)?.secret ?? subscription.secret;
      return {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        'webhook-id': webhookId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': etsySignature(secret, webhookId, timestamp, body),
      };
    },
    retryDelaysSeconds: ETSY_RETRY_DELAYS_SECONDS,
    accepted: (status) => status >= 200 && status < 300,
  });
  return 1;
}
