import type { Page } from 'playwright-core';
import { pageFetch, setupE2E } from './support/harness';
import { expectText } from './support/expect';
import { gotoApp, LoginForm, SignupForm } from './support/pages';
import { newTestUser } from './support/users';

const e2e = setupE2E();

/** Counts the requests a page sends to one API path. */
function countRequests(page: Page, path: string) {
  const counter = { count: 0 };
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === path) counter.count += 1;
  });
  return counter;
}

describe('sign-in form validation (spec §5, §8)', () => {
  it('asks for both fields before calling the server', async () => {
    const page = await e2e.open();
    const loginCalls = countRequests(page, '/api/auth/login');
    await gotoApp(page, '/login');
    const form = new LoginForm(page);

    await form.submit().click();
    await expectText(form.alert(), 'Please fill in all fields');

    await form.fill('someone@example.com', '');
    await form.submit().click();
    await expectText(form.alert(), 'Please fill in all fields');

    await form.fill('', 'a-password');
    await form.submit().click();
    await expectText(form.alert(), 'Please fill in all fields');

    expect(loginCalls.count).toBe(0);
    expect(await form.email().getAttribute('type')).toBe('email');
    expect(await form.password().getAttribute('type')).toBe('password');
  });

  it("shows the server's message for wrong credentials", async () => {
    const page = await e2e.open();
    await gotoApp(page, '/login');
    const form = new LoginForm(page);
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/auth/login'));
    await form.signIn(`nobody.${Date.now()}@example.com`, 'not-the-password');
    const response = await answer;
    expect(response.status()).toBe(401);
    await expectText(form.alert(), 'Invalid email or password');
  });

  it('falls back to "Login failed" when the error has no message', async () => {
    const page = await e2e.open();
    await page.route('**/api/auth/login', (route) => route.fulfill({ status: 502, body: '' }));
    await gotoApp(page, '/login');
    const form = new LoginForm(page);
    await form.signIn('someone@example.com', 'whatever-password');
    await expectText(form.alert(), 'Login failed');
  });
});

describe('sign-up form validation (spec §5, §8)', () => {
  it('checks all fields, then matching passwords, then the 6-character minimum, without calling the server', async () => {
    const page = await e2e.open();
    const registerCalls = countRequests(page, '/api/auth/register');
    await gotoApp(page, '/signup');
    const form = new SignupForm(page);
    const user = newTestUser('invalid');

    await form.submit().click();
    await expectText(form.alert(), 'Please fill in all fields');

    await form.fill({ ...user, lastName: '' });
    await form.submit().click();
    await expectText(form.alert(), 'Please fill in all fields');

    // Mismatch is reported before length: "abc" vs "abd" is both short and different.
    await form.fill({ ...user, password: 'abc', confirmPassword: 'abd' });
    await form.submit().click();
    await expectText(form.alert(), "Passwords don't match");

    await form.fill({ ...user, password: 'abc12', confirmPassword: 'abc12' });
    await form.submit().click();
    await expectText(form.alert(), 'Password must be at least 6 characters long');

    expect(registerCalls.count).toBe(0);
  });

  it("shows the server's 400 message for a password the server rejects", async () => {
    const page = await e2e.open();
    await gotoApp(page, '/signup');
    const form = new SignupForm(page);
    // Seven characters: passes the client's 6-character rule, fails the server's policy.
    const user = { ...newTestUser('short'), password: 'Ab3$efg' };
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/auth/register'));
    await form.signUp(user);
    const response = await answer;
    expect(response.status()).toBe(400);
    const body = (await response.json()) as { message?: unknown };
    expect(typeof body.message).toBe('string');
    expect(String(body.message)).toMatch(/8 characters/);
    await expectText(form.alert(), String(body.message));
  });

  it('shows "An account with this email already exists" for a taken email', async () => {
    const page = await e2e.open();
    const existing = newTestUser('taken');
    await gotoApp(page, '/signup');
    const created = await pageFetch(page, 'POST', '/api/auth/register', { ...existing, confirmPassword: existing.password });
    expect(created.status).toBe(201);
    await page.context().clearCookies();

    await gotoApp(page, '/signup');
    const form = new SignupForm(page);
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/auth/register'));
    await form.signUp({ ...newTestUser('again'), email: existing.email });
    expect((await answer).status()).toBe(409);
    await expectText(form.alert(), 'An account with this email already exists');
  });

  it('falls back to "Registration failed" when the error has no message', async () => {
    const page = await e2e.open();
    await page.route('**/api/auth/register', (route) =>
      route.fulfill({ status: 500, contentType: 'text/plain', body: 'upstream exploded' }),
    );
    await gotoApp(page, '/signup');
    const form = new SignupForm(page);
    await form.signUp(newTestUser('fallback'));
    await expectText(form.alert(), 'Registration failed');
  });
});
