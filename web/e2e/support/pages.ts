import type { Locator, Page } from 'playwright-core';
import type { TestUser } from './users';

/** Waits until the app has asked the server who is signed in. */
export async function gotoApp(page: Page, path: string) {
  const userAnswered = page.waitForResponse((r) => r.url().endsWith('/api/auth/user'), { timeout: 15_000 });
  await page.goto(path);
  await userAnswered;
}

export class Toasts {
  constructor(private readonly page: Page) {}

  region(): Locator {
    return this.page.getByRole('region', { name: /^Notification/ });
  }

  /** The (single) toast on screen; Zag gives each toast role="status". */
  current(): Locator {
    return this.region().getByRole('status');
  }
}

export class LoginForm {
  constructor(private readonly page: Page) {}
  email = () => this.page.getByRole('textbox', { name: 'Email', exact: true });
  password = () => this.page.getByRole('textbox', { name: 'Password', exact: true });
  submit = () => this.page.getByRole('button', { name: /^(Sign In|Signing in\.\.\.)$/ });
  alert = () => this.page.getByTestId('form-alert');
  /** The form's live region (role="alert"), which holds the alert's text. */
  liveRegion = () => this.page.getByRole('form', { name: 'Sign in' }).getByRole('alert');

  async fill(email: string, password: string) {
    await this.email().fill(email);
    await this.password().fill(password);
  }

  async signIn(email: string, password: string) {
    await this.fill(email, password);
    await this.page.getByRole('button', { name: 'Sign In', exact: true }).click();
  }
}

export class SignupForm {
  constructor(private readonly page: Page) {}
  firstName = () => this.page.getByRole('textbox', { name: 'First name', exact: true });
  lastName = () => this.page.getByRole('textbox', { name: 'Last name', exact: true });
  email = () => this.page.getByRole('textbox', { name: 'Email', exact: true });
  password = () => this.page.getByRole('textbox', { name: 'Password', exact: true });
  confirm = () => this.page.getByRole('textbox', { name: 'Confirm password', exact: true });
  submit = () => this.page.getByRole('button', { name: 'Create Account' });
  alert = () => this.page.getByTestId('form-alert');
  /** The form's live region (role="alert"), which holds the alert's text. */
  liveRegion = () => this.page.getByRole('form', { name: 'Create account' }).getByRole('alert');
  passwordHint = () => this.page.getByText(/^Use at least \d+ characters\.$/);

  async fill(user: Partial<TestUser> & { confirmPassword?: string }) {
    await this.firstName().fill(user.firstName ?? '');
    await this.lastName().fill(user.lastName ?? '');
    await this.email().fill(user.email ?? '');
    await this.password().fill(user.password ?? '');
    await this.confirm().fill(user.confirmPassword ?? user.password ?? '');
  }

  async signUp(user: TestUser) {
    await this.fill(user);
    await this.submit().click();
  }
}

/** The signed-in shell: desktop sidebar or, below md, the Menu drawer. */
export class Shell {
  constructor(private readonly page: Page) {}
  sidebar = () => this.page.locator('#app-sidebar');
  nav = () => this.sidebar();
  toggle = () => this.page.getByRole('button', { name: /^(Collapse|Expand) sidebar$/ });
  userName = () => this.page.getByTestId('user-name');
  userEmail = () => this.page.getByTestId('user-email');
  menuButton = () => this.page.getByRole('button', { name: 'Menu' });
  drawer = () => this.page.getByRole('dialog');
  logoutButton = () => this.sidebar().getByRole('button', { name: 'Logout' });
  navLink = (label: string) => this.sidebar().getByRole('link', { name: label, exact: true });
  currentLink = () => this.sidebar().locator('a[aria-current="page"]');
}

export class ContactForm {
  constructor(private readonly page: Page) {}
  name = () => this.page.getByRole('textbox', { name: 'Name', exact: true });
  email = () => this.page.getByRole('textbox', { name: 'Email', exact: true });
  subject = () => this.page.getByRole('textbox', { name: 'Subject', exact: true });
  message = () => this.page.getByRole('textbox', { name: 'Message', exact: true });
  submit = () => this.page.getByRole('button', { name: 'Send Message' });
  supportEmail = () => this.page.getByTestId('support-email');
}

/**
 * Which of `fields` are marked invalid (aria-invalid="true") and point at `message`
 * through aria-describedby; one entry per field, e.g. `{ Email: true, Password: false }`.
 */
export async function invalidAndDescribedBy(fields: Record<string, Locator>, message: Locator) {
  const messageId = await message.getAttribute('id');
  if (!messageId) throw new Error('the message has no id to be referenced by aria-describedby');
  const result: Record<string, boolean> = {};
  for (const [name, field] of Object.entries(fields)) {
    const invalid = (await field.getAttribute('aria-invalid')) === 'true';
    const describedBy = ((await field.getAttribute('aria-describedby')) ?? '').split(/\s+/);
    result[name] = invalid && describedBy.includes(messageId);
  }
  return result;
}

export async function signUpThroughUi(page: Page, user: TestUser) {
  await gotoApp(page, '/signup');
  await new SignupForm(page).signUp(user);
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
}
