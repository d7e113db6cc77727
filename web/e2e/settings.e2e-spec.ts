import { queryDatabase } from '@pod/testing';
import type { Page } from 'playwright-core';
import { setupE2E } from './support/harness';
import { expectContains, expectPath, expectText } from './support/expect';
import { gotoApp, Shell, signUpThroughUi } from './support/pages';
import { describeViolations, seriousAxeViolations } from './support/axe';
import { screenshot } from './support/screenshots';
import { newTestUser } from './support/users';

/**
 * The Settings page's "Profit settings" card (ADR 0026): the VAT-registered switch and the
 * Printify cost reading, changed with the keyboard alone, saved with its loading, success and
 * error states, and stored for the seller (their orders are queued to be figured again).
 */
const e2e = setupE2E();

async function signedUpSeller(page: Page, connect: ('etsy' | 'printify')[]) {
  const user = newTestUser('settings');
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
