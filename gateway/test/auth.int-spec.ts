import { execFileSync } from 'node:child_process';
import Redis from 'ioredis';
import { hash } from '@node-rs/argon2';
import { JwtService } from '@nestjs/jwt';
import { deriveKey } from '@pod/config';
import { queryDatabase, TEST_APP_SECRET } from '@pod/testing';
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

const bed = new GatewayTestBed();
let gw: TestGateway;
let replica: TestGateway;

beforeAll(async () => {
  await bed.setUp();
  gw = await bed.start();
  replica = await bed.start();
});
afterAll(() => bed.tearDown());

const me = (app = gw.app, cookie?: string) =>
  app.inject({ method: 'GET', url: '/api/auth/user', headers: cookie ? { cookie } : {} });

describe('accounts', () => {
  it('registers, answers the current user, and refuses a taken email with 409', async () => {
    const email = uniqueEmail();
    const created = await register(gw.app, email);
    expect(created.statusCode).toBe(201);
    expect(created.json().user).toEqual({
      id: expect.any(String),
      email,
      firstName: 'Test',
      lastName: 'Seller',
      currency: 'USD',
      isDemo: false,
    });
    const cookie = sessionCookie(created);
    expect((await me(gw.app, cookie)).json()).toMatchObject({ email, firstName: 'Test' });
    const again = await register(gw.app, email.toUpperCase());
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('An account with this email already exists');
  });

  it('answers 204 with no body when signed out (signed out is an answer, not an error)', async () => {
    const response = await me();
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    // Any other route still needs a session.
    const orders = await gw.app.inject({ method: 'GET', url: '/api/orders' });
    expect(orders.statusCode).toBe(401);
    expect(orders.json()).toEqual({
      statusCode: 401,
      error: 'Unauthorized',
      message: 'Please sign in to continue.',
      code: 'unauthenticated',
    });
  });

  it.each([
    [{ password: 'short', confirmPassword: 'short' }, 'Password must be at least 8 characters long'],
    [
      { password: 'password1', confirmPassword: 'password1' },
      'This password is too common. Please choose a less guessable one.',
    ],
    [{ password: 'Correct-Horse-7', confirmPassword: 'Different-Horse-7' }, "Passwords don't match"],
    [{ email: 'not-an-email' }, 'Please enter a valid email address'],
    [{ firstName: '   ' }, 'Please fill in all fields'],
    [{ email: '' }, 'Please fill in all fields'],
    [{ email: 'x'.repeat(250) + '@a.co' }, 'Email is too long'],
    [{ lastName: 'y'.repeat(101) }, 'Last name must be at most 100 characters'],
    [{ confirmPassword: 7 }, 'Confirm password must be text'],
    [{ password: undefined }, 'Please fill in all fields'],
    [{ lastName: null }, 'Please fill in all fields'],
  ])('refuses bad sign-up input %j with a clear 400', async (override, message) => {
    const payload = {
      email: uniqueEmail(),
      password: STRONG_PASSWORD,
      confirmPassword: STRONG_PASSWORD,
      firstName: 'A',
      lastName: 'B',
      ...override,
    };
    const response = await gw.app.inject({ method: 'POST', url: '/api/auth/register', headers: SAME_ORIGIN, payload });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
  });

  it('stores argon2id hashes at or above policy and round-trips long and emoji passwords untruncated', async () => {
    const email = uniqueEmail('emoji');
    const password = `${'p'.repeat(60)}🔐🎉x`;
    expect((await register(gw.app, email, password)).statusCode).toBe(201);
    const [row] = await query<{ password_hash: string }>(`SELECT password_hash FROM app_user WHERE email = '${email}'`);
    const match = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=1\$/.exec(row.password_hash);
    expect(match).not.toBeNull();
    expect(Number(match![1])).toBeGreaterThanOrEqual(19456);
    expect(Number(match![2])).toBeGreaterThanOrEqual(2);
    expect((await login(gw.app, email, password)).statusCode).toBe(200);
    expect((await login(gw.app, email, password.slice(0, -1))).statusCode).toBe(401);
  });
  it('re-hashes a password stored under weaker parameters at the next sign-in', async () => {
    const email = uniqueEmail('rehash');
    const password = 'Legacy-Params-Pass-1';
    await register(gw.app, email, password);
    const weak = await hash(password, { memoryCost: 4096, timeCost: 1, parallelism: 1 });
    await query(`UPDATE app_user SET password_hash = '${weak}' WHERE email = '${email}'`);
    expect((await login(gw.app, email, password)).statusCode).toBe(200);
    const [row] = await query<{ password_hash: string }>(`SELECT password_hash FROM app_user WHERE email = '${email}'`);
    expect(row.password_hash).not.toBe(weak);
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect((await login(gw.app, email, password)).statusCode).toBe(200);
  });
});

describe('sign-in throttling (item 17) and no enumeration (item 18)', () => {
  it('answers 401 to attempts 1–10 and 429 with Retry-After to the 11th, across two replicas', async () => {
    const email = uniqueEmail('brute');
    await register(gw.app, email);
    const statuses: number[] = [];
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      const app = attempt % 2 ? gw.app : replica.app;
      statuses.push((await login(app, email, 'wrong-password-1', `10.0.0.${attempt}`)).statusCode);
    }
    expect(statuses).toEqual(Array(10).fill(401));
    const eleventh = await login(replica.app, email, STRONG_PASSWORD, '10.0.1.1');
    expect(eleventh.statusCode).toBe(429);
    expect(Number(eleventh.headers['retry-after'])).toBeGreaterThan(0);
    expect(eleventh.json().message).toMatch(/^Too many sign-in attempts\. Try again in \d+ seconds\.$/);
    expect([...gw.logs, ...replica.logs].some((line) => line.includes('"event":"auth.login_locked"'))).toBe(true);
  });

  it('limits failures per IP across accounts', async () => {
    const ip = '10.9.9.9';
    const statuses: number[] = [];
    for (let i = 0; i < 31; i += 1)
      statuses.push((await login(gw.app, uniqueEmail('ip'), 'whatever-pass', ip)).statusCode);
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(statuses[30]).toBe(429);
  });

  it('answers an unknown email exactly like a wrong password, in about the same time', async () => {
    const email = uniqueEmail('enum');
    await register(gw.app, email);
    const unknown = await login(gw.app, uniqueEmail('nobody'), 'Wrong-pass-123', '10.1.0.1');
    const wrong = await login(gw.app, email, 'Wrong-pass-123', '10.1.0.2');
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.body).toBe(wrong.body);

    // Several real accounts, so that no account reaches its 10-failures limit during the measurement.
    const accounts = [email];
    for (let i = 0; i < 4; i += 1) {
      const extra = uniqueEmail('enum');
      await register(gw.app, extra);
      accounts.push(extra);
    }
    const samples = { unknown: [] as number[], wrong: [] as number[] };
    for (let i = 0; i < 40; i += 1) {
      const target = i % 2 ? 'unknown' : 'wrong';
      const address = target === 'wrong' ? accounts[(i / 2) % accounts.length] : uniqueEmail('nobody');
      const started = process.hrtime.bigint();
      const response = await login(gw.app, address, 'Wrong-pass-123', `10.2.${i}.1`);
      samples[target].push(Number(process.hrtime.bigint() - started) / 1e6);
      expect(response.statusCode).toBe(401);
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    expect(Math.abs(median(samples.unknown) - median(samples.wrong))).toBeLessThan(10);
  }, 30_000);
});

describe('sessions (item 20)', () => {
  it('issues a new session per sign-in, and logout ends it on every replica', async () => {
    const email = uniqueEmail('sess');
    await register(gw.app, email);
    const first = sessionCookie(await login(gw.app, email, STRONG_PASSWORD));
    const second = sessionCookie(await login(gw.app, email, STRONG_PASSWORD));
    expect(first).not.toBe(second);
    expect((await me(replica.app, first)).statusCode).toBe(200);
    const out = await gw.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { ...SAME_ORIGIN, cookie: first },
    });
    expect(out.statusCode).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/podprofit_session=;/);
    expect((await me(replica.app, first)).statusCode).toBe(204);
    expect((await me(replica.app, second)).statusCode).toBe(200);
  });

  it('refuses forged, foreign-algorithm, expired and unknown-session tokens', async () => {
    const email = uniqueEmail('forge');
    const created = await register(gw.app, email);
    const userId = created.json().user.id as string;
    const key = deriveKey(TEST_APP_SECRET, 'session-jwt');
    const jwt = new JwtService({});
    const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const tokens = [
      `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: userId, sid: 'x', exp: now + 60 })}.`,
      jwt.sign({ sub: userId, sid: 'x' }, { secret: key, algorithm: 'HS512' }),
      jwt.sign(
        { sub: userId, sid: 'x' },
        { secret: Buffer.from('another-key-another-key-another-key!'), algorithm: 'HS256' },
      ),
      jwt.sign({ sub: userId, sid: 'x', exp: now - 10 }, { secret: key, algorithm: 'HS256' }),
      jwt.sign({ sub: userId, sid: 'never-issued' }, { secret: key, algorithm: 'HS256', expiresIn: 60 }),
    ];
    for (const token of tokens) expect((await me(gw.app, `podprofit_session=${token}`)).statusCode).toBe(204);
  });

  it('ends idle and past-absolute sessions from the session row', async () => {
    const email = uniqueEmail('idle');
    const cookie = sessionCookie(await register(gw.app, email));
    expect((await me(gw.app, cookie)).statusCode).toBe(200);
    await query(
      `UPDATE user_session SET last_seen_at = now() - interval '25 hours' WHERE user_id = (SELECT id FROM app_user WHERE email = '${email}')`,
    );
    expect((await me(gw.app, cookie)).statusCode).toBe(204);
    const fresh = sessionCookie(await login(gw.app, email, STRONG_PASSWORD));
    await query(
      `UPDATE user_session SET expires_at = now() - interval '1 second' WHERE user_id = (SELECT id FROM app_user WHERE email = '${email}')`,
    );
    expect((await me(gw.app, fresh)).statusCode).toBe(204);
  });
});

describe('password change and settings', () => {
  it('needs the current password, applies the rules, and ends the other sessions', async () => {
    const email = uniqueEmail('chg');
    const here = sessionCookie(await register(gw.app, email));
    const elsewhere = sessionCookie(await login(gw.app, email, STRONG_PASSWORD));
    const change = (payload: object) =>
      gw.app.inject({
        method: 'POST',
        url: '/api/user/change-password',
        headers: { ...SAME_ORIGIN, cookie: here },
        payload,
      });
    expect(
      (await change({ currentPassword: 'Not-my-password-1', newPassword: 'Brand-new-pass-9' })).json().message,
    ).toBe('Current password is incorrect');
    expect((await change({ currentPassword: STRONG_PASSWORD, newPassword: 'short' })).json().message).toBe(
      'Password must be at least 8 characters long',
    );
    const ok = await change({ currentPassword: STRONG_PASSWORD, newPassword: 'Brand-new-pass-9' });
    expect(ok.statusCode).toBe(200);
    expect((await me(gw.app, here)).statusCode).toBe(200);
    expect((await me(gw.app, elsewhere)).statusCode).toBe(204);
    expect((await login(gw.app, email, 'Brand-new-pass-9')).statusCode).toBe(200);
  });

  it('saves the display currency and refuses anything else (item 25)', async () => {
    const cookie = sessionCookie(await register(gw.app, uniqueEmail('cur')));
    const patch = (payload: unknown) =>
      gw.app.inject({
        method: 'PATCH',
        url: '/api/user/settings',
        headers: { ...SAME_ORIGIN, cookie },
        payload: payload as object,
      });
    expect((await patch({ currency: 'EUR' })).json()).toEqual({ currency: 'EUR' });
    expect((await me(gw.app, cookie)).json().currency).toBe('EUR');
    for (const bad of [
      { currency: 'JPY' },
      { currency: 'GBP', userId: 'x' },
      { currency: ['GBP'] },
      { currency: 'GBP', profit: 1 },
      [],
    ]) {
      const response = await patch(bad);
      expect(response.statusCode).toBe(400);
      expect(typeof response.json().message).toBe('string');
    }
    expect((await me(gw.app, cookie)).json().currency).toBe('EUR');
  });

  it('refuses mass assignment and wrong types at sign-up, and never returns secrets (item 25)', async () => {
    const base = {
      email: uniqueEmail('mass'),
      password: STRONG_PASSWORD,
      confirmPassword: STRONG_PASSWORD,
      firstName: 'A',
      lastName: 'B',
    };
    for (const extra of [
      { id: 'x' },
      { userId: 'x' },
      { role: 'admin' },
      { createdAt: '2020-01-01' },
      { passwordHash: 'x' },
    ]) {
      const response = await gw.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        headers: SAME_ORIGIN,
        payload: { ...base, ...extra },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/should not exist/);
    }
    const typed = await gw.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: SAME_ORIGIN,
      payload: { email: 'a@b.co', password: 123 },
    });
    expect(typed.json()).toMatchObject({
      statusCode: 400,
      message: 'Password must be text',
      code: 'validation_failed',
      field: 'password',
    });
    // An absent field is an unfilled one (spec: sign in needs both, else "Please fill in all fields").
    const missing = await gw.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: SAME_ORIGIN,
      payload: { email: 'a@b.co' },
    });
    expect(missing.json()).toMatchObject({
      statusCode: 400,
      message: 'Please fill in all fields',
      code: 'validation_failed',
      field: 'password',
    });
    const created = await gw.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: SAME_ORIGIN,
      payload: base,
    });
    expect(created.body).not.toMatch(/argon2|password/i);
  });
});

describe('secrets at rest (item 19)', () => {
  it('keeps the password out of the database dump, Redis and the logs', async () => {
    const password = 'Fixture-Pass-4242-Unique';
    const email = uniqueEmail('dump');
    await register(gw.app, email, password);
    await login(gw.app, email, 'Wrong-Fixture-Pass-1');
    await login(gw.app, email, password);
    const dump = execFileSync('pg_dump', ['--data-only', bed.database.url], { encoding: 'utf8' });
    expect(dump).toContain(email);
    expect(dump).not.toContain(password);
    const redis = new Redis('redis://127.0.0.1:6379');
    try {
      const keys = await redis.keys(`${bed.redisPrefix}:*`);
      expect(keys.length).toBeGreaterThan(0);
      const values = await Promise.all(keys.map(async (k) => ((await redis.type(k)) === 'string' ? redis.get(k) : '')));
      expect([...keys, ...values].join('\n')).not.toContain(password);
      expect(keys.join('\n')).not.toContain(email);
    } finally {
      redis.disconnect();
    }
    expect(gw.logs.join('\n')).not.toContain(password);
    expect(gw.logs.join('\n')).not.toMatch(/podprofit_session=ey/);
  });
});

const query = <T = unknown>(sql: string) => queryDatabase<T>(bed.database.url, sql);
