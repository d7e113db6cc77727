import type { Page } from 'playwright-core';
import { describeViolations, seriousAxeViolations } from './support/axe';
import type { ViewportName } from './support/browser';
import { ConnectionsScreen, ownSandbox } from './support/connections';
import { expectHidden, expectText } from './support/expect';
import { pageFetch, setupE2E } from './support/harness';
import { gotoApp, Shell, Toasts } from './support/pages';
import { screenshot } from './support/screenshots';

// "Try the demo" on a stack in demo mode (no real Etsy credentials): the gateway makes a fresh
// account per visitor with its own sandbox seller, Etsy and Printify already connected.
const e2e = setupE2E({ sandbox: true });

const DEMO_NOTE = 'Demo account — sample data from the PodProfit sandbox; removed after 24 hours.';
const DEMO_EMAIL = /^demo-[a-z0-9]+@demo\.podprofit\.app$/;
/** Making a demo account builds a sandbox seller with months of orders: allow it some time. */
const DEMO_START_MS = 45_000;

const tryDemoButton = (page: Page) => page.getByRole('button', { name: /^(Try the demo|Starting demo\.\.\.)$/ });

/** Landing → "Try the demo" → the page reloads into the signed-in dashboard. */
async function startDemo(page: Page) {
  await gotoApp(page, '/');
  await tryDemoButton(page).click();
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor({ timeout: DEMO_START_MS });
}

/** The visible copy of the signed-in email: the sidebar at desktop width, the Menu drawer on a phone. */
async function signedInEmail(page: Page, viewport: ViewportName): Promise<string> {
  const shell = new Shell(page);
  if (viewport === 'desktop') return shell.userEmail().innerText();
  await shell.menuButton().click();
  const email = await shell.drawer().getByTestId('user-email').innerText();
  await page.keyboard.press('Escape');
  await expectHidden(shell.drawer());
  return email;
}

describe('Try the demo', () => {
  it('signs into a fresh demo account with Etsy and Printify connected, and both reconnect by hand', async () => {
    const page = await e2e.open();
    await gotoApp(page, '/');
    const button = tryDemoButton(page);
    await expectText(button, 'Try the demo');
    expect(await button.isEnabled()).toBe(true);

    // Held: "Starting demo..." and disabled while pending.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let devLoginCalls = 0;
    await page.route('**/api/auth/dev-login', async (route) => {
      devLoginCalls += 1;
      expect(route.request().method()).toBe('POST');
      expect(route.request().headers()['content-type']).toBe('application/json');
      expect(route.request().postData()).toBeNull();
      await held;
      await route.continue();
    });
    const reloaded = page.waitForEvent('load', { timeout: DEMO_START_MS });
    await button.click();
    await expectText(button, 'Starting demo...');
    expect(await button.isDisabled()).toBe(true);
    release();
    await reloaded;
    expect(new URL(page.url()).pathname).toBe('/');
    expect(devLoginCalls).toBe(1);

    // The signed-in shell, clearly labelled as a demo.
    const shell = new Shell(page);
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor({ timeout: DEMO_START_MS });
    await expectText(shell.sidebar().getByTestId('demo-badge'), 'Demo');
    await expectText(shell.sidebar().getByTestId('demo-note'), DEMO_NOTE);
    await expectText(shell.userName(), 'Demo Seller');
    expect(await shell.userEmail().innerText()).toMatch(DEMO_EMAIL);
    const me = (await (await page.request.get('/api/auth/user')).json()) as { isDemo: boolean };
    expect(me.isDemo).toBe(true);

    // Both services are connected to the visitor's own sandbox seller.
    const own = await ownSandbox(page);
    await shell.navLink('Connections').click();
    const screen = new ConnectionsScreen(page);
    await screen.heading().waitFor();
    await expectText(screen.etsyBadge(), 'Connected');
    await expectText(screen.printifyBadge(), 'Connected');
    await expectText(page.getByTestId('etsy-shop-name'), own.shopName);
    await page.getByTestId('printify-shop-title').waitFor();
    expect(await screen.demoCallout().count()).toBe(0);

    // Etsy: disconnect, then reconnect through the real OAuth redirect and the consent page.
    await screen.disconnectService('etsy');
    await screen.connectEtsyThroughConsent('Allow access');
    await screen.expectToast('Etsy connected successfully');
    expect(new URL(page.url()).search).toBe('');
    await expectText(screen.etsyBadge(), 'Connected');
    await expectText(page.getByTestId('etsy-shop-name'), own.shopName);

    // Printify: disconnect, then "Use this token" puts the sandbox token into the token field and
    // checks it; the setup dialog has the shop linked to the Etsy shop already chosen.
    await screen.disconnectService('printify');
    await screen.demoCallout().getByText('Demo: use your sandbox Printify token', { exact: true }).waitFor();
    await expectText(screen.demoCallout().getByTestId('demo-shop-name'), own.shopName);
    expect(await screen.tokenInput().inputValue()).toBe('');
    await screen.useDemoToken().click();
    await screen.setupDialog().waitFor();
    // The field behind the (modal) dialog holds the token.
    expect(await page.locator('input[name="printify-token"]').inputValue()).toBe(own.printifyToken);
    const labels = own.printifyShops.map((shop) => `${shop.title} (${shop.sales_channel})`);
    expect(await screen.shopSelect().locator('option').allInnerTexts()).toEqual(['Select a shop', ...labels]);
    expect(await screen.shopSelect().inputValue()).toBe(String(own.printifyShops[0].id));
    await screen.completeSetup().click();
    await screen.expectToast('Printify connected successfully');
    await expectText(screen.printifyBadge(), 'Connected');
    await expectText(page.getByTestId('printify-shop-title'), labels[0]);
    expect(await screen.demoCallout().count()).toBe(0);
  });

  it('gives every visitor a different demo account', async () => {
    const first = await e2e.open();
    const second = await e2e.open('mobile');
    await Promise.all([startDemo(first), startDemo(second)]);
    const [firstEmail, secondEmail] = [await signedInEmail(first, 'desktop'), await signedInEmail(second, 'mobile')];
    expect(firstEmail).toMatch(DEMO_EMAIL);
    expect(secondEmail).toMatch(DEMO_EMAIL);
    expect(secondEmail).not.toBe(firstEmail);
    // The phone's top bar shows the badge too.
    await expectText(second.getByRole('banner').getByTestId('demo-badge'), 'Demo');
  });

  it('says so when the demo cannot start, and the button works again', async () => {
    const page = await e2e.open();
    await gotoApp(page, '/');
    await page.route('**/api/auth/dev-login', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({
          statusCode: 503,
          error: 'Service Unavailable',
          message: 'The demo is unavailable right now. Please try again in a moment.',
          code: 'demo_unavailable',
        }),
      }),
    );
    await tryDemoButton(page).click();
    const toast = new Toasts(page).current();
    await expectText(toast.getByText('Error', { exact: true }), 'Error');
    await expectText(
      toast.getByText('Failed to login with test account', { exact: true }),
      'Failed to login with test account',
    );
    await expectText(tryDemoButton(page), 'Try the demo');
    expect(await tryDemoButton(page).isEnabled()).toBe(true);
    // Still signed out, on the landing page.
    expect(await new Shell(page).sidebar().count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/');
  });

  it('tells a visitor whose sandbox seller was removed (idle, or to make room) that the demo ended', async () => {
    const page = await e2e.open();
    await startDemo(page);
    const me = (await (await page.request.get('/api/auth/user')).json()) as { email: string };
    const tenantId = me.email.split('@')[0];
    await e2e.sandbox.admin('DELETE', `/tenants/${tenantId}`);
    expect((await pageFetch(page, 'DELETE', '/api/connections/printify')).status).toBe(200);
    const screen = new ConnectionsScreen(page);
    await screen.open();
    await expectText(
      screen.demoCallout().getByTestId('demo-ended'),
      'Your demo has ended: its sandbox seller was removed to make room for new visitors. Start the demo again from the home page.',
    );
  });

  it('a signed-out visitor cannot read a sandbox seller', async () => {
    const page = await e2e.open();
    await gotoApp(page, '/');
    expect((await pageFetch(page, 'GET', '/api/demo/sandbox')).status).toBe(401);
  });
});

describe.each<ViewportName>(['desktop', 'mobile'])('the demo at %s width: axe and screenshots', (viewport) => {
  it('landing, demo dashboard, demo connections and the consent page have no serious or critical axe violations', async () => {
    const page = await e2e.open(viewport);
    const problems: Record<string, string> = {};
    const audit = async (name: string) => {
      await page.evaluate(() => document.fonts.ready.then(() => undefined));
      await page.waitForTimeout(300); // dialogs, drawers and toasts finish animating
      await screenshot(page, name);
      const violations = await seriousAxeViolations(page);
      if (violations.length) problems[name] = describeViolations(violations);
    };

    await gotoApp(page, '/');
    await expectText(tryDemoButton(page), 'Try the demo');
    await audit('demo-landing');

    await tryDemoButton(page).click();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor({ timeout: DEMO_START_MS });
    const shell = new Shell(page);
    if (viewport === 'desktop') {
      await expectText(shell.sidebar().getByTestId('demo-note'), DEMO_NOTE);
    } else {
      await expectText(page.getByRole('banner').getByTestId('demo-badge'), 'Demo');
    }
    await audit('demo-dashboard');
    if (viewport === 'desktop') {
      await page.getByRole('button', { name: 'Collapse sidebar' }).click();
      await page.waitForFunction(
        () => (document.querySelector('#app-sidebar')?.getBoundingClientRect().width ?? 999) < 100,
      );
      await expectText(shell.sidebar().getByTestId('demo-badge'), 'Demo');
      await audit('demo-sidebar-collapsed');
      await page.getByRole('button', { name: 'Expand sidebar' }).click();
    } else {
      await shell.menuButton().click();
      await expectText(shell.drawer().getByTestId('demo-note'), DEMO_NOTE);
      await audit('demo-menu-open');
      await page.keyboard.press('Escape');
      await expectHidden(shell.drawer());
    }

    // Printify disconnected: the callout with the sandbox token.
    expect((await pageFetch(page, 'DELETE', '/api/connections/printify')).status).toBe(200);
    const screen = new ConnectionsScreen(page);
    await screen.open();
    await screen.useDemoToken().waitFor();
    await audit('demo-connections');
    // "Use this token": the setup dialog, the shop linked to the Etsy shop already chosen.
    await screen.useDemoToken().click();
    await screen.setupDialog().waitFor();
    expect(await screen.completeSetup().isEnabled()).toBe(true);
    await audit('demo-setup-dialog');
    await screen.completeSetup().click();
    await screen.expectToast('Printify connected successfully');

    // The consent page, served through the gateway.
    expect((await pageFetch(page, 'DELETE', '/api/connections/etsy')).status).toBe(200);
    await screen.open();
    await screen.startEtsyConsent();
    await page.getByText('This is the PodProfit sandbox standing in for Etsy.', { exact: false }).waitFor();
    await audit('demo-consent');
    const consentQuery = new URL(page.url()).search;
    await page.getByRole('button', { name: 'Allow access', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/connections');
    await screen.expectToast('Etsy connected successfully');

    // The pages around it share its look and fit the width: the proxy's refusal (that
    // authorization is used now), the gateway's callback failure, the sandbox's own picker and
    // error page, and the refusal a signed-out visitor gets.
    const branded = async (target: Page, name: string, heading: string, url: string) => {
      await target.goto(url);
      await target.getByRole('heading', { level: 1, name: heading }).waitFor();
      await target.getByRole('banner').getByText('PodProfit').waitFor();
      expect(await target.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      if (target === page) await audit(name);
      else await screenshot(target, name);
    };
    await branded(
      page,
      'demo-consent-refused',
      'Etsy connection failed',
      `${e2e.baseUrl}/sandbox/oauth/connect${consentQuery}`,
    );
    await page.getByText('not started from your PodProfit session', { exact: false }).waitFor();
    await branded(
      page,
      'etsy-callback-failed',
      'Etsy connection failed',
      `${e2e.baseUrl}/api/connections/etsy/callback?state=forged&code=x`,
    );
    await page.getByRole('link', { name: 'Back to Connections' }).waitFor();
    await branded(
      page,
      'sandbox-picker',
      'Which sandbox seller is connecting to PodProfit?',
      `${e2e.sandbox.url}/oauth/connect${consentQuery}`,
    );
    await page.getByText('This is the PodProfit sandbox standing in for Etsy.', { exact: false }).waitFor();
    await branded(
      page,
      'sandbox-error',
      'This connection request is not valid',
      `${e2e.sandbox.url}/oauth/connect?client_id=unknown`,
    );
    const signedOut = await e2e.open(viewport);
    await branded(
      signedOut,
      'demo-consent-signed-out',
      'Sign in to connect Etsy',
      `${e2e.baseUrl}/sandbox/oauth/connect${consentQuery}`,
    );
    const violations = await seriousAxeViolations(signedOut);
    if (violations.length) problems['demo-consent-signed-out'] = describeViolations(violations);
    expect(problems).toEqual({});
  });
});
