import { MutationSchedule } from '../admin/mutations';
import type { SandboxOptions } from '../config';
import { TenantRegistry } from '../data/tenant-registry';
import { AuthorizationRequests } from '../etsy/authorization-requests';
import { OAuthStore } from '../etsy/oauth-store';
import { EtsySubscriptions } from '../webhooks/etsy-subscriptions';
import { PrintifySubscriptions } from '../webhooks/printify-subscriptions';
import { DeliveryLog, WebhookSender } from '../webhooks/sender';
import { allowedWebhookHosts } from '../webhooks/targets';
import { FaultBook } from './faults';
import { SlidingWindowLimiter } from './rate-limit';
import { RequestLog } from './request-log';

/** Limits and lifetimes that tests may change while the sandbox runs (PATCH /__sandbox/settings). */
export interface LiveSettings {
  accessTokenTtlSeconds: number;
  etsyQps: number;
  etsyQpd: number;
  printifyRpm: number;
  /** Multiplies webhook retry delays and Printify's 1-hour block (tests shrink it). */
  webhookTimeScale: number;
}

/** Webhook subscriptions (Printify's per shop, Etsy's portal ones) and the deliveries they send. */
export interface WebhookHub {
  printify: PrintifySubscriptions;
  etsy: EtsySubscriptions;
  log: DeliveryLog;
  sender: WebhookSender;
  /** Hosts deliveries may go to besides loopback (see webhooks/targets.ts). */
  allowedHosts: Set<string>;
}

/** Everything one sandbox instance holds, all in memory. */
export interface SandboxState {
  options: SandboxOptions;
  live: LiveSettings;
  tenants: TenantRegistry;
  oauth: OAuthStore;
  faults: FaultBook;
  /** Mutations waiting for a tenant's request (POST …/mutations with `when`). */
  scheduledMutations: MutationSchedule;
  log: RequestLog;
  etsyLimiter: SlidingWindowLimiter;
  printifyLimiter: SlidingWindowLimiter;
  /** The consent screens shown and not yet answered, each bound to the seller it was shown to. */
  authorizations: AuthorizationRequests;
  webhooks: WebhookHub;
  /** The sandbox's own base URL (for Etsy's resource_url): SANDBOX_PUBLIC_URL, else where it listens. */
  selfUrl(): string;
  nowMs(): number;
  nowSeconds(): number;
}

export function createState(options: SandboxOptions): SandboxState {
  const live: LiveSettings = {
    accessTokenTtlSeconds: options.accessTokenTtlSeconds,
    etsyQps: options.etsyQps,
    etsyQpd: options.etsyQpd,
    printifyRpm: options.printifyRpm,
    webhookTimeScale: options.webhookTimeScale,
  };
  const nowMs = () => options.now();
  const deliveries = new DeliveryLog();
  return {
    options,
    live,
    tenants: new TenantRegistry(options.seed, {
      now: nowMs,
      idleSeconds: options.tenantIdleSeconds,
      maxAgeSeconds: options.tenantMaxAgeSeconds,
    }),
    oauth: new OAuthStore(nowMs, () => live.accessTokenTtlSeconds),
    faults: new FaultBook(),
    scheduledMutations: new MutationSchedule(),
    log: new RequestLog(options.requestLogSize),
    etsyLimiter: new SlidingWindowLimiter(() => [
      { limit: live.etsyQps, windowMs: 1000 },
      { limit: live.etsyQpd, windowMs: 86_400_000 },
    ]),
    printifyLimiter: new SlidingWindowLimiter(() => [{ limit: live.printifyRpm, windowMs: 60_000 }]),
    authorizations: new AuthorizationRequests(nowMs),
    webhooks: {
      printify: new PrintifySubscriptions(),
      etsy: new EtsySubscriptions(
        options.etsyWebhook ? { ...options.etsyWebhook, events: [...options.etsyWebhook.events] } : null,
      ),
      log: deliveries,
      sender: new WebhookSender(deliveries, () => live.webhookTimeScale, nowMs),
      allowedHosts: allowedWebhookHosts(options.webhookHosts, [options.etsyWebhook?.url]),
    },
    selfUrl: () => options.publicUrl ?? `http://127.0.0.1:${options.port}`,
    nowMs,
    nowSeconds: () => Math.floor(nowMs() / 1000),
  };
}

/** Removes a tenant with everything issued for it (codes, tokens, open consent screens). */
export function removeTenant(state: SandboxState, tenantId: string): boolean {
  if (!state.tenants.delete(tenantId)) return false;
  state.oauth.dropTenant(tenantId);
  state.authorizations.dropTenant(tenantId);
  state.webhooks.printify.dropTenant(tenantId);
  state.webhooks.etsy.dropTenant(tenantId);
  state.scheduledMutations.dropTenant(tenantId);
  return true;
}

/** Removes every tenant idle too long or past its lifetime; returns their ids. */
export function sweepTenants(state: SandboxState): string[] {
  const expired = state.tenants.expiredIds();
  for (const id of expired) removeTenant(state, id);
  return expired;
}

/**
 * Before a new tenant: expired ones go first; if the sandbox is still full, the tenant unused
 * for longest makes room, so a new visitor is never turned away. Returns the evicted ids.
 */
export function makeRoomForTenant(state: SandboxState): string[] {
  const removed = sweepTenants(state);
  while (state.tenants.size >= state.options.maxTenants) {
    const oldest = state.tenants.leastRecentlyUsedId();
    if (!oldest) break;
    removeTenant(state, oldest);
    removed.push(oldest);
  }
  return removed;
}
