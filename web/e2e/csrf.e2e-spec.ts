import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import { pageFetch, setupE2E } from './support/harness';
import { expectPath, expectText } from './support/expect';
import { gotoApp, LoginForm, Shell, signUpThroughUi } from './support/pages';
import { newTestUser, type TestUser } from './support/users';

// Security test plan item 21 (browser part): a form post and a `fetch` from a second loopback
// origin are refused by the server. The attacker pages come from a small node:http server on
// another port: reached as http://127.0.0.1:<port> it is same-site with the gateway (ports do
// not count for SameSite, so the Lax session cookie IS sent and the server's Sec-Fetch-Site
// check is the only defence); reached as http://localhost:<port> it is cross-site.

const e2e = setupE2E();

const SESSION_COOKIE = /podprofit_session$/;

/** Every attack names itself in a `csrf` query parameter, which the routes ignore. */
function tagged(path: string, name: string) {
  return `${path}?csrf=${encodeURIComponent(name)}`;
}

function attackName(url: string): string | null {
  return new URL(url).searchParams.get('csrf');
}

function escapeAttr(value: string) {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

interface FormAttack {
  name: string;
  path: string;
  enctype: 'application/x-www-form-urlencoded' | 'text/plain' | 'multipart/form-data';
  fields: Array<[string, string]>;
}

interface FetchAttack {
  name: string;
  path: string;
  init: { method: 'POST'; credentials: 'include'; mode?: 'no-cors'; headers?: Record<string, string>; body?: string };
  /** No body means no Content-Type, so the body parser cannot refuse it: only the origin check can. */
  bodiless?: boolean;
}

/** `{"email":…,"password":…,"pad":"="}` as a text/plain form body: JSON that a form can send. */
function jsonShapedField(user: TestUser): [string, string] {
  return [`{"email":${JSON.stringify(user.email)},"password":${JSON.stringify(user.password)},"pad":"`, '"}'];
}

function sessionFormAttacks(): FormAttack[] {
  return [
    {
      name: 'form-logout-urlencoded',
      path: '/api/auth/logout',
      enctype: 'application/x-www-form-urlencoded',
      fields: [['x', '1']],
    },
    { name: 'form-logout-text-plain', path: '/api/auth/logout', enctype: 'text/plain', fields: [['x', '1']] },
    { name: 'form-logout-multipart', path: '/api/auth/logout', enctype: 'multipart/form-data', fields: [['x', '1']] },
    {
      name: 'form-etsy-oauth-urlencoded',
      path: '/api/connections/etsy/oauth',
      enctype: 'application/x-www-form-urlencoded',
      fields: [],
    },
  ];
}

function loginFormAttacks(user: TestUser): FormAttack[] {
  const credentials: Array<[string, string]> = [
    ['email', user.email],
    ['password', user.password],
  ];
  return [
    {
      name: 'form-login-urlencoded',
      path: '/api/auth/login',
      enctype: 'application/x-www-form-urlencoded',
      fields: credentials,
    },
    { name: 'form-login-text-plain', path: '/api/auth/login', enctype: 'text/plain', fields: [jsonShapedField(user)] },
    { name: 'form-login-multipart', path: '/api/auth/login', enctype: 'multipart/form-data', fields: credentials },
  ];
}

function sessionFetchAttacks(): FetchAttack[] {
  return [
    {
      name: 'fetch-logout-cors-text-plain',
      path: '/api/auth/logout',
      init: { method: 'POST', credentials: 'include', headers: { 'content-type': 'text/plain' }, body: 'x' },
    },
    {
      name: 'fetch-logout-no-cors-text-plain',
      path: '/api/auth/logout',
      init: {
        method: 'POST',
        credentials: 'include',
        mode: 'no-cors',
        headers: { 'content-type': 'text/plain' },
        body: '{}',
      },
    },
    {
      name: 'fetch-logout-no-cors-bodiless',
      path: '/api/auth/logout',
      init: { method: 'POST', credentials: 'include', mode: 'no-cors' },
      bodiless: true,
    },
    {
      name: 'fetch-etsy-oauth-no-cors-bodiless',
      path: '/api/connections/etsy/oauth',
      init: { method: 'POST', credentials: 'include', mode: 'no-cors' },
      bodiless: true,
    },
  ];
}

function loginFetchAttacks(user: TestUser): FetchAttack[] {
  const body = JSON.stringify({ email: user.email, password: user.password });
  return [
    {
      name: 'fetch-login-cors-text-plain',
      path: '/api/auth/login',
      init: { method: 'POST', credentials: 'include', headers: { 'content-type': 'text/plain' }, body },
    },
    {
      name: 'fetch-login-no-cors-text-plain',
      path: '/api/auth/login',
      init: {
        method: 'POST',
        credentials: 'include',
        mode: 'no-cors',
        headers: { 'content-type': 'text/plain' },
        body,
      },
    },
    {
      name: 'fetch-login-no-cors-bodiless',
      path: '/api/auth/login',
      init: { method: 'POST', credentials: 'include', mode: 'no-cors' },
      bodiless: true,
    },
  ];
}

/**
 * The attacker: GET /form/<name> is a page with one form and a submit button (the test clicks
 * it); GET /fetch is a page whose external /fetch.js runs the current fetch attacks in turn and
 * then marks <html data-done>. No inline script anywhere.
 */
class AttackerServer {
  private server: Server | undefined;
  private forms = new Map<string, FormAttack>();
  private fetches: FetchAttack[] = [];
  port = 0;

  constructor(private readonly gateway: () => string) {}

  async start() {
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://attacker.invalid');
      const form = url.pathname.startsWith('/form/')
        ? this.forms.get(decodeURIComponent(url.pathname.slice('/form/'.length)))
        : undefined;
      if (form) return this.send(res, 'text/html; charset=utf-8', this.formPage(form));
      if (url.pathname === '/fetch') return this.send(res, 'text/html; charset=utf-8', this.fetchPage());
      if (url.pathname === '/fetch.js') return this.send(res, 'text/javascript; charset=utf-8', this.fetchScript());
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    });
    await new Promise<void>((resolve, reject) => {
      this.server?.once('error', reject);
      this.server?.listen(0, '127.0.0.1', () => resolve());
    });
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop() {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  useForms(forms: FormAttack[]) {
    this.forms = new Map(forms.map((f) => [f.name, f]));
  }

  useFetches(fetches: FetchAttack[]) {
    this.fetches = fetches;
  }

  private send(res: ServerResponse, type: string, body: string) {
    res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
  }

  private formPage(form: FormAttack) {
    const action = `${this.gateway()}${tagged(form.path, form.name)}`;
    const inputs = form.fields
      .map(([name, value]) => `<input type="hidden" name="${escapeAttr(name)}" value="${escapeAttr(value)}">`)
      .join('\n');
    return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Win a prize</title></head>
<body><form method="post" action="${escapeAttr(action)}" enctype="${form.enctype}">
${inputs}
<button type="submit">Claim your prize</button>
</form></body></html>`;
  }

  private fetchPage() {
    return `<!doctype html>
<html lang="en" data-target="${escapeAttr(this.gateway())}"><head><meta charset="utf-8"><title>Cute cats</title>
<script src="/fetch.js" defer></script></head><body><p>Loading cats…</p></body></html>`;
  }

  private fetchScript() {
    const attacks = this.fetches.map((a) => ({ path: tagged(a.path, a.name), init: a.init, name: a.name }));
    return `'use strict';
(async () => {
  const target = document.documentElement.dataset.target;
  const attacks = ${JSON.stringify(attacks)};
  const outcomes = {};
  for (const attack of attacks) {
    try {
      const response = await fetch(target + attack.path, attack.init);
      outcomes[attack.name] = response.type + ' ' + response.status;
    } catch (error) {
      outcomes[attack.name] = 'error ' + error.name;
    }
  }
  window.outcomes = outcomes;
  document.documentElement.dataset.done = 'true';
})();
`;
  }
}

interface Observed {
  status: number;
  secFetchSite: string | undefined;
  sentSessionCookie: boolean;
  setsSessionCookie: boolean;
}

type Headers = Record<string, string>;

function headerValue(headers: Headers, name: string): string | undefined {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}

/**
 * What the gateway answered to each tagged request of the page, as seen on the wire through the
 * DevTools protocol. Playwright's `response` event does not fire for a cross-origin fetch whose
 * answer the browser then blocks (CORS, or the gateway's Cross-Origin-Resource-Policy), but
 * `Network.responseReceivedExtraInfo` carries the real status and headers of every response.
 */
async function observeAttacks(page: Page, gatewayOrigin: string) {
  const cdp = await page.context().newCDPSession(page);
  const names = new Map<string, string>();
  const sent = new Map<string, Headers>();
  const received = new Map<string, { status: number; headers: Headers }>();
  cdp.on('Network.requestWillBeSent', (event) => {
    const url = new URL(event.request.url);
    const name = url.searchParams.get('csrf');
    if (name && url.origin === gatewayOrigin) names.set(event.requestId, name);
  });
  cdp.on('Network.requestWillBeSentExtraInfo', (event) => sent.set(event.requestId, event.headers as Headers));
  cdp.on('Network.responseReceivedExtraInfo', (event) => {
    received.set(event.requestId, { status: event.statusCode, headers: event.headers as Headers });
  });
  await cdp.send('Network.enable');

  const snapshot = () => {
    const observed = new Map<string, Observed>();
    for (const [id, name] of names) {
      const response = received.get(id);
      if (!response) continue;
      const request = sent.get(id) ?? {};
      const cookies = (headerValue(request, 'cookie') ?? '').split(';').map((c) => c.split('=')[0].trim());
      const setCookies = (headerValue(response.headers, 'set-cookie') ?? '')
        .split('\n')
        .map((c) => c.split('=')[0].trim());
      observed.set(name, {
        status: response.status,
        secFetchSite: headerValue(request, 'sec-fetch-site'),
        sentSessionCookie: cookies.some((c) => SESSION_COOKIE.test(c)),
        setsSessionCookie: setCookies.some((c) => SESSION_COOKIE.test(c)),
      });
    }
    return observed;
  };

  return {
    /** Waits until every named request has had its answer, then stops listening. */
    async results(expected: string[], timeoutMs = 10_000): Promise<Map<string, Observed>> {
      const deadline = Date.now() + timeoutMs;
      let observed = snapshot();
      while (expected.some((name) => !observed.has(name)) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        observed = snapshot();
      }
      await cdp.detach().catch(() => undefined);
      return observed;
    },
  };
}

async function submitForm(page: Page, attacker: string, form: FormAttack) {
  const answered = page.waitForResponse((r) => attackName(r.url()) === form.name);
  await page.goto(`${attacker}/form/${encodeURIComponent(form.name)}`);
  await page.getByRole('button', { name: 'Claim your prize' }).click();
  // The form post is a top-level navigation: Playwright sees its answer too.
  expect([403, 415]).toContain((await answered).status());
}

async function runFetches(page: Page, attacker: string) {
  await page.goto(`${attacker}/fetch`);
  await page.locator('html[data-done="true"]').waitFor({ state: 'attached' });
}

function expectRefused(
  observed: Map<string, Observed>,
  attacks: Array<FormAttack | FetchAttack>,
  site: 'same-site' | 'cross-site',
) {
  for (const attack of attacks) {
    const seen = observed.get(attack.name);
    expect({ attack: attack.name, reached: seen !== undefined }).toEqual({ attack: attack.name, reached: true });
    if (!seen) continue;
    // A bodiless POST has no Content-Type for the JSON-only parser to refuse: the origin check must.
    const allowed = 'bodiless' in attack && attack.bodiless ? [403] : [403, 415];
    expect({ attack: attack.name, refused: allowed.includes(seen.status), status: seen.status }).toEqual({
      attack: attack.name,
      refused: true,
      status: seen.status,
    });
    expect({ attack: attack.name, secFetchSite: seen.secFetchSite }).toEqual({
      attack: attack.name,
      secFetchSite: site,
    });
    expect({ attack: attack.name, setsSessionCookie: seen.setsSessionCookie }).toEqual({
      attack: attack.name,
      setsSessionCookie: false,
    });
  }
}

async function sessionCookies(context: BrowserContext) {
  return (await context.cookies(e2e.baseUrl)).filter((c) => SESSION_COOKIE.test(c.name));
}

const attackerServer = new AttackerServer(() => e2e.baseUrl);

beforeAll(async () => {
  await attackerServer.start();
});

afterAll(async () => {
  await attackerServer.stop();
});

/** Serves the attacks from the attacker origin, runs them in the victim's page, and returns what the server answered to each. */
async function launchAttacks(page: Page, attackerOrigin: string, forms: FormAttack[], fetches: FetchAttack[]) {
  attackerServer.useForms(forms);
  attackerServer.useFetches(fetches);
  const observer = await observeAttacks(page, new URL(e2e.baseUrl).origin);
  for (const form of forms) await submitForm(page, attackerOrigin, form);
  await runFetches(page, attackerOrigin);
  return observer.results([...forms, ...fetches].map((a) => a.name));
}

describe.each([
  // Same host, other port: same-site, so SameSite=Lax does not hold the cookie back.
  { site: 'same-site' as const, attacker: () => `http://127.0.0.1:${attackerServer.port}`, cookieSent: true },
  // Another host name for the loopback: cross-site, the Lax cookie stays home as well.
  { site: 'cross-site' as const, attacker: () => `http://localhost:${attackerServer.port}`, cookieSent: false },
])('CSRF from a second loopback origin ($site)', ({ site, attacker, cookieSent }) => {
  it('refuses logout and Etsy OAuth posts and fetches; the session survives, and the app’s own logout still works', async () => {
    const page = await e2e.open('desktop');
    const context = page.context();
    const user = newTestUser('csrf');
    await signUpThroughUi(page, user);
    expect(await sessionCookies(context)).toHaveLength(1);

    const forms = sessionFormAttacks();
    const fetches = sessionFetchAttacks();
    const observed = await launchAttacks(page, attacker(), forms, fetches);

    expectRefused(observed, [...forms, ...fetches], site);
    // The browser did attach the session cookie exactly when the site is the same: there the
    // server's check was the only thing standing between the page and a logout.
    for (const attack of [...forms, ...fetches]) {
      expect({ attack: attack.name, sentSessionCookie: observed.get(attack.name)?.sentSessionCookie }).toEqual({
        attack: attack.name,
        sentSessionCookie: cookieSent,
      });
    }

    // Still signed in, from the app's own origin.
    await gotoApp(page, '/');
    const me = await pageFetch(page, 'GET', '/api/auth/user');
    expect(me.status).toBe(200);
    expect((JSON.parse(me.text) as { email: string }).email).toBe(user.email);
    expect(await sessionCookies(context)).toHaveLength(1);

    // Same-origin control: the app's own logout is accepted (the guard is not simply closed).
    const shell = new Shell(page);
    await expectText(shell.userEmail(), user.email);
    await shell.logoutButton().click();
    await expectPath(page, '/login');
    expect((await pageFetch(page, 'GET', '/api/auth/user')).status).toBe(204);
  });

  it('refuses login posts and fetches without creating a session; the app’s own sign-in still works', async () => {
    // The attacker's own account, which the victim's browser would be signed into.
    const setup = await e2e.open('desktop');
    const user = newTestUser('csrflogin');
    await signUpThroughUi(setup, user);
    await setup.context().close();

    const page = await e2e.open('desktop');
    const context = page.context();
    const forms = loginFormAttacks(user);
    const fetches = loginFetchAttacks(user);
    const observed = await launchAttacks(page, attacker(), forms, fetches);

    expectRefused(observed, [...forms, ...fetches], site);
    expect(await sessionCookies(context)).toEqual([]);
    await gotoApp(page, '/login');
    expect((await pageFetch(page, 'GET', '/api/auth/user')).status).toBe(204);

    // Same-origin control: the same credentials sign in through the app.
    await new LoginForm(page).signIn(user.email, user.password);
    await expectPath(page, '/');
    await expectText(new Shell(page).userEmail(), user.email);
    expect(await sessionCookies(context)).toHaveLength(1);
  });
});
