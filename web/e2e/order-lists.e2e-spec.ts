import type { Page } from 'playwright-core';
import type { OrderRowView, OrdersPageResponse } from '@pod/contracts';
import type { ViewportName } from './support/browser';
import { expectPath, expectText } from './support/expect';
import { setupE2E } from './support/harness';
import { demoAccount, openSignedIn, ordersPage, OrdersScreen, scrollsSideways, widthsOf } from './support/orders';
import { gotoApp, signUpThroughUi } from './support/pages';
import { screenshot } from './support/screenshots';
import { newTestUser } from './support/users';

// Issue 18, the Orders and Order Matching lists: columns sorted by the server with the sort in
// the URL, the previous rows kept (dimmed) while new filters load and the counts changing with
// them, the empty state of an account without a shop, and truncated ids in full in a tooltip.
// One demo account (its workers figure its orders) serves the file; a fresh sign-up the empty state.
const e2e = setupE2E({ sandbox: true, workers: ['etsy-sync', 'printify-sync', 'matcher', 'fx-rate'] });

let account: Awaited<ReturnType<typeof demoAccount>>;
beforeAll(async () => {
  account = await demoAccount(await e2e.open());
}, 180_000);

const open = (path: string, viewport: ViewportName = 'desktop') =>
  openSignedIn(() => e2e.open(viewport), account, path);

/** A row as the desktop table shows its first two columns: "Etsy ID|Printify ID". */
const rowKey = (order: OrderRowView) => `${order.etsyReceiptId ?? '-'}|${order.printifyOrderId ?? '-'}`;

async function shownRowKeys(screen: OrdersScreen): Promise<string[]> {
  const [etsy, printify] = [await screen.column(0), await screen.column(1)];
  return etsy.map((id, i) => `${id}|${printify[i].split('\n')[0]}`);
}

/** The page's first page as the API answers it for this sort (the page's own page size and currency). */
const apiFirstPage = (page: Page, sort: string, dir: string) => ordersPage(page, `sort=${sort}&dir=${dir}&pageSize=50`);

const FIGURE: Record<string, (order: OrderRowView) => number | null> = {
  revenue: (order) => order.revenue?.minor ?? null,
  cost: (order) => order.cost?.minor ?? null,
  profit: (order) => order.profit?.minor ?? null,
  margin: (order) => order.profitMarginPercent,
  date: (order) => (order.orderDate ? Date.parse(order.orderDate) : null),
};

/** The answer is in the order asked for: the figures that exist first, each no smaller (larger) than the next. */
function expectSorted(answer: OrdersPageResponse, key: string, dir: 'asc' | 'desc') {
  const values = answer.orders.map(FIGURE[key]);
  const present = values.filter((value): value is number => value !== null);
  expect(values.slice(0, present.length)).toEqual(present);
  const sorted = [...present].sort((a, b) => (dir === 'asc' ? a - b : b - a));
  expect(present).toEqual(sorted);
  expect(new Set(present).size).toBeGreaterThan(1);
}

async function expectShownAs(page: Page, screen: OrdersScreen, sort: string, dir: 'asc' | 'desc') {
  const answer = await apiFirstPage(page, sort, dir);
  expectSorted(answer, sort, dir);
  await expectPath(page, `/orders`);
  expect(new URL(page.url()).searchParams.get('sort')).toBe(sort === 'date' && dir === 'desc' ? null : sort);
  const deadline = Date.now() + 10_000;
  let shown: string[] = [];
  while (Date.now() < deadline) {
    shown = await shownRowKeys(screen);
    if (JSON.stringify(shown) === JSON.stringify(answer.orders.map(rowKey))) return;
    await page.waitForTimeout(200);
  }
  expect(shown).toEqual(answer.orders.map(rowKey));
}

describe('Orders sorted by a column', () => {
  it('each column both ways, by header (mouse and keyboard, aria-sort) or the Sort by select, kept in the URL over a reload', async () => {
    const page = await open('/orders');
    const screen = new OrdersScreen(page);
    await screen.rows().first().waitFor();
    const header = (name: string) => screen.table().getByRole('columnheader', { name: new RegExp(`^${name}`) });
    const expectAriaSort = (name: string, value: 'ascending' | 'descending') =>
      page.waitForFunction(
        ([n, v]) =>
          Array.from(document.querySelectorAll('[data-testid="orders-table"] th')).some(
            (th) => th.textContent?.startsWith(n) && th.getAttribute('aria-sort') === v,
          ),
        [name, value],
      );
    expect(await header('Date').getAttribute('aria-sort')).toBe('descending');
    expect(await header('Profit').getAttribute('aria-sort')).toBe('none');

    for (const [name, key] of [
      ['Revenue', 'revenue'],
      ['Cost', 'cost'],
      ['Profit', 'profit'],
      ['Date', 'date'],
    ] as const) {
      const button = header(name).getByRole('button', { name });
      // The first press on another column: largest (newest) first.
      await button.click();
      await expectAriaSort(name, 'descending');
      await expectShownAs(page, screen, key, 'desc');
      // The second from the keyboard: focus, Enter.
      await button.focus();
      await page.keyboard.press('Enter');
      await expectAriaSort(name, 'ascending');
      await expectShownAs(page, screen, key, 'asc');
    }

    // Margin has no column: the Sort by select; Space on a header sorts too.
    await page.getByRole('combobox', { name: 'Sort by' }).selectOption({ label: 'Margin, lowest first' });
    await expectShownAs(page, screen, 'margin', 'asc');
    expect(page.url()).toContain('sort=margin&dir=asc');
    await page.getByRole('combobox', { name: 'Sort by' }).selectOption({ label: 'Margin, highest first' });
    await expectShownAs(page, screen, 'margin', 'desc');
    await header('Profit').getByRole('button', { name: 'Profit' }).focus();
    await page.keyboard.press('Space');
    await expectShownAs(page, screen, 'profit', 'desc');

    await page.reload();
    await screen.rows().first().waitFor();
    await expectAriaSort('Profit', 'descending');
    expect(await header('Date').getAttribute('aria-sort')).toBe('none');
    expect(await page.getByRole('combobox', { name: 'Sort by' }).inputValue()).toBe('profit:desc');
    await expectShownAs(page, screen, 'profit', 'desc');
    // The sort buttons and the margins leave every column, Actions too, in view at 1280 px.
    expect(await scrollsSideways(screen.table().locator('xpath=..'))).toBe(false);
    await screenshot(page, 'orders-sorted-by-profit');
  });

  it('at 1024 px, where the date sorts from under the product, the sorted table still fits', async () => {
    const page = await open('/orders?sort=date&dir=asc', 'laptop');
    const screen = new OrdersScreen(page);
    await screen.rows().first().waitFor();
    const dateButton = screen
      .table()
      .getByRole('columnheader', { name: /^Product/ })
      .getByRole('button', { name: 'Date' });
    const sortBy = page.getByRole('combobox', { name: 'Sort by' });
    // Each change shows at once (not only once the router has applied the URL), and reaches the URL.
    await dateButton.click();
    expect(await sortBy.inputValue()).toBe('date:desc');
    await page.waitForURL((url) => !url.searchParams.has('sort'));
    await sortBy.selectOption({ label: 'Profit, highest first' });
    expect(await sortBy.inputValue()).toBe('profit:desc');
    await page.waitForURL((url) => url.searchParams.get('sort') === 'profit');
    const top = (await apiFirstPage(page, 'profit', 'desc')).orders[0];
    await screen
      .rows()
      .first()
      .filter({ hasText: top.etsyReceiptId ?? top.printifyOrderId ?? '' })
      .waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid="order-list"][data-stale]') === null);
    expect(await scrollsSideways(screen.table().locator('xpath=..'))).toBe(false);
    await screenshot(page, 'orders-sorted-by-profit');
  });

  it('on a phone the cards follow the Sort by select, without scrolling sideways', async () => {
    const page = await open('/orders?sort=cost&dir=asc', 'mobile');
    const cards = page.getByTestId('orders-cards');
    await cards.locator('li').first().waitFor();
    expect(await page.getByRole('combobox', { name: 'Sort by' }).inputValue()).toBe('cost:asc');
    const answer = await apiFirstPage(page, 'cost', 'asc');
    const firstCard = await cards.locator('li').first().innerText();
    expect(firstCard).toContain(answer.orders[0].productTitle ?? '');
    const widths = await widthsOf(page.locator('html'));
    expect(widths.scrollWidth).toBeLessThanOrEqual(widths.clientWidth);
    await screenshot(page, 'orders-sorted-by-cost');
  });
});

describe('Orders while new filters load', () => {
  it('keeps the previous rows on screen, dimmed, and changes rows, count and tabs together', async () => {
    const page = await open('/orders');
    const screen = new OrdersScreen(page);
    await screen.rows().first().waitFor();
    const before = await screen.expectCountOf('pageSize=50');
    const countBefore = await screen.count().innerText();
    const tabsBefore = await screen.tabs().allInnerTexts();
    const rowsBefore = await shownRowKeys(screen);

    // The answer to the new filter is held back until the test lets it go.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked = false;
    await page.route(
      (url) => url.pathname === '/api/orders' && url.searchParams.get('status') === 'unmatched',
      async (route) => {
        asked = true;
        await held;
        await route.continue();
      },
    );
    await screen.status().selectOption({ label: 'Unmatched' });
    await page.waitForFunction(() => document.querySelector('[data-testid="order-list"][data-stale]') !== null);
    expect(asked).toBe(true);
    // Meanwhile: the old rows, dimmed and busy, the old count and tabs; no "Loading orders..." in their place.
    const list = page.getByTestId('order-list');
    expect(await list.getAttribute('aria-busy')).toBe('true');
    await page.waitForFunction(
      () => Number(getComputedStyle(document.querySelector('[data-testid="order-list"]')!).opacity) <= 0.5,
    );
    expect(await shownRowKeys(screen)).toEqual(rowsBefore);
    expect(await screen.count().innerText()).toBe(countBefore);
    expect(await screen.tabs().allInnerTexts()).toEqual(tabsBefore);
    expect(await page.getByTestId('list-loading').count()).toBe(0);
    await screenshot(page, 'orders-loading-new-filter');

    release();
    await page.waitForFunction(() => document.querySelector('[data-testid="order-list"][data-stale]') === null);
    const after = await ordersPage(page, 'status=unmatched&pageSize=50');
    expect(after.filteredTotal).not.toBe(before.filteredTotal);
    expect(await screen.count().innerText()).toBe(
      `Showing ${after.filteredTotal.toLocaleString('en-US')} of ${after.total.toLocaleString('en-US')} orders`,
    );
    expect(await screen.tabs().allInnerTexts()).toEqual([
      `All Orders (${after.tabCounts.all.toLocaleString('en-US')})`,
      `Etsy (${after.tabCounts.etsy.toLocaleString('en-US')})`,
      `Printify (${after.tabCounts.printify.toLocaleString('en-US')})`,
    ]);
    expect(await shownRowKeys(screen)).toEqual(after.orders.map(rowKey));
    expect(await list.getAttribute('aria-busy')).toBe('false');
  });
});

describe('Truncated ids', () => {
  it('a Printify id cut at 1280 px shows in full in a tooltip, on hover and from the keyboard', async () => {
    const page = await open('/orders');
    const screen = new OrdersScreen(page);
    await screen.rows().first().waitFor();
    const id = screen.table().locator('[data-testid="printify-id"][data-truncated]').first();
    await id.waitFor();
    const full = (await id.textContent()) ?? '';
    expect(full.length).toBeGreaterThan(10);
    expect(await id.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
    await id.hover();
    const tooltip = page.getByRole('tooltip');
    await expectText(tooltip, full);
    await page.mouse.move(0, 0);
    await tooltip.waitFor({ state: 'hidden' });
    await id.focus();
    expect(await id.evaluate((element) => element === document.activeElement)).toBe(true);
    await expectText(tooltip, full);
    await screenshot(page, 'orders-id-tooltip');
    for (const viewport of ['desktop', 'mobile'] as const) {
      const matching = await open('/matching', viewport);
      await matching
        .getByTestId('matching-count')
        .getByText(/orders found$/)
        .waitFor();
      await screenshot(matching, 'matching');
    }
  });
});

describe('A new account without a shop', () => {
  it('Orders and Order Matching say no shop is connected yet and lead to Connections', async () => {
    const page = await e2e.open();
    await signUpThroughUi(page, newTestUser('lists'));
    for (const [path, testId] of [
      ['/orders', 'orders-empty'],
      ['/matching', 'matching-empty'],
    ] as const) {
      await gotoApp(page, path);
      const empty = page.getByTestId(testId);
      await empty.getByText('No shop connected yet', { exact: true }).waitFor();
      expect(await empty.innerText()).not.toContain('No orders match your current filters');
      await screenshot(page, `no-shop${path.replace('/', '-')}`);
    }
    const mobile = await e2e.open('mobile');
    await mobile.context().addCookies(await page.context().cookies());
    await gotoApp(mobile, '/orders');
    await mobile.getByTestId('orders-empty').getByText('No shop connected yet', { exact: true }).waitFor();
    await screenshot(mobile, 'no-shop-orders');
    await page.getByTestId('matching-empty').getByRole('link', { name: 'Go to Connections' }).click();
    await expectPath(page, '/connections');
  });
});
