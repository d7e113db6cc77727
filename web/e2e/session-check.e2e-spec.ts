import type { ConsoleMessage, Page } from 'playwright-core';
import { allowDatabaseConnections, refuseDatabaseConnections } from '@pod/testing';
import { setupE2E, pageFetch } from './support/harness';
import { expectPath, expectText } from './support/expect';
import { gotoApp, Shell, Toasts } from './support/pages';
import { newTestUser } from './support/users';

/**
 * The session check as the browser sees it: an anonymous load logs no failed request, and a
 * database outage (real: PostgreSQL refuses the stack's connections) answers 503 service_busy,
 * which keeps the user signed in with "Service busy, retrying" until the check succeeds again.
 * SESSION_CACHE_TTL_MS=0 so every check reads PostgreSQL (a kept session would hide the outage).
 */
const e2e = setupE2E({ env: () => ({ SESSION_CACHE_TTL_MS: '0' }) });

function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') errors.push(`${message.text()} (${message.location().url})`);
  });
  return errors;
}

async function signUp(page: Page) {
  const user = newTestUser('busy');
  await gotoApp(page, '/');
  const answer = await pageFetch(page, 'POST', '/api/auth/register', { ...user, confirmPassword: user.password });
  expect(answer.status).toBe(201);
  return user;
}

describe('the session check', () => {
  it('answers an anonymous page load without an error status, so the console stays clean', async () => {
    const page = await e2e.open();
    const errors = consoleErrors(page);
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/auth/user'));
    await page.goto('/');
    expect((await answered).status()).toBe(204);
    await page.locator('#hero-title').waitFor();
    await page.waitForLoadState('networkidle');
    expect(errors).toEqual([]);
  });

  it('keeps the user signed in and says "Service busy, retrying" while the database does not answer, then carries on', async () => {
    const page = await e2e.open();
    const user = await signUp(page);
    await page.goto('/');
    await expectText(page.getByRole('heading', { level: 1 }), 'Dashboard');

    const database = e2e.databaseUrl as string;
    try {
      await refuseDatabaseConnections(database);
      // Reloading: the check itself is busy. Never the public pages, never the sign-in form.
      const busyAnswer = page.waitForResponse((r) => r.url().endsWith('/api/auth/user') && r.status() === 503);
      await page.reload();
      await busyAnswer;
      await expectText(page.getByRole('status').filter({ hasText: 'Service busy' }), 'Service busy, retrying');
      // Retried (Retry-After: 2), still busy, still not signed out.
      await page.waitForResponse((r) => r.url().endsWith('/api/auth/user') && r.status() === 503, { timeout: 10_000 });
      expect(await page.getByRole('banner').count()).toBe(0);
      expect(await page.locator('a[href="/login"]').count()).toBe(0);
      await expectPath(page, '/');

      await allowDatabaseConnections(database);
      // The next retry finds the session: the dashboard, for the same user, with no sign-in.
      await expectText(page.getByRole('heading', { level: 1 }), 'Dashboard', 15_000);
      await expectText(new Shell(page).userEmail(), user.email);

      // Busy again while signed in: a page's query is retried with a notice, the user stays.
      const outage = await refuseDatabaseConnections(database);
      await new Shell(page).navLink('Orders').click();
      await expectText(new Toasts(page).current().filter({ hasText: 'Service busy' }), 'Service busy, retrying');
      await expectPath(page, '/orders');
      await expectText(new Shell(page).userEmail(), user.email);
      await outage.restore();
      await expectText(page.getByRole('heading', { level: 1 }), 'Orders', 15_000);
      await expectText(new Shell(page).userEmail(), user.email);
    } finally {
      await allowDatabaseConnections(database);
    }
  });
});
