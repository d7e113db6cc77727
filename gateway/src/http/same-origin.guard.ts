import { ForbiddenException, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF defence for every state-changing route: the browser must say the request comes from our
 * own origin (Sec-Fetch-Site, else Origin). Requests with neither are refused too, except
 * operator calls that authenticate with a bearer token and carry no cookie.
 * (JSON-only bodies are enforced by the content-type parser: other types get 415.)
 */
@Injectable()
export class SameOriginGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (SAFE_METHODS.has(request.method)) return true;
    if (isSameOrigin(request)) return true;
    throw new ForbiddenException('Cross-site requests are not allowed.');
  }
}

export function isSameOrigin(request: FastifyRequest): boolean {
  const site = header(request, 'sec-fetch-site');
  if (site) return site === 'same-origin' || site === 'none';
  const origin = header(request, 'origin');
  if (origin) return origin !== 'null' && origin === ownOrigin(request);
  const bearerWithoutCookie = /^Bearer\s/i.test(header(request, 'authorization') ?? '') && !request.headers.cookie;
  return bearerWithoutCookie;
}

function ownOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.headers.host ?? ''}`;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
