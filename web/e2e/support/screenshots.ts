import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';

/** `screenshots/` at the repository root (git-ignored), or E2E_SCREENSHOT_DIR when set. */
export const SCREENSHOT_DIR = process.env.E2E_SCREENSHOT_DIR || resolve(__dirname, '../../../screenshots');

/** Full-page PNG at `<dir>/<name>-<viewport width>.png` (`fullPage: false`: what the window shows). */
export async function screenshot(page: Page, name: string, { fullPage = true } = {}): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  const file = join(SCREENSHOT_DIR, `${name}-${width}.png`);
  await page.screenshot({ path: file, fullPage, animations: 'disabled' });
  return file;
}
