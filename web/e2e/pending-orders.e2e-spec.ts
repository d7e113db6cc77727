import { createDataSource, FxRatesRepository } from '@pod/db';
import { latestTargetDayOnOrBefore } from '@pod/domain';
import { UserMatcher, UserProfits } from '@pod/orders';
import { goldenUsdOrder, queryDatabase, storeProfitOrder } from '@pod/testing';
import type { Page } from 'playwright-core';
import type { ViewportName } from './support/browser';
import { expectContains } from './support/expect';
import { setupE2E } from './support/harness';
import { OrdersScreen } from './support/orders';
import { gotoApp, signUpThroughUi } from './support/pages';
import { screenshot } from './support/screenshots';
import { newTestUser } from './support/users';

/**
 * Receipts waiting for their Printify order (issue 18, ADR 0031), seen by the seller: one whose
 * SKU was ordered from Printify before is in the totals at an estimated Printify cost, marked
 * "est. Printify cost"; one with no such history is left out of the totals, the dashboard
 * saying "1 order awaiting Printify costs", its row "awaiting Printify cost"; Order Details says
 * why each is pending and what happens next.
 */
const e2e = setupE2E();
const SHOP = 'pending-usd-shop';
const NOW = new Date();
const daysAgo = (days: number) =>
  new Date(Date.UTC(NOW.getUTCFullYear(), NOW.getUTCMonth(), NOW.getUTCDate() - days, 10));
let cookies: Awaited<ReturnType<ReturnType<Page['context']>['cookies']>>;

beforeAll(async () => {
  const page = await e2e.open();
  const user = newTestUser('pending');
  await signUpThroughUi(page, user);
  cookies = await page.context().cookies();
  const url = e2e.databaseUrl!;
  const [{ id }] = await queryDatabase<{ id: string }>(url, 'SELECT id FROM app_user WHERE email = $1', [user.email]);
  await queryDatabase(
    url,
    `INSERT INTO provider_connection (user_id, provider, shop_id, shop_country, access_token_enc, key_version) VALUES ($1, 'etsy', $2, 'us', 'x', 1)`,
    [id, SHOP],
  );
  const dataSource = await createDataSource(
    { DATABASE_URL: url, DATABASE_POOL_SIZE: 2 },
    'pending-orders',
  ).initialize();
  try {
    const loaded = latestTargetDayOnOrBefore(daysAgo(12).toISOString().slice(0, 10));
    await new FxRatesRepository(dataSource).upsertRates(
      [
        { date: loaded, currency: 'GBP', perEur: '0.85' },
        { date: loaded, currency: 'USD', perEur: '1.0625' },
      ],
      'test',
      new Date(),
    );
    // Two past Printify orders of MUG-CAT-11: production 9.00 / 11.00, shipping 4.00 / 5.00 → 10.00 + 4.50 = 14.50.
    for (const [prefix, days, costMinor, shippingMinor] of [
      ['ha', 9, 900, 400],
      ['hb', 8, 1100, 500],
    ] as const) {
      await storeProfitOrder(
        dataSource,
        id,
        goldenUsdOrder(prefix, {
          etsyShopId: SHOP,
          orderedAt: daysAgo(days),
          printify: {
            shopId: 'pending-pfy',
            orderId: `${prefix}-pfy`,
            currency: 'USD',
            lines: [{ quantity: 1, costMinor, shippingMinor }],
          },
        }),
      );
    }
    await storeProfitOrder(
      dataSource,
      id,
      goldenUsdOrder('est', { etsyShopId: SHOP, orderedAt: daysAgo(2), printify: undefined }),
    );
    await storeProfitOrder(
      dataSource,
      id,
      goldenUsdOrder('new', {
        etsyShopId: SHOP,
        orderedAt: daysAgo(1),
        sku: 'HOODIE-NEW-M',
        title: 'New Hoodie M',
        printify: undefined,
      }),
    );
    await new UserMatcher(dataSource).matchUser(id, NOW);
    await new UserProfits(dataSource, () => NOW).computeUser(id);
  } finally {
    await dataSource.destroy();
  }
}, 120_000);

async function open(path: string, viewport: ViewportName) {
  const page = await e2e.open(viewport);
  await page.context().addCookies(cookies);
  await gotoApp(page, path);
  return page;
}

/** The row (desktop) or card (mobile) of one receipt, found through the search box. */
async function orderOf(page: Page, viewport: ViewportName, receiptId: string) {
  const screen = new OrdersScreen(page);
  await screen.search().fill(receiptId);
  await screen.expectCountOf(`search=${receiptId}&currency=USD`);
  const order = (viewport === 'desktop' ? screen.rows() : page.getByTestId('orders-cards').locator('li')).first();
  // "Showing 1 of 4" reads the same for the previous search: wait for this receipt's own row.
  await expectContains(order, receiptId);
  return order;
}

describe.each(['desktop', 'mobile'] as const)('pending orders (%s)', (viewport) => {
  it('the dashboard counts the order awaiting Printify costs and the one at an estimate', async () => {
    const page = await open('/', viewport);
    const notice = page.getByTestId('totals-notice');
    await expectContains(
      notice,
      '1 order awaiting Printify costs is not in the totals until its Printify order arrives.',
    );
    await expectContains(notice, 'Totals include 1 order at an estimated Printify cost');
    await screenshot(page, `pending-dashboard-${viewport}`);
  });

  it('the orders list marks the estimate, and the awaiting order has no profit', async () => {
    const page = await open('/orders', viewport);
    const estimated = await orderOf(page, viewport, 'est9001');
    await expectContains(estimated.getByTestId('printify-cost-mark'), 'est. Printify cost');
    await screenshot(page, `pending-orders-estimated-${viewport}`);
    const awaiting = await orderOf(page, viewport, 'new9001');
    await expectContains(awaiting.getByTestId('printify-cost-mark'), 'awaiting Printify cost');
    // Never a profit of revenue − fees in green: no amount where the profit goes.
    expect(await awaiting.getByText(/^\$\d/).count()).toBe(1);
    await screenshot(page, `pending-orders-awaiting-${viewport}`);
  });

  it('Order Details says why each is pending, the estimate marked "estimated", and what happens next', async () => {
    const page = await open('/orders', viewport);
    const screen = new OrdersScreen(page);
    await (await orderOf(page, viewport, 'est9001')).getByRole('button', { name: /^View Details/ }).click();
    let explanation = screen.details().getByTestId('pending-explanation');
    await expectContains(explanation, 'Waiting for the Printify order');
    await expectContains(explanation, 'No Printify order is matched to this Etsy receipt yet.');
    await expectContains(
      explanation,
      'Printify cost $14.50 (production $10.00 + shipping $4.50) from recent Printify orders of the same product (SKU MUG-CAT-11)',
    );
    await expectContains(explanation, 'estimated');
    await expectContains(explanation, 'the profit is figured again from the real Printify cost');
    await screenshot(page, `pending-details-estimated-${viewport}`);
    await page.keyboard.press('Escape');
    await screen.details().waitFor({ state: 'hidden' });

    await (await orderOf(page, viewport, 'new9001')).getByRole('button', { name: /^View Details/ }).click();
    explanation = screen.details().getByTestId('pending-explanation');
    await expectContains(explanation, 'no earlier Printify order of the same product (SKU) to estimate its cost from');
    await expectContains(explanation, 'left out of the totals');
    await screenshot(page, `pending-details-awaiting-${viewport}`);
  });
});
