import { createDataSource } from '@pod/db';
import { UserMatcher, UserProfits } from '@pod/orders';
import { queryDatabase, storeSyncedOrders, type SideFixture } from '@pod/testing';
import type { Locator, Page } from 'playwright-core';
import type { ViewportName } from './support/browser';
import { expectContains, expectText } from './support/expect';
import { pageFetch, setupE2E } from './support/harness';
import { expectToast, MatchingScreen, ordersPage, OrdersScreen } from './support/orders';
import { gotoApp, signUpThroughUi } from './support/pages';
import { screenshot } from './support/screenshots';
import { newTestUser } from './support/users';

/**
 * Issue 18: Match, Unmatch (confirmed) and Archive (Undo in the toast) on every Orders row, phone
 * card and in Order Details; the Manual Order Matching dialog ranked by fit, searchable, without
 * orders that need no fulfilment, asking before a low fit and saying why; Order Details laid out
 * by the sides the order has. A seller of our own seeding: each test acts on its own orders.
 */
const e2e = setupE2E();
let cookies: Awaited<ReturnType<ReturnType<Page['context']>['cookies']>>;
const DAY_MS = 86_400_000;
const NOW = new Date();
const ago = (days: number) => new Date(NOW.getTime() - days * DAY_MS);
const receipt = (id: string, buyerName: string, title: string, days: number, digital = false): SideFixture => ({
  shopId: 'oa-etsy',
  id,
  buyerName,
  orderedAt: ago(days),
  lines: [{ title, sku: title.toUpperCase().replace(/\W+/g, '-'), quantity: 1 }],
  digital,
});
const printify = (id: string, buyerName: string, title: string, days: number, orderType?: string): SideFixture => ({
  ...receipt(id, buyerName, title, days),
  shopId: 'oa-pfy',
  orderType,
});

beforeAll(async () => {
  const page = await e2e.open();
  const user = newTestUser('orderactions');
  await signUpThroughUi(page, user);
  cookies = await page.context().cookies();
  const url = e2e.databaseUrl!;
  const [{ id }] = await queryDatabase<{ id: string }>(url, 'SELECT id FROM app_user WHERE email = $1', [user.email]);
  const dataSource = await createDataSource({ DATABASE_URL: url, DATABASE_POOL_SIZE: 2 }, 'order-actions').initialize();
  try {
    await storeSyncedOrders(
      dataSource,
      id,
      [
        receipt('oa-r-ada', 'Ada Lovelace', 'Engine Mug', 12),
        receipt('oa-r-bob', 'Bob Kahn', 'Packet Tote', 5),
        receipt('oa-r-low', 'Ken Thompson', 'Unix Poster', 13),
        receipt('oa-r-far', 'Ada Lovelace', 'Engine Mug', 100),
        receipt('oa-r-digital', 'Ada Lovelace', 'Printable Planner', 12, true),
        receipt('oa-r-pair', 'Margaret Hamilton', 'Apollo Tee', 10),
        receipt('oa-r-archive', 'Linus Torvalds', 'Penguin Sticker', 30),
      ],
      [
        printify('oa-p-ada', 'Ada Lovelace', 'Engine Mug', 12),
        printify('oa-p-bob', 'Bob Kahn', 'Packet Tote', 5),
        printify('oa-p-pair', 'Margaret Hamilton', 'Apollo Tee', 10),
        printify('oa-p-grace', 'Grace Hopper', 'Nano Wire Print', 40),
      ],
    );
    await new UserMatcher(dataSource).matchUser(id, NOW);
    await new UserProfits(dataSource, () => NOW).computeUser(id);
  } finally {
    await dataSource.destroy();
  }
  // The matcher pairs Ada's and Bob's orders; unmatched by hand, each side is a lone order to match again.
  await gotoApp(page, '/orders');
  for (const buyer of ['oa-r-ada', 'oa-r-bob']) {
    const [pair] = (await ordersPage(page, `search=${buyer}&currency=USD`)).orders;
    expect(pair.status).toBe('matched');
    expect((await pageFetch(page, 'POST', `/api/orders/${pair.id}/unmatch`)).status).toBe(200);
  }
}, 120_000);

async function open(viewport: ViewportName, path = '/orders') {
  const page = await e2e.open(viewport);
  await page.context().addCookies(cookies);
  await gotoApp(page, path);
  return { page, screen: new OrdersScreen(page) };
}

/** The order's row (desktop) or card (phone), found through the page's search. */
async function rowFor(page: Page, screen: OrdersScreen, search: string, viewport: ViewportName): Promise<Locator> {
  await screen.search().fill(search);
  await screen.expectCountOf(`search=${search}&currency=USD`);
  return viewport === 'desktop'
    ? screen.rows().filter({ hasText: search })
    : page.getByTestId('orders-cards').locator('li').filter({ hasText: search });
}

const statusOf = async (page: Page, search: string) =>
  (await ordersPage(page, `search=${search}&currency=USD`)).orders.map((order) => [
    order.status,
    order.etsyReceiptId,
    order.printifyOrderId,
  ]);

describe('order actions where the orders are', () => {
  it.each<ViewportName>(['desktop', 'mobile'])(
    'Order Details is laid out by the sides the order has (%s)',
    async (viewport) => {
      const { page, screen } = await open(viewport);
      const dialog = screen.details();
      const shots: Array<[string, string]> = [
        ['oa-r-low', 'etsy-only'],
        ['oa-p-grace', 'printify-only'],
        ['oa-r-pair', 'matched'],
      ];
      for (const [search, name] of shots) {
        const row = await rowFor(page, screen, search, viewport);
        await row.getByRole('button', { name: /^View Details/ }).click();
        await dialog.getByText(search, { exact: true }).first().waitFor();
        await page.waitForTimeout(300); // the opening animation
        const oneSide = name !== 'matched';
        // One side: that side, one line for the side it lacks (no empty half), the dialog only as tall as that.
        expect(await dialog.getByTestId('missing-side').count()).toBe(oneSide ? 1 : 0);
        expect(await dialog.getByText(/^No matching (Etsy|Printify) order found$/).count()).toBe(0);
        if (oneSide) {
          await expectContains(
            dialog.getByTestId('missing-side'),
            `No ${name === 'etsy-only' ? 'Printify' : 'Etsy'} order is matched yet`,
          );
          const { height, viewportHeight } = await dialog.evaluate((element) => ({
            height: element.getBoundingClientRect().height,
            viewportHeight: window.innerHeight,
          }));
          expect(height).toBeLessThan(viewportHeight - 100);
          // Its actions are in the dialog too: Match, and Archive under "More actions".
          await dialog.getByRole('button', { name: /^Match / }).waitFor();
        }
        await dialog.getByRole('button', { name: /^More actions for / }).waitFor();
        await screenshot(page, `d-order-details-${name}-${viewport}`);
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'hidden' });
      }
    },
  );

  it('Match from an Orders row: the dialog ranks by fit, hides orders that need no fulfilment, searches, and asks before a low fit, saying why', async () => {
    const { page, screen } = await open('desktop');
    await screen
      .rows()
      .first()
      .getByRole('button', { name: /^View Details/ })
      .waitFor();
    await screenshot(page, 'd-orders-actions-desktop');
    const row = await rowFor(page, screen, 'oa-p-ada', 'desktop');
    await row.getByRole('button', { name: 'Match Engine Mug' }).click();
    const matching = new MatchingScreen(page);
    const dialog = matching.dialog();
    await matching.candidates().first().waitFor();
    // Best fit first; the digital download and the order dated too far for the same sale are not offered.
    const receipts = () =>
      matching
        .candidates()
        .getByText(/^Receipt /)
        .allInnerTexts();
    expect(await receipts()).toEqual(['Receipt oa-r-ada', 'Receipt oa-r-low']);
    await expectText(dialog.getByRole('heading', { name: /^Potential Matches/ }), 'Potential Matches (2)');
    expect(
      await matching
        .candidates()
        .getByText(/% fit$/)
        .allInnerTexts(),
    ).toEqual(['100% fit', '13% fit']);
    await expectText(matching.candidates().nth(1).getByText('low', { exact: true }), 'low');
    await screenshot(page, 'd-matching-dialog-desktop');

    // A search finds any order of the other side, whatever its date (a 0% fit, marked low).
    await dialog.getByRole('textbox', { name: 'Search potential matches' }).fill('oa-r-far');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="match-candidates"] li').length === 1);
    expect(await receipts()).toEqual(['Receipt oa-r-far']);
    await expectText(matching.candidates().getByText(/% fit$/), '0% fit');
    await dialog.getByRole('textbox', { name: 'Search potential matches' }).fill('planner');
    await dialog.getByText('No unmatched order from the other side matches "planner".').waitFor();
    await dialog.getByRole('textbox', { name: 'Search potential matches' }).fill('');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="match-candidates"] li').length === 2);

    // A low fit: Match asks first, saying which parts do not agree; Cancel leaves both orders as they were.
    await matching
      .candidates()
      .nth(1)
      .getByRole('button', { name: /^Match with / })
      .click();
    const confirm = dialog.getByTestId('low-fit-confirm');
    await expectText(
      confirm.locator('p'),
      'Only 13% fit: the buyer names share no word and the products share nothing. These may not be the same sale.',
    );
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await screenshot(page, 'd-matching-dialog-low-fit-desktop');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect(await statusOf(page, 'oa-r-low')).toEqual([['unmatched', 'oa-r-low', null]]);

    // The best fit matches at once.
    await matching
      .candidates()
      .first()
      .getByRole('button', { name: /^Match with / })
      .click();
    await expectToast(page, 'Success', 'Orders matched');
    await dialog.waitFor({ state: 'hidden' });
    expect(await statusOf(page, 'oa-p-ada')).toEqual([['matched', 'oa-r-ada', 'oa-p-ada']]);
    await screen.rows().filter({ hasText: 'oa-r-ada' }).getByText('Manual').waitFor();
  });

  it('Match from a phone card', async () => {
    const { page, screen } = await open('mobile');
    const card = await rowFor(page, screen, 'oa-p-bob', 'mobile');
    await screenshot(page, 'd-orders-cards-mobile');
    await card.getByRole('button', { name: 'Match Packet Tote' }).click();
    const matching = new MatchingScreen(page);
    await matching.candidates().first().waitFor();
    await page.waitForTimeout(300);
    await screenshot(page, 'd-matching-dialog-mobile');
    expect(
      (
        await matching
          .candidates()
          .getByText(/^Receipt /)
          .allInnerTexts()
      )[0],
    ).toBe('Receipt oa-r-bob');
    await matching
      .candidates()
      .first()
      .getByRole('button', { name: /^Match with / })
      .click();
    await expectToast(page, 'Success', 'Orders matched');
    expect(await statusOf(page, 'oa-p-bob')).toEqual([['matched', 'oa-r-bob', 'oa-p-bob']]);
  });

  it('Unmatch from an Orders row asks first, saying what happens', async () => {
    const { page, screen } = await open('desktop');
    const row = await rowFor(page, screen, 'oa-r-pair', 'desktop');
    await row.getByRole('button', { name: 'More actions for Apollo Tee' }).click();
    await page.getByRole('menuitem', { name: 'Unmatch' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Unmatch this order?' });
    await expectContains(
      confirm,
      'Etsy receipt oa-r-pair and Printify order oa-p-pair become separate unmatched orders',
    );
    await screenshot(page, 'd-unmatch-confirm-desktop');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect(await statusOf(page, 'oa-r-pair')).toEqual([['matched', 'oa-r-pair', 'oa-p-pair']]);

    await row.getByRole('button', { name: 'More actions for Apollo Tee' }).click();
    await page.getByRole('menuitem', { name: 'Unmatch' }).click();
    await confirm.getByRole('button', { name: 'Unmatch' }).click();
    await expectToast(page, 'Success', 'Orders unmatched');
    expect(await statusOf(page, 'oa-r-pair')).toEqual([['unmatched', 'oa-r-pair', null]]);
  });

  it('Archive from a phone card, then Undo from the toast restores the order', async () => {
    const { page, screen } = await open('mobile');
    const card = await rowFor(page, screen, 'oa-r-archive', 'mobile');
    await card.getByRole('button', { name: 'More actions for Penguin Sticker' }).click();
    await page.getByRole('menuitem', { name: 'Archive' }).click();
    await expectToast(page, 'Success', 'Order archived');
    // Gone from the active list, in the archived one.
    await screen.empty().waitFor();
    expect(
      (await ordersPage(page, 'search=oa-r-archive&view=archived&currency=USD')).orders.map((o) => o.archived),
    ).toEqual([true]);
    await screenshot(page, 'd-archive-undo-toast-mobile');
    await page.getByRole('button', { name: 'Undo' }).click();
    await expectToast(page, 'Success', 'Order restored');
    await card.waitFor();
    expect(
      (await ordersPage(page, 'search=oa-r-archive&currency=USD')).orders.map((o) => [o.archived, o.status]),
    ).toEqual([[false, 'unmatched']]);
  });
});
