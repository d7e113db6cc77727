import type { Page } from 'playwright-core';
import { expectText } from './expect';
import { gotoApp, Toasts } from './pages';

/** The signed-in visitor's own sandbox seller (GET /api/demo/sandbox with the page's cookies). */
export interface OwnSandbox {
  shopName: string;
  printifyToken: string;
  printifyShops: Array<{ id: number; title: string; sales_channel: string }>;
}

export async function ownSandbox(page: Page): Promise<OwnSandbox> {
  const response = await page.request.get('/api/demo/sandbox');
  if (response.status() !== 200)
    throw new Error(`GET /api/demo/sandbox answered ${response.status()}: ${await response.text()}`);
  return (await response.json()) as OwnSandbox;
}

/** The Connections screen through roles and labels, as a person finds things. */
export class ConnectionsScreen {
  constructor(protected readonly page: Page) {}
  heading = () => this.page.getByRole('heading', { level: 1, name: 'API Connections' });
  etsyCard = () => this.page.getByRole('region', { name: 'Etsy', exact: true });
  printifyCard = () => this.page.getByRole('region', { name: 'Printify', exact: true });
  etsyBadge = () => this.page.getByTestId('etsy-badge');
  printifyBadge = () => this.page.getByTestId('printify-badge');
  connectEtsy = () => this.etsyCard().getByRole('button', { name: /^(Connect Etsy|Reconnect Etsy|Connecting\.\.\.)$/ });
  tokenInput = () => this.page.getByLabel('Printify API token');
  connectPrintify = () => this.printifyCard().getByRole('button', { name: 'Connect Printify' });
  disconnect = (card: 'etsy' | 'printify') =>
    (card === 'etsy' ? this.etsyCard() : this.printifyCard()).getByRole('button', { name: 'Disconnect' });
  setupDialog = () => this.page.getByRole('dialog', { name: 'Complete Printify Setup' });
  shopSelect = () => this.setupDialog().getByRole('combobox', { name: /Shop/ });
  syncFrom = () => this.setupDialog().getByLabel('Sync orders from (optional)');
  completeSetup = () => this.setupDialog().getByRole('button', { name: 'Complete Setup' });
  confirmDialog = () => this.page.getByRole('alertdialog');
  toast = () => new Toasts(this.page).current();
  /** Demo account, Printify disconnected: the callout that puts the sandbox token into the field. */
  demoCallout = () => this.printifyCard().getByTestId('demo-token-callout');
  useDemoToken = () => this.demoCallout().getByRole('button', { name: 'Use this token' });

  async open() {
    await gotoApp(this.page, '/connections');
    await this.heading().waitFor();
    await this.etsyBadge().waitFor();
  }

  async expectToast(text: string) {
    await expectText(this.toast().getByText(text, { exact: true }), text);
  }

  /** Disconnect → confirm → the success toast and the Disconnected badge. */
  async disconnectService(card: 'etsy' | 'printify') {
    const name = card === 'etsy' ? 'Etsy' : 'Printify';
    await this.disconnect(card).click();
    await expectText(this.confirmDialog().getByRole('heading'), `Disconnect ${name}?`);
    await this.confirmDialog().getByRole('button', { name: 'Disconnect' }).click();
    await this.expectToast(`${name} disconnected successfully`);
    await expectText(card === 'etsy' ? this.etsyBadge() : this.printifyBadge(), 'Disconnected');
  }

  /** Connect Etsy → the consent page the gateway serves on this origin (see `onConsentPage`). */
  async startEtsyConsent() {
    const origin = new URL(this.page.url()).origin;
    await this.connectEtsy().click();
    await this.page.waitForURL((url) => url.pathname === '/sandbox/oauth/connect');
    if (new URL(this.page.url()).origin !== origin)
      throw new Error(`the consent page left ${origin}: ${this.page.url()}`);
    await this.page.getByRole('heading', { level: 1, name: /Allow PodProfit to access your Etsy account\?/ }).waitFor();
  }

  /**
   * Connect Etsy → the sandbox's consent page, served by the gateway for the signed-in
   * visitor's own sandbox seller (no seller picker) → Allow or Deny → back here.
   */
  async connectEtsyThroughConsent(choice: 'Allow access' | 'Deny' = 'Allow access') {
    await this.startEtsyConsent();
    if ((await this.page.getByRole('textbox', { name: 'Sandbox seller (tenant id)' }).count()) !== 0) {
      throw new Error('the consent page asked which sandbox seller is connecting');
    }
    const { shopName } = await ownSandbox(this.page);
    await this.page.getByText(`owner of the shop ${shopName}`).waitFor();
    await this.page.getByRole('button', { name: choice, exact: true }).click();
    await this.page.waitForURL((url) => url.pathname === '/connections');
  }
}
