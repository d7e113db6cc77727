import type { Locator, Page, Request } from 'playwright-core';
import { createDataSource, SyncRunsRepository } from '@pod/db';
import { queryDatabase } from '@pod/testing';
import type { DashboardMetricsResponse, OrdersPageResponse, SyncStatusResponse } from '@pod/contracts';
import { ownSandbox } from './support/connections';
import { expectContains, expectHidden, expectText } from './support/expect';
import { setupE2E } from './support/harness';
import {
  apiGet,
  dashboardMetrics,
  MatchingScreen,
  matchingPage,
  money,
  ordersPage,
  OrdersScreen,
  rowOf,
  untilFigured,
} from './support/orders';
import { screenshot } from './support/screenshots';
import { finishLatestRun, setLatestRun, signedInEmail, startDemo, SyncCard, untilSettled } from './support/sync';

// Issue 18, live figures: the Dashboard (and the order lists) follow a sync until its figures
// have settled — the receipts first, Etsy's ledger (the fees charged) after them, then the match
// and profit runs — saying so meanwhile, with skeletons rather than $0.00 before any figure, and
// then stop asking. Sync All syncs the connection's shop without asking for one.

const SETTLING = 'Figures update as Etsy’s fees arrive';

/** Requests the page makes to a path from now on. */
function recordRequests(page: Page, path: string) {
  const seen: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === path) seen.push(request);
  });
  return seen;
}

/** Waits until the locator's attribute reads `expected`. */
async function expectAttribute(locator: Locator, name: string, expected: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await locator.getAttribute(name, { timeout: timeoutMs }).catch(() => null);
    if (value === expected) return;
    if (Date.now() > deadline) throw new Error(`Expected ${name}="${expected}", found ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const metricCards = (page: Page) => page.getByTestId('metric-cards');
const skeletons = (page: Page) => page.getByTestId('metric-skeletons');
const settlingNotice = (page: Page) => page.getByTestId('figures-settling');
/** The value shown on a metric card ("Net Profit" → "$2,332.39"). */
const cardValue = (page: Page, label: string) =>
  metricCards(page).locator('> div').filter({ hasText: label }).locator('p').nth(1);

describe('live figures, without workers (runs stay as the test sets them)', () => {
  const e2e = setupE2E({ sandbox: true });
  const db = () => {
    if (!e2e.databaseUrl) throw new Error('these tests need the stack’s own database');
    return e2e.databaseUrl;
  };

  it('shows skeletons and says the figures are on their way while the first syncs run, then stops polling once they end', async () => {
    for (const viewport of ['desktop', 'mobile'] as const) {
      const page = await e2e.open(viewport);
      await startDemo(page);
      // The demo's first syncs are queued (no worker takes them): nothing figured yet is not "no sales".
      await expectText(settlingNotice(page), SETTLING);
      await page.waitForTimeout(3_000); // several polls later, still
      expect(await skeletons(page).count()).toBe(1);
      expect(await page.getByTestId('no-orders-yet').count()).toBe(0);
      expect(await metricCards(page).count()).toBe(0);
      await screenshot(page, `live-figures-settling-${viewport}`);
      if (viewport === 'mobile') break;

      // The runs end (as the workers leave them): the notice goes, the empty state says what it is.
      const email = await signedInEmail(page);
      await finishLatestRun(db(), email, 'etsy', 0, 0);
      await finishLatestRun(db(), email, 'printify', 0, 0);
      await expectHidden(settlingNotice(page), 20_000);
      await page.getByTestId('no-orders-yet').waitFor();
      // Settled: no automatic refetch any more (spec §9).
      await untilSettled(page);
      const polls = recordRequests(page, '/api/sync/status');
      await page.waitForTimeout(6_000);
      expect(polls).toHaveLength(0);
    }
  });

  it('the sync progress bar never goes back when the ledger reports more pages than it first said', async () => {
    const page = await e2e.open();
    await startDemo(page);
    const email = await signedInEmail(page);
    const card = new SyncCard(page);
    // The Etsy run as a worker takes it, then its pages as the worker records them.
    await setLatestRun(db(), email, 'etsy', `status = 'running', started_at = now()`);
    const [{ id: runId, version }] = await queryDatabase<{ id: string; version: number }>(
      db(),
      `SELECT r.id, r.version FROM sync_run r JOIN app_user u ON u.id = r.user_id
       WHERE u.email = $1 AND r.provider = 'etsy' ORDER BY r.created_at DESC LIMIT 1`,
      [email],
    );
    const dataSource = await createDataSource({ DATABASE_URL: db(), DATABASE_POOL_SIZE: 1 }, 'progress').initialize();
    try {
      const runs = new SyncRunsRepository(dataSource);
      const page87 = { stream: 'etsy:ledger' as const, pages: 87, added: 0, changed: 0, requests: 87 };
      const next = await runs.recordPage(runId, version, { ...page87, expectedPages: 100 });
      const bar = card.progressbar('etsy');
      await expectAttribute(bar, 'aria-valuetext', '87%');
      // The next window holds more entries than the estimate said: 88 of 104 pages would be 84%.
      await runs.recordPage(runId, next!, { ...page87, pages: 1, requests: 1, expectedPages: 104 });
      await page.waitForTimeout(4_500); // two polls
      expect(Number.parseInt((await bar.getAttribute('aria-valuetext')) ?? '', 10)).toBeGreaterThanOrEqual(87);
    } finally {
      await dataSource.destroy();
    }
  });

  it('Sync All syncs the shop chosen when connecting, without asking for one, and says where to change it', async () => {
    const page = await e2e.open();
    await startDemo(page);
    const email = await signedInEmail(page);
    await finishLatestRun(db(), email, 'etsy', 0, 0);
    await finishLatestRun(db(), email, 'printify', 0, 0);
    const own = await ownSandbox(page);
    expect(own.printifyShops.length).toBe(2); // a choice the dialog used to ask for every time
    const connected = (
      (await (await page.request.get('/api/connections/status')).json()) as {
        printify: { shopId: string; shopTitle: string };
      }
    ).printify;
    const card = new SyncCard(page);
    await card.open();
    const starts = recordRequests(page, '/api/sync/printify');

    await expectText(card.syncAll(), 'Sync All', 20_000);
    await card.syncAll().click();
    await card.expectToast('Success', 'Printify orders sync initiated');
    expect(await card.dialog().count()).toBe(0);
    expect(starts.map((request) => request.postDataJSON() as unknown)).toEqual([{}]);
    const status = await apiGet<SyncStatusResponse>(page, '/api/sync/status');
    expect(status.printify).toMatchObject({ status: 'queued', shopId: connected.shopId, trigger: 'user' });
    expect(status.etsy).toMatchObject({ status: 'queued', trigger: 'user' });

    // The way to another shop is the Connections page.
    await expectContains(card.card().getByTestId('sync-printify-shop'), `Syncs ${connected.shopTitle}.`);
    await card.card().getByRole('link', { name: 'Connections page' }).click();
    await page.getByRole('heading', { level: 1, name: 'API Connections' }).waitFor();
  });
});

describe('live figures with the workers: a sync whose fees arrive after the first figures', () => {
  const e2e = setupE2E({ sandbox: true, workers: ['etsy-sync', 'printify-sync', 'matcher', 'fx-rate'] });

  /** The API's figures once they no longer change: the demo figured, then two equal answers 4 s apart. */
  async function settledMetrics(page: Page): Promise<DashboardMetricsResponse> {
    await untilFigured(page, 240_000);
    let before = await dashboardMetrics(page, 30);
    for (let attempt = 0; attempt < 30; attempt++) {
      await page.waitForTimeout(4_000);
      const now = await dashboardMetrics(page, 30);
      if (JSON.stringify(now) === JSON.stringify(before)) return now;
      before = now;
    }
    throw new Error(`the figures kept changing: ${JSON.stringify(before)}`);
  }

  it('the Dashboard, the Orders and the Order Matching pages stay open through the first syncs and end on the settled figures, no reload', async () => {
    const page = await e2e.open();
    // Etsy answering 3 requests a second (its real limit is 10), and its first ledger page
    // answered 429 with Retry-After 20 s (the client waits it out): the ledger, walked after the
    // receipts, then arrives well after the receipts are matched and figured (each stream
    // announces what it wrote as it ends) and the first figures show.
    await e2e.sandbox.admin('PATCH', '/settings', { etsyQps: 3 });
    try {
      await startDemo(page);
      const tenantId = (await signedInEmail(page)).split('@')[0];
      const tenant = await e2e.sandbox.admin<{ etsy: { shopId: number } }>('GET', `/tenants/${tenantId}`);
      await e2e.sandbox.admin('POST', '/faults', {
        target: 'etsy',
        kind: '429',
        retryAfterSeconds: 20,
        match: { tenantId, pathPrefix: `/v3/application/shops/${tenant.etsy.shopId}/payment-account/ledger-entries` },
        count: 1,
      });
      await followToSettled(page);
    } finally {
      await e2e.sandbox.admin('PATCH', '/settings', { etsyQps: 10 });
    }
  }, 300_000);

  async function followToSettled(page: Page) {
    const orders = await page.context().newPage();
    await orders.goto(`${e2e.baseUrl}/orders`);
    const ordersScreen = new OrdersScreen(orders);
    const matching = await page.context().newPage();
    await matching.goto(`${e2e.baseUrl}/matching`);
    const matchingScreen = new MatchingScreen(matching);

    // What the Dashboard shows meanwhile, every half second.
    const shown = new Set<string>();
    let noticeSeen = false;
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const value = await cardValue(page, 'Net Profit')
          .innerText({ timeout: 500 })
          .catch(() => null);
        if (value) shown.add(value);
        if (value && !noticeSeen && (await settlingNotice(page).count()) > 0) {
          noticeSeen = true;
          await screenshot(page, 'live-figures-cards-settling');
        }
        await page.waitForTimeout(500);
      }
    })();

    // An Order Details dialog opened while the figures settle stays on its order: the resets
    // that follow each run never blank it to "Loading order..." (they did, losing its scroll).
    // (On the Orders page, open beside the others: Playwright's pages of one context are all
    // visible, so each polls.)
    const details = (async () => {
      await ordersScreen.rows().first().waitFor({ timeout: 240_000 });
      await ordersScreen
        .rows()
        .first()
        .getByRole('button', { name: /^View Details/ })
        .click();
      await ordersScreen.details().getByText('Loading order...').waitFor({ state: 'hidden' });
      await orders.evaluate(() => {
        const seen = window as unknown as { blanked: number };
        seen.blanked = 0;
        new MutationObserver(() => {
          if (document.querySelector('[role="dialog"]')?.textContent?.includes('Loading order...')) seen.blanked += 1;
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
      });
      return (await apiGet<SyncStatusResponse>(orders, '/api/sync/status')).settling;
    })();

    const settled = await settledMetrics(page);
    watching = false;
    await watcher;
    expect(await details).toBe(true); // opened while the figures were still settling
    await expectHidden(settlingNotice(page), 15_000);
    await orders.waitForTimeout(3_000); // the page's last polls and resets
    expect(await orders.evaluate(() => (window as unknown as { blanked: number }).blanked)).toBe(0);
    expect(await ordersScreen.details().isVisible()).toBe(true);
    // The sync put figures on screen before Etsy's fees were in: the case this test is about.
    expect([...shown].filter((value) => value !== money(settled.netProfit)).length).toBeGreaterThan(0);

    await expectText(cardValue(page, 'Net Profit'), money(settled.netProfit), 15_000);
    await expectText(cardValue(page, 'Total Costs'), money(settled.totalCosts));
    // Meanwhile the cards said they were not final yet; settled, they no longer do.
    expect(noticeSeen).toBe(true);
    await expectHidden(settlingNotice(page), 15_000);

    // The Orders page, open since the start, shows the settled profit of its first rows.
    const answer: OrdersPageResponse = await ordersPage(orders, 'page=1&pageSize=10&currency=USD');
    for (const order of answer.orders.slice(0, 3)) {
      if (!order.profit) continue;
      await expectContains(rowOf(ordersScreen.rows(), order), money(order.profit), 15_000);
    }
    // So does the Order Matching page (this month, its default): its Amount shows the profit of a
    // matched pair (spec §2: "revenue, and cost and profit if matched"), the one the ledger's fees change.
    const month = new Date().toISOString().slice(0, 7);
    const answered = await matchingPage(matching, `month=${month}&page=1&currency=USD`);
    const matchedPairs = answered.orders.filter((order) => order.status === 'matched' && order.profit).slice(0, 3);
    expect(matchedPairs.length).toBeGreaterThan(0);
    for (const order of matchedPairs) {
      if (!order.profit) continue;
      await expectContains(rowOf(matchingScreen.rows(), order), money(order.profit), 15_000);
    }
    await screenshot(page, 'live-figures-settled-desktop');
  }
});
