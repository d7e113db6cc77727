import { ConnectionsScreen } from './support/connections';
import { expectText } from './support/expect';
import { setupE2E } from './support/harness';

// The stack's public origin is http://127.0.0.1:<port> (PUBLIC_ORIGIN). A visitor who types the
// other local name of the same machine, localhost, must end up there before signing in: cookies
// belong to one host name, and Etsy's OAuth redirect returns to the public origin.
const e2e = setupE2E({ sandbox: true });

const onOtherLocalName = (path: string) => `${e2e.baseUrl.replace('://127.0.0.1:', '://localhost:')}${path}`;

describe('one public origin', () => {
  it('sends a visitor on localhost to the same page on the public origin', async () => {
    const page = await e2e.open();
    const response = await page.goto(onOtherLocalName('/contact?from=alias'));
    expect(response?.status()).toBe(200);
    expect(response?.request().redirectedFrom()?.url()).toBe(onOtherLocalName('/contact?from=alias'));
    expect(page.url()).toBe(`${e2e.baseUrl}/contact?from=alias`);
  });

  it('a demo started from localhost reconnects Etsy through the OAuth redirect, signed in throughout', async () => {
    const page = await e2e.open();
    await page.goto(onOtherLocalName('/'));
    await page.getByRole('button', { name: 'Try the demo' }).click();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor({ timeout: 45_000 });

    const screen = new ConnectionsScreen(page);
    await screen.open();
    await expectText(screen.etsyBadge(), 'Connected');
    await screen.disconnectService('etsy');
    await screen.connectEtsyThroughConsent('Allow access');
    await screen.expectToast('Etsy connected successfully');
    await expectText(screen.etsyBadge(), 'Connected');
    expect(new URL(page.url()).origin).toBe(e2e.baseUrl);
  });
});
