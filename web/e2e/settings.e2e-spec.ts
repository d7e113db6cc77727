import { queryDatabase } from '@pod/testing';
import type { Page } from 'playwright-core';
import { pageFetch, setupE2E } from './support/harness';
import { expectContains, expectPath, expectText } from './support/expect';
import { gotoApp, Shell, signUpThroughUi } from './support/pages';
import { demoAccount, expectToast, openSignedIn } from './support/orders';
import { describeViolations, seriousAxeViolations } from './support/axe';
import { screenshot } from './support/screenshots';
import { newTestUser, type TestUser } from './support/users';

/**
 * The Settings page: the "Profit settings" card (ADR 0026): the VAT-registered switch and the
 * Printify cost reading, changed with the keyboard alone, saved with its loading, success and
 * error states, and stored for the seller (their orders are queued to be figured again); and
 * issue 19's cards: Currency (every money figure switches), Account (email, password), Session.
 * The currency switch needs figured orders: the demo, with every worker.
 */
const e2e = setupE2E({
  sandbox: true,
  workers: ['etsy-sync', 'printify-sync', 'matcher', 'fx-rate'],
  env: () => ({ FX_RATES_CRON: 'off' }),
});

async function signedUpSeller(page: Page, connect: ('etsy' | 'printify')[], user: TestUser = newTestUser('settings')) {
  await signUpThroughUi(page, user);
  const databaseUrl = e2e.databaseUrl!;
  const [{ id }] = await queryDatabase<{ id: string }>(databaseUrl, 'SELECT id FROM app_user WHERE email = $1', [
    user.email,
  ]);
  for (const provider of connect)
    await queryDatabase(
      databaseUrl,
      `INSERT INTO provider_connection (user_id, provider, shop_id, shop_country, access_token_enc, key_version)
       VALUES ($1, $2, $3, 'gb', 'x', 1)`,
      [id, provider, `${provider}-${id.slice(0, 8)}`],
    );
  return id;
}

async function storedSettings(userId: string) {
  return queryDatabase<{ provider: string; vat_registered: boolean; printify_cost_reading: string }>(
    e2e.databaseUrl!,
    `SELECT provider, vat_registered, printify_cost_reading FROM provider_connection WHERE user_id = $1 ORDER BY provider`,
    [userId],
  );
}

describe('Settings: Profit settings', () => {
  it('is a real page in the sidebar, changed and saved with the keyboard alone', async () => {
    const page = await e2e.open();
    const userId = await signedUpSeller(page, ['etsy', 'printify']);
    await new Shell(page).navLink('Settings').click();
    await expectPath(page, '/settings');
    await expectText(page.getByRole('heading', { level: 1 }), 'Settings');
    const card = page.getByTestId('profit-settings-card');
    await expectText(card.getByRole('heading', { level: 2 }), 'Profit settings');

    const vat = card.getByRole('checkbox', { name: 'I am VAT-registered' });
    const reading = card.getByRole('combobox', { name: 'Printify cost reading' });
    const save = card.getByRole('button', { name: 'Save' });
    expect(await vat.isChecked()).toBe(false);
    expect(await reading.inputValue()).toBe('per_unit');
    expect(await save.isDisabled()).toBe(true);
    await screenshot(page, 'settings-desktop');
    expect(describeViolations(await seriousAxeViolations(page))).toBe(describeViolations([]));

    await vat.focus();
    await page.keyboard.press('Space');
    expect(await vat.isChecked()).toBe(true);
    await reading.focus();
    await page.keyboard.press('ArrowDown');
    expect(await reading.inputValue()).toBe('per_line');
    await save.focus();
    // Slow the answer down so the loading state shows.
    await page.route('**/api/profit-settings', async (route) => {
      if (route.request().method() === 'PATCH') await new Promise((resolve) => setTimeout(resolve, 400));
      await route.continue();
    });
    await page.keyboard.press('Enter');
    await expectContains(card.getByRole('button', { name: /Saving/ }), 'Saving');
    await expectContains(card.getByTestId('profit-settings-saved'), 'Your orders are being recalculated');
    expect(await storedSettings(userId)).toEqual([
      { provider: 'etsy', vat_registered: true, printify_cost_reading: 'per_unit' },
      { provider: 'printify', vat_registered: false, printify_cost_reading: 'per_line' },
    ]);
    await screenshot(page, 'settings-saved-desktop');

    // Read back on a fresh load.
    await gotoApp(page, '/settings');
    expect(await page.getByRole('checkbox', { name: 'I am VAT-registered' }).isChecked()).toBe(true);
    expect(await page.getByRole('combobox', { name: 'Printify cost reading' }).inputValue()).toBe('per_line');
  });

  it('says when saving failed, and keeps what the seller chose', async () => {
    const page = await e2e.open('mobile');
    await signedUpSeller(page, ['etsy', 'printify']);
    await gotoApp(page, '/settings');
    const card = page.getByTestId('profit-settings-card');
    await card.getByRole('button', { name: 'Save' }).waitFor();
    await screenshot(page, 'settings-mobile');
    await page.route('**/api/profit-settings', (route) =>
      route.request().method() === 'PATCH'
        ? route.fulfill({
            status: 503,
            contentType: 'application/json',
            body: '{"code":"service_unavailable","message":"Try again in a moment."}',
          })
        : route.continue(),
    );
    await card.getByText('I am VAT-registered').click();
    await card.getByRole('button', { name: 'Save' }).click();
    await expectContains(card.getByTestId('profit-settings-error'), 'Try again in a moment.');
    expect(await card.getByRole('checkbox', { name: 'I am VAT-registered' }).isChecked()).toBe(true);
    await screenshot(page, 'settings-error-mobile');
  });

  it('cannot change a setting of a provider not connected', async () => {
    const page = await e2e.open();
    await signedUpSeller(page, []);
    await gotoApp(page, '/settings');
    const card = page.getByTestId('profit-settings-card');
    await expectContains(card, 'Connect your Etsy shop to set this.');
    await expectContains(card, 'Connect your Printify account to set this.');
    expect(await card.getByRole('checkbox', { name: 'I am VAT-registered' }).isDisabled()).toBe(true);
    expect(await card.getByRole('combobox', { name: 'Printify cost reading' }).isDisabled()).toBe(true);
  });
});

describe('Settings: Currency, Account and Session (issue 19)', () => {
  const card = (page: Page, testId: string) => page.getByTestId(testId);

  it('shows the cards in order, changes the password and the email with every message, and logs out', async () => {
    const page = await e2e.open();
    const seller = newTestUser('account');
    await signedUpSeller(page, [], seller);
    const other = newTestUser('taken');
    const otherPage = await e2e.open();
    await signedUpSeller(otherPage, [], other);
    // The seller signed in in a second browser too: both changes end that session.
    const elsewhere = await e2e.open();
    await gotoApp(elsewhere, '/login');
    await elsewhere.getByRole('textbox', { name: 'Email', exact: true }).fill(seller.email);
    await elsewhere.getByRole('textbox', { name: 'Password', exact: true }).fill(seller.password);
    await elsewhere.getByRole('button', { name: 'Sign In' }).click();
    await elsewhere.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();

    await gotoApp(page, '/settings');
    await card(page, 'session-management-card').waitFor();
    expect(await page.getByRole('heading', { level: 2 }).allInnerTexts()).toEqual([
      'Currency Settings',
      'Account Settings',
      'Profit settings',
      'Data Management',
      'Session Management',
    ]);
    const account = card(page, 'account-settings-card');
    expect(await account.getByTestId('account-email').inputValue()).toBe(seller.email);
    await screenshot(page, 'settings-cards-desktop');
    expect(describeViolations(await seriousAxeViolations(page))).toBe(describeViolations([]));

    // Change Password: disabled until filled; mismatch first, then length; the server's reason.
    const current = account.getByRole('form', { name: 'Change Password' }).getByLabel('Current password');
    const next = account.getByLabel('New password', { exact: true });
    const confirm = account.getByLabel('Confirm new password');
    const change = account.getByRole('button', { name: 'Change', exact: true });
    expect(await change.isDisabled()).toBe(true);
    await current.fill(seller.password);
    await next.fill('short');
    expect(await change.isDisabled()).toBe(true);
    await confirm.fill('shorter');
    await change.click();
    await expectToast(page, 'Error', 'New passwords do not match');
    await confirm.fill('short');
    await change.click();
    await expectToast(page, 'Error', 'Password must be at least 8 characters long');
    await current.fill('Not-my-password-1');
    await next.fill('Brand-new-pass-9');
    await confirm.fill('Brand-new-pass-9');
    await change.click();
    await expectToast(page, 'Error', 'Failed to change password: Current password is incorrect');
    await current.fill(seller.password);
    await change.click();
    await expectToast(page, 'Success', 'Password changed successfully');
    for (const field of [current, next, confirm]) expect(await field.inputValue()).toBe('');
    expect((await pageFetch(elsewhere, 'GET', '/api/auth/user')).status).toBe(204);
    expect((await pageFetch(page, 'GET', '/api/auth/user')).status).toBe(200);

    // Change Email: a taken one, then a free one; the sidebar follows.
    await account.getByRole('button', { name: 'Change Email' }).click();
    const emailForm = account.getByRole('form', { name: 'Change Email' });
    await emailForm.getByLabel('New email').fill(other.email);
    await emailForm.getByLabel('Current password').fill('Brand-new-pass-9');
    await screenshot(page, 'settings-change-email-desktop');
    await emailForm.getByRole('button', { name: 'Save Email' }).click();
    await expectToast(page, 'Error', 'Failed to change email: That email is already in use');
    const fresh = `renamed.${seller.email}`;
    await emailForm.getByLabel('New email').fill(fresh);
    await emailForm.getByRole('button', { name: 'Save Email' }).click();
    await expectToast(page, 'Success', 'Email changed successfully');
    await expectText(new Shell(page).userEmail(), fresh);
    expect(await account.getByTestId('account-email').inputValue()).toBe(fresh);
    expect((await pageFetch(otherPage, 'GET', '/api/auth/user')).status).toBe(200);

    // Session: a failed logout says so and stays; then it logs out.
    await page.route('**/api/auth/logout', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: '{"code":"service_busy","message":"x"}' }),
    );
    const logout = card(page, 'session-management-card').getByRole('button', { name: 'Logout' });
    await logout.click();
    await expectToast(page, 'Error', 'Failed to logout');
    expect(new URL(page.url()).pathname).toBe('/settings');
    await page.unroute('**/api/auth/logout');
    // The error toast sits over the bottom card's button until it times out, as for a seller.
    await page
      .getByRole('region', { name: /^Notification/ })
      .getByRole('status')
      .waitFor({ state: 'hidden', timeout: 15_000 });
    await logout.click();
    await expectToast(page, 'Success', 'Logged out successfully');
    await expectPath(page, '/login');
  });

  it('switches every money figure to the chosen currency at once, follows the account to another browser, and says when saving fails', async () => {
    const first = await e2e.open();
    const cookies = await demoAccount(first);
    const page = await openSignedIn(() => e2e.open(), cookies, '/');
    const main = page.locator('main');
    const moneyIn = async (symbol: string) => {
      // Every figure in the page's money format reads in `symbol`: "$1,234.56", "-€3.10".
      await page.waitForFunction(
        (sym) => {
          const text = document.querySelector('main')?.textContent ?? '';
          const figures = text.match(/-?[$€£]\d[\d,]*\.\d\d/g) ?? [];
          return figures.length > 0 && figures.every((figure) => figure.replace('-', '').startsWith(sym));
        },
        symbol,
        { timeout: 15_000 },
      );
    };
    await moneyIn('$');

    await gotoApp(page, '/settings');
    const currencyCard = card(page, 'currency-settings-card');
    const select = currencyCard.getByRole('combobox', { name: 'Display currency' });
    expect(await select.inputValue()).toBe('USD');
    await screenshot(page, 'settings-currency-desktop');
    await select.selectOption('EUR');
    await expectToast(page, 'Success', 'Currency preference updated successfully');
    expect(await page.evaluate(() => localStorage.getItem('preferred-currency'))).toBe('EUR');

    for (const [label, path] of [
      ['Dashboard', '/'],
      ['Orders', '/orders'],
      ['Order Matching', '/matching'],
    ] as const) {
      await new Shell(page).navLink(label).click();
      await expectPath(page, path);
      await moneyIn('€');
      expect(await main.textContent()).not.toMatch(/\$\d/);
    }

    // Another browser (no stored choice) takes the account's currency when the session loads.
    const otherBrowser = await openSignedIn(() => e2e.open('mobile'), cookies, '/settings');
    await card(otherBrowser, 'currency-settings-card').waitFor();
    expect(await otherBrowser.evaluate(() => localStorage.getItem('preferred-currency'))).toBe('EUR');
    expect(
      await card(otherBrowser, 'currency-settings-card')
        .getByRole('combobox', { name: 'Display currency' })
        .inputValue(),
    ).toBe('EUR');
    // A demo account cannot change its email or password, and is told why.
    await expectContains(
      card(otherBrowser, 'account-settings-card').getByTestId('demo-credentials-note'),
      'its email and password cannot be changed',
    );
    await screenshot(otherBrowser, 'settings-demo-mobile');

    await gotoApp(page, '/settings');
    await page.route('**/api/user/settings', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: '{"code":"service_unavailable","message":"x"}',
      }),
    );
    await card(page, 'currency-settings-card').getByRole('combobox', { name: 'Display currency' }).selectOption('GBP');
    await expectToast(page, 'Error', 'Failed to update currency preference');
    expect(await page.evaluate(() => localStorage.getItem('preferred-currency'))).toBe('EUR');
  });
});
