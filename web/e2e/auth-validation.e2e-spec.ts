import type { Page } from 'playwright-core';
import { pageFetch, setupE2E } from './support/harness';
import { expectText } from './support/expect';
import { gotoApp, invalidAndDescribedBy, LoginForm, SignupForm } from './support/pages';
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

  it('announces the error (role="alert") and marks the fields it concerns invalid, described by it', async () => {
    const page = await e2e.open();
    await gotoApp(page, '/login');
    const form = new LoginForm(page);
    const fields = { Email: form.email(), Password: form.password() };

    await form.submit().click();
    await expectText(form.liveRegion(), 'Please fill in all fields');
    expect(await invalidAndDescribedBy(fields, form.liveRegion())).toEqual({ Email: true, Password: true });

    await form.fill('someone@example.com', '');
    await form.submit().click();
    await expectText(form.liveRegion(), 'Please fill in all fields');
    expect(await invalidAndDescribedBy(fields, form.liveRegion())).toEqual({ Email: false, Password: true });
    expect(await form.email().getAttribute('aria-invalid')).toBeNull();

    // Wrong credentials concern both fields.
    await form.signIn(`nobody.${Date.now()}@example.com`, 'not-the-password');
    await expectText(form.liveRegion(), 'Invalid email or password');
    expect(await invalidAndDescribedBy(fields, form.liveRegion())).toEqual({ Email: true, Password: true });

    // A failure of the server concerns no field.
    await page.route('**/api/auth/login', (route) => route.fulfill({ status: 502, body: '' }));
    await form.submit().click();
    await expectText(form.liveRegion(), 'Login failed');
    expect(await invalidAndDescribedBy(fields, form.liveRegion())).toEqual({ Email: false, Password: false });
    expect(await form.password().getAttribute('aria-invalid')).toBeNull();
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
  it('checks all fields, then matching passwords, then the 8-character minimum, without calling the server', async () => {
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

    // One rule everywhere: the server's 8 characters and its words (the hint says the same).
    await expectText(form.passwordHint(), 'Use at least 8 characters.');
    for (const short of ['abc12', 'Ab3$ef', 'Ab3$efg']) {
      await form.fill({ ...user, password: short, confirmPassword: short });
      await form.submit().click();
      await expectText(form.alert(), 'Password must be at least 8 characters long');
    }

    expect(registerCalls.count).toBe(0);
  });

  it('takes an 8-character password to the server, and shows its 400 message for one it rejects', async () => {
    const page = await e2e.open();
    await gotoApp(page, '/signup');
    const form = new SignupForm(page);
    // Eight characters passes the length rule in the browser; the server refuses it as too common.
    const user = { ...newTestUser('common'), password: 'password' };
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/auth/register'));
    await form.signUp(user);
    const response = await answer;
    expect(response.status()).toBe(400);
    const body = (await response.json()) as { message?: unknown };
    expect(body.message).toBe('This password is too common. Please choose a less guessable one.');
    await expectText(form.alert(), String(body.message));
    expect(await invalidAndDescribedBy({ Password: form.password() }, form.liveRegion())).toEqual({ Password: true });
  });

  it('announces each error and marks only the fields it concerns invalid, described by it', async () => {
    const page = await e2e.open();
    await gotoApp(page, '/signup');
    const form = new SignupForm(page);
    const fields = {
      'First name': form.firstName(),
      'Last name': form.lastName(),
      Email: form.email(),
      Password: form.password(),
      'Confirm password': form.confirm(),
    };
    const none = { 'First name': false, 'Last name': false, Email: false, Password: false, 'Confirm password': false };
    const user = newTestUser('a11y');

    await form.fill({ ...user, lastName: '', confirmPassword: '' });
    await form.submit().click();
    await expectText(form.liveRegion(), 'Please fill in all fields');
    expect(await invalidAndDescribedBy(fields, form.liveRegion())).toEqual({
      ...none,
      'Last name': true,
      'Confirm password': true,
    });

    await form.fill({ ...user, confirmPassword: `${user.password}x` });
    await form.submit().click();
    await expectText(form.liveRegion(), "Passwords don't match");
    expect(await invalidAndDescribedBy(fields, form.liveRegion())).toEqual({ ...none, 'Confirm password': true });

    await form.fill({ ...user, password: 'Ab3$efg', confirmPassword: 'Ab3$efg' });
    await form.submit().click();
    await expectText(form.liveRegion(), 'Password must be at least 8 characters long');
    expect(await invalidAndDescribedBy(fields, form.liveRegion())).toEqual({ ...none, Password: true });
    // The field keeps its hint as a description too.
    const hintId = await form.passwordHint().getAttribute('id');
    expect((await form.password().getAttribute('aria-describedby'))?.split(' ')).toContain(hintId);

    await form.fill({ ...user, email: 'not-an-email' });
    await form.submit().click();
    await expectText(form.liveRegion(), 'Please enter a valid email address');
    expect(await invalidAndDescribedBy(fields, form.liveRegion())).toEqual({ ...none, Email: true });
  });

  it('shows "An account with this email already exists" for a taken email', async () => {
    const page = await e2e.open();
    const existing = newTestUser('taken');
    await gotoApp(page, '/signup');
    const created = await pageFetch(page, 'POST', '/api/auth/register', {
      ...existing,
      confirmPassword: existing.password,
    });
    expect(created.status).toBe(201);
    await page.context().clearCookies();

    await gotoApp(page, '/signup');
    const form = new SignupForm(page);
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/auth/register'));
    await form.signUp({ ...newTestUser('again'), email: existing.email });
    expect((await answer).status()).toBe(409);
    await expectText(form.alert(), 'An account with this email already exists');
    expect(await invalidAndDescribedBy({ Email: form.email() }, form.liveRegion())).toEqual({ Email: true });
  });

  // The form reads the error body's code and field, never its wording: reworded messages keep marking the right field.
  it.each([
    [{ code: 'conflict_email_taken', field: 'email', message: 'That address already has an account.' }, 409, 'Email'],
    [{ code: 'password_rejected', field: 'password', message: 'Pick a password fewer people use.' }, 400, 'Password'],
    [{ code: 'validation_failed', field: 'lastName', message: 'Surname is too long.' }, 400, 'Last name'],
  ] as const)('marks the field the error body names (%j)', async (error, status, label) => {
    const page = await e2e.open();
    await page.route('**/api/auth/register', (route) =>
      route.fulfill({
        status,
        contentType: 'application/json',
        body: JSON.stringify({ statusCode: status, error: 'Refused', ...error }),
      }),
    );
    await gotoApp(page, '/signup');
    const form = new SignupForm(page);
    const fields = {
      'First name': form.firstName(),
      'Last name': form.lastName(),
      Email: form.email(),
      Password: form.password(),
      'Confirm password': form.confirm(),
    };
    await form.signUp(newTestUser('coded'));
    await expectText(form.liveRegion(), error.message);
    const none = { 'First name': false, 'Last name': false, Email: false, Password: false, 'Confirm password': false };
    expect(await invalidAndDescribedBy(fields, form.liveRegion())).toEqual({ ...none, [label]: true });
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
