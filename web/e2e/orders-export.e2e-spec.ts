import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import type { Page } from 'playwright-core';
import type { OrderRowView } from '@pod/contracts';
import type { ViewportName } from './support/browser';
import { setupE2E } from './support/harness';
import { demoAccount, expectToast, openSignedIn, ordersPage, OrdersScreen } from './support/orders';
import { screenshot } from './support/screenshots';

// Issue 19's CSV export from the Orders page: the "Export CSV" button downloads the list with
// the page's current filters, sort and currency, and the file parses back to exactly the rows
// the API lists for them; a refused export shows the error toast. One demo account (its workers
// figure its orders) serves the file.
const e2e = setupE2E({ sandbox: true, workers: ['etsy-sync', 'printify-sync', 'matcher', 'fx-rate'] });

let account: Awaited<ReturnType<typeof demoAccount>>;
beforeAll(async () => {
  account = await demoAccount(await e2e.open());
}, 180_000);

const open = (path: string, viewport: ViewportName = 'desktop') =>
  openSignedIn(() => e2e.open(viewport), account, path);

/** Every page of the list for these filters, as the API answers it. */
async function allListed(page: Page, query: string): Promise<OrderRowView[]> {
  const rows: OrderRowView[] = [];
  for (let n = 1; ; n += 1) {
    const answer = await ordersPage(page, `${query}&pageSize=100&page=${n}`);
    rows.push(...answer.orders);
    if (rows.length >= answer.filteredTotal || answer.orders.length === 0) return rows;
  }
}

const decimal = (minor: number) =>
  `${minor < 0 ? '-' : ''}${Math.trunc(Math.abs(minor) / 100)}.${String(Math.abs(minor) % 100).padStart(2, '0')}`;
const money = (value: OrderRowView['revenue']) => (value ? decimal(value.minor) : '');

type CsvRow = Record<string, string>;

const fromApi = (row: OrderRowView) => [
  row.orderDate?.slice(0, 10) ?? '',
  row.etsyReceiptId ?? '',
  [row.printifyOrderId, ...row.extraPrintifyOrders.map((extra) => extra.printifyOrderId)].filter(Boolean).join('; '),
  row.status,
  row.matchMethod ?? '',
  row.revenue?.currency ?? row.cost?.currency ?? 'USD',
  money(row.revenue),
  money(row.cost),
  money(row.profit),
  row.profitMarginPercent === null ? '' : row.profitMarginPercent.toFixed(1),
  row.figures,
  row.hasEstimatedFees ? 'yes' : 'no',
];

const fromFile = (row: CsvRow) => [
  row['Order date'],
  row['Etsy receipt ID'],
  row['Printify order IDs'],
  row.Status,
  row['Match method'],
  row['Display currency'],
  row.Revenue,
  row['Total costs'],
  row.Profit,
  row['Margin %'],
  row.Figures,
  row['Estimated fees'],
];

/**
 * The file as a spreadsheet shows it: a grid of its header and first rows, in a blank page of
 * the given width, for the screenshots a person looks at (cells as text, never as markup).
 */
async function screenshotAsTable(viewport: ViewportName, fields: string[], rows: CsvRow[]) {
  const sheet = await e2e.open(viewport);
  await sheet.setContent(
    '<!doctype html><meta name="viewport" content="width=device-width, initial-scale=1"><title>CSV</title><body></body>',
  );
  await sheet.evaluate(
    ({ header, cells }) => {
      document.body.style.cssText = 'margin:0;font:12px system-ui,sans-serif';
      const table = document.createElement('table');
      table.style.cssText = 'border-collapse:collapse;white-space:nowrap';
      for (const [index, values] of [header, ...cells].entries()) {
        const tr = table.insertRow();
        for (const value of values) {
          const cell = document.createElement(index === 0 ? 'th' : 'td');
          cell.textContent = value;
          cell.style.cssText = `border:1px solid #ccc;padding:2px 6px;${index === 0 ? 'background:#eef' : ''}${/^-?\d+(\.\d+)?$/.test(value) ? ';text-align:right' : ''}`;
          tr.append(cell);
        }
      }
      document.body.append(table);
    },
    { header: fields, cells: rows.map((row) => fields.map((field) => row[field] ?? '')) },
  );
  // What a spreadsheet's window shows of it (the whole grid is some 5,000 px wide).
  await screenshot(sheet, 'orders-export-file', { fullPage: false });
}

describe('Orders: Export CSV', () => {
  it('downloads the list with the page’s filters and sort, parsing back to exactly the API’s rows', async () => {
    const page = await open('/orders?status=matched&sort=profit&dir=asc');
    const screen = new OrdersScreen(page);
    await screen.rows().first().waitFor();
    await screen.tab(/^Etsy/).click();
    await screen.rows().first().waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^podprofit-orders-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = readFileSync((await download.path())!, 'utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const parsed = Papa.parse<CsvRow>(text.slice(1), { header: true, skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    const listed = await allListed(page, 'status=matched&source=etsy&sort=profit&dir=asc&currency=USD');
    expect(listed.length).toBeGreaterThan(1);
    expect(parsed.data.map(fromFile)).toEqual(listed.map(fromApi));
    // Matched Etsy orders: each names its products and SKUs, and the fees add up with the Printify cost.
    expect(parsed.data.every((row) => row.Products !== '' && row.Status === 'matched')).toBe(true);
    await page.getByRole('button', { name: 'Export CSV' }).waitFor();
    await screenshot(page, 'orders-export');
    // The file opened as a table: its columns and first rows, wide and on a phone.
    for (const viewport of ['desktop', 'mobile'] as const)
      await screenshotAsTable(viewport, parsed.meta.fields ?? [], parsed.data.slice(0, 25));
  }, 120_000);

  it('shows the error toast when the export is refused', async () => {
    const page = await open('/orders');
    await new OrdersScreen(page).rows().first().waitFor();
    await page.route('**/api/orders/export**', (route) =>
      route.fulfill({
        status: 429,
        contentType: 'application/json',
        headers: { 'retry-after': '5' },
        body: JSON.stringify({
          statusCode: 429,
          error: 'Too Many Requests',
          message: 'An export is already running.',
          code: 'export_in_progress',
        }),
      }),
    );
    await page.getByRole('button', { name: 'Export CSV' }).click();
    await expectToast(page, 'Error', 'An export of your orders is already running. Try again when it has finished.');
    await page.unroute('**/api/orders/export**');
    await page.route('**/api/orders/export**', (route) => route.fulfill({ status: 500, body: '' }));
    await page.getByRole('button', { name: 'Export CSV' }).click();
    await expectToast(page, 'Error', 'Failed to export orders');
  }, 60_000);

  it('has the button on a phone, reachable by keyboard', async () => {
    const page = await open('/orders', 'mobile');
    await new OrdersScreen(page)
      .count()
      .getByText(/^Showing \d/)
      .waitFor();
    const button = page.getByRole('button', { name: 'Export CSV' });
    await button.focus();
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    await screenshot(page, 'orders-export');
  }, 60_000);
});
