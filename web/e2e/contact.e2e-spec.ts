import type { Locator, Page } from 'playwright-core';
import { pageFetch, setupE2E } from './support/harness';
import { expectText } from './support/expect';
import { ContactForm, gotoApp, Shell, signUpThroughUi, Toasts } from './support/pages';
import { newTestUser, type TestUser } from './support/users';

const e2e = setupE2E();

/** Collects mailto: navigations (Chromium reports them as requests before handing off). */
function captureMailto(page: Page) {
  const urls: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith('mailto:')) urls.push(request.url());
  });
  return urls;
}

async function supportEmail(page: Page): Promise<string> {
  const config = await pageFetch(page, 'GET', '/api/public/config');
  expect(config.status).toBe(200);
  const parsed = JSON.parse(config.text) as { supportEmail: string; demoEnabled: boolean };
  expect(parsed.supportEmail).toMatch(/@/);
  expect(typeof parsed.demoEnabled).toBe('boolean');
  return parsed.supportEmail;
}

/**
 * The form's whole round. `signedIn` is the user whose name and email the form starts with
 * (still editable, and back after sending); signed out it starts empty.
 */
async function checkContactForm(page: Page, signedIn?: TestUser) {
  const form = new ContactForm(page);
  const mailtos = captureMailto(page);
  const address = await supportEmail(page);
  await expectText(form.supportEmail(), address);
  expect(await page.getByRole('heading', { level: 3 }).count()).toBe(3);
  const prefill = signedIn
    ? { name: `${signedIn.firstName} ${signedIn.lastName}`, email: signedIn.email }
    : { name: '', email: '' };
  expect(await form.name().inputValue()).toBe(prefill.name);
  expect(await form.email().inputValue()).toBe(prefill.email);
  await form.name().fill('');
  await form.email().fill('');

  await form.submit().click();
  await expectText(page.getByText('Please enter your name'), 'Please enter your name');
  await expectText(page.getByText('Please enter your email address'), 'Please enter your email address');
  await expectText(page.getByText('Please enter a subject'), 'Please enter a subject');
  await expectText(page.getByText('Please enter a message'), 'Please enter a message');
  expect(await form.name().getAttribute('aria-invalid')).toBe('true');
  expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('name');

  await form.name().fill('Ann Seller');
  await form.email().fill('ann@');
  await form.subject().fill('Orders & matching?');
  await form.message().fill('Hello,\nmy March orders do not match.');
  await form.submit().click();
  await expectText(page.getByText('Please enter a valid email address'), 'Please enter a valid email address');
  expect(await page.getByText('Please enter your name').count()).toBe(0);
  expect(mailtos).toEqual([]);

  await form.email().fill('ann@example.com');
  await form.submit().click();
  await expectText(new Toasts(page).current().getByText('Email Client Opened'), 'Email Client Opened');
  expect(mailtos).toHaveLength(1);

  const mailto = new URL(mailtos[0]);
  expect(mailto.protocol).toBe('mailto:');
  expect(decodeURIComponent(mailto.pathname)).toBe(address);
  const params = new URLSearchParams(mailto.search);
  expect(params.get('subject')).toBe('Orders & matching?');
  const body = params.get('body') ?? '';
  expect(body).toContain('Ann Seller');
  expect(body).toContain('ann@example.com');
  expect(body).toContain('Hello,\nmy March orders do not match.');
  // Spaces are %20 in mailto: bodies, never "+".
  expect(mailtos[0]).not.toContain('+');

  expect(await form.name().inputValue()).toBe(prefill.name);
  expect(await form.email().inputValue()).toBe(prefill.email);
  for (const field of [form.subject(), form.message()]) {
    expect(await field.inputValue()).toBe('');
  }
}

/** Waits until an input holds `expected`. */
async function expectValue(field: Locator, expected: string) {
  await field
    .page()
    .waitForFunction(
      ({ element, value }) => (element as HTMLInputElement | null)?.value === value,
      { element: await field.elementHandle(), value: expected },
      { timeout: 10_000 },
    );
}

describe('contact page', () => {
  it('validates, opens a prefilled mail to the support address, toasts and clears (signed out)', async () => {
    const page = await e2e.open();
    await gotoApp(page, '/contact');
    await expectText(page.getByRole('heading', { level: 1 }), 'Contact Us');
    await checkContactForm(page);
  });

  it('works the same inside the signed-in shell', async () => {
    const page = await e2e.open();
    const user = newTestUser('contact');
    await signUpThroughUi(page, user);
    await gotoApp(page, '/contact');
    await new Shell(page).sidebar().waitFor();
    await expectText(page.getByRole('heading', { level: 1 }), 'Contact Us');
    await checkContactForm(page, user);
  });

  it("starts with a signed-in user's name and email, also when reached from the dashboard", async () => {
    const page = await e2e.open();
    const user = newTestUser('contact-nav');
    await signUpThroughUi(page, user);
    await page.getByRole('main').getByRole('link', { name: 'Contact support' }).click();
    await expectText(page.getByRole('heading', { level: 1 }), 'Contact Us');
    const form = new ContactForm(page);
    await expectValue(form.name(), `${user.firstName} ${user.lastName}`);
    await expectValue(form.email(), user.email);
  });
});
