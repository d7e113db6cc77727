import type { Locator, Page } from 'playwright-core';

function escapeRegExp(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Waits until the locator's text is exactly `expected` (trimmed); fails with what it saw. */
export async function expectText(locator: Locator, expected: string, timeout = 10_000) {
  try {
    await locator
      .filter({ hasText: new RegExp(`^\\s*${escapeRegExp(expected)}\\s*$`) })
      .first()
      .waitFor({ timeout });
  } catch {
    const actual = await locator.allInnerTexts().catch(() => ['<none>']);
    throw new Error(`Expected text "${expected}", found ${JSON.stringify(actual)}`);
  }
}

/** Waits until the locator contains `expected`; fails with what it saw. */
export async function expectContains(locator: Locator, expected: string, timeout = 10_000) {
  try {
    await locator.filter({ hasText: expected }).first().waitFor({ timeout });
  } catch {
    const actual = await locator.allInnerTexts().catch(() => ['<none>']);
    throw new Error(`Expected text containing "${expected}", found ${JSON.stringify(actual)}`);
  }
}

export async function expectPath(page: Page, path: string, timeout = 10_000) {
  try {
    await page.waitForURL((url) => url.pathname === path, { timeout });
  } catch {
    throw new Error(`Expected path ${path}, at ${new URL(page.url()).pathname}`);
  }
}

export async function expectHidden(locator: Locator, timeout = 10_000) {
  await locator.waitFor({ state: 'hidden', timeout });
}
