import type { Page, Request } from 'playwright-core';
import { describeViolations, seriousAxeViolations } from './support/axe';
import type { ViewportName } from './support/browser';
import { ConnectionsScreen } from './support/connections';
import { expectContains, expectText } from './support/expect';
import { pageFetch, setupE2E } from './support/harness';
import { signUpThroughUi, Toasts } from './support/pages';
import { screenshot } from './support/screenshots';
import {
  finishLatestRun,
  setLatestRun,
  signedInEmail,
  startDemo,
  SyncCard,
  syncStatus,
  type ProviderName,
  untilSettled,
} from './support/sync';
import { queryDatabase } from '@pod/testing';
import { newTestUser } from './support/users';

// Sync All, its progress and its outcome, against the real gateway and sandbox — without the
// sync workers: a run stays queued as the gateway left it, and the states a worker would move it
// through (running, waiting for the quota, succeeded, failed) are written into sync_run as the
// worker's repository writes them. What the workers themselves do is sync-workers.e2e-spec.ts.
const e2e = setupE2E({ sandbox: true });

const db = () => {
  if (!e2e.databaseUrl) throw new Error('these tests need the stack’s own database');
  return e2e.databaseUrl;
};

/** Both providers' latest runs settled (the demo queues a first sync of each at sign-in). */
async function settleRuns(email: string) {
  await finishLatestRun(db(), email, 'etsy', 0, 0);
  await finishLatestRun(db(), email, 'printify', 0, 0);
}

/** Requests the page made to a path from now on. */
function recordRequests(page: Page, path: string) {
  const seen: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === path) seen.push(request);
  });
  return seen;
}

/** A demo account on the Dashboard with its first syncs settled: Sync All is ready. */
async function readyDemo(page: Page) {
  await startDemo(page);
  const email = await signedInEmail(page);
  await settleRuns(email);
  const card = new SyncCard(page);
  await card.open();
  await expectText(card.syncAll(), 'Sync All');
  return { email, card };
}

describe('Sync & Match Orders card', () => {
  it('tells an account with nothing connected what to do next instead of offering a sync', async () => {
    const page = await e2e.open();
    await signUpThroughUi(page, newTestUser('sync-empty'));
    const card = new SyncCard(page);
    await card.card().getByText('Connect Etsy and Printify to start').waitFor();
    expect(await card.card().getByRole('link', { name: 'Go to Connections' }).getAttribute('href')).toBe(
      '/connections',
    );
    expect(await card.syncAll().count()).toBe(0);
    expect(await card.counters().count()).toBe(0);
  });

  it('shows the demo’s first syncs queued, then running, waiting for the quota and finished, polling only while one is active', async () => {
    const page = await e2e.open();
    await startDemo(page);
    const email = await signedInEmail(page);
    const card = new SyncCard(page);

    // The gateway queued a first sync of each provider when the demo account was made.
    await expectText(card.headline('etsy'), 'Etsy: Waiting to start');
    await expectText(card.headline('printify'), 'Printify: Waiting to start');
    expect(await card.progressbar('etsy').count()).toBe(0); // nothing is moving yet
    await expectText(card.syncAll(), 'Syncing...');
    expect(await card.syncAll().isDisabled()).toBe(true);
    // Match Orders works beside a running sync; View All Orders leads to the Orders page.
    expect(await card.matchOrders().isEnabled()).toBe(true);
    expect(await card.viewAllOrders().getAttribute('href')).toBe('/orders');
    // The counters come from GET /api/dashboard/metrics: a count each, the margin as a rounded percent ("-" until known).
    const counters = await card.counterValues();
    expect(counters.map(([label]) => label)).toEqual(['Matched', 'Unmatched', 'Pending', 'Profit Margin']);
    for (const [label, value] of counters)
      expect(value).toMatch(label === 'Profit Margin' ? /^(-?\d+%|-)$/ : /^(\d[\d,]*|-)$/);
    expect(await card.row('etsy').getByRole('status').count()).toBe(1);

    // Running with a known total: a determinate bar; without one, an indeterminate bar. Both with the pages and orders so far.
    await setLatestRun(
      db(),
      email,
      'etsy',
      `status = 'running', stream = 'etsy:receipts', pages_done = 3, orders_added = 250, expected_pages = 10, started_at = now()`,
    );
    await setLatestRun(
      db(),
      email,
      'printify',
      `status = 'running', stream = 'printify:orders', pages_done = 1, orders_added = 10, started_at = now()`,
    );
    await expectText(card.headline('etsy'), 'Etsy: Syncing');
    await expectText(card.detail('etsy'), '30% · 3 pages · 250 orders so far');
    expect(await card.progressbar('etsy').getAttribute('aria-valuenow')).toBe('30');
    await expectText(card.detail('printify'), '1 page · 10 orders so far');
    expect(await card.progressbar('printify').getAttribute('aria-valuenow')).toBeNull();
    expect(await card.progressbar('printify').getAttribute('aria-valuetext')).toBe('Syncing');

    // Waiting for the daily quota: when it resumes, and no moving bar (its share is unknown).
    const resumeAt = new Date(Date.now() + 10 * 60_000).toISOString();
    await setLatestRun(db(), email, 'printify', `status = 'waiting_for_quota', resume_at = $3`, [resumeAt]);
    const resumeTime = await page.evaluate(
      (iso) => new Date(iso).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' }),
      resumeAt,
    );
    await expectContains(card.headline('printify'), 'Printify: Waiting for the daily quota — resumes');
    await expectContains(card.headline('printify'), resumeTime);
    await expectText(
      card.detail('printify'),
      'Printify allows only so many requests a day; the sync carries on by itself. 1 page · 10 orders so far.',
    );
    expect(await card.progressbar('printify').count()).toBe(0);
    await screenshot(page, 'dashboard-sync-syncing');

    // Both end: the counts, the failure's reason, the last sync (the connections answer is asked again).
    const connectionsAsked = page.waitForRequest(
      (request) => new URL(request.url()).pathname === '/api/connections/status',
      { timeout: 10_000 },
    );
    await finishLatestRun(db(), email, 'etsy', 1200, 34);
    await setLatestRun(
      db(),
      email,
      'printify',
      `status = 'failed', resume_at = NULL, error_code = 'provider_unavailable', error_message = $3, finished_at = now()`,
      ['Printify did not answer. PodProfit tries again at the next sync.'],
    );
    await expectText(card.headline('etsy'), 'Etsy: 1,234 orders synced');
    await expectText(card.detail('etsy'), '1,200 new, 34 updated');
    await connectionsAsked;
    await expectContains(card.lastSync('etsy'), 'Last sync today at');
    await expectText(card.headline('printify'), 'Printify: Sync failed');
    await expectText(card.detail('printify'), 'Printify did not answer. PodProfit tries again at the next sync.');
    await screenshot(page, 'dashboard-sync-failed');
    expect(await card.progressbar('etsy').count()).toBe(0);
    await expectText(card.syncAll(), 'Sync All');
    expect(await card.syncAll().isEnabled()).toBe(true);

    // Nothing is active, and once the figures have settled: no more polling.
    await untilSettled(page);
    const polls = recordRequests(page, '/api/sync/status');
    await page.waitForTimeout(5_000);
    expect(polls).toHaveLength(0);
  });

  it('Sync All: the Etsy toast, the Printify toast for the connection’s shop (no shop to choose again), and the new runs', async () => {
    const page = await e2e.open();
    const { card } = await readyDemo(page);
    const starts = recordRequests(page, '/api/sync/printify');

    // From the keyboard.
    await card.syncAll().focus();
    const started = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/sync/printify');
    await page.keyboard.press('Enter');
    await card.expectToast('Success', 'Etsy orders sync initiated');
    expect((await started).status()).toBe(202);
    expect(starts.map((request) => request.postDataJSON() as unknown)).toEqual([{}]);
    await card.expectToast('Success', 'Printify orders sync initiated');
    expect(await card.dialog().count()).toBe(0);

    // Both new runs show (queued: no worker in this stack) and the page polls them.
    const polled = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/sync/status', {
      timeout: 5_000,
    });
    await expectText(card.headline('etsy'), 'Etsy: Waiting to start');
    await expectText(card.headline('printify'), 'Printify: Waiting to start');
    await expectText(card.syncAll(), 'Syncing...');
    await polled;
    const status = await syncStatus(page);
    expect([status.etsy?.trigger, status.printify?.trigger, status.active]).toEqual(['user', 'user', true]);
  });

  it('shows why a sync could not start: Etsy disconnected meanwhile (409), and Printify refusing its token (409)', async () => {
    const page = await e2e.open();
    const { email, card } = await readyDemo(page);
    // Another tab disconnects Etsy, and Printify's token is refused meanwhile; this page still thinks both are connected.
    expect((await pageFetch(page, 'DELETE', '/api/connections/etsy')).status).toBe(200);
    await queryDatabase(
      db(),
      `UPDATE provider_connection c SET status = 'expired' FROM app_user u WHERE u.id = c.user_id AND u.email = $1 AND c.provider = 'printify'`,
      [email],
    );
    const etsyStart = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/sync/etsy');
    const printifyStart = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/sync/printify');
    await card.syncAll().click();
    expect((await etsyStart).status()).toBe(409);
    await card.expectToast('Error', 'Failed to sync Etsy orders');
    // Printify goes on regardless, and is refused too.
    expect((await printifyStart).status()).toBe(409);
    await card.expectToast('Error', 'Failed to sync Printify orders');
    // The card asked for the connections again and says what to do about each.
    await expectText(card.row('etsy').getByRole('link'), 'Connect Etsy');
    await expectContains(card.row('etsy'), 'Etsy is not connected.');
    await expectText(card.row('printify').getByRole('link'), 'Reconnect Printify');
    await expectContains(card.row('printify'), 'Printify needs reconnecting before it can sync.');
    // Neither provider can sync now.
    expect(await card.syncAll().isDisabled()).toBe(true);
    await screenshot(page, 'dashboard-sync-refused');
  });
});

describe('Connections cards', () => {
  it('show each run: queued, waiting for the quota, running with its share, and the last sync once it ends', async () => {
    const page = await e2e.open();
    await startDemo(page);
    const email = await signedInEmail(page);
    const screen = new ConnectionsScreen(page);
    await screen.open();
    const card = new SyncCard(page);
    await expectText(screen.etsyCard().getByTestId('sync-headline-etsy'), 'Etsy: Waiting to start');
    await expectText(screen.printifyCard().getByTestId('sync-headline-printify'), 'Printify: Waiting to start');
    expect(await screen.printifyCard().getByTestId('printify-last-sync').count()).toBe(0);

    const resumeAt = new Date(Date.now() + 10 * 60_000).toISOString();
    await setLatestRun(
      db(),
      email,
      'etsy',
      `status = 'waiting_for_quota', resume_at = $3, pages_done = 2, orders_added = 200, started_at = now()`,
      [resumeAt],
    );
    await setLatestRun(
      db(),
      email,
      'printify',
      `status = 'running', stream = 'printify:orders', pages_done = 1, orders_added = 10, expected_pages = 4, started_at = now()`,
    );
    await expectContains(
      screen.etsyCard().getByTestId('sync-headline-etsy'),
      'Etsy: Waiting for the daily quota — resumes',
    );
    await expectText(screen.printifyCard().getByTestId('sync-headline-printify'), 'Printify: Syncing');
    expect(await card.progressbar('printify', screen.printifyCard()).getAttribute('aria-valuenow')).toBe('25');
    await screenshot(page, 'connections-sync-running');

    await finishLatestRun(db(), email, 'printify', 10, 0);
    await expectText(screen.printifyCard().getByTestId('sync-headline-printify'), 'Printify: 10 orders synced');
    await screen.printifyCard().getByTestId('printify-last-sync').waitFor();
    expect(await card.progressbar('printify', screen.printifyCard()).count()).toBe(0);
  });
});

describe.each<ViewportName>(['desktop', 'mobile'])('the sync card at %s width: axe and screenshots', (viewport) => {
  it('has no serious or critical axe violations: idle, syncing, finished', async () => {
    const page = await e2e.open(viewport);
    await startDemo(page);
    const email = await signedInEmail(page);
    const card = new SyncCard(page);
    const problems: Record<string, string> = {};
    const audit = async (name: string) => {
      await page.evaluate(() => document.fonts.ready.then(() => undefined));
      await page.waitForTimeout(300); // dialogs and toasts finish animating
      await screenshot(page, name);
      const violations = await seriousAxeViolations(page);
      if (violations.length) problems[name] = describeViolations(violations);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    };

    // Idle: connected, never synced (the demo's first runs removed).
    await queryDatabase(db(), `DELETE FROM sync_run r USING app_user u WHERE u.id = r.user_id AND u.email = $1`, [
      email,
    ]);
    await card.open();
    await expectText(card.headline('etsy'), 'Etsy: Not synced yet');
    await expectText(card.syncAll(), 'Sync All');
    await audit('dashboard-sync-idle');

    await card.syncAll().click();
    await card.expectToast('Success', 'Printify orders sync initiated');

    const providers: ProviderName[] = ['etsy', 'printify'];
    await setLatestRun(
      db(),
      email,
      'etsy',
      `status = 'running', stream = 'etsy:ledger', pages_done = 7, orders_added = 640, orders_changed = 12, expected_pages = 12, started_at = now()`,
    );
    await expectText(card.headline('etsy'), 'Etsy: Syncing');
    await new Toasts(page)
      .current()
      .waitFor({ state: 'detached', timeout: 8_000 })
      .catch(() => undefined);
    await audit('dashboard-sync-running');

    await finishLatestRun(db(), email, 'etsy', 1200, 34);
    await finishLatestRun(db(), email, 'printify', 1187, 3);
    for (const provider of providers) await expectContains(card.headline(provider), 'orders synced');
    await expectContains(card.lastSync('printify'), 'Last sync today at');
    await audit('dashboard-sync-finished');

    const screen = new ConnectionsScreen(page);
    await screen.open();
    await audit('connections-sync-finished');
    expect(problems).toEqual({});
  });
});
