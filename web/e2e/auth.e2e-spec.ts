import { setupE2E } from './support/harness';
import { expectPath, expectText } from './support/expect';
import { gotoApp, LoginForm, Shell, SignupForm, Toasts } from './support/pages';
import { newTestUser } from './support/users';

const e2e = setupE2E();

describe('sign-up, logout and sign-in', () => {
  it('signs up into the shell, logs out to /login and signs back in', async () => {
    const page = await e2e.open('desktop');
    const user = newTestUser();
    const shell = new Shell(page);
    const toasts = new Toasts(page);

    await gotoApp(page, '/');
    await page.getByRole('link', { name: 'Get Started Free' }).click();
    await expectPath(page, '/signup');
    await new SignupForm(page).signUp(user);

    await expectText(page.getByRole('heading', { level: 1 }), 'Dashboard');
    await expectPath(page, '/');
    await expectText(
      page.getByText('Track your Print-on-Demand business performance'),
      'Track your Print-on-Demand business performance',
    );
    await expectText(shell.userName(), `${user.firstName} ${user.lastName}`);
    await expectText(shell.userEmail(), user.email);
    await expectText(toasts.current().getByText('Account created successfully'), 'Account created successfully');

    // The session survives a reload.
    await gotoApp(page, '/');
    await expectText(shell.userEmail(), user.email);

    await shell.logoutButton().click();
    await expectText(toasts.current().getByText('Logged out successfully'), 'Logged out successfully');
    await expectPath(page, '/login');
    await expectText(page.getByRole('heading', { level: 1 }), 'Sign In');
    expect(await shell.sidebar().count()).toBe(0);

    // Signed out for real: a reload stays on the public set.
    await gotoApp(page, '/');
    await expectText(page.getByRole('heading', { level: 1 }), 'See what every order really earns you');

    await gotoApp(page, '/login');
    await new LoginForm(page).signIn(user.email, user.password);
    await expectText(toasts.current().getByText('Logged in successfully'), 'Logged in successfully');
    await expectPath(page, '/');
    await expectText(page.getByRole('heading', { level: 1 }), 'Dashboard');
    await expectText(shell.userName(), `${user.firstName} ${user.lastName}`);
    await expectText(shell.userEmail(), user.email);
  });

  it('shows "Signing in..." and "Creating account..." while the request is pending', async () => {
    const page = await e2e.open('desktop');
    const user = newTestUser('pending');

    let releaseRegister!: () => void;
    const registerGate = new Promise<void>((resolve) => (releaseRegister = resolve));
    await page.route('**/api/auth/register', async (route) => {
      await registerGate;
      await route.continue();
    });
    await gotoApp(page, '/signup');
    const signup = new SignupForm(page);
    await signup.fill(user);
    await signup.submit().click();
    const creating = page.getByRole('button', { name: 'Creating account...' });
    await creating.waitFor();
    expect(await creating.isDisabled()).toBe(true);
    releaseRegister();
    await expectText(page.getByRole('heading', { level: 1 }), 'Dashboard');

    await new Shell(page).logoutButton().click();
    await expectPath(page, '/login');

    let releaseLogin!: () => void;
    const loginGate = new Promise<void>((resolve) => (releaseLogin = resolve));
    await page.route('**/api/auth/login', async (route) => {
      await loginGate;
      await route.continue();
    });
    const login = new LoginForm(page);
    await login.fill(user.email, user.password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    const signingIn = page.getByRole('button', { name: 'Signing in...' });
    await signingIn.waitFor();
    expect(await signingIn.isDisabled()).toBe(true);
    releaseLogin();
    await expectText(page.getByRole('heading', { level: 1 }), 'Dashboard');
  });

  it('keeps the user signed in and shows "Failed to logout" when logout fails', async () => {
    const page = await e2e.open('desktop');
    const user = newTestUser('logoutfail');
    await gotoApp(page, '/signup');
    await new SignupForm(page).signUp(user);
    await expectText(page.getByRole('heading', { level: 1 }), 'Dashboard');

    await page.route('**/api/auth/logout', (route) => route.fulfill({ status: 500, body: '' }));
    const shell = new Shell(page);
    await shell.logoutButton().click();
    const toast = new Toasts(page).current();
    await expectText(toast.getByText('Failed to logout'), 'Failed to logout');
    await expectText(toast.getByText('Error', { exact: true }), 'Error');
    expect(await toast.getAttribute('data-type')).toBe('error');
    await expectPath(page, '/');
    await expectText(shell.userEmail(), user.email);
  });

  it('places toasts at the bottom end on wide screens and on top on phones, focusable with F8', async () => {
    for (const [viewport, placement] of [
      ['desktop', 'bottom-end'],
      ['mobile', 'top'],
    ] as const) {
      const page = await e2e.open(viewport);
      await gotoApp(page, '/contact');
      await page.getByRole('button', { name: 'Send Message' }).waitFor();
      await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Ann');
      await page.getByRole('textbox', { name: 'Email', exact: true }).fill('ann@example.com');
      await page.getByRole('textbox', { name: 'Subject', exact: true }).fill('Hi');
      await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Hello');
      await page.getByRole('button', { name: 'Send Message' }).click();
      const region = new Toasts(page).region();
      await new Toasts(page).current().waitFor();
      expect(await region.getAttribute('data-placement')).toBe(placement);
      expect(await new Toasts(page).current().count()).toBe(1);
      await page.keyboard.press('F8');
      const focusedId = await page.evaluate(() => document.activeElement?.id ?? '');
      expect(focusedId).toBe(await region.getAttribute('id'));
      if (viewport === 'desktop') {
        const box = await new Toasts(page).current().boundingBox();
        expect(box?.width).toBeLessThanOrEqual(420);
      }
    }
  });
});
