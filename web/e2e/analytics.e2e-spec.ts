import type { Locator, Page } from 'playwright-core';
import type { AnalyticsResponse, SyncStatusResponse } from '@pod/contracts';
import type { ViewportName } from './support/browser';
import { describeViolations, seriousAxeViolations } from './support/axe';
import { expectPath } from './support/expect';
import { setupE2E } from './support/harness';
import { apiGet, dashboardMetrics, demoAccount, expectToast, money, openSignedIn, widthsOf } from './support/orders';
import { gotoApp, Shell, signUpThroughUi } from './support/pages';
import { screenshot } from './support/screenshots';
import { newTestUser } from './support/users';

// Issue 19's Analytics page on the demo (every worker figures its orders): the headline equals
// the Dashboard's for the same range and currency, the range and the display currency change it,
// every chart draws and has its data table, axe finds nothing, and at 390 px nothing scrolls
// sideways; a new account sees where to go instead of empty charts.
const e2e = setupE2E({ sandbox: true, workers: ['etsy-sync', 'printify-sync', 'matcher', 'fx-rate'] });

let account: Awaited<ReturnType<typeof demoAccount>>;
beforeAll(async () => {
  account = await demoAccount(await e2e.open());
}, 180_000);

const open = (path: string, viewport: ViewportName = 'desktop') =>
  openSignedIn(() => e2e.open(viewport), account, path);

const CHARTS = [
  'chart-over-time',
  'chart-margin',
  'chart-status-share',
  'chart-costs',
  'chart-products-best',
  'chart-products-worst',
];

/** The figures the page should show: the Dashboard's API once the demo's figures have settled. */
async function settledMetrics(page: Page, days: number, currency: string) {
  for (let tries = 0; tries < 60; tries += 1) {
    if (!(await apiGet<SyncStatusResponse>(page, '/api/sync/status')).settling) break;
    await page.waitForTimeout(500);
  }
  return dashboardMetrics(page, days, currency);
}

/**
 * Waits until `read` (what a page shows) equals the Dashboard's totals for this range and currency;
 * the demo's fees keep arriving after its first figures (ADR 0029), so both are read again until they agree.
 */
async function expectShownAs(page: Page, read: () => Promise<string[]>, days: number, currency = 'USD') {
  const deadline = Date.now() + 30_000;
  let last: unknown = null;
  while (Date.now() < deadline) {
    const metrics = await settledMetrics(page, days, currency);
    const expected = [
      money(metrics.totalRevenue),
      money(metrics.totalCosts),
      money(metrics.netProfit),
      metrics.profitMargin === null ? '-' : `${metrics.profitMargin.toFixed(1)}%`,
    ];
    const shown = await read();
    if (JSON.stringify(shown) === JSON.stringify(expected)) return metrics;
    last = { shown, expected };
    await page.waitForTimeout(500);
  }
  expect(last).toBeNull();
}

const headlineValue = (page: Page, key: string) => page.getByTestId(`headline-${key}`).getByTestId('headline-value');

const analyticsHeadline = (page: Page) => () =>
  Promise.all(
    ['revenue', 'costs', 'net-profit', 'margin'].map(
      async (key) => (await headlineValue(page, key).textContent()) ?? '',
    ),
  );

/** The Dashboard's four metric cards' values. */
const dashboardCards = (page: Page) => async () => {
  const text = (await page.getByTestId('metric-cards').textContent()) ?? '';
  const figures = text.match(/(-?[$€£][\d,]+\.\d\d|-?[\d.]+%|-(?=$))/g) ?? [];
  return figures.slice(0, 4);
};

const rangeSelect = (page: Page) => page.getByRole('combobox', { name: 'Date range' });

async function chartDrawn(card: Locator) {
  await card.locator('svg.recharts-surface').first().waitFor();
}

describe('Analytics', () => {
  it('shows the Dashboard’s totals for the range, draws every chart with its data table, axe clean', async () => {
    const page = await open('/analytics');
    await page.getByRole('heading', { level: 1, name: 'Analytics' }).waitFor();
    await expectShownAs(page, analyticsHeadline(page), 30);
    // The Dashboard's own cards show the same figures for the same range.
    await new Shell(page).navLink('Dashboard').click();
    await page.getByTestId('metric-cards').waitFor();
    await expectShownAs(page, dashboardCards(page), 30);
    await new Shell(page).navLink('Analytics').click();
    await expectPath(page, '/analytics');
    await expectShownAs(page, analyticsHeadline(page), 30);
    const api = await apiGet<AnalyticsResponse>(page, '/api/analytics?days=30&currency=USD');

    for (const id of CHARTS) {
      const card = page.getByTestId(id);
      await card.scrollIntoViewIfNeeded();
      if ((await card.getByTestId('chart-empty').count()) > 0) continue;
      await chartDrawn(card);
      const toggle = card.getByRole('button', { name: 'Show data table' });
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      await toggle.click();
      expect(await card.getByRole('button', { name: 'Hide data table' }).getAttribute('aria-expanded')).toBe('true');
      await card.getByRole('table').waitFor();
    }
    const overTime = page.getByTestId('chart-over-time');
    expect(await overTime.getByRole('table').locator('tbody tr').count()).toBe(api.series.length);
    expect(await overTime.getByRole('img').first().getAttribute('aria-label')).toContain(money(api.current.revenue));
    const costRows = await page.getByTestId('chart-costs').getByRole('table').locator('tbody tr').allTextContents();
    expect(costRows.some((row) => row.startsWith('Printify production'))).toBe(true);
    expect(describeViolations(await seriousAxeViolations(page))).toBe(describeViolations([]));
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'analytics-desktop');
    // Hovering a day shows its three figures in the chart's tooltip.
    const surface = overTime.locator('svg.recharts-surface').first();
    const box = await surface.boundingBox();
    await page.mouse.move((box?.x ?? 0) + (box?.width ?? 0) * 0.5, (box?.y ?? 0) + (box?.height ?? 0) * 0.5);
    await overTime.getByText('Net profit', { exact: true }).nth(1).waitFor();
    await screenshot(page, 'analytics-tooltip-desktop');
  });

  it('switching the range and the display currency changes the figures, still equal to the Dashboard’s', async () => {
    const page = await open('/analytics');
    const month = await expectShownAs(page, analyticsHeadline(page), 30);
    await rangeSelect(page).selectOption('365');
    const year = await expectShownAs(page, analyticsHeadline(page), 365);
    expect(year?.totalRevenue.minor).toBeGreaterThan(month?.totalRevenue.minor ?? 0);
    await rangeSelect(page).selectOption('7');
    await expectShownAs(page, analyticsHeadline(page), 7);

    await gotoApp(page, '/settings');
    await page.getByRole('combobox', { name: 'Display currency' }).selectOption('EUR');
    await expectToast(page, 'Success', 'Currency preference updated successfully');
    await new Shell(page).navLink('Analytics').click();
    await expectShownAs(page, analyticsHeadline(page), 30, 'EUR');
    expect(await headlineValue(page, 'revenue').textContent()).toMatch(/^-?€/);
    await page.getByTestId('chart-over-time').getByRole('button', { name: 'Show data table' }).click();
    expect(await page.getByTestId('chart-over-time').locator('tbody tr').first().textContent()).toContain('€');
  });

  it('at 390 px: readable, nothing scrolls sideways, the charts fit', async () => {
    const page = await open('/analytics', 'mobile');
    await page.getByTestId('analytics-headline').waitFor();
    await chartDrawn(page.getByTestId('chart-over-time'));
    const widths = await widthsOf(page.locator('html'));
    expect(widths.scrollWidth).toBeLessThanOrEqual(widths.clientWidth);
    for (const id of CHARTS) {
      const box = await page.getByTestId(id).boundingBox();
      expect([id, (box?.x ?? 0) + (box?.width ?? 0) <= 390]).toEqual([id, true]);
    }
    await screenshot(page, 'analytics-mobile');
    await page.getByTestId('chart-costs').scrollIntoViewIfNeeded();
    await screenshot(page, 'analytics-mobile-costs');
  });

  it('an account without orders is told where to go', async () => {
    const page = await e2e.open('mobile');
    await signUpThroughUi(page, newTestUser('analytics-empty'));
    await gotoApp(page, '/analytics');
    const empty = page.getByTestId('analytics-no-orders');
    await empty.waitFor();
    expect(await empty.getByRole('link', { name: 'Go to Connections' }).getAttribute('href')).toBe('/connections');
    expect(await empty.getByRole('link', { name: 'Go to the Dashboard' }).getAttribute('href')).toBe('/');
    expect(describeViolations(await seriousAxeViolations(page))).toBe(describeViolations([]));
    await screenshot(page, 'analytics-empty-mobile');
  });
});
