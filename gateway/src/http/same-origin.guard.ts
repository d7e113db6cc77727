import { HttpStatus, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiException } from './api-exception';
import { isProviderWebhookRoute } from './provider-webhook-route';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF defence for every state-changing route: the browser must say the request comes from our
 * own origin (Sec-Fetch-Site, and Origin when sent). Requests with neither are refused too,
 * except operator calls that authenticate with a bearer token and carry no cookie, and the
 * provider webhook routes (see provider-webhook-route.ts), which no browser calls.
 * (JSON-only bodies are enforced by the content-type parser: other types get 415.)
 */
@Injectable()
export class SameOriginGuard implements CanActivate {
  /** `publicOrigin`: the configured PUBLIC_ORIGIN in canonical form (AppConfig.publicOrigin). */
  constructor(private readonly publicOrigin: string) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (SAFE_METHODS.has(request.method)) return true;
    // Printify and Etsy post deliveries server to server; their signature authenticates them.
    if (isProviderWebhookRoute(request)) return true;
    if (isSameOrigin(request, this.publicOrigin)) return true;
    throw new ApiException(HttpStatus.FORBIDDEN, 'forbidden_origin', 'Cross-site requests are not allowed.');
  }
}

/**
 * "Our origin" is the configured public origin, never one built from the Host header (a
 * request saying `Host: evil` and `Origin: http://evil` is not ours) nor from the scheme this
 * hop saw (behind TLS termination the browser's origin is https while we hear http).
 * An Origin, when given, must be ours even if Sec-Fetch-Site says same-origin: a DNS-rebound
 * name is "same-origin" to the browser but carries its own Origin. `Origin: null` is what a
 * same-origin form post sends under `Referrer-Policy: no-referrer` (the consent page's Allow),
 * so it counts only with Sec-Fetch-Site: same-origin.
 */
export function isSameOrigin(request: FastifyRequest, publicOrigin: string): boolean {
  const site = header(request, 'sec-fetch-site');
  const origin = header(request, 'origin');
  if (site && site !== 'same-origin' && site !== 'none') return false;
  if (origin && origin !== 'null') return canonical(origin) === publicOrigin;
  if (site) return true;
  if (origin) return false;
  const bearerWithoutCookie = /^Bearer\s/i.test(header(request, 'authorization') ?? '') && !request.headers.cookie;
  return bearerWithoutCookie;
}

/** Browsers send origins canonical already; parsing keeps `http://localhost:80` equal to `http://localhost`. */
function canonical(origin: string): string | undefined {
  if (!URL.canParse(origin)) return undefined;
  return new URL(origin).origin;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
