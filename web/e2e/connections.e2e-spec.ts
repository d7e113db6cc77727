import type { Page } from 'playwright-core';
import { Client } from 'pg';
import { describeViolations, seriousAxeViolations } from './support/axe';
import type { ViewportName } from './support/browser';
import { expectHidden, expectPath, expectText } from './support/expect';
import { pageFetch, setupE2E } from './support/harness';
import { ConnectionsScreen as BaseConnectionsScreen, ownSandbox } from './support/connections';
import { gotoApp, signUpThroughUi, Toasts } from './support/pages';
import { screenshot } from './support/screenshots';
import { newTestUser } from './support/users';

// The built sandbox plays Etsy (consent page, token endpoint, shop) and Printify; the gateway
// runs in demo mode against it.
const e2e = setupE2E({ sandbox: true });

/**
 * A sandbox seller whose Printify account (two shops) the tests connect by token. Etsy always
 * connects the signed-in visitor's own sandbox seller (the gateway names it to the consent page).
 */
interface Seller {
  tenantId: string;
  printify: { token: string; shops: Array<{ id: number; title: string; sales_channel: string }> };
}
let seller: Seller;
const shopLabels = () => seller.printify.shops.map((shop) => `${shop.title} (${shop.sales_channel})`);
beforeAll(async () => {
  seller = await e2e.sandbox.admin<Seller>('POST', '/tenants', {
    id: 'e2e-seller',
    months: 1,
    ordersPerMonth: 5,
    printifyShops: 2,
  });
}, 60_000);

/** The shared Connections screen, plus connecting Printify with the seller above. */
class ConnectionsScreen extends BaseConnectionsScreen {
  async connectPrintifyThroughDialog(date?: string) {
    await this.tokenInput().fill(seller.printify.token);
    await this.connectPrintify().click();
    await this.setupDialog().waitFor();
    await this.shopSelect().selectOption({ label: shopLabels()[0] });
    if (date) await this.syncFrom().fill(date);
    await this.completeSetup().click();
    await this.expectToast('Printify connected successfully');
    await expectText(this.printifyBadge(), 'Connected');
  }
}

async function signedInOnConnections(page: Page, label: string) {
  await signUpThroughUi(page, newTestUser(label));
  const screen = new ConnectionsScreen(page);
  await screen.open();
  return screen;
}

async function sql(text: string) {
  const client = new Client({ connectionString: e2e.databaseUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

describe('Connections page', () => {
  it('shows the title, the loading state, both disconnected cards and the credentials help', async () => {
    const page = await e2e.open();
    await signUpThroughUi(page, newTestUser('conn-view'));
    // Hold the status answer to see the loading state (on a fresh load: the Dashboard's sync card has it cached).
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/connections/status', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/connections');
    await expectPath(page, '/connections');
    const screen = new ConnectionsScreen(page);
    await screen.heading().waitFor();
    await expectText(page.getByText('Loading connections...'), 'Loading connections...');
    release();
    await expectText(screen.etsyBadge(), 'Disconnected');
    await expectText(screen.printifyBadge(), 'Disconnected');
    await screen.etsyCard().getByText('You will be redirected to Etsy to authorize PodProfit').waitFor();
    expect(await screen.connectEtsy().innerText()).toBe('Connect Etsy');
    expect(await screen.tokenInput().getAttribute('type')).toBe('password');
    const help = page.getByRole('region', { name: 'How to get your API credentials' });
    await help.getByRole('heading', { name: 'Etsy' }).waitFor();
    await help.getByText('redirect URI').waitFor();
    await help
      .getByText('Generate a personal access token with the scopes orders.read, shops.read and products.read.')
      .waitFor();
    // The exact redirect URI to register: the one the gateway sends to Etsy.
    const started = await pageFetch(page, 'POST', '/api/connections/etsy/oauth');
    const redirectUri = new URL((JSON.parse(started.text) as { authUrl: string }).authUrl).searchParams.get(
      'redirect_uri',
    );
    expect(redirectUri).toMatch(/^http:\/\/.+\/api\/connections\/etsy\/callback$/);
    await expectText(help.getByTestId('etsy-redirect-uri'), redirectUri ?? '');
    expect(await page.title()).toBe('API Connections · PodProfit');
    await expectText(
      page.getByTestId('sandbox-note'),
      "Demo mode: Etsy and Printify are PodProfit's built-in sandbox, not the real services.",
    );
    // An ordinary account in demo mode gets no "Demo:" token callout (that is for demo accounts).
    expect(await screen.demoCallout().count()).toBe(0);
  });

  it('gives both cards the same height', async () => {
    const page = await e2e.open('desktop');
    const screen = await signedInOnConnections(page, 'conn-heights');
    const heights = async () => {
      const [etsy, printify] = await Promise.all([
        screen.etsyCard().boundingBox(),
        screen.printifyCard().boundingBox(),
      ]);
      return { etsy: Math.round(etsy?.height ?? 0), printify: Math.round(printify?.height ?? -1) };
    };
    // Disconnected: the Printify card has the token form, the Etsy card one button.
    await screen.tokenInput().waitFor();
    const disconnected = await heights();
    expect(disconnected.printify).toBe(disconnected.etsy);
    expect(disconnected.etsy).toBeGreaterThan(150);
    await screen.connectPrintifyThroughDialog();
    const oneConnected = await heights();
    expect(oneConnected.printify).toBe(oneConnected.etsy);
  });

  it('closes a stale error toast when the token works', async () => {
    const page = await e2e.open();
    const screen = await signedInOnConnections(page, 'conn-stale');
    await screen.tokenInput().fill('not-a-valid-token');
    await screen.connectPrintify().click();
    await screen.expectToast('Invalid Printify API token. Please check and try again.');

    // Hold the good token's answer to see the error toast still up just before it arrives.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/connections/printify/validate', async (route) => {
      await held;
      await route.continue();
    });
    await screen.tokenInput().fill(seller.printify.token);
    await screen.connectPrintify().click();
    await screen.expectToast('Invalid Printify API token. Please check and try again.');
    release();
    await screen.setupDialog().getByText('Your token works.', { exact: false }).waitFor();
    await expectHidden(screen.toast(), 1_500);
  });

  it('preselects the Printify shop linked to the connected Etsy shop and lists disconnected shops last', async () => {
    const page = await e2e.open();
    const screen = await signedInOnConnections(page, 'conn-preselect');
    // A Printify account with four shops, as the sandbox lists them: etsy, disconnected, shopify, disconnected.
    const four = await e2e.sandbox.admin<Seller>('POST', '/tenants', {
      id: `e2e-four-${Date.now()}`,
      months: 1,
      ordersPerMonth: 5,
      printifyShops: 4,
    });
    const [etsyShop, oldShop, shopifyShop, testShop] = four.printify.shops;
    expect([etsyShop, oldShop, shopifyShop, testShop].map((shop) => shop.sales_channel)).toEqual([
      'etsy',
      'disconnected',
      'shopify',
      'disconnected',
    ]);
    const label = (shop: { title: string; sales_channel: string }) => `${shop.title} (${shop.sales_channel})`;

    // Etsy not connected yet: nothing to link, so nothing is chosen for the seller.
    await screen.tokenInput().fill(four.printify.token);
    await screen.connectPrintify().click();
    await screen.setupDialog().waitFor();
    expect(await screen.shopSelect().locator('option').allInnerTexts()).toEqual([
      'Select a shop',
      label(etsyShop),
      label(shopifyShop),
      label(oldShop),
      label(testShop),
    ]);
    expect(await screen.shopSelect().inputValue()).toBe('');
    await screen.setupDialog().getByRole('button', { name: 'Cancel' }).click();
    await expectHidden(screen.setupDialog());

    // Etsy connected: the shop whose sales channel is Etsy and whose title is the Etsy shop's name.
    await screen.connectEtsyThroughConsent();
    await screen.expectToast('Etsy connected successfully');
    const own = await ownSandbox(page);
    const linked = own.printifyShops.find((shop) => shop.sales_channel === 'etsy' && shop.title === own.shopName);
    expect(linked).toBeDefined();
    await screen.tokenInput().fill(own.printifyToken);
    await screen.connectPrintify().click();
    await screen.setupDialog().waitFor();
    expect(await screen.shopSelect().inputValue()).toBe(String(linked?.id));
    expect(await screen.completeSetup().isEnabled()).toBe(true);
    await screen.completeSetup().click();
    await screen.expectToast('Printify connected successfully');
    await expectText(page.getByTestId('printify-shop-title'), linked ? label(linked) : 'no linked shop');
  });

  it('connects Printify through the token and the setup dialog, with every message on the way', async () => {
    const page = await e2e.open();
    const screen = await signedInOnConnections(page, 'conn-printify');

    await screen.connectPrintify().click();
    await screen.expectToast('Please enter your Printify API token');
    await screen.tokenInput().fill('   ');
    await screen.tokenInput().press('Enter');
    await screen.expectToast('Please enter your Printify API token');

    await screen.tokenInput().fill('not-a-valid-token');
    await screen.connectPrintify().click();
    await screen.expectToast('Invalid Printify API token. Please check and try again.');

    await screen.tokenInput().fill(seller.printify.token);
    await screen.connectPrintify().click();
    await screen.setupDialog().waitFor();
    const options = await screen.shopSelect().locator('option').allInnerTexts();
    expect(options).toEqual(['Select a shop', ...shopLabels()]);
    expect(await screen.completeSetup().isDisabled()).toBe(true);
    await screen.shopSelect().focus();
    await screen.syncFrom().focus();
    await expectText(screen.setupDialog().getByText('Please select a shop'), 'Please select a shop');
    await screen.setupDialog().getByText('Leave empty to sync all orders.').waitFor();

    await screen.setupDialog().getByRole('button', { name: 'Cancel' }).click();
    await expectHidden(screen.setupDialog());
    await expectText(screen.printifyBadge(), 'Disconnected');

    // The server refusing the final step shows the fulfilment-connect error.
    await page.route('**/api/connections/printify', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 502, contentType: 'application/json', body: '{"statusCode":502}' })
        : route.continue(),
    );
    await screen.connectPrintify().click();
    await screen.shopSelect().selectOption({ label: shopLabels()[0] });
    await screen.completeSetup().click();
    await screen.expectToast('Failed to connect to Printify. Please check your token.');
    await page.unroute('**/api/connections/printify');
    await screen.setupDialog().getByRole('button', { name: 'Cancel' }).click();

    await screen.connectPrintifyThroughDialog('2025-03-01');
    await expectText(page.getByTestId('printify-shop-title'), shopLabels()[0]);
    expect(await screen.tokenInput().count()).toBe(0);
    await expectHidden(screen.setupDialog());
  });

  it('connects Etsy through the OAuth redirect and back, and shows the cancel and failure toasts', async () => {
    const page = await e2e.open();
    const screen = await signedInOnConnections(page, 'conn-etsy');

    await screen.connectEtsyThroughConsent('Deny');
    await screen.expectToast('Etsy connection was cancelled');
    expect(new URL(page.url()).search).toBe('');
    await expectText(screen.etsyBadge(), 'Disconnected');

    await screen.connectEtsyThroughConsent('Allow access');
    await screen.expectToast('Etsy connected successfully');
    expect(new URL(page.url()).search).toBe('');
    await expectText(screen.etsyBadge(), 'Connected');
    // The visitor's own sandbox seller, the one the consent page named.
    await expectText(page.getByTestId('etsy-shop-name'), (await ownSandbox(page)).shopName);

    // A reload shows no toast again (the query string is gone).
    await page.reload();
    await screen.etsyBadge().waitFor();
    await page.waitForTimeout(300);
    expect(await screen.toast().count()).toBe(0);

    await gotoApp(page, '/connections?etsy=error&reason=exchange');
    await screen.expectToast('Failed to connect Etsy. Please try again.');
    await expectPath(page, '/connections');
  });

  it('a callback that fails the state check shows a page that leads back to Connections', async () => {
    const page = await e2e.open();
    await signedInOnConnections(page, 'conn-state');
    const response = await page.goto(
      '/api/connections/etsy/callback?code=abc&state=forged-state-value-forged-state-value-1234',
    );
    expect(response?.status()).toBe(400);
    await page.getByRole('heading', { name: 'Etsy connection failed' }).waitFor();
    await page.getByRole('link', { name: 'Back to Connections' }).click();
    await new ConnectionsScreen(page).heading().waitFor();
  });

  it('says so when Etsy cannot be started, and when a disconnect fails', async () => {
    const page = await e2e.open();
    const screen = await signedInOnConnections(page, 'conn-fail');
    // Held, then refused: "Connecting..." while pending, then the error.
    let refuse!: () => void;
    const held = new Promise<void>((resolve) => (refuse = resolve));
    await page.route('**/api/connections/etsy/oauth', async (route) => {
      await held;
      await route.fulfill({ status: 503, contentType: 'application/json', body: '{}' });
    });
    await screen.connectEtsy().click();
    await expectText(screen.connectEtsy(), 'Connecting...');
    refuse();
    await screen.expectToast('Failed to initiate Etsy connection');
    expect(await screen.connectEtsy().innerText()).toBe('Connect Etsy');

    await screen.connectPrintifyThroughDialog();
    await page.route('**/api/connections/printify', (route) =>
      route.request().method() === 'DELETE'
        ? route.fulfill({ status: 500, contentType: 'application/json', body: '{}' })
        : route.continue(),
    );
    await screen.disconnect('printify').click();
    await screen.confirmDialog().getByRole('button', { name: 'Disconnect' }).click();
    await screen.expectToast('Failed to disconnect service');
    await expectText(screen.printifyBadge(), 'Connected');
  });

  it('disconnects both after a confirmation, and Cancel keeps the connection', async () => {
    const page = await e2e.open();
    const screen = await signedInOnConnections(page, 'conn-disc');
    await screen.connectEtsyThroughConsent();
    await screen.expectToast('Etsy connected successfully');
    await screen.connectPrintifyThroughDialog();

    await screen.disconnect('etsy').click();
    await expectText(screen.confirmDialog().getByRole('heading'), 'Disconnect Etsy?');
    await screen.confirmDialog().getByText('Are you sure you want to disconnect Etsy?').waitFor();
    await screen.confirmDialog().getByRole('button', { name: 'Cancel' }).click();
    await expectHidden(screen.confirmDialog());
    await expectText(screen.etsyBadge(), 'Connected');

    await screen.disconnect('etsy').click();
    await screen.confirmDialog().getByRole('button', { name: 'Disconnect' }).click();
    await screen.expectToast('Etsy disconnected successfully');
    await expectText(screen.etsyBadge(), 'Disconnected');

    await screen.disconnect('printify').click();
    await expectText(screen.confirmDialog().getByRole('heading'), 'Disconnect Printify?');
    await screen.confirmDialog().getByRole('button', { name: 'Disconnect' }).click();
    await screen.expectToast('Printify disconnected successfully');
    await expectText(screen.printifyBadge(), 'Disconnected');
    await screen.tokenInput().waitFor();
  });
});

describe.each<ViewportName>(['desktop', 'mobile'])('Connections at %s width: axe and screenshots', (viewport) => {
  it('has no serious or critical axe violations in any state', async () => {
    const page = await e2e.open(viewport);
    const screen = await signedInOnConnections(page, `conn-a11y-${viewport}`);
    const problems: Record<string, string> = {};
    const audit = async (name: string) => {
      await page.evaluate(() => document.fonts.ready.then(() => undefined));
      await page.waitForTimeout(300); // dialogs and toasts finish animating
      await screenshot(page, name);
      const violations = await seriousAxeViolations(page);
      if (violations.length) problems[name] = describeViolations(violations);
    };
    // The sign-up toast would cover the cards in the pictures.
    await new Toasts(page)
      .current()
      .waitFor({ state: 'detached', timeout: 8_000 })
      .catch(() => undefined);
    await audit('app-connections');

    await screen.tokenInput().fill(seller.printify.token);
    await screen.connectPrintify().click();
    await screen.setupDialog().waitFor();
    await screen.shopSelect().focus();
    await screen.syncFrom().focus();
    await audit('app-connections-setup-dialog');
    await screen.shopSelect().selectOption({ label: shopLabels()[0] });
    await screen.completeSetup().click();
    await screen.expectToast('Printify connected successfully');

    await screen.connectEtsyThroughConsent();
    await screen.expectToast('Etsy connected successfully');
    await audit('app-connections-connected');

    // Printify's webhooks (set here: the e2e stack runs without WEBHOOK_PUBLIC_URL, so none are made).
    await sql(`UPDATE provider_connection SET webhook_status = 'registered' WHERE provider = 'printify'`);
    await screen.open();
    await expectText(page.getByTestId('printify-webhook-status'), 'On');
    await sql(`UPDATE provider_connection SET webhook_status = 'failed' WHERE provider = 'printify'`);
    await screen.open();
    await expectText(page.getByTestId('printify-webhook-status'), 'Not available');
    await page.getByTestId('printify-webhook-failed').waitFor();
    expect(await page.getByTestId('printify-webhook-failed').innerText()).toContain(
      'Printify could not be set up to notify us of order changes.',
    );
    await audit('app-connections-webhook-failed');

    await screen.disconnect('etsy').click();
    await screen.confirmDialog().waitFor();
    await audit('app-connections-confirm');
    await screen.confirmDialog().getByRole('button', { name: 'Cancel' }).click();

    await sql(`UPDATE provider_connection SET status = 'reauth_required' WHERE provider = 'etsy'`);
    await sql(`UPDATE provider_connection SET status = 'expired' WHERE provider = 'printify'`);
    await screen.open();
    await expectText(screen.etsyBadge(), 'Reconnect needed');
    await expectText(screen.connectEtsy(), 'Reconnect Etsy');
    await expectText(screen.printifyBadge(), 'Reconnect needed');
    await audit('app-connections-reconnect');
    expect(problems).toEqual({});
  });
});
