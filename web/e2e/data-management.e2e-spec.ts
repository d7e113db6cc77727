import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import type { Page } from 'playwright-core';
import { describeViolations, seriousAxeViolations } from './support/axe';
import type { ViewportName } from './support/browser';
import { expectContains, expectHidden, expectText } from './support/expect';
import { pageFetch, setupE2E } from './support/harness';
import { demoAccount, expectToast, openSignedIn } from './support/orders';
import { gotoApp, LoginForm, signUpThroughUi } from './support/pages';
import { screenshot } from './support/screenshots';
import { newTestUser } from './support/users';

/**
 * Settings → Data Management (issue 19) on a synced demo account: Disconnect All and Delete All
 * Data each ask first (Cancel changes nothing), then act, toast and refetch; Delete Account asks
 * for the password (a wrong one is said so in the dialog), then signs the seller out to the
 * landing page for good.
 */
const e2e = setupE2E({ sandbox: true, workers: ['etsy-sync', 'printify-sync', 'matcher', 'fx-rate'] });

/** A full-page shot from the top: scrolled, the sticky header and sidebar would be drawn mid-page. */
const shot = async (page: Page, name: string) => {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
};
const LANDING_HEADING = 'See what every order really earns you';
let account: Awaited<ReturnType<typeof demoAccount>>;
beforeAll(async () => {
  account = await demoAccount(await e2e.open());
}, 180_000);

const openSettings = (viewport: ViewportName = 'desktop') =>
  openSignedIn(() => e2e.open(viewport), account, '/settings');
const card = (page: Page) => page.getByTestId('data-management-card');
const dialog = (page: Page) => page.getByRole('alertdialog');
const connections = async (page: Page) =>
  JSON.parse((await pageFetch(page, 'GET', '/api/connections/status')).text) as {
    etsy: { connected: boolean };
    printify: { connected: boolean };
  };
const orderTotal = async (page: Page) =>
  (JSON.parse((await pageFetch(page, 'GET', '/api/orders')).text) as { total: number }).total;

describe('Settings: Data Management', () => {
  it('shows its four actions, reachable by keyboard, at desktop and phone widths', async () => {
    for (const viewport of ['desktop', 'mobile'] as const) {
      const page = await openSettings(viewport);
      await expectText(card(page).getByRole('heading', { level: 2 }), 'Data Management');
      for (const name of ['Disconnect All', 'Delete All Data', 'Delete Account'])
        expect(await card(page).getByRole('button', { name, exact: true }).isVisible()).toBe(true);
      expect(await card(page).getByRole('button', { name: 'Export CSV', exact: true }).isVisible()).toBe(true);
      await shot(page, `data-management-${viewport}`);
      expect(describeViolations(await seriousAxeViolations(page))).toBe(describeViolations([]));
    }
  });

  it('Export CSV downloads every active order, in the display currency', async () => {
    const page = await openSettings();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      card(page).getByRole('button', { name: 'Export CSV', exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^podprofit-orders-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = readFileSync((await download.path())!, 'utf8');
    const parsed = Papa.parse<Record<string, string>>(text.slice(1), { header: true, skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.data).toHaveLength(await orderTotal(page));
    expect(new Set(parsed.data.map((row) => row['Display currency']))).toEqual(new Set(['USD']));
  });

  it('Disconnect All asks first: Cancel keeps both connections, confirming removes them', async () => {
    const page = await openSettings();
    expect(await connections(page)).toMatchObject({ etsy: { connected: true }, printify: { connected: true } });
    await card(page).getByRole('button', { name: 'Disconnect All', exact: true }).click();
    await expectContains(
      dialog(page),
      'Are you sure you want to disconnect all services? This will remove all API connections.',
    );
    await shot(page, 'data-management-disconnect-all-dialog');
    await dialog(page).getByRole('button', { name: 'Cancel' }).click();
    await expectHidden(dialog(page));
    expect(await connections(page)).toMatchObject({ etsy: { connected: true }, printify: { connected: true } });

    await card(page).getByRole('button', { name: 'Disconnect All', exact: true }).click();
    await dialog(page).getByRole('button', { name: 'Disconnect All' }).click();
    await expectToast(page, 'Success', 'All services disconnected successfully');
    await expectHidden(dialog(page));
    expect(await connections(page)).toMatchObject({ etsy: { connected: false }, printify: { connected: false } });
  });

  it('Delete All Data asks first, then removes every order: the dashboard has none afterwards', async () => {
    const page = await openSettings('mobile');
    expect(await orderTotal(page)).toBeGreaterThan(0);
    await card(page).getByRole('button', { name: 'Delete All Data', exact: true }).click();
    await expectContains(dialog(page), 'This cannot be undone.');
    await expectContains(
      dialog(page),
      'All Etsy orders, Printify orders and order matches will be permanently deleted.',
    );
    await shot(page, 'data-management-delete-all-dialog-mobile');
    await page.keyboard.press('Escape');
    await expectHidden(dialog(page));
    expect(await orderTotal(page)).toBeGreaterThan(0);

    await card(page).getByRole('button', { name: 'Delete All Data', exact: true }).click();
    await dialog(page).getByRole('button', { name: 'Delete All Data' }).click();
    await expectToast(page, 'Success', 'All order data deleted successfully');
    expect(await orderTotal(page)).toBe(0);
    await gotoApp(page, '/');
    await expectContains(page.getByTestId('no-orders-yet'), 'No orders yet');
  });

  it('Delete Account of a demo account signs out to the landing page, and the session is gone', async () => {
    const page = await openSettings();
    await card(page).getByRole('button', { name: 'Delete Account', exact: true }).click();
    // A demo's password was never shown to its visitor: none is asked.
    expect(await dialog(page).getByLabel('Password').count()).toBe(0);
    await dialog(page).getByRole('button', { name: 'Delete account' }).click();
    await expectText(page.getByRole('heading', { level: 1 }), LANDING_HEADING);
    await expectToast(page, 'Success', 'Your account has been deleted');
    await page.reload();
    await expectText(page.getByRole('heading', { level: 1 }), LANDING_HEADING);
  });
});

describe('Delete Account with a password', () => {
  it('says so when the password is wrong, then deletes the account: signed out, and it cannot sign in again', async () => {
    const page = await e2e.open('mobile');
    const user = newTestUser('delete-me');
    await signUpThroughUi(page, user);
    await gotoApp(page, '/settings');
    await card(page).getByRole('button', { name: 'Delete Account', exact: true }).click();
    const password = dialog(page).getByLabel('Password');
    await dialog(page).getByRole('button', { name: 'Delete account' }).click();
    await expectContains(dialog(page).getByRole('alert'), 'Please enter your password');
    await password.fill('not my password');
    await page.keyboard.press('Enter');
    await expectContains(dialog(page).getByRole('alert'), 'Password is incorrect');
    await shot(page, 'data-management-delete-account-dialog-mobile');

    await password.fill(user.password);
    await dialog(page).getByRole('button', { name: 'Delete account' }).click();
    await expectText(page.getByRole('heading', { level: 1 }), LANDING_HEADING);
    await expectToast(page, 'Success', 'Your account has been deleted');

    await gotoApp(page, '/login');
    await new LoginForm(page).signIn(user.email, user.password);
    await expectContains(new LoginForm(page).alert(), 'Invalid email or password');
  });
});
