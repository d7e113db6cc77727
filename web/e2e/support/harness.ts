import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, openPage, type ViewportName } from './browser';
import { cspViolations } from './csp';
import type { TestSandbox, TestStackWorker } from '@pod/testing';
import { startStack, type RunningStack } from './stack';

jest.setTimeout(90_000);

export interface E2E {
  readonly baseUrl: string;
  /** The stack's database, for tests that put data into a state the UI cannot reach. */
  readonly databaseUrl: string | undefined;
  /** The sandbox (Etsy and Printify), for specs set up with `{ sandbox: true }`. */
  readonly sandbox: TestSandbox;
  /** A page in a fresh context (own cookies and storage) at the given viewport. */
  open(viewport?: ViewportName): Promise<Page>;
}

export interface E2EOptions {
  /** Extra environment for the gateway, read when the stack starts (after earlier beforeAll hooks). */
  env?: () => Record<string, string>;
  /** Start the built sandbox too and run the gateway in demo mode against it. */
  sandbox?: boolean;
  /** Start these built workers too (e.g. the sync workers, which do the runs the gateway queues). */
  workers?: readonly TestStackWorker[];
}

/**
 * Per test file: one server stack and one browser. Every test gets fresh contexts, and
 * after each test every page it opened must have logged 0 CSP violations.
 */
export function setupE2E(options: E2EOptions = {}): E2E {
  let stack: RunningStack | undefined;
  let browser: Browser | undefined;
  let contexts: BrowserContext[] = [];

  beforeAll(async () => {
    stack = await startStack(options.env?.() ?? {}, { sandbox: options.sandbox, workers: options.workers });
    browser = await launchBrowser();
  }, 180_000);

  afterEach(async () => {
    const opened = contexts;
    contexts = [];
    const problems: string[] = [];
    for (const context of opened) {
      for (const page of context.pages()) {
        if (page.isClosed()) continue;
        const violations = await cspViolations(page).catch(() => []);
        for (const v of violations)
          problems.push(`${page.url()}: ${v.directive} blocked ${v.blockedURI} (${v.sourceFile}) ${v.sample}`);
      }
      await context.close();
    }
    expect(problems).toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  }, 60_000);

  return {
    get baseUrl() {
      if (!stack) throw new Error('stack not started');
      return stack.baseUrl;
    },
    get databaseUrl() {
      return stack?.databaseUrl;
    },
    get sandbox() {
      if (!stack?.sandbox) throw new Error('this spec runs without the sandbox (setupE2E({ sandbox: true }))');
      return stack.sandbox;
    },
    async open(viewport: ViewportName = 'desktop') {
      if (!browser || !stack) throw new Error('e2e harness not started');
      const { context, page } = await openPage(browser, stack.baseUrl, viewport);
      contexts.push(context);
      return page;
    },
  };
}

/** Same-origin JSON call from inside the page, so the browser adds Origin and Sec-Fetch-Site. */
export async function pageFetch(page: Page, method: string, path: string, body?: unknown) {
  return page.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(path, {
        method,
        credentials: 'include',
        headers: { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, text: await response.text() };
    },
    { method, path, body },
  );
}
