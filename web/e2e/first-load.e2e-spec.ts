import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Page, Route } from 'playwright-core';
import { setupE2E, pageFetch } from './support/harness';
import { expectPath, expectText } from './support/expect';
import { gotoApp } from './support/pages';
import { screenshot } from './support/screenshots';
import { newTestUser } from './support/users';

const e2e = setupE2E();

const REPO_ROOT = resolve(__dirname, '../..');
const WEB_DIST = join(REPO_ROOT, 'web/dist');
/** The goal for a first visit to the landing page, headers included (decimal kB). */
const LANDING_BUDGET_BYTES = 200_000;
/** Code only a signed-in visitor needs: the shell and the signed-in pages. */
const SIGNED_IN_MODULES = [
  'src/layouts/AppShell.tsx',
  'src/pages/dashboard/DashboardPage.tsx',
  'src/pages/connections/ConnectionsPage.tsx',
];

interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

function readManifest(): Manifest {
  return JSON.parse(readFileSync(join(WEB_DIST, '.vite/manifest.json'), 'utf8')) as Manifest;
}

/** Every file index.html loads before any lazy import: the entry and its static imports. */
function initialFiles(manifest: Manifest): Set<string> {
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(`/${chunk.file}`)) return;
    files.add(`/${chunk.file}`);
    for (const css of chunk.css ?? []) files.add(`/${css}`);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit('index.html');
  return files;
}

interface MeasuredResource {
  path: string;
  status: number;
  encoding: string;
  bytes: number;
}

/** Runs the repository's bench script (web/bench/landing-size.mjs) against this stack. */
async function benchFirstLoad(path: string): Promise<{ resources: MeasuredResource[]; totalBytes: number }> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['web/bench/landing-size.mjs', '--url', e2e.baseUrl, '--path', path, '--json'],
    {
      cwd: REPO_ROOT,
      timeout: 90_000,
    },
  );
  return JSON.parse(stdout) as { resources: MeasuredResource[]; totalBytes: number };
}

describe('first load of a public page', () => {
  it(`transfers at most ${LANDING_BUDGET_BYTES / 1000} kB for the landing page, compressed, without any signed-in code`, async () => {
    const manifest = readManifest();
    const { resources, totalBytes } = await benchFirstLoad('/');
    const report = resources.map((r) => `${r.bytes}\t${r.status}\t${r.encoding || '-'}\t${r.path}`).join('\n');

    if (totalBytes > LANDING_BUDGET_BYTES)
      throw new Error(`The landing page's first load took ${totalBytes} bytes on the wire:\n${report}`);
    expect(totalBytes).toBeLessThanOrEqual(LANDING_BUDGET_BYTES);

    const fetchedAssets = resources.filter((r) => r.path.startsWith('/assets/'));
    const scripts = fetchedAssets.filter((r) => r.path.endsWith('.js')).map((r) => r.path);
    expect(scripts.length).toBeGreaterThan(0);
    // Only what index.html itself loads: no lazy chunk, so none of the signed-in app.
    const initial = initialFiles(manifest);
    expect(scripts.filter((path) => !initial.has(path))).toEqual([]);
    for (const module of SIGNED_IN_MODULES) {
      expect(manifest[module]).toBeDefined();
      expect(scripts).not.toContain(`/${manifest[module].file}`);
    }
    // Scripts and styles of a kilobyte or more travel as brotli.
    for (const asset of fetchedAssets.filter((r) => /\.(js|css)$/.test(r.path) && r.bytes > 2048)) {
      expect({ path: asset.path, encoding: asset.encoding }).toEqual({ path: asset.path, encoding: 'br' });
    }
    expect(resources.find((r) => r.path === '/')?.encoding).toBe('br');
  });

  it('keeps the signed-in shell out of sign-in, sign-up and the legal pages too', async () => {
    const manifest = readManifest();
    const signedIn = new Set(SIGNED_IN_MODULES.map((module) => `/${manifest[module].file}`));
    for (const path of ['/login', '/signup', '/privacy', '/terms']) {
      const page = await e2e.open();
      const scripts: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.pathname.endsWith('.js')) scripts.push(url.pathname);
      });
      await gotoApp(page, path);
      await page.locator('main h1').first().waitFor();
      await page.waitForLoadState('networkidle');
      expect({ path, signedInChunks: scripts.filter((script) => signedIn.has(script)) }).toEqual({
        path,
        signedInChunks: [],
      });
    }
  });

  it('ships no source maps, and brotli and gzip copies of every text asset', () => {
    const files = listFiles(WEB_DIST);
    expect(files.filter((file) => file.endsWith('.map'))).toEqual([]);
    for (const file of files.filter((f) => /\.(js|css)$/.test(f))) {
      if (readFileSync(file).length < 512) continue;
      expect({ file, br: existsSync(`${file}.br`), gz: existsSync(`${file}.gz`) }).toEqual({
        file,
        br: true,
        gz: true,
      });
    }
    for (const file of files.filter((f) => f.endsWith('.js'))) {
      expect({ file, sourceMappingURL: readFileSync(file, 'utf8').includes('sourceMappingURL') }).toEqual({
        file,
        sourceMappingURL: false,
      });
    }
  });

  it('answers 404 for a source map, even one that would exist next to a real script', async () => {
    const manifest = readManifest();
    const script = manifest['index.html'].file;
    const page = await e2e.open();
    await gotoApp(page, '/');
    for (const path of [`/${script}.map`, `/${script}.br`, `/${script}.gz`]) {
      const response = await page.request.get(path);
      expect({ path, status: response.status() }).toEqual({ path, status: 404 });
    }
  });
});

/**
 * Records, from the very first paint, whether the landing hero, the public header or the
 * not-found card was ever in the document (a MutationObserver installed before any script).
 */
async function recordWrongRouteSet(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __wrongRouteSet: string[] }).__wrongRouteSet = seen;
    const check = () => {
      if (document.getElementById('hero-title')) seen.push('landing hero');
      if (document.querySelector('[data-testid="not-found"]')) seen.push('not-found card');
      if (document.querySelector('header a[href="/login"]')) seen.push('public header');
    };
    new MutationObserver(check).observe(document, { childList: true, subtree: true });
  });
}

async function wrongRouteSetSeen(page: Page): Promise<string[]> {
  return page.evaluate(() => [...new Set((window as unknown as { __wrongRouteSet: string[] }).__wrongRouteSet)]);
}

/** Holds every GET /api/auth/user until `release()`: the session check is "still loading". */
async function holdSessionCheck(page: Page) {
  const held: Route[] = [];
  let releasing = false;
  await page.route('**/api/auth/user', async (route) => {
    if (releasing) return route.continue();
    held.push(route);
  });
  return {
    async waitUntilHeld() {
      for (let i = 0; i < 100 && held.length === 0; i += 1) await page.waitForTimeout(50);
      expect(held.length).toBeGreaterThan(0);
    },
    async release() {
      releasing = true;
      for (const route of held.splice(0)) await route.continue();
    },
  };
}

async function signUpThroughApi(page: Page) {
  const user = newTestUser('firstload');
  await gotoApp(page, '/');
  const answer = await pageFetch(page, 'POST', '/api/auth/register', { ...user, confirmPassword: user.password });
  expect(answer.status).toBe(201);
  return user;
}

describe('reloading a signed-in page', () => {
  it.each([
    ['/', 'Dashboard'],
    ['/connections', 'API Connections'],
  ])(
    'shows a neutral loading state on %s until the session check answers, never the public pages',
    async (path, heading) => {
      for (const viewport of ['desktop', 'mobile'] as const) {
        const page = await e2e.open(viewport);
        await signUpThroughApi(page);
        await recordWrongRouteSet(page);
        const session = await holdSessionCheck(page);
        await page.goto(path);
        await session.waitUntilHeld();

        const loading = page.locator('main[aria-busy="true"]');
        await loading.waitFor();
        expect(await page.getByRole('status').filter({ hasText: 'Loading…' }).count()).toBe(1);
        expect(await page.getByRole('banner').count()).toBe(0);
        if (path === '/') await screenshot(page, 'firstload-loading-state');

        await session.release();
        await expectText(page.getByRole('heading', { level: 1 }), heading);
        expect(await loading.count()).toBe(0);
        expect(await wrongRouteSetSeen(page)).toEqual([]);
      }
    },
  );

  it('sends a signed-in visitor who opens /login or /signup to /', async () => {
    const page = await e2e.open();
    await signUpThroughApi(page);
    await recordWrongRouteSet(page);
    for (const path of ['/login', '/signup']) {
      await page.goto(path);
      await expectPath(page, '/');
      await expectText(page.getByRole('heading', { level: 1 }), 'Dashboard');
    }
    expect(await wrongRouteSetSeen(page)).toEqual([]);
  });

  it('still shows the landing page to a signed-out visitor once the check answers (signed out)', async () => {
    for (const viewport of ['desktop', 'mobile'] as const) {
      const page = await e2e.open(viewport);
      const session = await holdSessionCheck(page);
      await page.goto('/');
      await session.waitUntilHeld();
      await page.locator('main[aria-busy="true"]').waitFor();
      await session.release();
      await page.locator('#hero-title').waitFor();
      await page.waitForLoadState('networkidle');
      await screenshot(page, 'firstload-landing');
    }
  });
});

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? entry.name.startsWith('.')
        ? []
        : listFiles(join(dir, entry.name))
      : [join(dir, entry.name)],
  );
}
