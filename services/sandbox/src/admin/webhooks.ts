import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxState } from '../core/state';
import type { Tenant } from '../data/tenant';
import {
  ETSY_EVENTS,
  etsySecretProblem,
  etsySubscriptionJson,
  type EtsyEvent,
  type EtsySubscription,
} from '../webhooks/etsy-subscriptions';
import { subscriptionJson } from '../webhooks/printify-subscriptions';
import { deliveryUrlProblem } from '../webhooks/targets';
import { BadInput, objectBody, requiredString } from './validate';

type Admin = <T>(
  handler: (request: FastifyRequest, reply: FastifyReply) => T,
) => (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/**
 * Webhooks in the admin API. Etsy subscriptions live in Etsy's developer portal, not its API,
 * so the sandbox takes them here: app-wide (`/__sandbox/etsy-webhook`, what the portal holds) or
 * for one tenant (`/__sandbox/tenants/:id/etsy-webhook`, which wins over the app-wide one). Also
 * a view of a tenant's Printify subscriptions (with their blocks) and the log of every delivery
 * attempt. Secrets are taken, never shown.
 */
export function registerWebhookAdmin(
  app: FastifyInstance,
  state: SandboxState,
  admin: Admin,
  tenantOr404: (request: FastifyRequest, reply: FastifyReply) => Tenant | null,
): void {
  const etsy = state.webhooks.etsy;

  app.get(
    '/__sandbox/etsy-webhook',
    admin(() => ({ subscription: etsySubscriptionJson(etsy.getGlobal()) })),
  );
  app.put(
    '/__sandbox/etsy-webhook',
    admin((request) => {
      etsy.setGlobal(etsySubscriptionOf(state, request.body));
      return { subscription: etsySubscriptionJson(etsy.getGlobal()) };
    }),
  );
  app.delete(
    '/__sandbox/etsy-webhook',
    admin((_request, reply) => {
      etsy.setGlobal(null);
      return reply.code(204).send();
    }),
  );

  app.get(
    '/__sandbox/tenants/:id/etsy-webhook',
    admin((request, reply) => {
      const tenant = tenantOr404(request, reply);
      if (!tenant) return reply;
      return {
        subscription: etsySubscriptionJson(etsy.getTenant(tenant.id)),
        effective: etsySubscriptionJson(etsy.forTenant(tenant.id)),
      };
    }),
  );
  app.put(
    '/__sandbox/tenants/:id/etsy-webhook',
    admin((request, reply) => {
      const tenant = tenantOr404(request, reply);
      if (!tenant) return reply;
      etsy.setTenant(tenant.id, etsySubscriptionOf(state, request.body));
      return { subscription: etsySubscriptionJson(etsy.getTenant(tenant.id)) };
    }),
  );
  app.delete(
    '/__sandbox/tenants/:id/etsy-webhook',
    admin((request, reply) => {
      const tenant = tenantOr404(request, reply);
      if (!tenant) return reply;
      etsy.setTenant(tenant.id, null);
      return reply.code(204).send();
    }),
  );

  app.get(
    '/__sandbox/tenants/:id/printify-webhooks',
    admin((request, reply) => {
      const tenant = tenantOr404(request, reply);
      if (!tenant) return reply;
      const now = state.nowMs();
      return {
        webhooks: state.webhooks.printify.all(tenant.id).map((s) => ({
          ...subscriptionJson(s),
          secretSet: s.secret !== null,
          blockedUntil: s.blockedUntilMs > now ? new Date(s.blockedUntilMs).toISOString() : null,
        })),
      };
    }),
  );

  app.get(
    '/__sandbox/webhook-deliveries',
    admin((request) => {
      const query = request.query as Record<string, string | undefined>;
      const num = (value: string | undefined) =>
        value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
      return {
        deliveries: state.webhooks.log.list({
          provider: query.provider || undefined,
          tenantId: query.tenantId || undefined,
          afterSeq: num(query.afterSeq),
          limit: num(query.limit),
        }),
      };
    }),
  );
  app.delete(
    '/__sandbox/webhook-deliveries',
    admin((_request, reply) => {
      state.webhooks.log.clear();
      return reply.code(204).send();
    }),
  );
}

/** `{url, secret, events?}`: an http(s) URL the sandbox may post to, a `whsec_` secret, some of the four events (default all). */
function etsySubscriptionOf(state: SandboxState, raw: unknown): EtsySubscription {
  const body = objectBody(raw);
  const url = requiredString(body, 'url');
  const urlProblem = deliveryUrlProblem(url, state.webhooks.allowedHosts);
  if (urlProblem) throw new BadInput(`url: ${urlProblem}`);
  const secret = requiredString(body, 'secret');
  const secretProblem = etsySecretProblem(secret);
  if (secretProblem) throw new BadInput(secretProblem);
  let events: EtsyEvent[] = [...ETSY_EVENTS];
  if (body.events !== undefined) {
    if (
      !Array.isArray(body.events) ||
      body.events.length === 0 ||
      body.events.some((e) => !(ETSY_EVENTS as readonly unknown[]).includes(e))
    ) {
      throw new BadInput(`events must be a non-empty list of ${ETSY_EVENTS.join(', ')}`);
    }
    events = [...new Set(body.events as EtsyEvent[])];
  }
  return { url, secret, events };
}
