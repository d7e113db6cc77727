import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { applyFault, fingerprint, noteRequest, pathOf, queryOf, type Query } from '../core/http';
import type { SandboxState } from '../core/state';
import type { Tenant } from '../data/tenant';
import { consentPage, CONSENT_CSP, errorPage, tenantPickerPage, type OAuthParams } from './consent-page';
import { checkApiKey } from './guard';
import { SCOPES } from './oauth-store';

export type AuthorizeCheck =
  | { kind: 'ok'; params: OAuthParams }
  | { kind: 'page-error'; message: string }
  | { kind: 'redirect-error'; redirectUri: string; error: string; description: string; state: string | undefined };

const PARAM_NAMES = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
] as const;

/**
 * Etsy's checks on an authorization request: an unknown app or an unregistered redirect_uri is
 * shown to the user and never redirected to; anything else wrong goes back to the app as an
 * RFC 6749 error with the state.
 */
export function checkAuthorize(state: SandboxState, query: Query): AuthorizeCheck {
  const app = state.options.etsyApp;
  if (!query.client_id || query.client_id !== app.keystring)
    return { kind: 'page-error', message: 'The app is not known to Etsy (client_id is missing or not registered).' };
  const redirectUri = query.redirect_uri;
  if (!redirectUri || !app.redirectUris.includes(redirectUri)) {
    return {
      kind: 'page-error',
      message: 'The redirect_uri does not exactly match a callback URL registered for this app.',
    };
  }
  const fail = (error: string, description: string): AuthorizeCheck => ({
    kind: 'redirect-error',
    redirectUri,
    error,
    description,
    state: query.state || undefined,
  });
  if (!query.state) return fail('invalid_request', 'state is required');
  if (query.response_type !== 'code') return fail('unsupported_response_type', 'response_type must be code');
  if (!query.code_challenge) return fail('invalid_request', 'code_challenge is required');
  if (query.code_challenge_method !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256');
  if (!/^[A-Za-z0-9_-]{43}$/.test(query.code_challenge))
    return fail('invalid_request', 'code_challenge must be the unpadded base64url SHA-256 of the code_verifier');
  const scopes = (query.scope ?? '').split(' ').filter(Boolean);
  if (scopes.length === 0) return fail('invalid_scope', 'scope is required');
  const unknown = scopes.find((scope) => !(scope in SCOPES));
  if (unknown) return fail('invalid_scope', `unknown scope: ${unknown}`);
  const params = Object.fromEntries(PARAM_NAMES.map((name) => [name, query[name] ?? ''])) as OAuthParams;
  return { kind: 'ok', params };
}

export function errorRedirect(check: Extract<AuthorizeCheck, { kind: 'redirect-error' }>): string {
  const url = new URL(check.redirectUri);
  url.searchParams.set('error', check.error);
  url.searchParams.set('error_description', check.description);
  if (check.state !== undefined) url.searchParams.set('state', check.state);
  return url.toString();
}

/** Issues a code as if the tenant's Etsy user had pressed Allow; returns the callback URL. */
export function grantCode(
  state: SandboxState,
  tenant: Tenant,
  params: OAuthParams,
): { code: string; redirectUrl: string } {
  const code = state.oauth.issueCode(
    {
      tenantId: tenant.id,
      userId: tenant.shop.userId,
      clientId: params.client_id,
      scopes: params.scope.split(' ').filter(Boolean),
    },
    params.redirect_uri,
    params.code_challenge,
  );
  const url = new URL(params.redirect_uri);
  url.searchParams.set('code', code);
  url.searchParams.set('state', params.state);
  return { code, redirectUrl: url.toString() };
}

function htmlHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .type('text/html; charset=utf-8')
    .header('content-security-policy', CONSENT_CSP)
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'no-referrer');
}

/** The seller a proxy names in `x-sandbox-tenant` (as Etsy knows who is signed in), or null. */
function proxiedTenant(request: FastifyRequest): string | null {
  const header = request.headers['x-sandbox-tenant'];
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  return value ? value : null;
}

const sameParams = (a: OAuthParams, b: OAuthParams) => PARAM_NAMES.every((name) => a[name] === b[name]);

export function registerEtsyOAuth(app: FastifyInstance, state: SandboxState): void {
  const appName = state.options.etsyApp.name;

  app.get('/oauth/connect', async (request, reply) => {
    const query = queryOf(request);
    const fault = state.faults.take('etsy', pathOf(request), null);
    if (fault && applyFault(fault, request, reply)) return reply;
    const check = checkAuthorize(state, query);
    if (check.kind === 'page-error') return htmlHeaders(reply).code(400).send(errorPage(check.message));
    if (check.kind === 'redirect-error')
      return reply.header('cache-control', 'no-store').redirect(errorRedirect(check), 302);
    // A proxy that names the signed-in seller leaves no choice: sandbox_tenant is then ignored.
    const named = proxiedTenant(request);
    const tenantId = named ?? (query.sandbox_tenant ?? '').trim();
    if (!tenantId) return htmlHeaders(reply).send(tenantPickerPage({ appName, params: check.params, problem: null }));
    const tenant = state.tenants.get(tenantId);
    // The picker never reaches a private seller (a visitor's own), and says so as if it did not exist.
    if (!tenant || (!named && state.tenants.lifeOf(tenant.id)?.private)) {
      if (named)
        return htmlHeaders(reply)
          .code(404)
          .send(errorPage('This sandbox seller no longer exists. Start connecting again from the app.'));
      return htmlHeaders(reply)
        .code(404)
        .send(
          tenantPickerPage({ appName, params: check.params, problem: `There is no sandbox seller "${tenantId}".` }),
        );
    }
    noteRequest(request, tenant.id, null);
    const consent = state.authorizations.open(tenant.id, check.params);
    return htmlHeaders(reply).send(
      consentPage({
        appName,
        params: check.params,
        loginName: tenant.shop.loginName,
        shopName: tenant.shop.shopName,
        userId: tenant.shop.userId,
        consent,
        canSwitch: named === null,
      }),
    );
  });

  app.post('/oauth/connect/decision', async (request, reply) => {
    const body = formBody(request);
    if (!body) return htmlHeaders(reply).code(415).send(errorPage('The decision must be sent as a form.'));
    const check = checkAuthorize(state, body);
    if (check.kind === 'page-error') return htmlHeaders(reply).code(400).send(errorPage(check.message));
    if (check.kind === 'redirect-error')
      return reply.header('cache-control', 'no-store').redirect(errorRedirect(check), 302);
    // The seller is the one the page was shown to, never one the form or the caller names.
    const pending = state.authorizations.find(body.consent);
    const named = proxiedTenant(request);
    const tenant = pending ? state.tenants.get(pending.tenantId) : undefined;
    if (!pending || !tenant || !sameParams(pending.params, check.params)) {
      return htmlHeaders(reply)
        .code(400)
        .send(
          errorPage(
            'This consent form has expired or was not issued by this page. Start connecting again from the app.',
          ),
        );
    }
    if (named !== null && named !== pending.tenantId) {
      return htmlHeaders(reply)
        .code(403)
        .send(errorPage('This consent page was shown to another sandbox seller. Start connecting again from the app.'));
    }
    if (body.decision !== 'allow' && body.decision !== 'deny')
      return htmlHeaders(reply).code(400).send(errorPage('Choose "Allow access" or "Deny".'));
    // One answer per screen, as a code is single-use.
    state.authorizations.close(body.consent as string);
    noteRequest(request, tenant.id, null);
    if (body.decision === 'allow')
      return reply
        .header('cache-control', 'no-store')
        .redirect(grantCode(state, tenant, check.params).redirectUrl, 302);
    const denied = errorRedirect({
      kind: 'redirect-error',
      redirectUri: check.params.redirect_uri,
      error: 'access_denied',
      description: 'The user denied access to your application.',
      state: check.params.state,
    });
    return reply.header('cache-control', 'no-store').redirect(denied, 302);
  });

  app.post('/v3/public/oauth/token', async (request, reply) => {
    const fail = (status: number, error: string, description: string) =>
      reply.code(status).header('cache-control', 'no-store').send({ error, error_description: description });
    const body = formBody(request);
    const secret = body?.code ?? body?.refresh_token;
    const tenantId = secret ? state.oauth.tenantOf(secret) : null;
    noteRequest(request, tenantId, `etsy-key:${state.options.etsyApp.keystring}`);
    const fault = state.faults.take('etsy', pathOf(request), tenantId);
    if (fault && applyFault(fault, request, reply)) return reply;
    // UNCONFIRMED whether Etsy checks x-api-key here: the sandbox checks it only when it is sent.
    if (request.headers['x-api-key'] !== undefined) {
      const key = checkApiKey(state, request.headers['x-api-key']);
      if (!key.ok) return reply.code(403).send({ error: key.message });
    }
    if (!body) return fail(400, 'invalid_request', 'the body must be application/x-www-form-urlencoded');
    if (!body.grant_type) return fail(400, 'invalid_request', 'grant_type is required');
    if (body.grant_type !== 'authorization_code' && body.grant_type !== 'refresh_token')
      return fail(400, 'unsupported_grant_type', `grant_type ${body.grant_type} is not supported`);
    if (!body.client_id) return fail(400, 'invalid_request', 'client_id is required');
    if (body.client_id !== state.options.etsyApp.keystring)
      return fail(400, 'invalid_client', 'client_id is not a registered app');
    if (body.grant_type === 'refresh_token') {
      if (!body.refresh_token) return fail(400, 'invalid_request', 'refresh_token is required');
      const result = state.oauth.refreshTokens({ clientId: body.client_id, refreshToken: body.refresh_token });
      if (request.sandboxLog) request.sandboxLog.credential = `etsy-refresh:${fingerprint(body.refresh_token)}`;
      return result.ok
        ? reply.header('cache-control', 'no-store').send(result.body)
        : fail(400, result.error, result.description);
    }
    for (const name of ['redirect_uri', 'code', 'code_verifier']) {
      if (!body[name]) return fail(400, 'invalid_request', `${name} is required`);
    }
    const result = state.oauth.exchangeCode({
      clientId: body.client_id,
      redirectUri: body.redirect_uri as string,
      code: body.code as string,
      verifier: body.code_verifier as string,
    });
    return result.ok
      ? reply.header('cache-control', 'no-store').send(result.body)
      : fail(400, result.error, result.description);
  });
}

/** The parsed form body, or null when the request did not send one. */
function formBody(request: FastifyRequest): Query | null {
  const type = request.headers['content-type'] ?? '';
  if (!type.toLowerCase().startsWith('application/x-www-form-urlencoded')) return null;
  return (request.body ?? {}) as Query;
}
