import { randomBytes } from 'node:crypto';

/** Every topic integrations.md b.5 lists. */
export const PRINTIFY_TOPICS = [
  'order:created',
  'order:updated',
  'order:sent-to-production',
  'order:shipment:created',
  'order:shipment:delivered',
  'shop:disconnected',
  'product:created',
  'product:updated',
  'product:deleted',
  'product:publish:started',
  'personalization-preview-task:processed',
] as const;
export type PrintifyTopic = (typeof PRINTIFY_TOPICS)[number];

/** A bound on one shop's subscriptions (memory; the docs name no limit). */
export const MAX_SUBSCRIPTIONS_PER_SHOP = 50;

/**
 * After a refused delivery Printify retries up to 3 times, then blocks the webhook for 1 hour
 * (b.5). The docs give no retry intervals: these are the sandbox's (UNCONFIRMED). Both scale by
 * the live `webhookTimeScale`.
 */
export const PRINTIFY_RETRY_DELAYS_SECONDS = [10, 60, 300] as const;
export const PRINTIFY_BLOCK_SECONDS = 3600;

export interface PrintifySubscription {
  id: string;
  tenantId: string;
  shopId: number;
  topic: PrintifyTopic;
  url: string;
  /** Never shown by any API answer: only used to sign deliveries. */
  secret: string | null;
  /** No delivery is sent before this (epoch ms); 0 when not blocked. */
  blockedUntilMs: number;
}

/** As GET /v1/shops/{shop_id}/webhooks.json lists it: `{topic, url, shop_id, id}`. */
export function subscriptionJson(subscription: PrintifySubscription): {
  topic: string;
  url: string;
  shop_id: number;
  id: string;
} {
  return { topic: subscription.topic, url: subscription.url, shop_id: subscription.shopId, id: subscription.id };
}

/** Each tenant's Printify webhook subscriptions, per shop. */
export class PrintifySubscriptions {
  private readonly byTenant = new Map<string, PrintifySubscription[]>();

  list(tenantId: string, shopId: number): PrintifySubscription[] {
    return (this.byTenant.get(tenantId) ?? []).filter((s) => s.shopId === shopId);
  }

  all(tenantId: string): PrintifySubscription[] {
    return [...(this.byTenant.get(tenantId) ?? [])];
  }

  hasAny(tenantId: string): boolean {
    return (this.byTenant.get(tenantId)?.length ?? 0) > 0;
  }

  count(tenantId: string, shopId: number): number {
    return this.list(tenantId, shopId).length;
  }

  create(input: Omit<PrintifySubscription, 'id' | 'blockedUntilMs'>): PrintifySubscription {
    // Printify ids are 24 hex digits (like its order ids).
    const subscription: PrintifySubscription = { ...input, id: randomBytes(12).toString('hex'), blockedUntilMs: 0 };
    const list = this.byTenant.get(input.tenantId) ?? [];
    list.push(subscription);
    this.byTenant.set(input.tenantId, list);
    return subscription;
  }

  get(tenantId: string, shopId: number, id: string): PrintifySubscription | undefined {
    return this.list(tenantId, shopId).find((s) => s.id === id);
  }

  /** The live subscription with this id (deliveries re-read it before every attempt). */
  byId(tenantId: string, id: string): PrintifySubscription | undefined {
    return this.byTenant.get(tenantId)?.find((s) => s.id === id);
  }

  remove(tenantId: string, id: string): boolean {
    const list = this.byTenant.get(tenantId);
    if (!list) return false;
    const index = list.findIndex((s) => s.id === id);
    if (index < 0) return false;
    list.splice(index, 1);
    return true;
  }

  forTopic(tenantId: string, shopId: number, topic: PrintifyTopic): PrintifySubscription[] {
    return this.list(tenantId, shopId).filter((s) => s.topic === topic);
  }

  dropTenant(tenantId: string): void {
    this.byTenant.delete(tenantId);
  }
}
