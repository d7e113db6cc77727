import type { FastifyInstance } from 'fastify';
import {
  ADMIN,
  API_KEY,
  connectEtsy,
  createTenant,
  etsyGet,
  form,
  KEYSTRING,
  newSandbox,
  pkce,
  REDIRECT_URI,
  type Clock,
  type TenantInfo,
} from '../../test/support/kit';

describe('Etsy OAuth: consent page, token endpoint, PKCE, rotation', () => {
  let app: FastifyInstance;
  let clock: Clock;
  let tenant: TenantInfo;

  beforeEach(async () => {
    ({ app, clock } = await newSandbox());
    tenant = await createTenant(app, { months: 1, ordersPerMonth: 20 });
  });
  afterEach(() => app.close());

  const connectUrl = (overrides: Record<string, string | undefined> = {}, challenge = pkce().challenge) => {
    const params: Record<string, string | undefined> = {
      response_type: 'code',
      client_id: KEYSTRING,
      redirect_uri: REDIRECT_URI,
      scope: 'transactions_r shops_r',
      state: 'state-abc',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...overrides,
    };
    const defined = Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined);
    return `/oauth/connect?${new URLSearchParams(defined).toString()}`;
  };

  const hiddenFields = (html: string): Record<string, string> => {
    const fields: Record<string, string> = {};
    for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
      fields[m[1]] = m[2]
        .replace(/&amp;/g, '&')
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>');
    return fields;
  };

  async function consent(decision: 'allow' | 'deny', challenge: string, extra: Record<string, string> = {}) {
    const page = await app.inject({ url: connectUrl({ sandbox_tenant: tenant.tenantId, ...extra }, challenge) });
    expect(page.statusCode).toBe(200);
    return app.inject({
      method: 'POST',
      url: '/oauth/connect/decision',
      ...form({ ...hiddenFields(page.body), decision }),
    });
  }

  async function exchange(code: string, verifier: string, overrides: Record<string, string> = {}) {
    return app.inject({
      method: 'POST',
      url: '/v3/public/oauth/token',
      ...form({
        grant_type: 'authorization_code',
        client_id: KEYSTRING,
        redirect_uri: REDIRECT_URI,
        code,
        code_verifier: verifier,
        ...overrides,
      }),
    });
  }

  it('shows the app, the scopes in words and the granting seller, under a strict CSP with no script', async () => {
    const page = await app.inject({ url: connectUrl(), headers: { 'x-sandbox-tenant': tenant.tenantId } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; form-action *; base-uri 'none'; frame-ancestors 'none'",
    );
    expect(page.body).toContain('<html lang="en">');
    expect(page.body).toContain('<header class="top"><span class="mark" aria-hidden="true"><svg');
    expect(page.body).toContain('This is the PodProfit sandbox standing in for Etsy.');
    expect(page.body).toContain('<title>Allow PodProfit to access your Etsy account? · PodProfit sandbox</title>');
    expect(page.body).toContain(tenant.etsy.loginName);
    expect(page.body).toContain('See your orders, payments and the fees Etsy charged you');
    expect(page.body).toContain('See your shop, including private details');
    expect(page.body).not.toMatch(/<script/i);
    expect(page.body).toContain('action="connect/decision"');
    expect(page.body).toContain('value="allow"');
    expect(page.body).toContain('value="deny"');
  });

  it('asks which seller when no tenant is named, with a labelled field and a relative form', async () => {
    const page = await app.inject({ url: connectUrl() });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<label for="sandbox_tenant">');
    expect(page.body).toContain('action="connect"');
    const unknown = await app.inject({ url: connectUrl({ sandbox_tenant: 'nobody' }) });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain('There is no sandbox seller');
  });

  it('shows an error page, never a redirect, for an unknown client or an unregistered redirect_uri', async () => {
    for (const overrides of [
      { client_id: 'someone-else' },
      { redirect_uri: `${REDIRECT_URI}/` },
      { redirect_uri: 'https://evil.example/cb' },
      { redirect_uri: undefined },
    ]) {
      const res = await app.inject({ url: connectUrl(overrides) });
      expect(res.statusCode).toBe(400);
      expect(res.headers.location).toBeUndefined();
      expect(res.body).toContain('not valid');
    }
  });

  it.each([
    [{ state: undefined }, 'invalid_request', null],
    [{ code_challenge: undefined }, 'invalid_request', 'state-abc'],
    [{ code_challenge_method: 'plain' }, 'invalid_request', 'state-abc'],
    [{ code_challenge_method: undefined }, 'invalid_request', 'state-abc'],
    [{ response_type: 'token' }, 'unsupported_response_type', 'state-abc'],
    [{ scope: 'transactions_r teleport_w' }, 'invalid_scope', 'state-abc'],
  ])('redirects %j back with error=%s and the state', async (overrides, error, state) => {
    const res = await app.inject({ url: connectUrl(overrides) });
    expect(res.statusCode).toBe(302);
    const location = new URL(res.headers.location as string);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
    expect(location.searchParams.get('error')).toBe(error);
    expect(location.searchParams.get('error_description')).toBeTruthy();
    expect(location.searchParams.get('state')).toBe(state);
  });

  it('Allow redirects with code and the same state; the code gives 1-hour tokens prefixed with the user id', async () => {
    const { verifier, challenge } = pkce();
    const decision = await consent('allow', challenge);
    expect(decision.statusCode).toBe(302);
    const location = new URL(decision.headers.location as string);
    expect(location.searchParams.get('state')).toBe('state-abc');
    const code = location.searchParams.get('code') as string;
    const token = await exchange(code, verifier);
    expect(token.statusCode).toBe(200);
    const body = token.json();
    expect(body).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: expect.any(String),
    });
    expect(body.access_token.split('.')[0]).toBe(String(tenant.etsy.userId));
    expect(body.refresh_token.split('.')[0]).toBe(String(tenant.etsy.userId));
    const me = await etsyGet(app, '/v3/application/users/me', body.access_token);
    expect(me.json()).toEqual({ user_id: tenant.etsy.userId, shop_id: tenant.etsy.shopId });

    const again = await exchange(code, verifier);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ error: 'invalid_grant', error_description: 'code has already been used' });
  });

  it('Deny redirects with error=access_denied and the state', async () => {
    const res = await consent('deny', pkce().challenge);
    expect(res.statusCode).toBe(302);
    const location = new URL(res.headers.location as string);
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('error_description')).toBeTruthy();
    expect(location.searchParams.get('state')).toBe('state-abc');
    expect(location.searchParams.get('code')).toBeNull();
  });

  it('refuses a decision that did not come from a rendered page', async () => {
    const page = await app.inject({ url: connectUrl({ sandbox_tenant: tenant.tenantId }) });
    const fields = hiddenFields(page.body);
    const forged = await app.inject({
      method: 'POST',
      url: '/oauth/connect/decision',
      ...form({ ...fields, consent: '1.abc', decision: 'allow' }),
    });
    expect(forged.statusCode).toBe(400);
    const otherState = await app.inject({
      method: 'POST',
      url: '/oauth/connect/decision',
      ...form({ ...fields, state: 'changed', decision: 'allow' }),
    });
    expect(otherState.statusCode).toBe(400);
  });

  it('grants only for the seller a proxy names: sandbox_tenant in the query or the form cannot pick another', async () => {
    const other = await createTenant(app, { seed: 'other', months: 1, ordersPerMonth: 5 });
    const { verifier, challenge } = pkce();
    const page = await app.inject({
      url: connectUrl({ sandbox_tenant: other.tenantId }, challenge),
      headers: { 'x-sandbox-tenant': tenant.tenantId },
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(tenant.etsy.loginName);
    expect(page.body).not.toContain(other.etsy.loginName);
    expect(page.body).not.toContain('Not you?');
    expect(page.body).not.toContain('name="sandbox_tenant"');
    const fields = { ...hiddenFields(page.body), decision: 'allow' };

    // The decision names another seller: through the proxy (header) it is refused...
    const crossed = await app.inject({
      method: 'POST',
      url: '/oauth/connect/decision',
      headers: { ...form(fields).headers, 'x-sandbox-tenant': other.tenantId },
      payload: form(fields).payload,
    });
    expect(crossed.statusCode).toBe(403);
    expect(crossed.headers.location).toBeUndefined();
    // ...and a form field naming it is ignored: the code is the shown seller's.
    const decided = await app.inject({
      method: 'POST',
      url: '/oauth/connect/decision',
      ...form({ ...fields, sandbox_tenant: other.tenantId }),
    });
    expect(decided.statusCode).toBe(302);
    const code = new URL(decided.headers.location as string).searchParams.get('code') as string;
    const tokens = (await exchange(code, verifier)).json();
    expect((await etsyGet(app, '/v3/application/users/me', tokens.access_token)).json()).toEqual({
      user_id: tenant.etsy.userId,
      shop_id: tenant.etsy.shopId,
    });
  });

  it('answers each consent page once: a second decision with the same form is refused', async () => {
    const page = await app.inject({
      url: connectUrl({}, pkce().challenge),
      headers: { 'x-sandbox-tenant': tenant.tenantId },
    });
    const fields = { ...hiddenFields(page.body), decision: 'allow' };
    expect((await app.inject({ method: 'POST', url: '/oauth/connect/decision', ...form(fields) })).statusCode).toBe(
      302,
    );
    const replay = await app.inject({ method: 'POST', url: '/oauth/connect/decision', ...form(fields) });
    expect(replay.statusCode).toBe(400);
    expect(replay.body).toContain('expired or was not issued by this page');
  });

  it("never offers a private seller (a visitor's own) through the picker", async () => {
    const own = await createTenant(app, { seed: 'own', months: 1, ordersPerMonth: 5, private: true });
    const picked = await app.inject({ url: connectUrl({ sandbox_tenant: own.tenantId }) });
    expect(picked.statusCode).toBe(404);
    expect(picked.body).toContain(`There is no sandbox seller &quot;${own.tenantId}&quot;`);
    expect(picked.body).not.toContain(own.etsy.loginName);
    const proxied = await app.inject({ url: connectUrl(), headers: { 'x-sandbox-tenant': own.tenantId } });
    expect(proxied.statusCode).toBe(200);
    expect(proxied.body).toContain(own.etsy.loginName);
  });

  it('checks PKCE, redirect_uri, client and code lifetime with RFC 6749 errors', async () => {
    const { verifier, challenge } = pkce();
    const code = () =>
      consent('allow', challenge).then((r) => new URL(r.headers.location as string).searchParams.get('code') as string);
    const wrongVerifier = await exchange(await code(), pkce().verifier);
    expect(wrongVerifier.json()).toEqual({ error: 'invalid_grant', error_description: 'code_verifier is invalid' });
    const shortVerifier = await exchange(await code(), 'short');
    expect(shortVerifier.json().error).toBe('invalid_request');
    const otherRedirect = await exchange(await code(), verifier, { redirect_uri: 'http://localhost:5000/other' });
    expect(otherRedirect.json().error).toBe('invalid_grant');
    const otherClient = await exchange(await code(), verifier, { client_id: 'not-registered' });
    expect(otherClient.json()).toEqual({ error: 'invalid_client', error_description: expect.any(String) });
    const missing = await app.inject({
      method: 'POST',
      url: '/v3/public/oauth/token',
      ...form({ grant_type: 'authorization_code', client_id: KEYSTRING }),
    });
    expect(missing.json().error).toBe('invalid_request');
    const unsupported = await app.inject({
      method: 'POST',
      url: '/v3/public/oauth/token',
      ...form({ grant_type: 'password', client_id: KEYSTRING }),
    });
    expect(unsupported.json().error).toBe('unsupported_grant_type');
    const json = await app.inject({
      method: 'POST',
      url: '/v3/public/oauth/token',
      payload: { grant_type: 'refresh_token' },
    });
    expect(json.statusCode).toBe(400);
    expect(json.json().error).toBe('invalid_request');
    const stale = await code();
    clock.advance(6 * 60);
    expect((await exchange(stale, verifier)).json()).toEqual({
      error: 'invalid_grant',
      error_description: 'code is expired',
    });
  });

  it('rotates refresh tokens: the new one works, the old one is revoked', async () => {
    const { verifier, challenge } = pkce();
    const decision = await consent('allow', challenge);
    const first = (
      await exchange(new URL(decision.headers.location as string).searchParams.get('code') as string, verifier)
    ).json();
    const refresh = (token: string) =>
      app.inject({
        method: 'POST',
        url: '/v3/public/oauth/token',
        ...form({ grant_type: 'refresh_token', client_id: KEYSTRING, refresh_token: token }),
      });
    const second = await refresh(first.refresh_token);
    expect(second.statusCode).toBe(200);
    expect(second.json().refresh_token).not.toBe(first.refresh_token);
    expect(second.json().access_token).not.toBe(first.access_token);
    const reuse = await refresh(first.refresh_token);
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json()).toEqual({ error: 'invalid_grant', error_description: 'refresh_token is revoked' });
    expect((await refresh(second.json().refresh_token)).statusCode).toBe(200);
  });

  it('expires access tokens after an hour (and on the expire knob) with 401 invalid_token', async () => {
    const { verifier, challenge } = pkce();
    const decision = await consent('allow', challenge);
    const tokens = (
      await exchange(new URL(decision.headers.location as string).searchParams.get('code') as string, verifier)
    ).json();
    clock.advance(3599);
    expect((await etsyGet(app, '/v3/application/users/me', tokens.access_token)).statusCode).toBe(200);
    clock.advance(1);
    const expired = await etsyGet(app, '/v3/application/users/me', tokens.access_token);
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({ error: 'invalid_token', error_description: 'access token is expired' });

    const fresh = (
      await app.inject({
        method: 'POST',
        url: '/v3/public/oauth/token',
        ...form({ grant_type: 'refresh_token', client_id: KEYSTRING, refresh_token: tokens.refresh_token }),
      })
    ).json();
    expect((await etsyGet(app, '/v3/application/users/me', fresh.access_token)).statusCode).toBe(200);
    const knob = await app.inject({
      method: 'POST',
      url: '/__sandbox/faults',
      headers: ADMIN,
      payload: { target: 'etsy', kind: 'expire-access-token', match: { tenantId: tenant.tenantId } },
    });
    expect(knob.json().affected).toBe(1);
    expect((await etsyGet(app, '/v3/application/users/me', fresh.access_token)).json().error_description).toBe(
      'access token is expired',
    );

    await app.inject({
      method: 'POST',
      url: '/__sandbox/faults',
      headers: ADMIN,
      payload: { target: 'etsy', kind: 'revoke-refresh-token', match: { tenantId: tenant.tenantId } },
    });
    const revoked = await app.inject({
      method: 'POST',
      url: '/v3/public/oauth/token',
      ...form({ grant_type: 'refresh_token', client_id: KEYSTRING, refresh_token: fresh.refresh_token }),
    });
    expect(revoked.json()).toEqual({ error: 'invalid_grant', error_description: 'refresh_token is revoked' });
  });

  it('answers missing and unknown bearer tokens with 401 invalid_token, and checks scopes', async () => {
    const none = await etsyGet(app, '/v3/application/users/me');
    expect(none.statusCode).toBe(401);
    expect(none.json().error).toBe('invalid_token');
    const unknown = await etsyGet(app, '/v3/application/users/me', `${tenant.etsy.userId}.not-a-token`);
    expect(unknown.json()).toEqual({ error: 'invalid_token', error_description: 'access token is invalid' });
    const narrow = await connectEtsy(app, tenant.tenantId, 'transactions_r');
    const me = await etsyGet(app, '/v3/application/users/me', narrow.access_token);
    expect(me.statusCode).toBe(403);
    expect(me.json().error).toContain('shops_r');
    expect(API_KEY).toContain(':');
  });
});
