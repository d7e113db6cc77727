import type { FastifyInstance } from 'fastify';
import {
  ADMIN,
  connectEtsy,
  createTenant,
  etsyGet,
  newSandbox,
  printifyGet,
  type TenantInfo,
  type Tokens,
} from '../../test/support/kit';

describe('fault knobs and the request log', () => {
  let app: FastifyInstance;
  let tenant: TenantInfo;
  let tokens: Tokens;
  let receiptsUrl: string;

  beforeEach(async () => {
    ({ app } = await newSandbox());
    tenant = await createTenant(app, { months: 2, ordersPerMonth: 100 });
    tokens = await connectEtsy(app, tenant.tenantId);
    receiptsUrl = `/v3/application/shops/${tenant.etsy.shopId}/receipts`;
  });
  afterEach(() => app.close());

  const fault = async (body: Record<string, unknown>) => {
    const res = await app.inject({ method: 'POST', url: '/__sandbox/faults', headers: ADMIN, payload: body });
    expect(res.statusCode).toBe(201);
  };
  const receipts = (offset: number) => etsyGet(app, `${receiptsUrl}?limit=25&offset=${offset}`, tokens.access_token);

  it('answers the 3rd page with 429 and retry-after, once', async () => {
    await fault({
      target: 'etsy',
      kind: '429',
      match: { pathPrefix: receiptsUrl, tenantId: tenant.tenantId },
      skip: 2,
      retryAfterSeconds: 7,
    });
    const statuses: number[] = [];
    let retryAfter: string | undefined;
    for (let page = 0; page < 5; page++) {
      const res = await receipts(page * 25);
      statuses.push(res.statusCode);
      if (res.statusCode === 429) retryAfter = res.headers['retry-after'] as string;
    }
    expect(statuses).toEqual([200, 200, 429, 200, 200]);
    expect(retryAfter).toBe('7');
    const log = (
      await app.inject({ url: `/__sandbox/requests?tenantId=${tenant.tenantId}&target=etsy`, headers: ADMIN })
    ).json().requests;
    const pages = log.filter((r: { path: string }) => r.path === receiptsUrl);
    expect(pages.map((r: { status: number }) => r.status)).toEqual([200, 200, 429, 200, 200]);
    expect(pages[2].fault).toBe('429');
    expect(pages[0].query).toEqual({ limit: '25', offset: '0' });
    expect(pages[0].credential).toMatch(/^etsy-token:[0-9a-f]{12}$/);
  });

  it('answers the daily-quota knob with x-remaining-today 0 and a long retry-after', async () => {
    await fault({ target: 'etsy', kind: 'quota-exhausted', retryAfterSeconds: 20 });
    const res = await receipts(0);
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('20');
    expect(res.headers['x-remaining-today']).toBe('0');
  });

  it.each([500, 502, 503, 504])('returns %i (HTML for gateway errors) for count requests', async (status) => {
    await fault({ target: 'printify', kind: '5xx', status, count: 2 });
    const url = `/v1/shops/${tenant.printify.shops[0].id}/orders.json`;
    const first = await printifyGet(app, url, tenant.printify.token);
    const second = await printifyGet(app, url, tenant.printify.token);
    expect([first.statusCode, second.statusCode]).toEqual([status, status]);
    if (status !== 500) expect(first.headers['content-type']).toContain('text/html');
    expect((await printifyGet(app, url, tenant.printify.token)).statusCode).toBe(200);
  });

  it('cuts a JSON answer in half on the malformed-json knob', async () => {
    await fault({ target: 'etsy', kind: 'malformed-json', match: { pathPrefix: receiptsUrl } });
    const res = await receipts(0);
    expect(res.statusCode).toBe(200);
    expect(() => JSON.parse(res.body)).toThrow();
    const next = await receipts(0);
    expect(() => JSON.parse(next.body)).not.toThrow();
  });

  it('redirects off-site on the redirect knob', async () => {
    await fault({ target: 'ecb', kind: 'redirect' });
    const res = await app.inject({ url: '/stats/eurofxref/eurofxref-daily.xml' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('https://evil.example/');
  });

  it('hangs without sending headers until the client gives up', async () => {
    await fault({ target: 'etsy', kind: 'hang', match: { pathPrefix: '/v3/application/users/me' } });
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    const started = Date.now();
    await expect(
      fetch(`${address}/v3/application/users/me`, {
        headers: {
          'x-api-key': 'sandbox-keystring:sandbox-shared-secret',
          authorization: `Bearer ${tokens.access_token}`,
        },
        signal: AbortSignal.timeout(300),
      }),
    ).rejects.toThrow();
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    const next = await fetch(`${address}/v3/application/users/me`, {
      headers: {
        'x-api-key': 'sandbox-keystring:sandbox-shared-secret',
        authorization: `Bearer ${tokens.access_token}`,
      },
    });
    expect(next.status).toBe(200);
  });

  it('patches records of a list answer on the patch-records knob (schema drift on demand), once', async () => {
    const clean = (await receipts(0)).json();
    await fault({
      target: 'etsy',
      kind: 'patch-records',
      match: { pathPrefix: receiptsUrl },
      patches: [
        { index: 0, path: ['grandtotal', 'amount'], op: 'set', value: 12.5 },
        { index: 0, path: ['extra_field'], op: 'set', value: { nested: [1, 2] } },
        { index: 1, path: ['receipt_id'], op: 'delete' },
        { index: 2, path: ['transactions', 0, 'price', 'divisor'], op: 'set', value: '100' },
        { index: 3, path: ['no_such', 'field'], op: 'set', value: 1 },
      ],
    });
    const patched = (await receipts(0)).json();
    expect(patched.results[0].grandtotal.amount).toBe(12.5);
    expect(patched.results[0].extra_field).toEqual({ nested: [1, 2] });
    expect(patched.results[1]).not.toHaveProperty('receipt_id');
    expect(patched.results[2].transactions[0].price.divisor).toBe('100');
    expect(patched.results[3]).toEqual(clean.results[3]);
    expect(patched.results.slice(4)).toEqual(clean.results.slice(4));
    expect((await receipts(0)).json()).toEqual(clean);
    const bad = await app.inject({
      method: 'POST',
      url: '/__sandbox/faults',
      headers: ADMIN,
      payload: { target: 'etsy', kind: 'patch-records', patches: [{ index: 0, op: 'set' }] },
    });
    expect(bad.statusCode).toBe(400);
  });

  describe('body and connection knobs (over a real socket)', () => {
    let address: string;
    const headers = () => ({
      'x-api-key': 'sandbox-keystring:sandbox-shared-secret',
      authorization: `Bearer ${tokens.access_token}`,
    });
    beforeEach(async () => {
      address = await app.listen({ host: '127.0.0.1', port: 0 });
    });

    it('trickles the body after prompt headers on the slow-body knob', async () => {
      await fault({
        target: 'etsy',
        kind: 'slow-body',
        bytesPerSecond: 50,
        match: { pathPrefix: '/v3/application/users/me' },
      });
      const started = Date.now();
      const response = await fetch(`${address}/v3/application/users/me`, { headers: headers() });
      expect(response.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(500);
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      const first = await reader.read();
      expect(first.value?.byteLength).toBe(1);
      const text =
        Buffer.from(first.value as Uint8Array).toString() +
        (await new Response(
          new ReadableStream({
            pull: async (c) => {
              const r = await reader.read();
              if (r.done) c.close();
              else c.enqueue(r.value);
            },
          }),
        ).text());
      const elapsed = Date.now() - started;
      expect(JSON.parse(text)).toEqual({ user_id: tenant.etsy.userId, shop_id: tenant.etsy.shopId });
      // Every byte waited its turn: length / 50 per second.
      expect(elapsed).toBeGreaterThanOrEqual(((text.length - 1) / 50) * 1000 - 100);
      const log = (
        await app.inject({ url: `/__sandbox/requests?tenantId=${tenant.tenantId}&target=etsy`, headers: ADMIN })
      ).json().requests;
      expect(log.at(-1)).toMatchObject({ fault: 'slow-body', status: 200 });
    });

    it('pads a page past a size cap with whitespace on the oversize knob, still valid JSON', async () => {
      await fault({ target: 'etsy', kind: 'oversize', bytes: 3_000_000, match: { pathPrefix: receiptsUrl } });
      const response = await fetch(`${address}${receiptsUrl}?limit=100`, { headers: headers() });
      expect(Number(response.headers.get('content-length'))).toBe(3_000_000);
      const text = await response.text();
      expect(Buffer.byteLength(text)).toBe(3_000_000);
      expect(JSON.parse(text).results).toHaveLength(100);
      const next = await fetch(`${address}${receiptsUrl}?limit=100`, { headers: headers() });
      expect(Buffer.byteLength(await next.text())).toBeLessThan(3_000_000);
    });

    it('cuts the connection without an answer on the reset knob', async () => {
      await fault({ target: 'printify', kind: 'reset', match: { tenantId: tenant.tenantId } });
      const url = `${address}/v1/shops/${tenant.printify.shops[0].id}/orders.json`;
      const auth = { authorization: `Bearer ${tenant.printify.token}`, 'user-agent': 'tests' };
      await expect(fetch(url, { headers: auth })).rejects.toThrow();
      expect((await fetch(url, { headers: auth })).status).toBe(200);
    });

    it('sends half the body under a full Content-Length, then cuts the connection, on the truncated-body knob', async () => {
      await fault({ target: 'etsy', kind: 'truncated-body', match: { pathPrefix: receiptsUrl } });
      const response = await fetch(`${address}${receiptsUrl}?limit=50`, { headers: headers() });
      expect(response.status).toBe(200);
      const promised = Number(response.headers.get('content-length'));
      expect(promised).toBeGreaterThan(1000);
      await expect(response.text()).rejects.toThrow();
      const whole = await fetch(`${address}${receiptsUrl}?limit=50`, { headers: headers() });
      expect(Buffer.byteLength(await whole.text())).toBe(promised);
    });
  });

  it('lists and clears faults; needs the admin token', async () => {
    await fault({ target: 'etsy', kind: '5xx', count: 3 });
    expect((await app.inject({ url: '/__sandbox/faults', headers: ADMIN })).json().faults).toHaveLength(1);
    expect((await app.inject({ method: 'DELETE', url: '/__sandbox/faults', headers: ADMIN })).statusCode).toBe(204);
    expect((await receipts(0)).statusCode).toBe(200);
    expect((await app.inject({ url: '/__sandbox/faults' })).statusCode).toBe(401);
    expect(
      (await app.inject({ url: '/__sandbox/faults', headers: { authorization: 'Bearer wrong-token' } })).statusCode,
    ).toBe(401);
    const bad = await app.inject({
      method: 'POST',
      url: '/__sandbox/faults',
      headers: ADMIN,
      payload: { target: 'etsy', kind: 'meteor' },
    });
    expect(bad.statusCode).toBe(400);
    expect((await app.inject({ url: '/__sandbox/healthz' })).statusCode).toBe(200);
  });

  it('never logs secrets: OAuth query values are redacted', async () => {
    await app.inject({
      url: '/oauth/connect?client_id=sandbox-keystring&state=secret-state&code_challenge=secret-challenge',
    });
    const log = JSON.stringify((await app.inject({ url: '/__sandbox/requests', headers: ADMIN })).json());
    expect(log).not.toContain('secret-state');
    expect(log).not.toContain('secret-challenge');
    expect(log).not.toContain(tokens.access_token);
    expect(log).not.toContain(tokens.refresh_token);
    expect(log).not.toContain(tenant.printify.token);
  });
});
