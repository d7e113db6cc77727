import { createHmac } from 'node:crypto';

/** The events integrations.md a.12 lists (2026 docs). */
export const ETSY_EVENTS = ['order.paid', 'order.shipped', 'order.canceled', 'order.delivered'] as const;
export type EtsyEvent = (typeof ETSY_EVENTS)[number];

/**
 * Etsy's retries after failures (a.12: "roughly immediate, +5 s, +5 min, +30 min, +2 h, +5 h,
 * +10 h, +10 h"), read as eight retries after the first attempt: entry k is the wait after the
 * (k+1)-th attempt failed. Scaled by the live `webhookTimeScale`. Any 2xx answer is a success
 * (the Standard Webhooks rule).
 */
export const ETSY_RETRY_DELAYS_SECONDS = [0, 5, 300, 1800, 7200, 18_000, 36_000, 36_000] as const;

/**
 * An Etsy webhook subscription as the developer portal holds it: where to post and the signing
 * secret (`whsec_` + base64). Etsy manages them in the portal, not through the API, so the
 * sandbox takes them from its settings (global) or its admin API (global or per tenant).
 */
export interface EtsySubscription {
  url: string;
  secret: string;
  events: EtsyEvent[];
}

/** Why a portal secret is unusable, or null: `whsec_` then base64 of at least 16 bytes. */
export function etsySecretProblem(secret: unknown): string | null {
  if (typeof secret !== 'string' || !/^whsec_[A-Za-z0-9+/]+={0,2}$/.test(secret))
    return 'secret must be "whsec_" followed by base64';
  if (Buffer.from(secret.slice('whsec_'.length), 'base64').length < 16)
    return 'secret must hold at least 16 bytes after "whsec_"';
  return null;
}

/**
 * The Standard Webhooks signature (a.12): HMAC-SHA256 over "{id}.{timestamp}.{raw body}" keyed
 * with the base64-decoded secret (its `whsec_` prefix removed), base64-encoded, as `v1,<sig>`.
 */
export function etsySignature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The app-wide subscription and per-tenant ones (a tenant's own wins). */
export class EtsySubscriptions {
  private global: EtsySubscription | null = null;
  private readonly perTenant = new Map<string, EtsySubscription>();

  constructor(initial: EtsySubscription | null = null) {
    this.global = initial;
  }

  forTenant(tenantId: string): EtsySubscription | null {
    return this.perTenant.get(tenantId) ?? this.global;
  }

  getGlobal(): EtsySubscription | null {
    return this.global;
  }

  getTenant(tenantId: string): EtsySubscription | null {
    return this.perTenant.get(tenantId) ?? null;
  }

  setGlobal(subscription: EtsySubscription | null): void {
    this.global = subscription;
  }

  setTenant(tenantId: string, subscription: EtsySubscription | null): void {
    if (subscription) this.perTenant.set(tenantId, subscription);
    else this.perTenant.delete(tenantId);
  }

  dropTenant(tenantId: string): void {
    this.perTenant.delete(tenantId);
  }
}

/** What the admin API shows of a subscription: never the secret. */
export function etsySubscriptionJson(
  subscription: EtsySubscription | null,
): { url: string; events: EtsyEvent[]; secretSet: true } | null {
  return subscription ? { url: subscription.url, events: subscription.events, secretSet: true } : null;
}
