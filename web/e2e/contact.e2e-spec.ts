import type { Page } from 'playwright-core';
import { pageFetch, setupE2E } from './support/harness';
import { expectText } from './support/expect';
import { ContactForm, gotoApp, Shell, signUpThroughUi, Toasts } from './support/pages';
import { newTestUser } from './support/users';

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

async function checkContactForm(page: Page) {
  const form = new ContactForm(page);
  const mailtos = captureMailto(page);
  const address = await supportEmail(page);
  await expectText(form.supportEmail(), address);
  expect(await page.getByRole('heading', { level: 3 }).count()).toBe(3);

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

  for (const field of [form.name(), form.email(), form.subject(), form.message()]) {
    expect(await field.inputValue()).toBe('');
  }
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
    await signUpThroughUi(page, newTestUser('contact'));
    await gotoApp(page, '/contact');
    await new Shell(page).sidebar().waitFor();
    await expectText(page.getByRole('heading', { level: 1 }), 'Contact Us');
    await checkContactForm(page);
  });
});
