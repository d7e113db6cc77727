import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import { PROVIDER_WEBHOOK_ROUTE, type ProviderWebhookRouteConfig } from './provider-webhook-route';

/**
 * Body limits sized to each route. A route that takes no body, or only a few short fields,
 * gets the default; a route that takes more says so with @BodyLimit. Sizes allow every field at
 * its DTO's maximum length in 3-byte UTF-8 characters, with room for JSON's quoting.
 */
export const BODY_LIMITS = {
  /** logout, pause, a currency setting, an operator's job name: a few short fields at most. */
  default: 1024,
  /** email (254) + password (1024). */
  signIn: 8 * 1024,
  /** email + two passwords + two names; a password change has two passwords. */
  signUp: 16 * 1024,
  /** a Printify token (4096) + shop id + date. */
  printifyToken: 16 * 1024,
  /** the sandbox consent page's Allow/Deny form (demo mode). */
  consentForm: 8 * 1024,
  /** a provider webhook delivery: Printify's envelope or Etsy's flat body (a few hundred bytes), with room. */
  webhook: 64 * 1024,
} as const;

/** The largest body any route accepts: a bound for the parser before a route is known. */
export const MAX_BODY_LIMIT_BYTES = Math.max(...Object.values(BODY_LIMITS));

interface BodyLimitConfig {
  bodyLimit?: number;
}

/** Raises a route's body limit above the default (Fastify answers 413 past it). */
export const BodyLimit = (bytes: number) => RouteConfig({ bodyLimit: bytes } satisfies BodyLimitConfig);

/**
 * A provider webhook route (see provider-webhook-route.ts): its own body limit, raw body, no
 * same-origin check. One RouteConfig, since a second one on a handler would replace the first.
 */
export const ProviderWebhookBody = () =>
  RouteConfig({ bodyLimit: BODY_LIMITS.webhook, [PROVIDER_WEBHOOK_ROUTE]: true } satisfies BodyLimitConfig &
    ProviderWebhookRouteConfig);

/** Gives every route its limit as Nest registers it; call before the app initialises. */
export function applyRouteBodyLimits(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    const configured = (route.config as BodyLimitConfig | undefined)?.bodyLimit;
    route.bodyLimit = configured ?? BODY_LIMITS.default;
  });
}
