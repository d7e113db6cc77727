import type { Page } from 'playwright-core';
import type { OrderRowView } from '@pod/contracts';
import { expectText } from './support/expect';
import { setupE2E } from './support/harness';
import {
  demoAccount,
  dashboardMetrics,
  expectToast,
  money,
  openSignedIn,
  orderDetails,
  ordersPage,
  OrdersScreen,
  rowOf,
  scrollsSideways,
  untilComputed,
} from './support/orders';
import { screenshot } from './support/screenshots';
import { SyncCard } from './support/sync';

// The Dashboard's figures and the Orders screen against the real stack: "Try the demo", the
// sync workers bring in the sandbox seller's months of orders, the fx-rate worker loads the
// sandbox's ECB history, the matcher matches and figures them. One demo account serves the
// file (making one takes a while); each test opens it in fresh contexts and changes orders
// the others do not look at. Expected figures are the API's answers at the time.
const e2e = setupE2E({ sandbox: true, workers: ['etsy-sync', 'printify-sync', 'matcher', 'fx-rate'] });

let account: Awaited<ReturnType<typeof demoAccount>>;
beforeAll(async () => {
  account = await demoAccount(await e2e.open());
}, 180_000);

const open = (path: string, viewport: 'desktop' | 'mobile' = 'desktop') => openSignedIn(() => e2e.open(viewport), account, path);
const tabLabels = (counts: Record<'all' | 'etsy' | 'printify', number>) => [
  `All Orders (${counts.all.toLocaleString('en-US')})`,
  `Etsy (${counts.etsy.toLocaleString('en-US')})`,
  `Printify (${counts.printify.toLocaleString('en-US')})`,
];
const shownDate = (page: Page, iso: string) => page.evaluate((value) => new Date(value).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' }), iso);

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
    expect(await screen.pager().getByText(/^Page /).count()).toBe(unmatched.filteredTotal > 50 ? 1 : 0);

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
    const order = matched.orders.find((row) => row.matchMethod === 'exact' && row.figures === 'ok' && row.hasEstimatedFees && (row.revenue?.minor ?? 0) > 0);
    if (!order?.etsyReceiptId) throw new Error('the demo has no exact match with an estimated fee on its first page');
    const details = await orderDetails(page, order.id);
    const { etsy, printify, profit } = details;
    if (!etsy || !printify || !profit) throw new Error(`order ${order.id} is not a figured pair`);

    await screen.search().fill(order.etsyReceiptId);
    expect((await screen.expectCountOf(`search=${order.etsyReceiptId}&currency=USD`)).filteredTotal).toBe(1);
    await screen.rows().first().getByRole('button', { name: /^View Details/ }).click();
    const dialog = screen.details();
    await dialog.waitFor();
    await expectText(dialog.getByText('Auto', { exact: true }).first(), 'Auto');

    const field = async (column: string, label: string) => {
      const row = dialog.getByRole('heading', { name: column }).locator('..').locator('dl > div').filter({ has: page.getByText(label, { exact: true }) });
      return (await row.locator('dd').innerText()).trim();
    };
    expect(await field('Etsy order', 'Receipt ID')).toBe(etsy.receiptId);
    expect(await field('Etsy order', 'Customer')).toBe(etsy.customerName);
    expect(await field('Etsy order', 'Order date')).toBe(await shownDate(page, etsy.orderDate));
    expect(await field('Etsy order', 'Revenue')).toBe(money(etsy.revenue));
    expect(await field('Etsy order', 'Buyer paid (original)')).toBe(`${money(etsy.originalTotal)} ${etsy.originalTotal.currency}`);
    expect(await field('Printify order', 'Order ID')).toBe(printify.orderId);
    expect(await field('Printify order', 'External ID')).toBe(etsy.receiptId);
    expect(await field('Printify order', 'Production cost')).toBe(money(printify.productionCost));
    expect(await field('Printify order', 'Shipping cost')).toBe(money(printify.shippingCost));
    expect(await field('Printify order', 'Total cost')).toBe(money(printify.totalCost));

    // Every line: its label, amount, where it comes from and, for an estimate, the mark.
    const summary = dialog.getByTestId('profit-summary');
    const SOURCE = { receipt: 'From the Etsy receipt', payment: 'From the Etsy payment', ledger: 'From the Etsy ledger', printify: 'From Printify', estimate: 'Estimated from the fee schedule' };
    const shown = await summary.locator('li').evaluateAll((items) => items.map((item) => (item as HTMLElement).innerText.replace(/\s+/g, ' ').trim()));
    const expected = [...profit.revenueLines, ...profit.costLines].map((line) => {
      const original = line.amount?.currency === line.original.currency ? '' : ` · Original: ${money(line.original)} ${line.original.currency}`;
      return `${line.label}${line.estimated ? ' estimated' : ''} ${SOURCE[line.source]}${original} ${money(line.amount)}`;
    });
    expect(shown).toEqual(expected);
    expect(profit.costLines.some((line) => line.estimated && line.source === 'estimate')).toBe(true);
    expect(profit.costLines.some((line) => line.source === 'printify')).toBe(true);
    const total = async (label: string) => (await summary.locator('dl > div').filter({ has: page.getByText(label, { exact: true }) }).locator('dd').innerText()).trim();
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
      for (const rate of profit.ratesUsed) expect(rates).toContain(`1 ${rate.from} = ${rate.rate} ${rate.to} on ${rate.date}`);
    }
    await screenshot(page, 'order-details');

    // Unmatch: a toast, the dialog closes, the receipt's row reads Unmatched (the matcher keeps the pair apart).
    await dialog.getByRole('button', { name: 'Unmatch' }).click();
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
    const before = await ordersPage(page, 'status=unmatched&pageSize=10&currency=USD');
    await expectText(card.getByRole('heading', { level: 2 }), `Unmatched Orders (${before.filteredTotal})`);
    expect(await card.locator('tbody tr').count()).toBe(Math.min(10, before.filteredTotal));
    if (before.filteredTotal > 10) await expectText(card.getByRole('link', { name: /^View All/ }), `View All ${before.filteredTotal} Unmatched Orders`);

    // The preview lists the API's first ten in its order (it shows no ids): archive the first.
    const target: OrderRowView = before.orders[0];
    const firstRow = card.locator('tbody tr').first();
    await firstRow.getByText(target.productTitle ?? 'Unknown Product', { exact: true }).waitFor();
    await firstRow.getByRole('button', { name: /^Archive / }).click();
    await expectToast(page, 'Success', 'Order archived');
    await expectText(card.getByRole('heading', { level: 2 }), `Unmatched Orders (${before.filteredTotal - 1})`);
    const left = await ordersPage(page, 'status=unmatched&pageSize=10&currency=USD');
    expect(left.orders.map((row) => row.id)).not.toContain(target.id);
    // Archived stays archived: the profit run the change queued does not bring the order back as a new record.
    await untilComputed(page);
    const targetId = target.etsyReceiptId ?? target.printifyOrderId ?? '';
    expect((await ordersPage(page, `search=${targetId}&currency=USD`)).orders.map((row) => [row.id, row.status])).toEqual([]);
    expect((await ordersPage(page, `search=${targetId}&view=archived&currency=USD`)).orders.map((row) => row.id)).toEqual([target.id]);

    // Orders → Archived orders: the order with Restore; restoring brings it back to the active list.
    // "View All … Unmatched Orders" opens the Orders list on the unmatched orders it counts.
    await page.getByRole('link', { name: `View All ${before.filteredTotal - 1} Unmatched Orders` }).click();
    const screen = new OrdersScreen(page);
    await screen.expectCountOf('status=unmatched&currency=USD');
    expect(await screen.status().inputValue()).toBe('unmatched');
    await screen.view().selectOption({ label: 'Archived orders' });
    await page.getByText('Archived orders: restore one to count it again.').waitFor();
    const archived = await screen.expectCountOf('status=unmatched&view=archived&currency=USD');
    expect(archived.orders.map((row) => row.id)).toContain(target.id);
    const archivedRow = rowOf(screen.rows(), target);
    await archivedRow.getByRole('button', { name: /^Restore / }).click();
    await expectToast(page, 'Success', 'Order restored');
    await expectText(screen.empty().getByText('No orders found'), 'No orders found');
    await screen.view().selectOption({ label: 'Active orders' });
    const active = await screen.expectCountOf('status=unmatched&currency=USD');
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
      const wanted = [money(metrics.totalRevenue), money(metrics.totalCosts), money(metrics.netProfit), `${metrics.profitMargin?.toFixed(1)}%`];
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

    // The display currency (preferred-currency in local storage): every figure in EUR.
    await page.evaluate(() => localStorage.setItem('preferred-currency', 'EUR'));
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
  });
});

describe('the order screens at 1280 and 390 px', () => {
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
    expect(await inView(unmatched.locator('tbody tr').first().getByRole('button', { name: /^Archive / }))).toBe(true);

    await page.goto('/orders');
    const screen = new OrdersScreen(page);
    await screen.rows().first().waitFor();
    expect(await scrollsSideways(screen.table().locator('..'))).toBe(false);
    expect(await inView(screen.rows().first().getByRole('button', { name: /^View Details/ }))).toBe(true);

    await page.goto('/matching');
    const table = page.getByTestId('matching-table');
    await table.locator('tbody tr').first().waitFor();
    expect(await scrollsSideways(table.locator('..'))).toBe(false);
  });

  it('shows the Dashboard, Orders and Order Details as cards on a phone', async () => {
    const page = await open('/', 'mobile');
    const cards = page.getByTestId('unmatched-cards');
    await cards.locator('li').first().waitFor();
    expect(await cards.locator('li').first().getByRole('button', { name: /^Archive / }).isVisible()).toBe(true);
    await screenshot(page, 'dashboard');

    await page.goto('/orders');
    const all = await ordersPage(page, 'currency=USD');
    const first = page.getByTestId('orders-cards').locator('li').first();
    await first.waitFor();
    await first.getByText(all.orders[0].productTitle ?? 'Unknown Product').waitFor();
    await screenshot(page, 'orders');
    await first.getByRole('button', { name: /^View Details/ }).click();
    const dialog = new OrdersScreen(page).details();
    await dialog.getByRole('heading', { name: 'Etsy order' }).waitFor();
    await dialog.getByRole('heading', { name: 'Printify order' }).waitFor();
    await screenshot(page, 'order-details');
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await dialog.waitFor({ state: 'hidden' });
  });
});
