import { Client } from 'pg';
import { SandboxProviders } from './support/sandbox-providers';
import {
  GatewayTestBed,
  ORIGIN,
  SAME_ORIGIN,
  register,
  sessionCookie,
  uniqueEmail,
  type TestGateway,
} from './support/test-gateway';
import { DemoCleanupService } from '../src/demo/demo-cleanup.service';

const REDIRECT_URI = `${ORIGIN}/api/connections/etsy/callback`;
const bed = new GatewayTestBed();
const sandbox = new SandboxProviders();
let gw: TestGateway;

beforeAll(async () => {
  await sandbox.start(REDIRECT_URI);
  await bed.setUp();
  gw = await bed.start(sandbox.env(REDIRECT_URI));
}, 60_000);
afterAll(async () => {
  await bed.tearDown();
  await sandbox.stop();
});

const devLogin = (remoteAddress?: string) =>
  gw.app.inject({ method: 'POST', url: '/api/auth/dev-login', headers: SAME_ORIGIN, remoteAddress });
const get = (url: string, cookie: string) => gw.app.inject({ method: 'GET', url, headers: { cookie } });

async function tenantOf(userId: string): Promise<string | null> {
  const client = new Client({ connectionString: bed.database.url });
  await client.connect();
  try {
    return (
      (await client.query('SELECT sandbox_tenant_id FROM app_user WHERE id = $1', [userId])).rows[0]
        ?.sandbox_tenant_id ?? null
    );
  } finally {
    await client.end();
  }
}

describe('Try the demo (demo mode: no Etsy credentials)', () => {
  it('says the demo is on', async () => {
    const config = await gw.app.inject({ method: 'GET', url: '/api/public/config' });
    expect(config.json()).toMatchObject({ demoEnabled: true });
  });

  it('signs into a fresh demo account whose Etsy and Printify connections are live on its own sandbox seller', async () => {
    const first = await devLogin();
    expect(first.statusCode).toBe(201);
    const user = first.json().user;
    expect(user).toMatchObject({ firstName: 'Demo', lastName: 'Seller', isDemo: true });
    const cookie = sessionCookie(first);
    expect((await get('/api/auth/user', cookie)).json()).toMatchObject({ id: user.id, isDemo: true });

    const status = (await get('/api/connections/status', cookie)).json();
    expect(status.etsy).toMatchObject({ connected: true });
    expect(status.etsy.shopName).toEqual(expect.any(String));
    expect(status.printify).toMatchObject({ connected: true });

    const tenantId = await tenantOf(user.id);
    expect(tenantId).toMatch(/^demo-/);
    const tenant = await sandbox.admin<{ etsy: { shopName: string } }>('GET', `/tenants/${tenantId}`);
    expect(status.etsy.shopName).toBe(tenant.etsy.shopName);

    const second = await devLogin();
    expect(second.json().user.id).not.toBe(user.id);
    expect(await tenantOf(second.json().user.id)).not.toBe(tenantId);
  }, 30_000);

  it('gives a demo visitor the sandbox Printify token to reconnect with', async () => {
    const cookie = sessionCookie(await devLogin());
    const details = await get('/api/demo/sandbox', cookie);
    expect(details.statusCode).toBe(200);
    expect(details.json()).toMatchObject({ printifyToken: expect.any(String), shopName: expect.any(String) });
    const validate = await gw.app.inject({
      method: 'POST',
      url: '/api/connections/printify/validate',
      headers: { ...SAME_ORIGIN, cookie },
      payload: { token: details.json().printifyToken },
    });
    expect(validate.statusCode).toBe(200);
  }, 30_000);

  it('serves the consent page through the gateway for the visitor’s own seller, and Allow completes the real OAuth flow', async () => {
    const cookie = sessionCookie(await register(gw.app, uniqueEmail('proxy')));
    const started = await gw.app.inject({
      method: 'POST',
      url: '/api/connections/etsy/oauth',
      headers: { ...SAME_ORIGIN, cookie },
    });
    const authUrl = new URL(started.json().authUrl);
    expect(authUrl.pathname).toBe('/sandbox/oauth/connect');

    const page = await get(`${authUrl.pathname}${authUrl.search}`, cookie);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('Allow access');
    // The gateway names the signed-in seller: the page offers no other.
    expect(page.body).not.toContain('Not you?');
    // The visitor got a sandbox seller of their own (made on first need), private to them.
    const me = (await get('/api/auth/user', cookie)).json();
    const tenantId = await tenantOf(me.id);
    expect(tenantId).toMatch(/^user-/);
    const own = await sandbox.admin<{ etsy: { loginName: string }; private: boolean }>('GET', `/tenants/${tenantId}`);
    expect(own.private).toBe(true);
    expect(page.body).toContain(own.etsy.loginName);
    expect(page.body).not.toContain('name="sandbox_tenant"');

    const form = new URLSearchParams(
      [...page.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m): [string, string] => [
        m[1],
        decodeHtml(m[2]),
      ]),
    );
    form.set('decision', 'allow');
    const decided = await gw.app.inject({
      method: 'POST',
      url: '/sandbox/oauth/connect/decision',
      headers: {
        cookie,
        origin: ORIGIN,
        'sec-fetch-site': 'same-origin',
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: form.toString(),
    });
    expect(decided.statusCode).toBe(302);
    const back = new URL(String(decided.headers.location));
    expect(`${back.origin}${back.pathname}`).toBe(new URL(REDIRECT_URI).href);
    const callback = await get(`${back.pathname}${back.search}`, cookie);
    expect(callback.headers.location).toBe('/connections?etsy=connected');

    // Naming another seller (the page's "choose another seller" field) is ignored through the gateway.
    const again = new URL(
      (
        await gw.app.inject({ method: 'POST', url: '/api/connections/etsy/oauth', headers: { ...SAME_ORIGIN, cookie } })
      ).json().authUrl,
    );
    again.searchParams.set('sandbox_tenant', 'default');
    const other = await get(`${again.pathname}${again.search}`, cookie);
    expect(other.statusCode).toBe(200);
    expect(other.body).toContain(own.etsy.loginName);
    expect(other.body).not.toContain((await sandbox.tenant('default')).etsy.shopName);
  }, 30_000);

  it('grants nothing to a signed-out visitor, nor within an Etsy authorization another session started', async () => {
    const victim = sessionCookie(await devLogin());
    const victimTenant = (await tenantOf((await get('/api/auth/user', victim)).json().id)) as string;
    const victimShop = (await sandbox.tenant(victimTenant)).etsy.shopName;
    const attacker = sessionCookie(await register(gw.app, uniqueEmail('attacker')));
    const started = new URL(
      (
        await gw.app.inject({
          method: 'POST',
          url: '/api/connections/etsy/oauth',
          headers: { ...SAME_ORIGIN, cookie: attacker },
        })
      ).json().authUrl,
    );
    const requests = async () =>
      (await sandbox.admin<{ requests: unknown[] }>('GET', `/requests?tenantId=${victimTenant}&target=etsy`)).requests
        .length;
    const before = await requests();

    // Signed out, naming the victim's seller: the gateway refuses before the sandbox sees it.
    started.searchParams.set('sandbox_tenant', victimTenant);
    const signedOut = await gw.app.inject({ method: 'GET', url: `${started.pathname}${started.search}` });
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.headers['content-type']).toMatch(/text\/html/);
    expect(signedOut.body).toContain('Sign in to connect Etsy');
    expect(signedOut.body).not.toContain('Allow access');
    expect(signedOut.body).not.toContain(victimShop);
    const form = { ...Object.fromEntries(started.searchParams), consent: 'x', decision: 'allow' };
    const decide = (cookie?: string) =>
      gw.app.inject({
        method: 'POST',
        url: '/sandbox/oauth/connect/decision',
        headers: {
          ...(cookie ? { cookie } : {}),
          origin: ORIGIN,
          'sec-fetch-site': 'same-origin',
          'content-type': 'application/x-www-form-urlencoded',
        },
        payload: new URLSearchParams(form).toString(),
      });
    expect((await decide()).statusCode).toBe(401);

    // Signed in, but with an authorization the visitor's session did not start: refused too.
    const victimPage = await get(`${started.pathname}${started.search}`, victim);
    expect(victimPage.statusCode).toBe(403);
    expect(victimPage.body).toContain('not started from your PodProfit session');
    expect(victimPage.body).not.toContain(victimShop);
    expect((await decide(victim)).statusCode).toBe(403);
    expect(await requests()).toBe(before);
  }, 30_000);

  it('shows the Etsy callback failure in the same PodProfit look as the sandbox pages', async () => {
    const failed = await gw.app.inject({ method: 'GET', url: '/api/connections/etsy/callback?state=forged&code=x' });
    expect(failed.statusCode).toBe(400);
    expect(failed.body).toContain('<header class="top"><span class="mark" aria-hidden="true"><svg');
    expect(failed.body).toContain('<span class="name">PodProfit</span>');
    expect(failed.body).toContain('<h1>Etsy connection failed</h1>');
    expect(failed.body).toContain(
      '<p class="error" role="alert">Please sign in to PodProfit, then connect Etsy again.</p>',
    );
    expect(failed.body).toContain('<a class="action" href="/connections">Back to Connections</a>');
    expect(failed.body).not.toMatch(/<script/i);
  });

  it('gives an ordinary account a new sandbox seller when the sandbox removed its old one', async () => {
    const cookie = sessionCookie(await register(gw.app, uniqueEmail('renewed')));
    const authUrl = async () =>
      new URL(
        (
          await gw.app.inject({
            method: 'POST',
            url: '/api/connections/etsy/oauth',
            headers: { ...SAME_ORIGIN, cookie },
          })
        ).json().authUrl,
      );
    const first = await authUrl();
    expect((await get(`${first.pathname}${first.search}`, cookie)).statusCode).toBe(200);
    const me = (await get('/api/auth/user', cookie)).json();
    const oldTenant = (await tenantOf(me.id)) as string;
    await sandbox.admin('DELETE', `/tenants/${oldTenant}`);
    const second = await authUrl();
    const page = await get(`${second.pathname}${second.search}`, cookie);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Allow access');
    const newTenant = await tenantOf(me.id);
    expect(newTenant).toMatch(/^user-/);
    expect(newTenant).not.toBe(oldTenant);
  }, 30_000);

  it('tells a demo visitor whose sandbox seller was removed that the demo ended (410, never 500), and the cleanup signs them out', async () => {
    const response = await devLogin();
    const cookie = sessionCookie(response);
    const tenantId = (await tenantOf(response.json().user.id)) as string;
    await sandbox.admin('DELETE', `/tenants/${tenantId}`);
    const details = await get('/api/demo/sandbox', cookie);
    expect(details.statusCode).toBe(410);
    expect(details.json().message).toMatch(/^Your demo has ended/);
    const started = new URL(
      (
        await gw.app.inject({ method: 'POST', url: '/api/connections/etsy/oauth', headers: { ...SAME_ORIGIN, cookie } })
      ).json().authUrl,
    );
    const page = await get(`${started.pathname}${started.search}`, cookie);
    expect(page.statusCode).toBe(410);
    expect(page.body).toContain('Your demo has ended');
    expect(page.body).toContain('href="/"');
    // The next sweep (a minute on, so the account is not brand new) removes the account.
    const cleanup = gw.app.get(DemoCleanupService);
    expect(await cleanup.sweep(new Date(Date.now() + 120_000))).toBeGreaterThanOrEqual(1);
    expect((await get('/api/auth/user', cookie)).statusCode).toBe(204);
  }, 30_000);

  it('removes demo accounts and their sandbox sellers after 24 hours, and leaves the rest', async () => {
    const response = await devLogin();
    const userId = response.json().user.id as string;
    const tenantId = (await tenantOf(userId)) as string;
    const regular = sessionCookie(await register(gw.app, uniqueEmail('keep')));
    const cleanup = gw.app.get(DemoCleanupService);
    expect(await cleanup.sweep(new Date())).toBe(0);
    const removed = await cleanup.sweep(new Date(Date.now() + 25 * 3600 * 1000));
    expect(removed).toBeGreaterThanOrEqual(1);
    expect(await tenantOf(userId)).toBeNull();
    expect((await get('/api/auth/user', sessionCookie(response))).statusCode).toBe(204);
    await expect(sandbox.admin('GET', `/tenants/${tenantId}`)).rejects.toThrow(/404/);
    expect((await get('/api/auth/user', regular)).statusCode).toBe(200);
  }, 30_000);
});

describe('a full sandbox (SANDBOX_MAX_TENANTS=3)', () => {
  const small = new SandboxProviders();
  let smallGw: TestGateway;
  beforeAll(async () => {
    await small.start(REDIRECT_URI, { maxTenants: 3 });
    smallGw = await bed.start(small.env(REDIRECT_URI));
  }, 60_000);
  afterAll(() => small.stop());

  it('never answers 503 to "Try the demo": the seller unused for longest makes room', async () => {
    const login = () =>
      smallGw.app.inject({
        method: 'POST',
        url: '/api/auth/dev-login',
        headers: SAME_ORIGIN,
        remoteAddress: '203.0.113.77',
      });
    // "default" plus two demos fill it; each further demo evicts the oldest idle one.
    const visitors = [];
    for (let i = 0; i < 4; i++) {
      const response = await login();
      expect(response.statusCode).toBe(201);
      visitors.push(sessionCookie(response));
    }
    expect((await small.admin<{ tenants: number }>('GET', '/healthz')).tenants).toBe(3);
    const status = async (cookie: string) =>
      (await smallGw.app.inject({ method: 'GET', url: '/api/demo/sandbox', headers: { cookie } })).statusCode;
    expect(await status(visitors[0])).toBe(410);
    expect(await status(visitors[1])).toBe(410);
    expect(await status(visitors[2])).toBe(200);
    expect(await status(visitors[3])).toBe(200);

    // The sandbox down: 503 with a plain message, never a 500.
    await small.stop();
    const down = await smallGw.app.inject({
      method: 'GET',
      url: '/api/demo/sandbox',
      headers: { cookie: visitors[3] },
    });
    expect(down.statusCode).toBe(503);
    expect(down.json().message).toBe('The demo sandbox is not answering. Please try again shortly.');
  }, 60_000);
});

describe('live mode (real Etsy credentials configured)', () => {
  it('has no demo: dev-login answers 404 and no sandbox page is served', async () => {
    const live = await bed.start({
      ETSY_API_KEY: 'realkeystring',
      ETSY_SHARED_SECRET: 'real-shared-secret',
      ETSY_REDIRECT_URI: REDIRECT_URI,
    });
    expect(
      (await live.app.inject({ method: 'POST', url: '/api/auth/dev-login', headers: SAME_ORIGIN })).statusCode,
    ).toBe(404);
    // An unknown path of the web app: the SPA's own "Page Not Found", never the sandbox's consent page.
    const consent = await live.app.inject({ method: 'GET', url: '/sandbox/oauth/connect?x=1' });
    expect(consent.body).not.toContain('Allow access');
    expect(consent.body).toContain('<div id="root">');
    const decision = await live.app.inject({
      method: 'POST',
      url: '/sandbox/oauth/connect/decision',
      headers: { origin: ORIGIN, 'sec-fetch-site': 'same-origin', 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'decision=allow',
    });
    expect(decision.statusCode).toBe(404);
    expect((await live.app.inject({ method: 'GET', url: '/api/public/config' })).json()).toMatchObject({
      demoEnabled: false,
    });
  });
});

function decodeHtml(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
