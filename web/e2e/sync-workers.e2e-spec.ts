import type { Page } from 'playwright-core';
import type { SyncRunView, SyncStatusResponse } from '@pod/contracts';
import { expectContains, expectText } from './support/expect';
import { setupE2E } from './support/harness';
import { signedInEmail, startDemo, SyncCard, syncStatus } from './support/sync';

// Sync All end to end: the gateway queues, the etsy-sync and printify-sync workers walk the
// visitor's sandbox seller, and the Dashboard shows the runs working and what they synced.
// sync.e2e-spec.ts covers every state of the card against a stack without workers.
const e2e = setupE2E({ sandbox: true, workers: ['etsy-sync', 'printify-sync'] });

/** The demo's first syncs walk six months of orders. */
const FIRST_SYNC_MS = 150_000;

async function untilIdle(page: Page, timeoutMs: number): Promise<SyncStatusResponse> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await syncStatus(page);
    if (!status.active) return status;
    if (Date.now() > deadline) throw new Error(`sync still active after ${timeoutMs} ms: ${JSON.stringify(status)}`);
    await page.waitForTimeout(1_000);
  }
}

/** The card's line for a finished run, from the run the API answers. */
function finishedHeadline(label: 'Etsy' | 'Printify', run: SyncRunView | null): string {
  if (!run || run.status !== 'succeeded') throw new Error(`${label}'s run did not succeed: ${JSON.stringify(run)}`);
  if (run.ordersDone === 0) return `${label}: Up to date`;
  return `${label}: ${run.ordersDone.toLocaleString('en-US')} ${run.ordersDone === 1 ? 'order' : 'orders'} synced`;
}

describe('Sync All with the sync workers', () => {
  it('shows the demo’s first syncs finish, then Sync All: both toasts, the progress bar and the synced counts', async () => {
    const page = await e2e.open();
    await startDemo(page);
    const email = await signedInEmail(page);
    const card = new SyncCard(page);

    // The first syncs the demo started, until they end: counts and last sync on the card.
    const first = await untilIdle(page, FIRST_SYNC_MS);
    await expectText(card.headline('etsy'), finishedHeadline('Etsy', first.etsy), 10_000);
    await expectText(card.headline('printify'), finishedHeadline('Printify', first.printify));
    expect(first.etsy?.ordersAdded).toBeGreaterThan(0);
    await expectContains(card.lastSync('etsy'), 'Last sync today at');
    await expectContains(card.lastSync('printify'), 'Last sync today at');
    await expectText(card.syncAll(), 'Sync All');

    // New Etsy orders, and an Etsy that answers one request a second: the run is seen working.
    const tenantId = email.split('@')[0];
    await e2e.sandbox.admin('POST', `/tenants/${tenantId}/mutations`, { insert: 150 });
    await e2e.sandbox.admin('PATCH', '/settings', { etsyQps: 1 });
    try {
      await card.syncAll().click();
      // The bar first: toasts show one at a time (5 s each), and this run lasts only a few seconds.
      await card.progressbar('etsy').waitFor({ timeout: 30_000 });
      await expectText(card.headline('etsy'), 'Etsy: Syncing');
      await card.expectToast('Success', 'Etsy orders sync initiated');
      await card.expectToast('Success', 'Printify orders sync initiated');

      const done = await untilIdle(page, 90_000);
      expect(done.etsy?.ordersAdded).toBeGreaterThanOrEqual(150);
      await expectText(card.headline('etsy'), finishedHeadline('Etsy', done.etsy));
      await expectText(card.headline('printify'), finishedHeadline('Printify', done.printify));
      expect(await card.progressbar('etsy').count()).toBe(0);
      await expectText(card.syncAll(), 'Sync All');
    } finally {
      await e2e.sandbox.admin('PATCH', '/settings', { etsyQps: 10 });
    }
  }, 300_000);
});
