import { setupE2E } from './support/harness';
import { expectContains, expectHidden, expectPath, expectText } from './support/expect';
import { gotoApp, Shell, signUpThroughUi } from './support/pages';
import { newTestUser } from './support/users';

const e2e = setupE2E();

const SIDEBAR = [
  ['Dashboard', '/'],
  ['Connections', '/connections'],
  ['Orders', '/orders'],
  ['Order Matching', '/matching'],
  ['Payouts', '/payouts'],
  ['Analytics', '/analytics'],
  ['Settings', '/settings'],
] as const;

const FEATURES = [
  'Automatic Syncing',
  'Smart Matching',
  'Profit Analysis',
  'Multi-Currency',
  'Analytics Dashboard',
  'Secure & Private',
];

describe('public pages', () => {
  it('landing: header, hero, six features, closing call to action and footer', async () => {
    const page = await e2e.open();
    await gotoApp(page, '/');
    const banner = page.getByRole('banner');
    await expectText(banner.getByText('PodProfit', { exact: true }), 'PodProfit');
    await expectText(
      banner.getByText('Know your real profit on every Etsy order.'),
      'Know your real profit on every Etsy order.',
    );
    expect(await banner.getByRole('link', { name: 'Sign In' }).getAttribute('href')).toBe('/login');
    expect(await page.getByRole('link', { name: 'Get Started Free' }).getAttribute('href')).toBe('/signup');
    expect(await page.getByRole('link', { name: 'Start Tracking Profits' }).getAttribute('href')).toBe('/signup');
    for (const feature of FEATURES) {
      await expectText(page.getByRole('heading', { level: 3, name: feature }), feature);
    }
    expect(await page.getByRole('heading', { level: 3 }).count()).toBe(6);
    // Test stacks run without real Etsy credentials, so the demo is on (demo.e2e-spec.ts tries it).
    const tryDemo = page.getByRole('button', { name: 'Try the demo', exact: true });
    await tryDemo.waitFor();
    expect(await tryDemo.isEnabled()).toBe(true);
    expect(await page.getByRole('button', { name: /test login/i }).count()).toBe(0);

    const footer = page.getByRole('contentinfo');
    for (const [name, href] of [
      ['Privacy Policy', '/privacy'],
      ['Terms of Service', '/terms'],
      ['Contact', '/contact'],
    ]) {
      expect(await footer.getByRole('link', { name }).getAttribute('href')).toBe(href);
    }
    await expectText(footer.getByText(/^©/), `© ${new Date().getFullYear()} PodProfit. All rights reserved.`);

    await banner.getByRole('link', { name: 'Sign In' }).click();
    await expectPath(page, '/login');
    await expectText(page.getByRole('heading', { level: 1 }), 'Sign In');
    await page.getByRole('main').getByRole('link', { name: 'Sign up', exact: true }).click();
    await expectPath(page, '/signup');
    await expectText(page.getByRole('heading', { level: 1 }), 'Create Account');
    await page.getByRole('main').getByRole('link', { name: 'Sign in', exact: true }).click();
    await expectPath(page, '/login');
  });

  it('legal pages: fixed revision date, back-to-home link, required clauses and footer links', async () => {
    const page = await e2e.open();
    for (const [path, title, clause] of [
      ['/privacy', 'Privacy Policy', 'within 30 days of account deletion'],
      ['/terms', 'Terms of Service', 'the last 12 months'],
    ] as const) {
      await gotoApp(page, path);
      await expectText(page.getByRole('heading', { level: 1 }), title);
      await expectText(page.getByTestId('last-updated'), 'Last updated: November 22, 2026');
      await expectContains(page.getByRole('main'), clause);
      // Signed out, the site footer is the page's footer: the links show once.
      const footer = page.getByRole('contentinfo');
      expect(await footer.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe('/privacy');
      expect(await footer.getByRole('link', { name: 'Terms of Service' }).getAttribute('href')).toBe('/terms');
      expect(await footer.getByRole('link', { name: 'Contact' }).getAttribute('href')).toBe('/contact');
      for (const name of ['Privacy Policy', 'Terms of Service', 'Contact']) {
        expect(await page.getByRole('link', { name, exact: true }).count()).toBe(1);
      }
      await page.getByRole('link', { name: 'Back to home' }).click();
      await expectPath(page, '/');
    }
  });

  it('shows the 404 card for unknown paths and for app-only paths while signed out', async () => {
    const page = await e2e.open();
    for (const path of ['/no-such-page', '/orders', '/analytics', '/settings/profile']) {
      await gotoApp(page, path);
      await expectText(page.getByRole('heading', { level: 1 }), 'Page Not Found');
      expect(await new Shell(page).sidebar().count()).toBe(0);
    }
    await page.getByRole('link', { name: 'Go back home' }).click();
    await expectPath(page, '/');
    await expectText(page.getByRole('heading', { level: 1 }), 'See what every order really earns you');
  });
});

describe('signed-in shell', () => {
  it('lists the sidebar entries, highlights the current route and shows the dashboard cards', async () => {
    const page = await e2e.open();
    const user = newTestUser('shell');
    await signUpThroughUi(page, user);
    const shell = new Shell(page);

    for (const [label, href] of SIDEBAR) {
      expect(await shell.navLink(label).getAttribute('href')).toBe(href);
    }
    // Every sidebar entry is built now (Analytics last, issue 19): none shows "Coming soon".
    expect(await shell.sidebar().getByText('Coming soon').count()).toBe(0);
    await expectText(shell.currentLink(), 'Dashboard');
    expect(await shell.currentLink().count()).toBe(1);

    await expectText(page.getByRole('heading', { level: 1 }), 'Dashboard');
    await expectText(
      page.getByText('Track your Print-on-Demand business performance'),
      'Track your Print-on-Demand business performance',
    );
    await expectText(page.getByRole('heading', { name: 'Quick Links' }), 'Quick Links');
    const main = page.getByRole('main');
    expect(await main.getByRole('link', { name: /^All Orders/ }).getAttribute('href')).toBe('/orders');
    expect(await main.getByRole('link', { name: /^Connections/ }).getAttribute('href')).toBe('/connections');
    expect(await main.getByRole('link', { name: /^Analytics/ }).getAttribute('href')).toBe('/analytics');
    // Settings is built (issues 17 and 19): the quick link leads to it and says what it holds.
    const settingsLink = main.getByRole('link', { name: /^Settings/ });
    expect(await settingsLink.getAttribute('href')).toBe('/settings');
    await expectContains(settingsLink, 'Display currency, email and password, profit settings');
    await expectText(page.getByRole('heading', { name: 'Need Help?' }), 'Need Help?');
    expect(await main.getByRole('link', { name: 'Contact support' }).getAttribute('href')).toBe('/contact');

    await shell.navLink('Orders').click();
    await expectPath(page, '/orders');
    await expectText(page.getByRole('heading', { level: 1 }), 'Orders');
    await expectText(shell.currentLink(), 'Orders');
    // A path with no page (typed in) falls under the not-found rule, inside the shell; Analytics is a page now.
    // (/login and /signup send a signed-in visitor home: first-load.e2e-spec.ts.)
    await gotoApp(page, '/no-such-page');
    await expectText(page.getByRole('heading', { level: 1 }), 'Page Not Found');
    await shell.sidebar().waitFor();
    await shell.navLink('Analytics').click();
    await expectPath(page, '/analytics');
    await expectText(page.getByRole('heading', { level: 1 }), 'Analytics');
    await expectText(shell.currentLink(), 'Analytics');

    for (const path of ['/privacy', '/terms', '/contact']) {
      await gotoApp(page, path);
      await shell.sidebar().waitFor();
      expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
      expect(await page.getByRole('heading', { level: 1 }).innerText()).not.toBe('Page Not Found');
    }

    // Inside the shell (no site footer) a legal page ends with its own row of links, once.
    for (const path of ['/privacy', '/terms']) {
      await gotoApp(page, path);
      const legalNav = page.getByRole('navigation', { name: 'Legal' });
      expect(await legalNav.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe('/privacy');
      expect(await legalNav.getByRole('link', { name: 'Terms of Service' }).getAttribute('href')).toBe('/terms');
      expect(await legalNav.getByRole('link', { name: 'Contact' }).getAttribute('href')).toBe('/contact');
      for (const name of ['Privacy Policy', 'Terms of Service']) {
        expect(await page.getByRole('link', { name, exact: true }).count()).toBe(1);
      }
    }
  });

  it('shows a focus outline for the keyboard, not for mouse clicks, in the sidebar', async () => {
    const page = await e2e.open('desktop');
    await signUpThroughUi(page, newTestUser('focus'));
    const shell = new Shell(page);
    const outlineOfFocused = () =>
      page.evaluate(() => {
        const element = document.activeElement as HTMLElement | null;
        const style = element ? getComputedStyle(element) : null;
        return {
          text: element?.textContent?.trim() ?? '',
          shown: Boolean(style && style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0),
        };
      });

    await shell.navLink('Connections').click();
    await expectPath(page, '/connections');
    expect(await outlineOfFocused()).toEqual({ text: 'Connections', shown: false });
    await shell.navLink('Dashboard').click();
    await expectPath(page, '/');
    expect(await outlineOfFocused()).toEqual({ text: 'Dashboard', shown: false });

    await page.keyboard.press('Tab');
    expect(await outlineOfFocused()).toEqual({ text: 'Connections', shown: true });
    await page.keyboard.press('Tab');
    expect(await outlineOfFocused()).toEqual({ text: 'Orders', shown: true });

    // The collapse button as well: no ring after a click.
    await shell.toggle().click();
    await page.getByRole('button', { name: 'Expand sidebar' }).waitFor();
    expect((await outlineOfFocused()).shown).toBe(false);
  });

  it('collapses to icons with tooltips and expands again; the choice survives a reload', async () => {
    const page = await e2e.open('desktop');
    await signUpThroughUi(page, newTestUser('collapse'));
    const shell = new Shell(page);
    const wide = (await shell.sidebar().boundingBox())?.width ?? 0;
    expect(wide).toBeGreaterThan(200);
    expect(await shell.toggle().getAttribute('aria-expanded')).toBe('true');
    await expectText(shell.userName(), 'Avery ' + (await shell.userName().innerText()).split(' ')[1]);

    await page.getByRole('button', { name: 'Collapse sidebar' }).click();
    await page.getByRole('button', { name: 'Expand sidebar' }).waitFor();
    expect(await shell.toggle().getAttribute('aria-expanded')).toBe('false');
    await page.waitForFunction(
      () => (document.querySelector('#app-sidebar')?.getBoundingClientRect().width ?? 999) < 100,
    );
    // Labels are gone visually but remain the links' accessible names.
    expect(await shell.sidebar().getByText('Order Matching', { exact: true }).count()).toBe(0);
    expect(await shell.navLink('Order Matching').getAttribute('href')).toBe('/matching');
    expect(await shell.userName().count()).toBe(0);
    // The logo mark stays, linking home, inside the narrow sidebar.
    const home = shell.sidebar().getByRole('link', { name: 'PodProfit home' });
    const mark = await home.locator('svg').boundingBox();
    const bar = await shell.sidebar().boundingBox();
    expect(mark && bar && mark.width > 10 && mark.x >= bar.x && mark.x + mark.width <= bar.x + bar.width).toBe(true);
    expect(await home.getAttribute('href')).toBe('/');

    await shell.navLink('Connections').hover();
    const tooltip = page.getByRole('tooltip');
    await expectText(tooltip, 'Connections');

    await gotoApp(page, '/');
    await page.getByRole('button', { name: 'Expand sidebar' }).waitFor();

    await page.getByRole('button', { name: 'Expand sidebar' }).click();
    await page.getByRole('button', { name: 'Collapse sidebar' }).waitFor();
    await page.waitForFunction(
      () => (document.querySelector('#app-sidebar')?.getBoundingClientRect().width ?? 0) > 200,
    );
    await shell.userName().waitFor();
  });

  it('on a 390 px screen hides the sidebar and opens the same entries in a Menu slide-over', async () => {
    const page = await e2e.open('mobile');
    const user = newTestUser('mobile');
    await signUpThroughUi(page, user);
    const shell = new Shell(page);

    expect(await shell.sidebar().isVisible()).toBe(false);
    await shell.menuButton().click();
    const drawer = shell.drawer();
    await drawer.waitFor();
    for (const [label, href] of SIDEBAR) {
      expect(await drawer.getByRole('link', { name: label, exact: true }).getAttribute('href')).toBe(href);
    }
    expect(await drawer.locator('a[aria-current="page"]').innerText()).toBe('Dashboard');
    await expectText(drawer.getByTestId('user-email'), user.email);
    await expectText(drawer.getByTestId('user-name'), `${user.firstName} ${user.lastName}`);

    await drawer.getByRole('link', { name: 'Order Matching', exact: true }).click();
    await expectPath(page, '/matching');
    await expectHidden(drawer);
    await expectText(page.getByRole('heading', { level: 1 }), 'Order Matching');

    await shell.menuButton().click();
    await drawer.waitFor();
    expect(await drawer.locator('a[aria-current="page"]').innerText()).toBe('Order Matching');
    await drawer.getByRole('button', { name: 'Close menu' }).click();
    await expectHidden(drawer);

    await shell.menuButton().click();
    await drawer.getByRole('link', { name: 'Dashboard', exact: true }).click();
    await expectPath(page, '/');
    await expectHidden(drawer);
    await expectText(page.getByRole('heading', { level: 1 }), 'Dashboard');

    await shell.menuButton().click();
    await page.keyboard.press('Escape');
    await expectHidden(drawer);

    await shell.menuButton().click();
    await drawer.getByRole('button', { name: 'Logout' }).click();
    await expectPath(page, '/login');
  });
});

describe('live mode (real Etsy credentials configured)', () => {
  // Its own stack: with Etsy credentials set the gateway runs against the real services, and
  // the demo is off.
  const live = setupE2E({ env: () => ({ ETSY_API_KEY: 'x', ETSY_SHARED_SECRET: 'y' }) });

  it('landing: the developer test login stays disabled', async () => {
    const page = await live.open();
    const configAnswered = page.waitForResponse((r) => r.url().endsWith('/api/public/config'));
    await gotoApp(page, '/');
    expect(await (await configAnswered).json()).toMatchObject({ demoEnabled: false });
    const devLogin = page.getByRole('button', { name: 'Developer test login', exact: true });
    await devLogin.waitFor();
    expect(await devLogin.isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Try the demo' }).count()).toBe(0);
  });
});
