import Redis from 'ioredis';
import { queryDatabase } from '@pod/testing';
import {
  GatewayTestBed,
  SAME_ORIGIN,
  STRONG_PASSWORD,
  login,
  register,
  sessionCookie,
  uniqueEmail,
  type TestGateway,
} from './support/test-gateway';

/**
 * Settings → Account (issue 19, Part 2 point 12): changing the email with the current password,
 * the demo account's credentials locked, and the display currency following the account.
 */
const bed = new GatewayTestBed();
let gw: TestGateway;
let redis: Redis;

beforeAll(async () => {
  await bed.setUp();
  gw = await bed.start();
  redis = new Redis('redis://127.0.0.1:6379');
});
afterAll(async () => {
  redis?.disconnect();
  await bed.tearDown();
});

const me = (cookie: string) => gw.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } });

const post = (cookie: string, url: string, payload: object) =>
  gw.app.inject({ method: 'POST', url, headers: { ...SAME_ORIGIN, cookie }, payload });

const changeEmail = (cookie: string, email: string, currentPassword = STRONG_PASSWORD) =>
  post(cookie, '/api/user/change-email', { email, currentPassword });

/** Lets `seconds` pass for every throttle window of this run (Redis TTLs are its clock). */
async function advanceRedisClock(seconds: number): Promise<void> {
  for (const key of await redis.keys(`${bed.redisPrefix}:*`)) {
    const ttl = await redis.ttl(key);
    if (ttl < 0) continue;
    if (ttl <= seconds) await redis.del(key);
    else await redis.expire(key, ttl - seconds);
  }
}

async function signedUp(label: string): Promise<{ email: string; cookie: string }> {
  const email = uniqueEmail(label);
  const created = await register(gw.app, email);
  expect(created.statusCode).toBe(201);
  return { email, cookie: sessionCookie(created) };
}

describe('change email', () => {
  it('stores the new email (trimmed, lower-cased), keeps this session and ends the others', async () => {
    const { email, cookie: here } = await signedUp('chg-email');
    const elsewhere = sessionCookie(await login(gw.app, email, STRONG_PASSWORD));
    const next = uniqueEmail('chg-email-new');
    const changed = await changeEmail(here, `  ${next.toUpperCase()} `);
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({ email: next });
    expect((await me(here)).json()).toMatchObject({ email: next });
    expect((await me(elsewhere)).statusCode).toBe(204);
    expect((await login(gw.app, email, STRONG_PASSWORD)).statusCode).toBe(401);
    expect((await login(gw.app, next, STRONG_PASSWORD)).statusCode).toBe(200);
    expect(gw.logs.some((line) => line.includes('"event":"user.email_changed"'))).toBe(true);
    // The email is not written to the log.
    expect(gw.logs.some((line) => line.includes(next))).toBe(false);
  });

  it('answers 409 "That email is already in use" for another account’s email, in any case', async () => {
    const other = await signedUp('taken');
    const { email, cookie } = await signedUp('wants-taken');
    const refused = await changeEmail(cookie, other.email.toUpperCase());
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'conflict_email_taken',
      message: 'That email is already in use',
      field: 'email',
    });
    expect((await me(cookie)).json().email).toBe(email);
  });

  it('refuses a wrong current password (400) before saying whether the email is taken', async () => {
    const other = await signedUp('taken-2');
    const { email, cookie } = await signedUp('wrong-pw');
    for (const target of [other.email, uniqueEmail('free')]) {
      const refused = await changeEmail(cookie, target, 'Not-my-password-1');
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({
        code: 'wrong_current_password',
        message: 'Current password is incorrect',
        field: 'currentPassword',
      });
    }
    expect((await me(cookie)).json().email).toBe(email);
  });

  it.each([
    [
      'a malformed email',
      { email: 'not-an-email', currentPassword: STRONG_PASSWORD },
      'Please enter a valid email address',
    ],
    ['an empty email', { email: '', currentPassword: STRONG_PASSWORD }, 'Please enter your new email'],
    ['no current password', { email: 'a@example.com', currentPassword: '' }, 'Please enter your current password'],
    [
      'a 262-character email',
      { email: `${'a'.repeat(250)}@example.com`, currentPassword: STRONG_PASSWORD },
      'Email is too long',
    ],
    ['an extra field', { email: 'a@example.com', currentPassword: STRONG_PASSWORD, isDemo: true }, expect.any(String)],
  ])('refuses %s with a clear 400', async (_case, payload, message) => {
    const { cookie } = await signedUp('bad-email');
    const refused = await post(cookie, '/api/user/change-email', payload);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'validation_failed', message });
  });

  it('says so when the new email is the current one', async () => {
    const { email, cookie } = await signedUp('same');
    const refused = await changeEmail(cookie, email.toUpperCase());
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('That is already your email');
  });

  it('counts wrong current passwords with change password: 429 once 10 are used up, until the window ends', async () => {
    const { cookie } = await signedUp('email-throttle');
    const next = uniqueEmail('after-throttle');
    for (let i = 0; i < 5; i += 1) expect((await changeEmail(cookie, next, `Wrong-current-${i}`)).statusCode).toBe(400);
    for (let i = 5; i < 10; i += 1)
      expect(
        (await post(cookie, '/api/user/change-password', { currentPassword: `Wrong-${i}`, newPassword: 'Brand-new-9' }))
          .statusCode,
      ).toBe(400);
    const refused = await changeEmail(cookie, next);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().message).toMatch(/^Too many wrong current passwords\. Try again in \d+ seconds\.$/);
    expect(gw.logs.some((line) => line.includes('"event":"user.email_change_locked"'))).toBe(true);
    await advanceRedisClock(60);
    expect((await changeEmail(cookie, next)).statusCode).toBe(200);
  });

  it('refuses a demo account’s email and password change (403), even with its password', async () => {
    const { email, cookie } = await signedUp('demo');
    await queryDatabase(
      bed.database.url,
      `UPDATE app_user SET is_demo = true, demo_expires_at = now() + interval '1 day' WHERE email = $1`,
      [email],
    );
    const byEmail = await changeEmail(cookie, uniqueEmail('demo-new'));
    const byPassword = await post(cookie, '/api/user/change-password', {
      currentPassword: STRONG_PASSWORD,
      newPassword: 'Brand-new-pass-9',
    });
    for (const refused of [byEmail, byPassword]) {
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({
        code: 'forbidden',
        message: "The demo account's email and password cannot be changed. Create a free account to keep your own.",
      });
    }
    expect((await me(cookie)).json()).toMatchObject({ email, isDemo: true });
    expect((await login(gw.app, email, STRONG_PASSWORD)).statusCode).toBe(200);
  });
});

describe('display currency', () => {
  it('is stored on the account: a new sign-in (another browser) reads it from GET /api/auth/user', async () => {
    const { email, cookie } = await signedUp('currency');
    expect((await me(cookie)).json().currency).toBe('USD');
    const saved = await gw.app.inject({
      method: 'PATCH',
      url: '/api/user/settings',
      headers: { ...SAME_ORIGIN, cookie },
      payload: { currency: 'GBP' },
    });
    expect(saved.json()).toEqual({ currency: 'GBP' });
    const otherBrowser = sessionCookie(await login(gw.app, email, STRONG_PASSWORD));
    expect((await me(otherBrowser)).json().currency).toBe('GBP');
    expect((await login(gw.app, email, STRONG_PASSWORD)).json().user.currency).toBe('GBP');
  });
});
