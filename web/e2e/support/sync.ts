import type { Locator, Page } from 'playwright-core';
import { queryDatabase } from '@pod/testing';
import type { SyncStatusResponse } from '@pod/contracts';
import { expectText } from './expect';
import { gotoApp, Toasts } from './pages';

export type ProviderName = 'etsy' | 'printify';
const LABEL: Record<ProviderName, string> = { etsy: 'Etsy', printify: 'Printify' };

/** Making a demo account builds a sandbox seller with months of orders: allow it some time. */
export const DEMO_START_MS = 45_000;

/** Landing → "Try the demo" → the signed-in dashboard of a fresh demo account. */
export async function startDemo(page: Page) {
  await gotoApp(page, '/');
  await page.getByRole('button', { name: /^(Try the demo|Starting demo\.\.\.)$/ }).click();
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor({ timeout: DEMO_START_MS });
}

/** The Dashboard's "Sync & Match Orders" card (and the "Select Printify Shop" dialog Sync All no longer opens). */
export class SyncCard {
  constructor(private readonly page: Page) {}
  card = () => this.page.getByRole('region', { name: 'Sync & Match Orders' });
  syncAll = () => this.card().getByRole('button', { name: /^(Sync All|Syncing\.\.\.)$/ });
  matchOrders = () => this.card().getByRole('button', { name: 'Match Orders' });
  viewAllOrders = () => this.card().getByRole('link', { name: 'View All Orders' });
  /** The line that says the run's state ("Etsy: Syncing"): a polite live region. */
  headline = (provider: ProviderName) => this.card().getByTestId(`sync-headline-${provider}`);
  detail = (provider: ProviderName) => this.card().getByTestId(`sync-detail-${provider}`);
  lastSync = (provider: ProviderName) => this.card().getByTestId(`sync-last-${provider}`);
  row = (provider: ProviderName) => this.card().getByTestId(`sync-run-${provider}`);
  problem = (provider: ProviderName) => this.card().getByTestId(`sync-problem-${provider}`);
  progressbar = (provider: ProviderName, scope: Locator = this.card()) =>
    scope.getByRole('progressbar', { name: `${LABEL[provider]} sync progress` });
  counters = () => this.card().getByTestId('sync-counters');
  dialog = () => this.page.getByRole('dialog', { name: 'Select Printify Shop' });
  toast = () => new Toasts(this.page).current();

  async open() {
    await gotoApp(this.page, '/');
    await this.card().waitFor();
  }

  async expectToast(title: 'Success' | 'Error', text: string) {
    await expectText(this.toast().getByText(title, { exact: true }), title);
    await expectText(this.toast().getByText(text, { exact: true }), text);
  }

  /** Each counter's label and value, in order. */
  async counterValues(): Promise<Array<[string, string]>> {
    const labels = await this.counters().locator('dt').allInnerTexts();
    const values = await this.counters().locator('dd').allInnerTexts();
    return labels.map((label, i) => [label.trim(), values[i]?.trim() ?? '']);
  }
}

/** GET /api/sync/status with the page's cookies. */
export async function syncStatus(page: Page): Promise<SyncStatusResponse> {
  const response = await page.request.get('/api/sync/status');
  if (response.status() !== 200) throw new Error(`GET /api/sync/status answered ${response.status()}`);
  return (await response.json()) as SyncStatusResponse;
}

/**
 * Waits until GET /api/sync/status says the figures have settled (a run that just ended still
 * counts as settling for a few seconds), then for the page's last poll to come back: from then
 * on the page asks nothing by itself.
 */
export async function untilSettled(page: Page, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while ((await syncStatus(page)).settling) {
    if (Date.now() > deadline) throw new Error(`the figures were still settling after ${timeoutMs} ms`);
    await page.waitForTimeout(500);
  }
  await page.waitForTimeout(2_500); // SYNC_POLL_MS and its answer
}

/**
 * Puts the user's latest run of a provider into a state, as a sync worker would leave it (for
 * the UI states a stack without workers cannot reach). `set` is the SQL SET list; its values
 * are $3, $4, … from `params`.
 */
export async function setLatestRun(
  databaseUrl: string,
  email: string,
  provider: ProviderName,
  set: string,
  params: unknown[] = [],
) {
  const rows = await queryDatabase<{ id: string }>(
    databaseUrl,
    `UPDATE sync_run SET ${set}, version = version + 1, updated_at = now()
     WHERE id = (SELECT r.id FROM sync_run r JOIN app_user u ON u.id = r.user_id WHERE u.email = $1 AND r.provider = $2
                 ORDER BY r.created_at DESC LIMIT 1)
     RETURNING id`,
    [email, provider, ...params],
  );
  if (rows.length !== 1) throw new Error(`no ${provider} run for ${email}`);
}

/**
 * A run that succeeded, as the worker's `finish()` leaves it: in one transaction the run ends and
 * the connection's last sync moves to its finish.
 */
export async function finishLatestRun(
  databaseUrl: string,
  email: string,
  provider: ProviderName,
  added: number,
  changed: number,
) {
  const rows = await queryDatabase<{ id: string }>(
    databaseUrl,
    `WITH run AS (
       UPDATE sync_run SET status = 'succeeded', stream = NULL, resume_at = NULL, orders_added = $3, orders_changed = $4,
         started_at = COALESCE(started_at, now()), finished_at = now(), version = version + 1, updated_at = now()
       WHERE id = (SELECT r.id FROM sync_run r JOIN app_user u ON u.id = r.user_id WHERE u.email = $1 AND r.provider = $2
                   ORDER BY r.created_at DESC LIMIT 1)
       RETURNING user_id, provider, shop_id, finished_at)
     UPDATE provider_connection c SET last_sync_at = run.finished_at FROM run
     WHERE c.user_id = run.user_id AND c.provider = run.provider AND c.shop_id = run.shop_id RETURNING c.id`,
    [email, provider, added, changed],
  );
  if (rows.length !== 1) throw new Error(`no ${provider} run (or connection) for ${email}`);
}

/** The signed-in user's email (the demo's is generated). */
export async function signedInEmail(page: Page): Promise<string> {
  return ((await (await page.request.get('/api/auth/user')).json()) as { email: string }).email;
}
