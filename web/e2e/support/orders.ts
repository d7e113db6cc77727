import type { Locator, Page } from 'playwright-core';
import { queryDatabase } from '@pod/testing';
import type {
  DashboardMetricsResponse,
  MatchCandidatesResponse,
  MatchingPageResponse,
  MatchStatusResponse,
  OrderDetailsResponse,
  OrderRowView,
  OrdersPageResponse,
  SyncStatusResponse,
} from '@pod/contracts';
import { gotoApp, Toasts } from './pages';
import { startDemo } from './sync';

// The order screens against a demo with every worker running: a readiness wait on the API
// (first syncs, the match run after them, every profit computed), the API's answers the
// screens must show, and locators for the Orders, Order Details, Order Matching and Manual
// Order Matching screens.

/** The demo's first syncs, the match run after them and the profits take some seconds. */
export const DEMO_FIGURED_MS = 120_000;

/** GET a JSON route with the page's cookies. */
export async function apiGet<T>(page: Page, path: string): Promise<T> {
  const response = await page.request.get(path);
  if (response.status() !== 200) throw new Error(`GET ${path} answered ${response.status()}: ${await response.text()}`);
  return (await response.json()) as T;
}

export const ordersPage = (page: Page, query: string) => apiGet<OrdersPageResponse>(page, `/api/orders?${query}`);
export const matchingPage = (page: Page, query: string) =>
  apiGet<MatchingPageResponse>(page, `/api/matching/orders?${query}`);
export const orderDetails = (page: Page, id: string, currency = 'USD') =>
  apiGet<OrderDetailsResponse>(page, `/api/orders/${id}?currency=${currency}`);
export const candidatesOf = (page: Page, id: string) =>
  apiGet<MatchCandidatesResponse>(page, `/api/orders/${id}/candidates?currency=USD`);
export const dashboardMetrics = (page: Page, days: number, currency = 'USD') =>
  apiGet<DashboardMetricsResponse>(page, `/api/dashboard/metrics?days=${days}&currency=${currency}`);

/**
 * Waits until the demo's data is figured: both first syncs succeeded, the figures no longer
 * settling (no match run or profit job after them pending), and no order waits for its profit.
 */
export async function untilFigured(page: Page, timeoutMs = DEMO_FIGURED_MS): Promise<DashboardMetricsResponse> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    const sync = await apiGet<SyncStatusResponse>(page, '/api/sync/status');
    const match = await apiGet<MatchStatusResponse>(page, '/api/orders/match/status');
    const metrics = await dashboardMetrics(page, 365);
    const synced = !sync.active && sync.etsy?.status === 'succeeded' && sync.printify?.status === 'succeeded';
    // A sync queues its last match run before it reads as finished, and a match run its profit
    // job before it does: once the syncs read as finished, `settling` false means every run after
    // them has ended too.
    const matched = match.run?.status === 'succeeded';
    if (synced && !sync.settling && matched && metrics.matchedOrders > 0 && metrics.ordersNotComputed === 0)
      return metrics;
    last = JSON.stringify({ sync: [sync.etsy?.status, sync.printify?.status], match: match.run?.status, metrics });
    if (Date.now() > deadline) throw new Error(`the demo was not figured within ${timeoutMs} ms: ${last}`);
    await page.waitForTimeout(1_000);
  }
}

/** Waits until no order of the account waits for its profit (after a match, unmatch, archive or restore). */
export async function untilComputed(page: Page, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const metrics = await dashboardMetrics(page, 365);
    const match = await apiGet<MatchStatusResponse>(page, '/api/orders/match/status');
    if (metrics.ordersNotComputed === 0 && !match.active) return;
    if (Date.now() > deadline) throw new Error(`profits still not computed after ${timeoutMs} ms`);
    await page.waitForTimeout(500);
  }
}

/** The demo account's cookies, to open more pages of the same account in fresh contexts. */
export async function demoAccount(page: Page) {
  await startDemo(page);
  await untilFigured(page);
  return page.context().cookies();
}

/** A fresh page signed into the account whose cookies these are, at `path`. */
export async function openSignedIn(
  open: () => Promise<Page>,
  cookies: Awaited<ReturnType<typeof demoAccount>>,
  path: string,
): Promise<Page> {
  const page = await open();
  await page.context().addCookies(cookies);
  await gotoApp(page, path);
  return page;
}

/**
 * An amount as the screens must show it (spec §9: en-US, the currency's symbol, two decimals),
 * by Intl rather than the app's own formatter, for the currencies of these tests.
 */
export function money(value: { minor: number; currency: string } | null): string {
  if (!value) return '-';
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: value.currency,
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(value.minor / 100);
}

/** The single toast on screen reads `text`. */
/**
 * The seller's display currency, chosen as the Settings page saves it: on the account (which
 * every page load takes as this browser's choice, so it follows the seller) and in this
 * browser's local storage. Takes effect on the next load.
 */
export async function chooseDisplayCurrency(page: Page, currency: 'USD' | 'EUR' | 'GBP'): Promise<void> {
  const saved = await page.evaluate(async (code) => {
    const response = await fetch('/api/user/settings', {
      method: 'PATCH',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ currency: code }),
    });
    return response.status;
  }, currency);
  if (saved !== 200) throw new Error(`PATCH /api/user/settings answered ${saved}`);
  await page.evaluate((code) => localStorage.setItem('preferred-currency', code), currency);
}

export async function expectToast(page: Page, title: 'Success' | 'Error', text: string) {
  const toast = new Toasts(page).current();
  await toast.getByText(title, { exact: true }).waitFor();
  await toast.getByText(text, { exact: true }).waitFor();
}

/** True when the element scrolls sideways (content wider than its box). */
export const scrollsSideways = (locator: Locator) =>
  locator.evaluate((element) => element.scrollWidth > element.clientWidth + 1);

/** The element's scrollWidth and clientWidth, for "no horizontal scrollbar" (scrollWidth ≤ clientWidth). */
export const widthsOf = (locator: Locator) =>
  locator.evaluate((element) => ({ scrollWidth: element.scrollWidth, clientWidth: element.clientWidth }));

/**
 * Puts the user's latest match run into a state, as the matcher's repository leaves it (for a
 * stack without the matcher, where a run stays queued). `set` is the SQL SET list; its values are
 * $2, $3, … from `params`.
 */
export async function setLatestMatchRun(databaseUrl: string, email: string, set: string, params: unknown[] = []) {
  const rows = await queryDatabase<{ id: string }>(
    databaseUrl,
    `UPDATE match_run SET ${set}
     WHERE id = (SELECT r.id FROM match_run r JOIN app_user u ON u.id = r.user_id WHERE u.email = $1 ORDER BY r.created_at DESC, r.id DESC LIMIT 1)
     RETURNING id`,
    [email, ...params],
  );
  if (rows.length !== 1) throw new Error(`no match run for ${email}`);
}

/** The Orders screen (/orders). */
export class OrdersScreen {
  constructor(private readonly page: Page) {}
  search = () => this.page.getByRole('searchbox', { name: 'Search orders' });
  status = () => this.page.getByRole('combobox', { name: 'Status' });
  date = () => this.page.getByRole('combobox', { name: 'Date' });
  view = () => this.page.getByRole('combobox', { name: 'Active or archived orders' });
  count = () => this.page.getByTestId('orders-count');
  tab = (name: RegExp) => this.page.getByRole('tab', { name });
  tabs = () => this.page.getByRole('tab');
  table = () => this.page.getByTestId('orders-table');
  rows = () => this.table().locator('tbody tr');
  empty = () => this.page.getByTestId('orders-empty');
  pager = () => this.page.getByRole('navigation', { name: 'Orders pages' });
  next = () => this.pager().getByRole('button', { name: 'Next' });
  previous = () => this.pager().getByRole('button', { name: 'Previous' });
  details = () => this.page.getByRole('dialog', { name: 'Order Details' });

  /** The text of one column (0-based) of every row shown. */
  async column(index: number): Promise<string[]> {
    return this.rows().evaluateAll(
      (rows, i) => rows.map((row) => (row.children[i] as HTMLElement | undefined)?.innerText.trim() ?? ''),
      index,
    );
  }

  /**
   * Waits until "Showing X of Y orders" reads the API's answer to `query`, asking again while
   * they differ (an order the workers bring in meanwhile moves both); returns that answer.
   */
  async expectCountOf(query: string, timeoutMs = 10_000): Promise<OrdersPageResponse> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const answer = await ordersPage(this.page, query);
      const wanted = `Showing ${answer.filteredTotal.toLocaleString('en-US')} of ${answer.total.toLocaleString('en-US')} orders`;
      const shown = await this.count()
        .innerText()
        .catch(() => '');
      if (shown === wanted) return answer;
      if (Date.now() > deadline) throw new Error(`Expected "${wanted}", found "${shown}" at ${this.page.url()}`);
      await this.page.waitForTimeout(250);
    }
  }
}

/** The Order Matching screen (/matching) and its Manual Order Matching dialog. */
export class MatchingScreen {
  constructor(private readonly page: Page) {}
  status = () => this.page.getByRole('combobox', { name: 'Status' });
  month = () => this.page.getByLabel('Month');
  found = () => this.page.getByTestId('matching-count');
  table = () => this.page.getByTestId('matching-table');
  rows = () => this.table().locator('tbody tr');
  pager = () => this.page.getByRole('navigation', { name: 'Order Matching pages' });
  next = () => this.pager().getByRole('button', { name: 'Next' });
  previous = () => this.pager().getByRole('button', { name: 'Previous' });
  /** "Auto Match Orders", or "Auto Match Orders: Matching..." while a run is under way. */
  autoMatch = () => this.page.getByRole('button', { name: /^Auto Match Orders(: Matching\.\.\.)?$/ });
  dialog = () => this.page.getByRole('dialog', { name: 'Manual Order Matching' });
  candidates = () => this.dialog().getByTestId('match-candidates').locator('li');
}

/** A row of a list (table row or card) that names this order. */
export const rowOf = (scope: Locator, order: Pick<OrderRowView, 'etsyReceiptId' | 'printifyOrderId'>) =>
  scope.filter({ hasText: order.etsyReceiptId ?? order.printifyOrderId ?? '' });
