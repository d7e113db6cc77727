import type { FastifyRequest } from 'fastify';

/**
 * Routes that Printify and Etsy post to (`/api/webhooks/…`). They differ from every other route
 * in two ways, both keyed to this route config flag so nothing else can slip through:
 * - the JSON parser hands them the raw bytes (a Buffer): the signature is an HMAC of exactly
 *   those bytes, and the handler parses them itself once the signature holds;
 * - the same-origin guard lets them through: a provider's server is no browser, and the
 *   signature, not the origin, is what authenticates a delivery.
 * Their body limit is their own (BODY_LIMITS.webhook); content types other than JSON still get 415.
 */
export const PROVIDER_WEBHOOK_ROUTE = 'providerWebhook';

export interface ProviderWebhookRouteConfig {
  [PROVIDER_WEBHOOK_ROUTE]?: true;
}

/** True for a request routed to a provider webhook route. */
export function isProviderWebhookRoute(request: FastifyRequest): boolean {
  const config = request.routeOptions?.config as ProviderWebhookRouteConfig | undefined;
  return config?.[PROVIDER_WEBHOOK_ROUTE] === true;
}

/** The path as logs may show it: a Printify webhook path's connection key is replaced. */
export function pathForLog(path: string): string {
  return path.replace(/^(\/api\/webhooks\/printify\/)[^/?#]+/, '$1[key]');
}
