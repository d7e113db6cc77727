import type { BrowserContext, Page } from 'playwright-core';
import { describeViolations, seriousAxeViolations } from './support/axe';
import { expectText } from './support/expect';
import { setupE2E } from './support/harness';
import { expectToast, MatchingScreen, openSignedIn, setLatestMatchRun } from './support/orders';
import { Shell } from './support/pages';
import { screenshot } from './support/screenshots';
import { finishLatestRun, signedInEmail, startDemo, SyncCard } from './support/sync';

// "Match Orders" (Dashboard) and "Auto Match Orders" (Order Matching) against the real gateway
// — without the matcher: POST /api/orders/match leaves its run queued, and the states the
// matcher moves it through (running, succeeded, failed) are written into match_run as its
// repository writes them. The pages must follow GET /api/orders/match/status (Part 2 §7): the
// success toast only once the run has succeeded, a failure's own sentence, a run under way shown
// as such wherever the seller goes. The real matcher's runs: orders and matching.e2e-spec.ts.
const e2e = setupE2E({ sandbox: true });

let account: Awaited<ReturnType<BrowserContext['cookies']>>;
let email: string;
beforeAll(async () => {
  const page = await e2e.open();
  await startDemo(page);
  email = await signedInEmail(page);
  // The demo's first syncs, settled as the sync workers would leave them: the card is idle.
  const db = databaseUrl();
  await finishLatestRun(db, email, 'etsy', 0, 0);
  await finishLatestRun(db, email, 'printify', 0, 0);
  account = await page.context().cookies();
}, 120_000);

function databaseUrl(): string {
  if (!e2e.databaseUrl) throw new Error('these tests need the stack’s own database');
  return e2e.databaseUrl;
}

const open = (path: string) => openSignedIn(() => e2e.open(), account, path);

/** Counts the page's requests to a path (and method) from now on. */
function countRequests(page: Page, path: string, method = 'GET') {
  const seen = { count: 0 };
  page.on('request', (request) => {
    if (request.method() === method && new URL(request.url()).pathname === path) seen.count += 1;
  });
  return seen;
}

/** Waits until the page has asked for the run's progress `times` more times. */
async function untilPolled(page: Page, times: number) {
  for (let i = 0; i < times; i += 1) {
    await page.waitForResponse((response) => new URL(response.url()).pathname === '/api/orders/match/status', {
      timeout: 10_000,
    });
  }
}

/**
 * The button reads "Matching..." with a spinner, is disabled for everyone and keeps its focus; its
 * name keeps the label in front ("Match Orders: Matching...").
 */
async function expectWorking(page: Page, label: string) {
  const button = page.getByRole('button', { name: `${label}: Matching...`, exact: true });
  await button.waitFor();
  expect(
    await button.evaluate((element) =>
      Array.from(element.childNodes)
        .filter((node) => node.nodeType === Node.TEXT_NODE)
        .map((node) => node.textContent)
        .join('')
        .trim(),
    ),
  ).toBe('Matching...');
  expect(await button.getByText(`${label}:`).evaluate((element) => element.getBoundingClientRect().width <= 1)).toBe(
    true,
  ); // for screen readers only
  expect(await button.locator('.chakra-spinner').count()).toBe(1);
  expect(await button.getAttribute('aria-disabled')).toBe('true');
  expect(await button.getAttribute('aria-busy')).toBe('true');
  expect(await button.isDisabled()).toBe(true);
}

async function expectIdle(page: Page, label: string) {
  const button = page.getByRole('button', { name: label, exact: true });
  await expectText(button, label);
  expect(await button.isEnabled()).toBe(true);
}

/**
 * Records the text of every toast the page shows from now on (a toast shown at once would be
 * gone again, after its 5 s, by the time the test looks). Returns a reader of what was seen.
 */
async function recordToasts(page: Page) {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { toastsSeen: string[] }).toastsSeen = seen;
    new MutationObserver(() => {
      for (const toast of Array.from(
        document.querySelectorAll<HTMLElement>('[data-scope="toast"][data-part="root"]'),
      )) {
        const text = toast.innerText.replace(/\s+/g, ' ').trim();
        if (text && !seen.includes(text)) seen.push(text);
      }
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { toastsSeen: string[] }).toastsSeen.slice());
}

describe('a match run, followed until it ends', () => {
  it('Dashboard: "Matching..." while queued and running, here or after leaving; "Order matching completed" and fresh counters only once it succeeded', async () => {
    const page = await open('/');
    const card = new SyncCard(page);
    await expectIdle(page, 'Match Orders');
    const starts = countRequests(page, '/api/orders/match', 'POST');
    const toastsSeen = await recordToasts(page);
    await card.matchOrders().click();
    await expectWorking(page, 'Match Orders');
    // The keyboard user keeps their place: the busy button still has the focus.
    expect(await card.matchOrders().evaluate((element) => element === document.activeElement)).toBe(true);

    // Queued, then running: the page asks for the progress and says nothing has completed.
    await untilPolled(page, 2);
    expect(await toastsSeen()).toEqual([]);
    await setLatestMatchRun(databaseUrl(), email, `status = 'running', started_at = now()`);
    await untilPolled(page, 2);
    await expectWorking(page, 'Match Orders');
    expect(await toastsSeen()).toEqual([]);
    // Pressing it again starts nothing.
    await card.matchOrders().click({ force: true });
    expect(starts.count).toBe(1);
    await screenshot(page, 'dashboard-matching');
    const violations = await seriousAxeViolations(page);
    expect(describeViolations(violations)).toBe('');

    // Away to Orders and back: the status route says the run is still under way.
    const shell = new Shell(page);
    await shell.navLink('Orders').click();
    await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
    await shell.navLink('Dashboard').click();
    await expectWorking(page, 'Match Orders');
    expect(await toastsSeen()).toEqual([]);
    // So does a page opened afresh (another tab).
    const other = await open('/');
    await expectWorking(other, 'Match Orders');

    // It succeeded: the toast, and the counters and lists asked again.
    const metricsAsked = page.waitForRequest(
      (request) => new URL(request.url()).pathname === '/api/dashboard/metrics',
      { timeout: 10_000 },
    );
    await setLatestMatchRun(databaseUrl(), email, `status = 'succeeded', records_added = 3, finished_at = now()`);
    await expectToast(page, 'Success', 'Order matching completed');
    await metricsAsked;
    await expectIdle(page, 'Match Orders');
    expect(await toastsSeen()).toEqual(['Success Order matching completed']);
    await expectToast(other, 'Success', 'Order matching completed');
    expect(starts.count).toBe(1);
  });

  it('Order Matching: a failed run shows its own sentence; the next run’s success says "Order matching completed successfully"', async () => {
    const page = await open('/matching');
    const screen = new MatchingScreen(page);
    await expectIdle(page, 'Auto Match Orders');
    const toastsSeen = await recordToasts(page);
    await screen.autoMatch().click();
    await expectWorking(page, 'Auto Match Orders');
    await untilPolled(page, 2);
    expect(await toastsSeen()).toEqual([]);
    await screenshot(page, 'matching-matching');

    await setLatestMatchRun(databaseUrl(), email, `status = 'failed', error_message = $2, finished_at = now()`, [
      'Matching failed. Try again shortly.',
    ]);
    await expectToast(page, 'Error', 'Failed to match orders. Matching failed. Try again shortly.');
    await expectIdle(page, 'Auto Match Orders');

    await screen.autoMatch().click();
    await expectWorking(page, 'Auto Match Orders');
    await untilPolled(page, 1);
    await setLatestMatchRun(databaseUrl(), email, `status = 'running', started_at = now()`);
    await untilPolled(page, 1);
    await expectWorking(page, 'Auto Match Orders');
    await setLatestMatchRun(databaseUrl(), email, `status = 'succeeded', finished_at = now()`);
    await expectToast(page, 'Success', 'Order matching completed successfully');
    await expectIdle(page, 'Auto Match Orders');
    expect(await toastsSeen()).toEqual([
      'Error Failed to match orders. Matching failed. Try again shortly.',
      'Success Order matching completed successfully',
    ]);
  });
});
