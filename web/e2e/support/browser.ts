import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { installCspRecorder } from './csp';
// One list of flags for the browser tests and web/bench/landing-size.mjs.
import CHROMIUM_FLAGS from './chromium-flags.json';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  /** A small laptop: the lg breakpoint, where the tables must fit beside the sidebar. */
  laptop: { width: 1024, height: 768 },
  mobile: { width: 390, height: 844 },
} as const;
export type ViewportName = keyof typeof VIEWPORTS;

/**
 * Debian's Chromium, headless. `launch()` gives every run a fresh, empty profile
 * (Playwright creates and removes its own temporary --user-data-dir); each test file
 * then works in new incognito-like contexts, so no cookie or storage leaks between tests.
 * The background-networking flags keep Chromium from calling out (this box has no network).
 */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_FLAGS,
  });
}

export interface OpenedPage {
  context: BrowserContext;
  page: Page;
}

/** A new context (own cookies) at the given viewport, recording CSP violations. */
export async function openPage(
  browser: Browser,
  baseUrl: string,
  viewport: ViewportName = 'desktop',
): Promise<OpenedPage> {
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: VIEWPORTS[viewport],
    deviceScaleFactor: 1,
    isMobile: viewport === 'mobile',
    hasTouch: viewport === 'mobile',
    reducedMotion: 'reduce',
    locale: 'en-US',
  });
  context.setDefaultTimeout(10_000);
  await installCspRecorder(context);
  const page = await context.newPage();
  return { context, page };
}
