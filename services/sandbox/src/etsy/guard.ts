import type { FastifyReply, FastifyRequest } from 'fastify';
import { applyFault, fingerprint, noteRequest, pathOf } from '../core/http';
import type { SandboxState } from '../core/state';
import type { Tenant } from '../data/tenant';
import type { Grant } from './oauth-store';

export interface EtsyCall {
  /** The token's tenant (OAuth calls), or the tenant owning the shop in the path (key-only calls). */
  tenant: Tenant | null;
  grant: Grant | null;
}

export type EtsyAuth = { kind: 'key' } | { kind: 'oauth'; scope: string };

type KeyCheck = { ok: true; keystring: string } | { ok: false; message: string };

/**
 * x-api-key as Etsy enforces it since February 2026: "keystring:shared_secret". A bare
 * keystring, a malformed value and an unknown pair each get their own 403 message.
 */
export function checkApiKey(state: SandboxState, header: string | string[] | undefined): KeyCheck {
  const value = Array.isArray(header) ? header[0] : header;
  // UNCONFIRMED: the message for a request without any x-api-key header.
  if (value === undefined || value === '')
    return { ok: false, message: "Missing x-api-key header: it must be in the format 'keystring:shared_secret'." };
  const app = state.options.etsyApp;
  if (!value.includes(':')) {
    return /^[A-Za-z0-9._-]+$/.test(value)
      ? { ok: false, message: 'Shared secret is required in x-api-key header.' }
      : { ok: false, message: "Invalid API key: should be in the format 'keystring:shared_secret'." };
  }
  const parts = value.split(':');
  if (parts.length !== 2 || parts[0] === '' || parts[1] === '' || /\s/.test(value)) {
    return { ok: false, message: "Invalid API key: should be in the format 'keystring:shared_secret'." };
  }
  if (parts[0] !== app.keystring || parts[1] !== app.sharedSecret)
    return { ok: false, message: 'API key not found or not active' };
  return { ok: true, keystring: parts[0] };
}

export function bearerOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : '';
}

function rateHeaders(state: SandboxState, remaining: number[]): Record<string, string> {
  return {
    'x-limit-per-second': String(state.live.etsyQps),
    // The docs spell it "-secon"; some clients report "-second": send both.
    'x-remaining-this-secon': String(Math.max(0, remaining[0])),
    'x-remaining-this-second': String(Math.max(0, remaining[0])),
    'x-limit-per-day': String(state.live.etsyQpd),
    'x-remaining-today': String(Math.max(0, remaining[1])),
  };
}

/**
 * Runs Etsy's checks in order (fault knobs, API key, OAuth token and scope, rate limits) and
 * answers the request itself when one fails. Returns null when the reply has been sent.
 */
export function guardEtsy(
  state: SandboxState,
  request: FastifyRequest,
  reply: FastifyReply,
  auth: EtsyAuth,
  shopIdParam?: string,
): EtsyCall | null {
  const token = bearerOf(request);
  const path = pathOf(request);
  let tenant: Tenant | null = null;
  if (token) {
    const tenantId = state.oauth.tenantOf(token);
    tenant = tenantId ? (state.tenants.get(tenantId) ?? null) : null;
  }
  if (!tenant && shopIdParam && /^\d+$/.test(shopIdParam)) tenant = state.tenants.byShopId(Number(shopIdParam)) ?? null;
  const bucket =
    auth.kind === 'oauth' && token ? `etsy-token:${fingerprint(token)}` : `etsy-key:${state.options.etsyApp.keystring}`;
  noteRequest(request, tenant?.id ?? null, bucket);
  state.scheduledMutations.onRequest(state, 'etsy', path, tenant?.id ?? null);

  const fault = state.faults.take('etsy', path, tenant?.id ?? null);
  if (fault) {
    if (fault.kind === 'quota-exhausted') state.etsyLimiter.exhaust(bucket, 1, state.nowMs());
    const extra = fault.kind === 'quota-exhausted' ? { ...rateHeaders(state, [0, 0]), 'x-remaining-today': '0' } : {};
    if (applyFault(fault, request, reply, extra)) return null;
  }

  const key = checkApiKey(state, request.headers['x-api-key']);
  if (!key.ok) {
    void reply.code(403).send({ error: key.message });
    return null;
  }

  let grant: Grant | null = null;
  if (auth.kind === 'oauth') {
    if (token === null) {
      void reply.code(401).send({ error: 'invalid_token', error_description: 'access token is missing' });
      return null;
    }
    const check = state.oauth.checkAccess(token);
    if (!check.ok || check.grant.clientId !== key.keystring) {
      void reply
        .code(401)
        .send({ error: 'invalid_token', error_description: check.ok ? 'access token is invalid' : check.description });
      return null;
    }
    grant = check.grant;
    tenant = state.tenants.get(grant.tenantId) ?? null;
    if (!tenant) {
      void reply.code(401).send({ error: 'invalid_token', error_description: 'access token is invalid' });
      return null;
    }
    if (!grant.scopes.includes(auth.scope)) {
      // UNCONFIRMED: Etsy's exact wording for a missing scope.
      void reply.code(403).send({ error: `Insufficient scope: this request needs the ${auth.scope} scope.` });
      return null;
    }
  }

  const limit = state.etsyLimiter.hit(bucket, state.nowMs());
  if (!limit.allowed) {
    void reply
      .code(429)
      .headers(rateHeaders(state, limit.remaining))
      .header('retry-after', String(limit.retryAfterSeconds ?? 1))
      // UNCONFIRMED: the body of Etsy's 429.
      .send({ error: limit.refusedBy === 0 ? 'Too many requests per second.' : 'Daily request quota exceeded.' });
    return null;
  }
  reply.headers(rateHeaders(state, limit.remaining));
  return { tenant, grant };
}
