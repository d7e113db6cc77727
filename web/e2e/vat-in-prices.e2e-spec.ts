import { createDataSource } from '@pod/db';
import { UserMatcher, UserProfits } from '@pod/orders';
import { goldenUsdOrder, queryDatabase, storeGoldenRates, storeProfitOrder } from '@pod/testing';
import type { Page } from 'playwright-core';
import { expectContains } from './support/expect';
import { setupE2E } from './support/harness';
import { OrdersScreen } from './support/orders';
import { gotoApp, signUpThroughUi } from './support/pages';
import { screenshot } from './support/screenshots';
import { newTestUser } from './support/users';

/**
 * Order Details of a UK VAT-registered seller's domestic sale (ADR 0026, decision 12): the
 * Profit Summary shows "VAT in your prices (you remit it)" as its own revenue line, estimated,
 * and the revenue without it. Item 30.00 + shipping 5.00 GBP to a buyer in the UK: VAT 35.00 ×
 * 20 ÷ 120 = 5.83 GBP, revenue 29.17 GBP.
 */
const e2e = setupE2E();
const SHOP = 'vat-gbp-shop';
let cookies: Awaited<ReturnType<ReturnType<Page['context']>['cookies']>>;

beforeAll(async () => {
  const page = await e2e.open();
  const user = newTestUser('vatprices');
  await signUpThroughUi(page, user);
  cookies = await page.context().cookies();
  const url = e2e.databaseUrl!;
  const [{ id }] = await queryDatabase<{ id: string }>(url, 'SELECT id FROM app_user WHERE email = $1', [user.email]);
  await queryDatabase(
    url,
    `INSERT INTO provider_connection (user_id, provider, shop_id, shop_country, access_token_enc, key_version, vat_registered)
     VALUES ($1, 'etsy', $2, 'gb', 'x', 1, true)`,
    [id, SHOP],
  );
  const dataSource = await createDataSource({ DATABASE_URL: url, DATABASE_POOL_SIZE: 2 }, 'vat-prices').initialize();
  try {
    await storeGoldenRates(dataSource, ['2026-03-13', '2026-03-14']);
    await storeProfitOrder(
      dataSource,
      id,
      goldenUsdOrder('vat', {
        etsyShopId: SHOP,
        currency: 'GBP',
        taxMinor: 0,
        paymentFeesMinor: 140,
        ledger: [{ id: 'vat-l1', type: 'transaction', amountMinor: -228, currency: 'GBP' }],
      }),
    );
    await queryDatabase(url, `UPDATE etsy_receipt SET payload = payload || '{"country_iso":"GB"}' WHERE user_id = $1`, [
      id,
    ]);
    await new UserMatcher(dataSource).matchUser(id, new Date('2026-03-20T12:00:00Z'));
    await new UserProfits(dataSource, () => new Date('2026-03-20T12:00:00Z')).computeUser(id);
  } finally {
    await dataSource.destroy();
  }
}, 120_000);

async function openDetails(viewport: 'desktop' | 'mobile') {
  const page = await e2e.open(viewport);
  await page.context().addCookies(cookies);
  await gotoApp(page, '/orders');
  const screen = new OrdersScreen(page);
  const row = viewport === 'desktop' ? screen.rows().first() : page.getByTestId('orders-cards').locator('li').first();
  await row.getByRole('button', { name: /^View Details/ }).click();
  const dialog = screen.details();
  await dialog.waitFor();
  return { page, summary: dialog.getByTestId('profit-summary') };
}

describe("Order Details: the VAT in a registered seller's prices", () => {
  it.each(['desktop', 'mobile'] as const)('shows it as its own estimated revenue line (%s)', async (viewport) => {
    const { page, summary } = await openDetails(viewport);
    const line = summary.locator('li').filter({ hasText: 'VAT in your prices (you remit it)' });
    await line.waitFor();
    await expectContains(line, 'estimated');
    await expectContains(line, '£5.83 GBP');
    await line.scrollIntoViewIfNeeded();
    await screenshot(page, 'order-details-vat-in-prices');
  });
});
