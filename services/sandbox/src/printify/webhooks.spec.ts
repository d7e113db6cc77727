import type { FastifyInstance } from 'fastify';
import { ADMIN, createTenant, newSandbox, type TenantInfo } from '../../test/support/kit';

/**
 * Printify webhook subscriptions as integrations.md b.5 documents them: list `[{topic, url,
 * shop_id, id}]`, create with `{topic, url, secret?}`, move with PUT `{url}`, delete only with
 * the URL's `host`, all per shop, behind the token and the account's rate limit.
 */
describe('Printify webhook subscriptions', () => {
  let app: FastifyInstance;
  let tenant: TenantInfo;
  let other: TenantInfo;
  let base: string;

  beforeEach(async () => {
    ({ app } = await newSandbox({ webhookHosts: ['hooks.example'] }));
    tenant = await createTenant(app, { seed: 'hooks', months: 1, ordersPerMonth: 20, printifyShops: 2 });
    other = await createTenant(app, { seed: 'hooks-other', months: 1, ordersPerMonth: 5 });
    base = `/v1/shops/${tenant.printify.shops[0].id}/webhooks`;
  });
  afterEach(() => app.close());

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
    token = tenant.printify.token,
  ) =>
    app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}`, 'user-agent': 'podprofit-tests' },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const reasonOf = (body: { errors?: { reason?: string } }) =>
    JSON.parse(body.errors?.reason ?? '{}') as Record<string, string[]>;

  it('creates and lists subscriptions without ever showing the secret', async () => {
    expect((await call('GET', `${base}.json`)).json()).toEqual([]);
    const created = await call('POST', `${base}.json`, {
      topic: 'order:created',
      url: 'http://127.0.0.1:9/hook',
      secret: 'a'.repeat(40),
    });
    expect(created.statusCode).toBe(200);
    const hook = created.json();
    expect(hook).toEqual({
      topic: 'order:created',
      url: 'http://127.0.0.1:9/hook',
      shop_id: tenant.printify.shops[0].id,
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
    });
    await call('POST', `${base}.json`, { topic: 'order:updated', url: 'https://hooks.example/p' });
    const listed = await call('GET', `${base}.json`);
    expect(listed.json()).toEqual([
      hook,
      {
        topic: 'order:updated',
        url: 'https://hooks.example/p',
        shop_id: tenant.printify.shops[0].id,
        id: expect.any(String),
      },
    ]);
    expect(listed.body).not.toContain('a'.repeat(40));
    // Per shop: the second shop has none; the prefixed path is the same API.
    expect((await call('GET', `/v1/shops/${tenant.printify.shops[1].id}/webhooks.json`)).json()).toEqual([]);
    expect((await call('GET', `/printify${base}.json`)).json()).toHaveLength(2);
    const admin = await app.inject({ url: `/__sandbox/tenants/${tenant.tenantId}/printify-webhooks`, headers: ADMIN });
    expect(
      admin.json().webhooks.map((w: { secretSet: boolean; blockedUntil: null }) => [w.secretSet, w.blockedUntil]),
    ).toEqual([
      [true, null],
      [false, null],
    ]);
  });

  it('refuses unknown topics, non-http URLs, hosts it may not post to and bad secrets with the 8103 shape', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ url: 'http://127.0.0.1/x' }, 'topic'],
      [{ topic: 'order:exploded', url: 'http://127.0.0.1/x' }, 'topic'],
      [{ topic: 'order:created' }, 'url'],
      [{ topic: 'order:created', url: 'ftp://127.0.0.1/x' }, 'url'],
      [{ topic: 'order:created', url: 'https://evil.example/x' }, 'url'],
      [{ topic: 'order:created', url: 'http://user:pw@127.0.0.1/x' }, 'url'],
      [{ topic: 'order:created', url: 'http://127.0.0.1/x', secret: 7 }, 'secret'],
      [{ topic: 'order:created', url: 'http://127.0.0.1/x', secret: '' }, 'secret'],
    ];
    for (const [payload, field] of cases) {
      const res = await call('POST', `${base}.json`, payload);
      expect({ payload, status: res.statusCode }).toEqual({ payload, status: 400 });
      expect(res.json()).toMatchObject({
        status: 'error',
        code: 8103,
        message: 'Validation failed.',
        errors: { code: 8103 },
      });
      expect(Object.keys(reasonOf(res.json()))).toEqual([field]);
    }
    expect((await call('GET', `${base}.json`)).json()).toEqual([]);
  });

  it('is per tenant: another account sees its own shop as not found, and no token is 401', async () => {
    await call('POST', `${base}.json`, { topic: 'order:created', url: 'http://127.0.0.1/x' });
    expect((await call('GET', `${base}.json`, undefined, other.printify.token)).statusCode).toBe(404);
    expect(
      (await call('POST', `${base}.json`, { topic: 'order:created', url: 'http://127.0.0.1/y' }, other.printify.token))
        .statusCode,
    ).toBe(404);
    expect((await app.inject({ url: `${base}.json`, headers: { 'user-agent': 'x' } })).statusCode).toBe(401);
    expect((await call('GET', `${base}.json`)).json()).toHaveLength(1);
  });

  it("spends the account's rate limit like every other call", async () => {
    await app.inject({ method: 'PATCH', url: '/__sandbox/settings', headers: ADMIN, payload: { printifyRpm: 3 } });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await call('GET', `${base}.json`)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('moves a subscription with PUT {url}, and 404s an unknown id', async () => {
    const hook = (await call('POST', `${base}.json`, { topic: 'order:updated', url: 'http://127.0.0.1/old' })).json();
    const moved = await call('PUT', `${base}/${hook.id}.json`, { url: 'http://localhost:8080/new' });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toEqual({ ...hook, url: 'http://localhost:8080/new' });
    expect((await call('PUT', `${base}/${hook.id}.json`, { url: 'javascript:alert(1)' })).statusCode).toBe(400);
    expect((await call('PUT', `${base}/${'0'.repeat(24)}.json`, { url: 'http://127.0.0.1/x' })).statusCode).toBe(404);
    expect((await call('GET', `${base}.json`)).json()).toEqual([{ ...hook, url: 'http://localhost:8080/new' }]);
  });

  it("deletes only when `host` names the webhook URL's host", async () => {
    const hook = (
      await call('POST', `${base}.json`, { topic: 'order:updated', url: 'http://localhost:8080/hook' })
    ).json();
    expect((await call('DELETE', `${base}/${hook.id}.json`)).statusCode).toBe(400);
    const wrong = await call('DELETE', `${base}/${hook.id}.json?host=evil.example`);
    expect(wrong.statusCode).toBe(400);
    expect(Object.keys(reasonOf(wrong.json()))).toEqual(['host']);
    expect((await call('GET', `${base}.json`)).json()).toHaveLength(1);
    const removed = await call('DELETE', `${base}/${hook.id}.json?host=localhost:8080`);
    expect(removed.statusCode).toBe(200);
    expect((await call('GET', `${base}.json`)).json()).toEqual([]);
    expect((await call('DELETE', `${base}/${hook.id}.json?host=localhost`)).statusCode).toBe(404);
    // The host without its port is accepted too (which one Printify compares is unconfirmed).
    const second = (
      await call('POST', `${base}.json`, { topic: 'order:updated', url: 'http://localhost:8080/hook' })
    ).json();
    expect((await call('DELETE', `${base}/${second.id}.json?host=localhost`)).statusCode).toBe(200);
  });

  it("forgets a tenant's subscriptions with the tenant", async () => {
    await call('POST', `${base}.json`, { topic: 'order:updated', url: 'http://127.0.0.1/x' });
    expect(
      (await app.inject({ method: 'DELETE', url: `/__sandbox/tenants/${tenant.tenantId}`, headers: ADMIN })).statusCode,
    ).toBe(204);
    expect(
      (await app.inject({ url: `/__sandbox/tenants/${tenant.tenantId}/printify-webhooks`, headers: ADMIN })).statusCode,
    ).toBe(404);
  });
});

describe('Etsy webhook subscriptions (admin: Etsy keeps them in its developer portal)', () => {
  let app: FastifyInstance;
  let tenant: TenantInfo;

  beforeEach(async () => {
    ({ app } = await newSandbox());
    tenant = await createTenant(app, { seed: 'etsy-hooks', months: 1, ordersPerMonth: 5 });
  });
  afterEach(() => app.close());

  const secret = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
  const put = (url: string, payload: unknown) =>
    app.inject({ method: 'PUT', url, headers: ADMIN, payload: payload as object });

  it('sets an app-wide subscription and a tenant one that wins, never showing the secret', async () => {
    expect((await put('/__sandbox/etsy-webhook', { url: 'http://127.0.0.1:9/etsy', secret })).json()).toEqual({
      subscription: {
        url: 'http://127.0.0.1:9/etsy',
        events: ['order.paid', 'order.shipped', 'order.canceled', 'order.delivered'],
        secretSet: true,
      },
    });
    const tenantHook = `/__sandbox/tenants/${tenant.tenantId}/etsy-webhook`;
    expect((await app.inject({ url: tenantHook, headers: ADMIN })).json()).toMatchObject({
      subscription: null,
      effective: { url: 'http://127.0.0.1:9/etsy' },
    });
    await put(tenantHook, { url: 'http://localhost:7/mine', secret, events: ['order.paid'] });
    const shown = await app.inject({ url: tenantHook, headers: ADMIN });
    expect(shown.json()).toMatchObject({
      subscription: { url: 'http://localhost:7/mine', events: ['order.paid'] },
      effective: { url: 'http://localhost:7/mine' },
    });
    expect(shown.body).not.toContain(secret.slice(6));
    expect((await app.inject({ method: 'DELETE', url: tenantHook, headers: ADMIN })).statusCode).toBe(204);
    expect((await app.inject({ url: tenantHook, headers: ADMIN })).json()).toMatchObject({
      subscription: null,
      effective: { url: 'http://127.0.0.1:9/etsy' },
    });
  });

  it('refuses a secret without whsec_, a short one, an unknown event and a host it may not post to', async () => {
    for (const body of [
      { url: 'http://127.0.0.1/e', secret: Buffer.alloc(24).toString('base64') },
      { url: 'http://127.0.0.1/e', secret: `whsec_${Buffer.alloc(8).toString('base64')}` },
      { url: 'http://127.0.0.1/e', secret, events: ['order.exploded'] },
      { url: 'https://evil.example/e', secret },
      { secret },
    ]) {
      expect((await put('/__sandbox/etsy-webhook', body)).statusCode).toBe(400);
    }
    expect((await app.inject({ url: '/__sandbox/etsy-webhook', headers: ADMIN })).json()).toEqual({
      subscription: null,
    });
    expect(
      (
        await app.inject({
          method: 'PUT',
          url: '/__sandbox/etsy-webhook',
          payload: { url: 'http://127.0.0.1/e', secret },
        })
      ).statusCode,
    ).toBe(401);
  });
});
