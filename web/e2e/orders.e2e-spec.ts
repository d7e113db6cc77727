import type { Page } from 'playwright-core';
import type { OrderRowView } from '@pod/contracts';
import { latestTargetDayOnOrBefore } from '@pod/domain';
import { queryDatabase, refreshDashboardRollup } from '@pod/testing';
import type { ViewportName } from './support/browser';
import { expectContains, expectHidden, expectText } from './support/expect';
import { setupE2E } from './support/harness';
import {
  demoAccount,
  chooseDisplayCurrency,
  dashboardMetrics,
  expectToast,
  money,
  openSignedIn,
  orderDetails,
  ordersPage,
  OrdersScreen,
  matchingPage,
  MatchingScreen,
  rowOf,
  scrollsSideways,
  untilComputed,
  widthsOf,
} from './support/orders';
import { screenshot } from './support/screenshots';
import { SyncCard } from './support/sync';

// The Dashboard's figures and the Orders screen against the real stack: "Try the demo", the
// sync workers bring in the sandbox seller's months of orders, the fx-rate worker loads the
// sandbox's ECB history, the matcher matches and figures them. One demo account serves the
// file (making one takes a while); each test opens it in fresh contexts and changes orders
// the others do not look at. Expected figures are the API's answers at the time.
// The daily rate loads are off: the provisional-figures test removes the latest ECB days and
// decides itself when they come back.
const e2e = setupE2E({
  sandbox: true,
  workers: ['etsy-sync', 'printify-sync', 'matcher', 'fx-rate'],
  env: () => ({ FX_RATES_CRON: 'off' }),
});

let account: Awaited<ReturnType<typeof demoAccount>>;
beforeAll(async () => {
  account = await demoAccount(await e2e.open());
  await enoughUnmatched(await open('/'));
}, 180_000);

/**
 * Issue 17: the demo's unmatched orders are only those that need the seller (its reprints sit on
 * their receipts, its digital sales need nothing), about ten in a year. The Dashboard's preview,
 * its "View All" link and the Printify-only unmatched rows need more, some older than a week:
 * the seller unmatches a few older automatic pairs first (each leaves an unmatched receipt and an
 * unmatched Printify order, as a wrong match the seller undid would).
 */
async function enoughUnmatched(page: Page) {
  const DAY = 86_400_000;
  const origin = new URL(page.url()).origin;
  for (let step = 0; step < 40; step += 1) {
    const year = await ordersPage(page, 'status=unmatched&days=365&pageSize=1&currency=USD');
    if (year.filteredTotal >= 14) break;
    const matched = await ordersPage(page, 'status=matched&days=90&pageSize=100&currency=USD');
    const age = (row: OrderRowView) => Date.now() - Date.parse(row.orderDate ?? '');
    const older = matched.orders.find((row) => row.matchMethod === 'exact' && age(row) > 10 * DAY);
    if (!older) throw new Error('the demo has no automatic pair older than ten days to unmatch');
    const response = await page.request.post(`/api/orders/${older.id}/unmatch`, { headers: { origin } });
    // The profit run the last unmatch queued may hold the orders past the edit's short wait on a busy machine.
    if (response.status() === 409 && (await response.text()).includes('matching_in_progress')) {
      await page.waitForTimeout(1_000);
      continue;
    }
    if (response.status() !== 200) throw new Error(`unmatch answered ${response.status()}: ${await response.text()}`);
  }
  await untilComputed(page);
}

const open = (path: string, viewport: ViewportName = 'desktop') =>
  openSignedIn(() => e2e.open(viewport), account, path);
const tabLabels = (counts: Record<'all' | 'etsy' | 'printify', number>) => [
  `All Orders (${counts.all.toLocaleString('en-US')})`,
  `Etsy (${counts.etsy.toLocaleString('en-US')})`,
  `Printify (${counts.printify.toLocaleString('en-US')})`,
];
const shownDate = (page: Page, iso: string) =>
  page.evaluate(
    (value) => new Date(value).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' }),
    iso,
  );

describe('Orders', () => {
  it('filters by search, status and date, counts each source tab, says "Showing X of Y orders" and pages by 50', async () => {
    const page = await open('/orders');
    const screen = new OrdersScreen(page);
    const all = await screen.expectCountOf('currency=USD');
    expect(all.filteredTotal).toBe(all.total);
    expect(all.total).toBeGreaterThan(100); // the demo has months of orders: more than two pages
    expect(await screen.tabs().allInnerTexts()).toEqual(tabLabels(all.tabCounts));
    expect(await screen.rows().count()).toBe(50);
    expect(await screen.column(0)).toEqual(all.orders.map((order) => order.etsyReceiptId ?? '-'));
    await screenshot(page, 'orders');

    // Pages: Next, then Previous; "Page X of Y" from the filtered count.
    const pageCount = Math.ceil(all.filteredTotal / 50);
    await expectText(screen.pager().getByText(/^Page \d+ of \d+$/), `Page 1 of ${pageCount}`);
    expect(await screen.previous().isDisabled()).toBe(true);
    await screen.next().click();
    await expectText(screen.pager().getByText(/^Page \d+ of \d+$/), `Page 2 of ${pageCount}`);
    const second = await ordersPage(page, 'currency=USD&page=2');
    expect(await screen.column(0)).toEqual(second.orders.map((order) => order.etsyReceiptId ?? '-'));

    // Status: back to page 1, only unmatched rows, the count and the tabs under the filter.
    await screen.status().selectOption({ label: 'Unmatched' });
    const unmatched = await screen.expectCountOf('status=unmatched&currency=USD');
    expect(unmatched.filteredTotal).toBeLessThan(unmatched.total);
    expect(await screen.tabs().allInnerTexts()).toEqual(tabLabels(unmatched.tabCounts));
    expect(new Set(await screen.column(4))).toEqual(new Set(['Unmatched']));
    expect(
      await screen
        .pager()
        .getByText(/^Page /)
        .count(),
    ).toBe(unmatched.filteredTotal > 50 ? 1 : 0);

    // The Printify tab: Printify orders only (no Etsy side for an unmatched one).
    await screen.tab(/^Printify/).click();
    expect(await screen.tab(/^Printify/).getAttribute('aria-selected')).toBe('true');
    const unmatchedPrintify = await screen.expectCountOf('status=unmatched&source=printify&currency=USD');
    expect(unmatchedPrintify.filteredTotal).toBe(unmatched.tabCounts.printify);
    expect(new Set(await screen.column(0))).toEqual(new Set(['-']));

    // Date: the last 7 days, every status, every source.
    await screen.status().selectOption({ label: 'All Status' });
    await screen.tab(/^All Orders/).click();
    await screen.date().selectOption({ label: 'Last 7 days' });
    const week = await screen.expectCountOf('days=7&currency=USD');
    expect(week.filteredTotal).toBeGreaterThan(0);
    expect(week.filteredTotal).toBeLessThan(all.total);
    expect(await screen.column(0)).toEqual(week.orders.map((order) => order.etsyReceiptId ?? '-'));

    // Search, from page 2: a customer's name in lower case (substring, case-insensitive) goes back to page 1.
    await screen.date().selectOption({ label: 'All Time' });
    await screen.expectCountOf('currency=USD');
    await screen.next().click();
    await expectText(screen.pager().getByText(/^Page \d+ of \d+$/), `Page 2 of ${pageCount}`);
    const customer = all.orders.find((order) => order.customerName)?.customerName ?? '';
    const needle = customer.split(' ').pop()?.toLowerCase() ?? '';
    await screen.search().fill(needle);
    const found = await screen.expectCountOf(`search=${encodeURIComponent(needle)}&currency=USD`);
    expect(found.orders.some((order) => order.customerName === customer)).toBe(true);
    expect(await screen.previous().isDisabled()).toBe(true);

    // A receipt id: that one order.
    const receipt = all.orders.find((order) => order.etsyReceiptId)?.etsyReceiptId ?? '';
    await screen.search().fill(receipt);
    expect((await screen.expectCountOf(`search=${receipt}&currency=USD`)).filteredTotal).toBe(1);
    expect(await screen.column(0)).toEqual([receipt]);

    // Nothing found.
    await screen.search().fill('no-such-order-anywhere');
    await expectText(screen.empty().getByText('No orders found'), 'No orders found');
    await screen.empty().getByText('No orders match your current filters.').waitFor();
    expect((await screen.expectCountOf('search=no-such-order-anywhere&currency=USD')).filteredTotal).toBe(0);
  });

  it('Order Details: both columns, every Profit Summary line with where it comes from, the rates used; Unmatch splits the pair', async () => {
    const page = await open('/orders');
    const screen = new OrdersScreen(page);
    // An automatic match whose figures are known and hold an estimated fee.
    const matched = await ordersPage(page, 'status=matched&pageSize=100&currency=USD');
    const order = matched.orders.find(
      (row) =>
        row.matchMethod === 'exact' && row.figures === 'ok' && row.hasEstimatedFees && (row.revenue?.minor ?? 0) > 0,
    );
    if (!order?.etsyReceiptId) throw new Error('the demo has no exact match with an estimated fee on its first page');
    const details = await orderDetails(page, order.id);
    const { etsy, printify, profit } = details;
    if (!etsy || !printify || !profit) throw new Error(`order ${order.id} is not a figured pair`);

    await screen.search().fill(order.etsyReceiptId);
    expect((await screen.expectCountOf(`search=${order.etsyReceiptId}&currency=USD`)).filteredTotal).toBe(1);
    await screen
      .rows()
      .first()
      .getByRole('button', { name: /^View Details/ })
      .click();
    const dialog = screen.details();
    await dialog.waitFor();
    await expectText(dialog.getByText('Auto', { exact: true }).first(), 'Auto');

    const field = async (column: string, label: string) => {
      const row = dialog
        .getByRole('heading', { name: column })
        .locator('..')
        .locator('dl > div')
        .filter({ has: page.getByText(label, { exact: true }) });
      return (await row.locator('dd').innerText()).trim();
    };
    expect(await field('Etsy order', 'Receipt ID')).toBe(etsy.receiptId);
    expect(await field('Etsy order', 'Customer')).toBe(etsy.customerName);
    expect(await field('Etsy order', 'Order date')).toBe(await shownDate(page, etsy.orderDate));
    expect(await field('Etsy order', 'Revenue')).toBe(money(etsy.revenue));
    expect(await field('Etsy order', 'Buyer paid (original)')).toBe(
      `${money(etsy.originalTotal)} ${etsy.originalTotal.currency}`,
    );
    expect(await field('Printify order', 'Order ID')).toBe(printify.orderId);
    expect(await field('Printify order', 'External ID')).toBe(etsy.receiptId);
    expect(await field('Printify order', 'Production cost')).toBe(money(printify.productionCost));
    expect(await field('Printify order', 'Shipping cost')).toBe(money(printify.shippingCost));
    expect(await field('Printify order', 'Total cost')).toBe(money(printify.totalCost));

    // Every line: its label, amount, where it comes from and, for an estimate, the mark.
    const summary = dialog.getByTestId('profit-summary');
    const SOURCE = {
      receipt: 'From the Etsy receipt',
      payment: 'From the Etsy payment',
      ledger: 'From the Etsy ledger',
      printify: 'From Printify',
      estimate: 'Estimated from the fee schedule',
    };
    const shown = await summary
      .locator('li')
      .evaluateAll((items) => items.map((item) => (item as HTMLElement).innerText.replace(/\s+/g, ' ').trim()));
    // A deduction (sign −1: a discount, a refund) reads with a minus, here and in the original currency.
    const counted = <T extends { minor: number } | null>(sign: 1 | -1, value: T): T =>
      value && { ...value, minor: sign * value.minor };
    const expected = [...profit.revenueLines, ...profit.costLines].map((line) => {
      const original =
        line.amount?.currency === line.original.currency
          ? ''
          : ` · Original: ${money(counted(line.sign, line.original))} ${line.original.currency}`;
      return `${line.label}${line.estimated ? ' estimated' : ''} ${SOURCE[line.source]}${original} ${money(counted(line.sign, line.amount))}`;
    });
    expect(shown).toEqual(expected);
    // No two lines read the same (an estimate's parts, a fee in two currencies are named apart).
    const labels = [...profit.revenueLines, ...profit.costLines].map((line) => line.label);
    expect(new Set(labels).size).toBe(labels.length);
    expect(profit.costLines.some((line) => line.estimated && line.source === 'estimate')).toBe(true);
    expect(profit.costLines.some((line) => line.source === 'printify')).toBe(true);
    const total = async (label: string) =>
      (
        await summary
          .locator('dl > div')
          .filter({ has: page.getByText(label, { exact: true }) })
          .locator('dd')
          .innerText()
      ).trim();
    expect(await total('Total Revenue')).toBe(money(profit.totalRevenue));
    expect(await total('Total Costs')).toBe(money(profit.totalCosts));
    expect(await total('Net Profit')).toBe(money(profit.netProfit));
    expect(await total('Profit Margin')).toBe(`${profit.marginPercent?.toFixed(1)}%`);
    expect(await total('Match Method')).toBe('Automatic (exact) · 100% confidence');
    // A shop selling in another currency than the display one (each demo seller has its own):
    // the rate of the order's ECB day, shown to the seller; none for a USD shop.
    const foreign = etsy.originalTotal.currency !== 'USD';
    expect(profit.ratesUsed.length > 0).toBe(foreign);
    expect(await summary.getByTestId('rates-used').count()).toBe(foreign ? 1 : 0);
    if (foreign) {
      const rates = await summary.getByTestId('rates-used').innerText();
      for (const rate of profit.ratesUsed)
        expect(rates).toContain(`1 ${rate.from} = ${rate.rate} ${rate.to} on ${rate.date}`);
    }
    await screenshot(page, 'order-details');

    // Unmatch, confirmed (issue 18): a toast, the dialog closes, the receipt's row reads Unmatched (the matcher keeps the pair apart).
    await dialog.getByRole('button', { name: 'Unmatch' }).click();
    await page
      .getByRole('alertdialog', { name: 'Unmatch this order?' })
      .getByRole('button', { name: 'Unmatch' })
      .click();
    await expectToast(page, 'Success', 'Orders unmatched');
    await dialog.waitFor({ state: 'hidden' });
    await expectText(screen.rows().first().locator('td').nth(4), 'Unmatched');
    await untilComputed(page);
    const after = await ordersPage(page, `search=${order.etsyReceiptId}&currency=USD`);
    expect(after.orders.map((row) => [row.status, row.printifyOrderId])).toEqual([['unmatched', null]]);
    const lonePrintify = await ordersPage(page, `search=${printify.orderId}&currency=USD`);
    expect(lonePrintify.orders.map((row) => row.status)).toEqual(['unmatched']);
  });

  it('archives from the Dashboard’s Unmatched Orders and restores from the archived view', async () => {
    const page = await open('/');
    const card = page.getByTestId('unmatched-orders');
    // Over the last year: the demo has more than ten unmatched orders there, so "View All" shows.
    await page.getByRole('combobox', { name: 'Date range' }).selectOption({ label: 'Last year' });
    const before = await ordersPage(page, 'status=unmatched&days=365&pageSize=10&currency=USD');
    await expectText(card.getByRole('heading', { level: 2 }), `Unmatched Orders (${before.filteredTotal})`);
    expect(await card.locator('tbody tr').count()).toBe(Math.min(10, before.filteredTotal));
    if (before.filteredTotal > 10)
      await expectText(
        card.getByRole('link', { name: /^View All/ }),
        `View All ${before.filteredTotal} Unmatched Orders`,
      );

    // The preview lists the API's first ten in its order (it shows no ids): archive the first.
    const target: OrderRowView = before.orders[0];
    const firstRow = card.locator('tbody tr').first();
    await firstRow.getByText(target.productTitle ?? 'Unknown Product', { exact: true }).waitFor();
    await firstRow.getByRole('button', { name: /^Archive / }).click();
    await expectToast(page, 'Success', 'Order archived');
    await expectText(card.getByRole('heading', { level: 2 }), `Unmatched Orders (${before.filteredTotal - 1})`);
    const left = await ordersPage(page, 'status=unmatched&days=365&pageSize=10&currency=USD');
    expect(left.orders.map((row) => row.id)).not.toContain(target.id);
    // Archived stays archived: the profit run the change queued does not bring the order back as a new record.
    await untilComputed(page);
    const targetId = target.etsyReceiptId ?? target.printifyOrderId ?? '';
    expect(
      (await ordersPage(page, `search=${targetId}&currency=USD`)).orders.map((row) => [row.id, row.status]),
    ).toEqual([]);
    expect(
      (await ordersPage(page, `search=${targetId}&view=archived&currency=USD`)).orders.map((row) => row.id),
    ).toEqual([target.id]);

    // Orders → Archived orders: the order with Restore; restoring brings it back to the active list.
    // "View All … Unmatched Orders" opens the Orders list on the unmatched orders it counts.
    await page.getByRole('link', { name: `View All ${before.filteredTotal - 1} Unmatched Orders` }).click();
    const screen = new OrdersScreen(page);
    await screen.expectCountOf('status=unmatched&days=365&currency=USD');
    expect(await screen.status().inputValue()).toBe('unmatched');
    await screen.view().selectOption({ label: 'Archived orders' });
    await page.getByText('Archived orders: restore one to count it again.').waitFor();
    const archived = await screen.expectCountOf('status=unmatched&days=365&view=archived&currency=USD');
    expect(archived.orders.map((row) => row.id)).toContain(target.id);
    const archivedRow = rowOf(screen.rows(), target);
    await archivedRow.getByRole('button', { name: /^Restore / }).click();
    await expectToast(page, 'Success', 'Order restored');
    await expectText(screen.empty().getByText('No orders found'), 'No orders found');
    await screen.view().selectOption({ label: 'Active orders' });
    const active = await screen.expectCountOf('status=unmatched&days=365&currency=USD');
    expect(active.orders.map((row) => row.id)).toContain(target.id);
    await untilComputed(page);
    const restored = await ordersPage(page, `search=${target.etsyReceiptId ?? target.printifyOrderId}&currency=USD`);
    expect(restored.orders.map((row) => [row.id, row.archived])).toEqual([[target.id, false]]);
  });
});

describe('Dashboard figures', () => {
  it('shows the range’s totals and counters, follows the date range and the display currency, and Match Orders says so', async () => {
    const page = await open('/');
    const cards = page.getByTestId('metric-cards');
    const card = new SyncCard(page);
    const values = async () => (await cards.locator('p:nth-child(2)').allInnerTexts()).map((text) => text.trim());
    const expectFigures = async (days: number, currency: string) => {
      const metrics = await dashboardMetrics(page, days, currency);
      const wanted = [
        money(metrics.totalRevenue),
        money(metrics.totalCosts),
        money(metrics.netProfit),
        `${metrics.profitMargin?.toFixed(1)}%`,
      ];
      await expectText(cards.locator('p:nth-child(2)').first(), wanted[0]);
      expect(await values()).toEqual(wanted);
      expect(await card.counterValues()).toEqual([
        ['Matched', metrics.matchedOrders.toLocaleString('en-US')],
        ['Unmatched', metrics.unmatchedOrders.toLocaleString('en-US')],
        ['Pending', metrics.pendingOrders.toLocaleString('en-US')],
        ['Profit Margin', `${metrics.profitMargin?.toFixed(0)}%`],
      ]);
      return metrics;
    };
    const range = page.getByRole('combobox', { name: 'Date range' });
    expect(await range.inputValue()).toBe('30');
    const month = await expectFigures(30, 'USD');
    // Plausible for print on demand: a positive margin under half the revenue, every order converted.
    expect(month.netProfit.minor).toBeGreaterThan(0);
    expect(month.profitMargin).toBeGreaterThan(0);
    expect(month.profitMargin).toBeLessThan(50);
    await screenshot(page, 'dashboard');

    await range.selectOption({ label: 'Last 7 days' });
    const week = await expectFigures(7, 'USD');
    expect(week.totalRevenue.minor).toBeLessThan(month.totalRevenue.minor);
    await range.selectOption({ label: 'Last year' });
    const year = await expectFigures(365, 'USD');
    expect(year.matchedOrders).toBeGreaterThan(month.matchedOrders);

    // The display currency (on the account and in local storage): every figure in EUR.
    await chooseDisplayCurrency(page, 'EUR');
    await page.reload();
    await expectFigures(30, 'EUR');
    expect(await values()).toEqual(expect.arrayContaining([expect.stringMatching(/^€/)]));
    await page.goto('/orders');
    const screen = new OrdersScreen(page);
    const euro = await ordersPage(page, 'currency=EUR');
    const firstFigured = euro.orders.findIndex((order) => order.figures === 'ok' && order.revenue);
    await expectText(screen.rows().nth(firstFigured).locator('td').nth(5), money(euro.orders[firstFigured].revenue));

    // Match Orders from the dashboard: the run is queued and the toast says so.
    await page.goto('/');
    await card.matchOrders().click();
    await expectToast(page, 'Success', 'Order matching completed');
    await untilComputed(page);
    // The currency is the account's: the file's next tests read USD again.
    await chooseDisplayCurrency(page, 'USD');
  });
});

describe('Dashboard: Unmatched Orders over the chosen range', () => {
  it('counts what the "Unmatched" counter counts for each range, and View All opens Orders on those orders', async () => {
    const page = await open('/');
    const card = page.getByTestId('unmatched-orders');
    const unmatchedCounter = new SyncCard(page).counters().locator('dd').nth(1);
    const range = page.getByRole('combobox', { name: 'Date range' });
    const ranges: Array<[number, string]> = [
      [7, 'Last 7 days'],
      [30, 'Last 30 days'],
      [90, 'Last 90 days'],
      [365, 'Last year'],
    ];
    const counted = new Map<number, number>();
    for (const [days, label] of ranges) {
      await range.selectOption({ label });
      const metrics = await dashboardMetrics(page, days);
      const list = await ordersPage(page, `status=unmatched&days=${days}&pageSize=10&currency=USD`);
      expect([days, list.filteredTotal]).toEqual([days, metrics.unmatchedOrders]);
      await expectText(unmatchedCounter, metrics.unmatchedOrders.toLocaleString('en-US'));
      await expectText(card.getByRole('heading', { level: 2 }), `Unmatched Orders (${metrics.unmatchedOrders})`);
      expect(await card.locator('tbody tr').count()).toBe(Math.min(10, list.filteredTotal));
      const viewAll = card.getByRole('link', { name: /^View All/ });
      if (metrics.unmatchedOrders > 10) {
        await expectText(viewAll, `View All ${metrics.unmatchedOrders} Unmatched Orders`);
        expect(await viewAll.getAttribute('href')).toBe(`/orders?status=unmatched&days=${days}`);
      } else {
        expect(await viewAll.count()).toBe(0);
      }
      counted.set(days, metrics.unmatchedOrders);
    }
    // The demo's months of orders: the year holds more unmatched orders than the week, and more than ten.
    expect(counted.get(365)).toBeGreaterThan(Math.max(10, counted.get(7) ?? 0));

    // "Last year" is still chosen: View All opens Orders on the same unmatched orders of the last year.
    await card.getByRole('link', { name: /^View All/ }).click();
    const screen = new OrdersScreen(page);
    const shown = await screen.expectCountOf('status=unmatched&days=365&currency=USD');
    expect(shown.filteredTotal).toBe(counted.get(365));
    expect(await screen.status().inputValue()).toBe('unmatched');
    expect(await screen.date().inputValue()).toBe('365');
    expect(await screen.date().locator('option:checked').innerText()).toBe('Last year');
    expect(new Set(await screen.column(4))).toEqual(new Set(['Unmatched']));
    // The spec's windows, and the Dashboard's "Last year" this page was opened on.
    expect(await screen.date().locator('option').allInnerTexts()).toEqual([
      'All Time',
      'Last 7 days',
      'Last 30 days',
      'Last 90 days',
      'Last year',
    ]);
    await screen.date().selectOption({ label: 'Last 90 days' });
    expect((await screen.expectCountOf('status=unmatched&days=90&currency=USD')).filteredTotal).toBe(counted.get(90));
  });

  it('opens Orders on the spec’s date windows alone when not sent by "Last year"', async () => {
    const page = await open('/orders?status=unmatched&days=30');
    const screen = new OrdersScreen(page);
    await screen.expectCountOf('status=unmatched&days=30&currency=USD');
    expect(await screen.date().inputValue()).toBe('30');
    expect(await screen.date().locator('option').allInnerTexts()).toEqual([
      'All Time',
      'Last 7 days',
      'Last 30 days',
      'Last 90 days',
    ]);
  });
});

describe('the order screens at 1280, 1024 and 390 px', () => {
  it('keeps every table’s actions in view at 1280 px, without scrolling sideways', async () => {
    const page = await open('/');
    const unmatched = page.getByTestId('unmatched-orders');
    await unmatched.locator('tbody tr').first().waitFor();
    const width = page.viewportSize()?.width ?? 0;
    const inView = async (button: ReturnType<Page['getByRole']>) => {
      const box = await button.boundingBox();
      return box !== null && box.x >= 0 && box.x + box.width <= width;
    };
    expect(await scrollsSideways(unmatched.locator('table').locator('..'))).toBe(false);
    expect(
      await inView(
        unmatched
          .locator('tbody tr')
          .first()
          .getByRole('button', { name: /^Archive / }),
      ),
    ).toBe(true);

    await page.goto('/orders');
    const screen = new OrdersScreen(page);
    await screen.rows().first().waitFor();
    expect(await scrollsSideways(screen.table().locator('..'))).toBe(false);
    expect(
      await inView(
        screen
          .rows()
          .first()
          .getByRole('button', { name: /^View Details/ }),
      ),
    ).toBe(true);

    await page.goto('/matching');
    const table = page.getByTestId('matching-table');
    await table.locator('tbody tr').first().waitFor();
    expect(await scrollsSideways(table.locator('..'))).toBe(false);
  });

  it('fits the Dashboard’s figures and every column of the Dashboard, Orders and Order Matching tables at 1024 px beside the sidebar: no horizontal scrollbar', async () => {
    const page = await open('/', 'laptop');
    // The table's frame (Table.ScrollArea): its scrollWidth ≤ clientWidth means no horizontal scrollbar.
    const fits = async (table: ReturnType<Page['getByTestId']>, where: string) => {
      await table.locator('tbody tr').first().waitFor();
      const { scrollWidth, clientWidth } = await widthsOf(table.locator('..'));
      expect([where, scrollWidth <= clientWidth, `${scrollWidth} of ${clientWidth} px`]).toEqual([
        where,
        true,
        `${scrollWidth} of ${clientWidth} px`,
      ]);
    };
    // Every figure and quick link on one line (four metric cards and the side column in a third of the width broke them).
    const lines = (locator: ReturnType<Page['locator']>) =>
      locator.evaluateAll((elements) =>
        elements.map((element) => {
          const range = document.createRange();
          range.selectNodeContents(element);
          return `${element.textContent}: ${new Set(Array.from(range.getClientRects()).map((rect) => Math.round(rect.top))).size}`;
        }),
      );
    const figures = page.getByTestId('metric-cards').locator('p:nth-child(2)');
    await figures.first().waitFor();
    const quickLinks = page.locator('main').getByText(/^(All Orders|Connections|Settings)$/);
    for (const shown of [...(await lines(figures)), ...(await lines(quickLinks))]) expect(shown).toMatch(/: 1$/);
    expect(await quickLinks.count()).toBe(3);

    // The preview over the last year: ten rows with Match and Archive.
    await page.getByRole('combobox', { name: 'Date range' }).selectOption({ label: 'Last year' });
    const preview = page.getByTestId('unmatched-orders').locator('table');
    await fits(preview, 'dashboard');
    expect(await preview.locator('tbody tr').count()).toBe(10);
    await screenshot(page, 'dashboard');

    // Orders: every order, then the unmatched ones (the widest badge) and the archived view (Restore beside View Details).
    await page.goto('/orders');
    const screen = new OrdersScreen(page);
    await fits(screen.table(), 'orders');
    await screenshot(page, 'orders');
    await screen.status().selectOption({ label: 'Unmatched' });
    await screen.expectCountOf('status=unmatched&currency=USD');
    await fits(screen.table(), 'orders, unmatched');
    // Both ids stay readable: the Printify ID sits under the Etsy ID below 1280 px.
    const all = await ordersPage(page, 'status=unmatched&currency=USD');
    const lonePrintify = all.orders.findIndex((order) => order.printifyOrderId && !order.etsyReceiptId);
    if (lonePrintify >= 0)
      expect(
        await screen
          .rows()
          .nth(lonePrintify)
          .locator('td')
          .first()
          .getByText(all.orders[lonePrintify].printifyOrderId ?? '', { exact: true })
          .isVisible(),
      ).toBe(true);

    // Order Matching: this month, then its unmatched orders with their Match buttons.
    await page.goto('/matching');
    const matching = new MatchingScreen(page);
    await fits(matching.table(), 'matching');
    await screenshot(page, 'matching');
    await matching.status().selectOption({ label: 'Unmatched' });
    const month = await matching.month().inputValue();
    const lone = await matchingPage(page, `month=${month}&status=unmatched&currency=USD`);
    await expectText(matching.found(), `${lone.total} orders found`);
    if (lone.total > 0) await fits(matching.table(), 'matching, unmatched');

    // The demo's rows change with the day; the widest values any seller can have must fit too: every
    // status and source, five-digit amounts, a negative profit, est. fees, provisional, a long name.
    const widest = (orders: OrderRowView[]): OrderRowView[] =>
      orders.map((order, index) => {
        const money = (minor: number) => ({ minor, currency: 'USD' });
        const status = (['unmatched', 'matched', 'pending'] as const)[index % 3];
        return {
          ...order,
          status,
          source: status === 'matched' ? 'etsy_printify' : index % 2 ? 'printify' : 'etsy',
          customerName: 'Maximiliane Oppenheimer-Wolkenstein',
          figures: 'provisional',
          revenue: money(1_234_567),
          cost: money(2_345_678),
          profit: money(-1_111_111),
          hasEstimatedFees: true,
        };
      });
    for (const path of ['/api/orders', '/api/matching/orders']) {
      await page.route(
        (url) => url.pathname === path,
        async (route) => {
          const answer = await route.fetch();
          const body = await answer.json();
          await route.fulfill({ response: answer, json: { ...body, orders: widest(body.orders) } });
        },
      );
    }
    await page.goto('/matching');
    await fits(matching.table(), 'matching, widest values');
    await screenshot(page, 'matching-widest');
    await page.goto('/orders');
    await fits(screen.table(), 'orders, widest values');
    await page.goto('/');
    await page.getByRole('combobox', { name: 'Date range' }).selectOption({ label: 'Last year' });
    await fits(page.getByTestId('unmatched-orders').locator('table'), 'dashboard, widest values');
  });

  it('shows the Dashboard, Orders and Order Details as cards on a phone', async () => {
    const page = await open('/', 'mobile');
    const cards = page.getByTestId('unmatched-cards');
    await cards.locator('li').first().waitFor();
    expect(
      await cards
        .locator('li')
        .first()
        .getByRole('button', { name: /^Archive / })
        .isVisible(),
    ).toBe(true);
    await screenshot(page, 'dashboard');

    await page.goto('/orders');
    const all = await ordersPage(page, 'currency=USD');
    const first = page.getByTestId('orders-cards').locator('li').first();
    await first.waitFor();
    await first.getByText(all.orders[0].productTitle ?? 'Unknown Product').waitFor();
    await screenshot(page, 'orders');
    await first.getByRole('button', { name: /^View Details/ }).click();
    const dialog = new OrdersScreen(page).details();
    // Issue 18: the sides the order has (a one-sided order shows one, and a line for the other).
    if (all.orders[0].etsyReceiptId) await dialog.getByRole('heading', { name: 'Etsy order' }).waitFor();
    if (all.orders[0].printifyOrderId) await dialog.getByRole('heading', { name: 'Printify order' }).waitFor();
    await screenshot(page, 'order-details');
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await dialog.waitFor({ state: 'hidden' });
  });
});

describe('provisional figures and fee lines', () => {
  const DAY_MS = 86_400_000;
  const shownDay = (iso: string) =>
    new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-US', {
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      timeZone: 'UTC',
    });
  const ordersText = (count: number) => `${count} ${count === 1 ? 'order' : 'orders'}`;
  const startMatchRun = async (page: Page) => {
    const started = await page.request.post('/api/orders/match', {
      headers: { origin: e2e.baseUrl, 'sec-fetch-site': 'same-origin' },
    });
    expect(started.status()).toBe(202);
  };

  it('shows figures converted before their ECB day is loaded as provisional, says on the Dashboard what its totals hold, and reads an estimated processing fee as two lines', async () => {
    const databaseUrl = e2e.databaseUrl;
    if (!databaseUrl) throw new Error('this test needs the stack’s database');
    const page = await open('/');
    await chooseDisplayCurrency(page, 'GBP');
    // The ECB days after `loaded` are not loaded yet: the last few days' orders wait for their rates.
    const loaded = latestTargetDayOnOrBefore(new Date(Date.now() - 3 * DAY_MS).toISOString().slice(0, 10));
    const older = await ordersPage(page, 'status=matched&pageSize=100&currency=GBP');
    const feeOrder = older.orders.find(
      (row) => row.etsyReceiptId && row.orderDate && row.orderDate.slice(0, 10) < loaded && row.figures === 'ok',
    );
    if (!feeOrder?.etsyReceiptId)
      throw new Error('the demo has no matched order older than the last few days on its first page');
    const [{ user_id: userId }] = await queryDatabase<{ user_id: string }>(
      databaseUrl,
      'SELECT user_id FROM order_record WHERE id = $1',
      [feeOrder.id],
    );
    const removed = await queryDatabase<Record<string, string>>(
      databaseUrl,
      `DELETE FROM fx_rate WHERE rate_date > $1 RETURNING rate_date::text AS rate_date, currency, per_eur::text AS per_eur, source, fetched_at`,
      [loaded],
    );
    expect(removed.length).toBeGreaterThan(0);
    // That order's payment and ledger entries not synced yet: its fees are estimates from the schedule.
    await queryDatabase(databaseUrl, 'DELETE FROM etsy_payment WHERE user_id = $1 AND receipt_id = $2', [
      userId,
      feeOrder.etsyReceiptId,
    ]);
    await queryDatabase(databaseUrl, 'DELETE FROM etsy_ledger_entry WHERE user_id = $1 AND receipt_id = $2', [
      userId,
      feeOrder.etsyReceiptId,
    ]);
    // Every stored figure stale (as after a sync that touched every order): the Dashboard says profit is being calculated.
    await queryDatabase(databaseUrl, `UPDATE order_profit SET record_sides = '', inputs_hash = '' WHERE user_id = $1`, [
      userId,
    ]);
    // The application's writers keep the dashboard's rollup in their transaction; this SQL is not one of them.
    await refreshDashboardRollup(databaseUrl, userId);
    await page.reload();
    const notice = page.getByTestId('totals-notice');
    const waiting = await dashboardMetrics(page, 30, 'GBP');
    expect(waiting.ordersNotComputed).toBeGreaterThan(0);
    await notice
      .getByText(`Profit for ${ordersText(waiting.ordersNotComputed)} is still being calculated.`, { exact: true })
      .waitFor();

    // The profit run, started away from this page: the notice follows by itself (the Dashboard polls while orders wait).
    await startMatchRun(page);
    await expectHidden(notice.getByText(/still being calculated/), 60_000);
    // …and so do the order lists on screen: the Unmatched Orders preview shows its figures again, without a reload.
    // The preview over the Dashboard's range (30 days by default).
    const preview = await ordersPage(page, 'status=unmatched&days=30&pageSize=10&currency=GBP');
    const figured = preview.orders.findIndex((row) => row.etsyReceiptId && row.revenue);
    if (figured < 0) throw new Error('the Unmatched Orders preview has no Etsy order with a revenue');
    await expectText(
      page.getByTestId('unmatched-orders').locator('tbody tr').nth(figured).locator('td').nth(3),
      money(preview.orders[figured].revenue),
    );
    await untilComputed(page, 60_000);
    const metrics = await dashboardMetrics(page, 30, 'GBP');
    expect(metrics.ordersProvisional).toBeGreaterThan(0);
    const inTotals = `Totals include ${ordersText(metrics.ordersProvisional)} at ${metrics.ordersProvisional === 1 ? 'a provisional exchange rate' : 'provisional exchange rates'}.`;
    // Other notes may follow (orders at an estimated Printify cost, ADR 0031).
    await expectContains(notice, inTotals);
    await expectText(page.getByTestId('metric-cards').locator('p:nth-child(2)').first(), money(metrics.totalRevenue));
    await screenshot(page, 'dashboard-provisional');

    // Orders: a provisional row says so under its profit; Order Details says which rate was used and which it waits for.
    await page.goto('/orders');
    const screen = new OrdersScreen(page);
    // One dated on a removed day (today's orders may wait for today's rates, not published before 16:00 CET).
    const lastRemoved =
      removed
        .map((rate) => rate.rate_date)
        .sort()
        .at(-1) ?? '';
    const recent = await ordersPage(page, 'status=matched&pageSize=100&currency=GBP');
    const provisional = recent.orders.find(
      (row) => row.figures === 'provisional' && row.etsyReceiptId && (row.orderDate ?? '').slice(0, 10) <= lastRemoved,
    );
    if (!provisional?.etsyReceiptId)
      throw new Error('no matched order with provisional figures dated on a removed ECB day');
    await screen.search().fill(provisional.etsyReceiptId);
    await screen.expectCountOf(`search=${provisional.etsyReceiptId}&currency=GBP`);
    const row = rowOf(screen.rows(), provisional);
    await expectText(row.locator('td').nth(7).getByText(money(provisional.profit)), money(provisional.profit));
    await expectText(row.locator('td').nth(7).getByTestId('provisional-mark'), 'provisional');
    await screenshot(page, 'orders-provisional');
    await row.getByRole('button', { name: /^View Details/ }).click();
    const dialog = screen.details();
    const details = await orderDetails(page, provisional.id, 'GBP');
    expect(details.profit?.provisional).toMatchObject({ rateDate: loaded });
    const { rateDate, awaitingRateDate } = details.profit?.provisional ?? { rateDate: '', awaitingRateDate: '' };
    const said = await dialog.getByTestId('provisional-figures').innerText();
    expect(said.startsWith(`Provisional: converted at the ECB rate of ${shownDay(rateDate)}`)).toBe(true);
    expect(said).toContain(`the rate of ${shownDay(awaitingRateDate)}`);
    expect(said).toMatch(/these figures update (then|when it is)\.$/);
    await dialog.getByText(provisional.etsyReceiptId, { exact: true }).first().waitFor();
    await expectText(
      dialog.getByTestId('profit-summary').locator('dl > div').filter({ hasText: 'Net Profit' }).locator('dd'),
      money(details.profit?.netProfit ?? null),
    );
    // The dialog may re-render under the action (its answer asked again as the figures settle).
    await retrying(() => dialog.getByTestId('provisional-figures').scrollIntoViewIfNeeded());
    await screenshot(page, 'order-details-provisional');
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await dialog.waitFor({ state: 'hidden' });

    // The order without payment or ledger data: the estimated processing fee is two lines, each named.
    await screen.search().fill(feeOrder.etsyReceiptId);
    await screen.expectCountOf(`search=${feeOrder.etsyReceiptId}&currency=GBP`);
    await rowOf(screen.rows(), feeOrder)
      .getByRole('button', { name: /^View Details/ })
      .click();
    await dialog.getByText(feeOrder.etsyReceiptId, { exact: true }).first().waitFor();
    const estimated = await orderDetails(page, feeOrder.id, 'GBP');
    const labels = estimated.profit?.costLines.map((line) => line.label) ?? [];
    expect(labels.filter((label) => label.startsWith('Payment processing fee'))).toEqual([
      expect.stringMatching(/^Payment processing fee \(\d+(\.\d+)?% of order total\)$/),
      expect.stringMatching(/^Payment processing fee \(fixed \S+\)$/),
    ]);
    expect(new Set(labels).size).toBe(labels.length);
    const summary = dialog.getByTestId('profit-summary');
    for (const label of labels) await summary.getByText(label, { exact: true }).waitFor();
    const processing = labels.find((label) => label.includes('fixed')) ?? '';
    await summary.getByText(processing, { exact: true }).scrollIntoViewIfNeeded();
    await screenshot(page, 'order-details-estimated-fees');

    // Order Matching marks them too (in the provisional order's month, which the picker may have to go back to).
    await page.goto('/matching');
    const matchingScreen = new MatchingScreen(page);
    const month = (provisional.orderDate ?? '').slice(0, 7);
    if ((await matchingScreen.month().inputValue()) !== month) await matchingScreen.month().fill(month);
    await page.getByTestId('matching-table').getByTestId('provisional-mark').first().waitFor();
    await screenshot(page, 'matching-provisional');

    // The same at 390 px.
    const phone = await open('/', 'mobile');
    await chooseDisplayCurrency(phone, 'GBP');
    await phone.reload();
    await expectContains(phone.getByTestId('totals-notice'), inTotals);
    await screenshot(phone, 'dashboard-provisional');
    await phone.goto('/orders');
    const phoneScreen = new OrdersScreen(phone);
    await phoneScreen.search().fill(provisional.etsyReceiptId);
    await phoneScreen.expectCountOf(`search=${provisional.etsyReceiptId}&currency=GBP`);
    const card = phone.getByTestId('orders-cards').locator('li').filter({ hasText: provisional.etsyReceiptId });
    await expectText(card.getByTestId('provisional-mark'), 'provisional');
    await screenshot(phone, 'orders-provisional');
    await card.getByRole('button', { name: /^View Details/ }).click();
    await phoneScreen.details().getByTestId('provisional-figures').scrollIntoViewIfNeeded();
    await screenshot(phone, 'order-details-provisional');
    await phoneScreen.details().getByRole('button', { name: 'Close' }).first().click();
    await phoneScreen.search().fill(feeOrder.etsyReceiptId);
    await phoneScreen.expectCountOf(`search=${feeOrder.etsyReceiptId}&currency=GBP`);
    await phone
      .getByTestId('orders-cards')
      .locator('li')
      .filter({ hasText: feeOrder.etsyReceiptId })
      .getByRole('button', { name: /^View Details/ })
      .click();
    await phoneScreen.details().getByText(feeOrder.etsyReceiptId, { exact: true }).first().waitFor();
    await phoneScreen
      .details()
      .getByTestId('profit-summary')
      .getByText(processing, { exact: true })
      .scrollIntoViewIfNeeded();
    await screenshot(phone, 'order-details-estimated-fees');

    // The rates arrive: the next profit run figures the provisional orders again, final now but
    // for any order waiting for a day still not published (today's), and the notice follows.
    await queryDatabase(
      databaseUrl,
      `INSERT INTO fx_rate (rate_date, currency, per_eur, source, fetched_at)
       SELECT rate_date, currency, per_eur, source, fetched_at FROM jsonb_to_recordset($1::jsonb) AS r(rate_date date, currency text, per_eur numeric, source text, fetched_at timestamptz)`,
      [JSON.stringify(removed)],
    );
    await startMatchRun(page);
    // The profit run follows the match run: wait for it, not only for the match.
    const deadline = Date.now() + 60_000;
    while ((await orderDetails(page, provisional.id, 'GBP')).profit?.figures !== 'ok') {
      if (Date.now() > deadline) throw new Error('the order is still provisional 60 s after its rates came back');
      await page.waitForTimeout(500);
    }
    await untilComputed(page, 60_000);
    expect((await orderDetails(page, provisional.id, 'GBP')).profit).toMatchObject({
      figures: 'ok',
      provisional: null,
    });
    const after = await dashboardMetrics(page, 30, 'GBP');
    expect(after).toMatchObject({ ordersWithoutRate: 0, ordersNotComputed: 0 });
    expect(after.ordersProvisional).toBeLessThan(metrics.ordersProvisional);
    const stillWaiting = await queryDatabase<{ awaiting: string }>(
      databaseUrl,
      `SELECT DISTINCT breakdown -> 'provisional' ->> 'awaitingRateDate' AS awaiting FROM order_profit WHERE user_id = $1 AND figures = 'provisional'`,
      [userId],
    );
    for (const { awaiting } of stillWaiting) expect(awaiting > lastRemoved).toBe(true);
    await page.goto('/');
    await page.getByTestId('metric-cards').waitFor();
    // The notice may hold other lines (orders at an estimated Printify cost): only its provisional one is read.
    if (after.ordersProvisional === 0)
      expect(await page.getByTestId('totals-notice').filter({ hasText: 'provisional exchange' }).count()).toBe(0);
    else
      await expectContains(
        page.getByTestId('totals-notice'),
        `Totals include ${ordersText(after.ordersProvisional)} at ${after.ordersProvisional === 1 ? 'a provisional exchange rate' : 'provisional exchange rates'}.`,
      );
    await chooseDisplayCurrency(page, 'USD');
  }, 240_000);
});

/** An action retried (up to 3 times, 300 ms apart) when its element is replaced under it by a re-render. */
async function retrying(action: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await action();
    } catch (error) {
      if (attempt === 3 || !String(error).includes('not attached')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  }
}
