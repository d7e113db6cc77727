import Redis from 'ioredis';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  GatewayTestBed,
  SAME_ORIGIN,
  STRONG_PASSWORD,
  register,
  sessionCookie,
  uniqueEmail,
  type TestGateway,
} from './support/test-gateway';

// Lockout abuse (issue 7) and item 17: guessing is slowed per address, per (account, address or
// device) and per account, but an attacker spraying from many addresses cannot lock the owner's
// known devices and addresses out. Time passes by moving every Redis window forward.

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

/** Lets `seconds` pass for every throttle window of this run (Redis TTLs are its clock). */
async function advanceRedisClock(seconds: number): Promise<void> {
  const keys = await redis.keys(`${bed.redisPrefix}:*`);
  for (const key of keys) {
    const ttl = await redis.ttl(key);
    if (ttl < 0) continue;
    if (ttl <= seconds) await redis.del(key);
    else await redis.expire(key, ttl - seconds);
  }
}

const DEVICE_COOKIE = 'podprofit_device';

/** The known-device cookie a sign-in or sign-up set, as "name=value". */
function deviceCookie(response: { headers: Record<string, unknown> }): string {
  const all = [response.headers['set-cookie']].flat().filter((c): c is string => typeof c === 'string');
  const device = all.find((c) => c.startsWith(`${DEVICE_COOKIE}=`));
  if (!device) throw new Error('no known-device cookie was set');
  return device.split(';')[0];
}

function signIn(app: NestFastifyApplication, email: string, password: string, ip: string, cookie?: string) {
  return app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: { ...SAME_ORIGIN, ...(cookie ? { cookie } : {}) },
    remoteAddress: ip,
    payload: { email, password },
  });
}

/** An owner who signed up from `homeIp` in a browser that kept the known-device cookie. */
async function owner(homeIp: string) {
  const email = uniqueEmail('owner');
  const created = await register(gw.app, email, STRONG_PASSWORD, homeIp);
  expect(created.statusCode).toBe(201);
  return { email, device: deviceCookie(created), userId: created.json().user.id as string };
}

describe('sign-in lockout cannot be turned against the owner', () => {
  it('spraying from many addresses locks unknown origins for the window only, never the owner’s device or address', async () => {
    const { email, device } = await owner('192.0.2.10');
    const statuses: number[] = [];
    for (let i = 1; i <= 10; i += 1)
      statuses.push((await signIn(gw.app, email, `Guess-${i}-pass`, `203.0.113.${i}`)).statusCode);
    expect(statuses).toEqual(Array(10).fill(401));
    const eleventh = await signIn(gw.app, email, 'Guess-11-pass', '203.0.113.11');
    expect(eleventh.statusCode).toBe(429);
    expect(Number(eleventh.headers['retry-after'])).toBeGreaterThan(0);
    expect(gw.logs.some((l) => l.includes('"event":"auth.login_locked"') && l.includes('"scope":"account"'))).toBe(
      true,
    );

    // Neither a made-up nor another account's (valid) device cookie counts as the owner's device.
    const forged = `${device.slice(0, -3)}abc`;
    expect((await signIn(gw.app, email, STRONG_PASSWORD, '203.0.113.12', forged)).statusCode).toBe(429);
    const attackersOwn = await owner('203.0.113.13');
    expect((await signIn(gw.app, email, STRONG_PASSWORD, '203.0.113.13', attackersOwn.device)).statusCode).toBe(429);

    // The owner: the usual browser from anywhere, and the usual address, get in at once.
    expect((await signIn(gw.app, email, STRONG_PASSWORD, '198.51.100.5', device)).statusCode).toBe(200);
    expect((await signIn(gw.app, email, STRONG_PASSWORD, '192.0.2.10')).statusCode).toBe(200);
    // A new address without the cookie waits for the window (soft lockout), then gets in.
    expect((await signIn(gw.app, email, STRONG_PASSWORD, '198.51.100.77')).statusCode).toBe(429);
    await advanceRedisClock(60);
    expect((await signIn(gw.app, email, STRONG_PASSWORD, '198.51.100.77')).statusCode).toBe(200);
  });

  it('someone on the owner’s network cannot lock the owner’s browser out', async () => {
    const shared = '192.0.2.20';
    const { email, device } = await owner(shared);
    const own: number[] = [];
    for (let i = 1; i <= 11; i += 1) own.push((await signIn(gw.app, email, `Guess-${i}-pass`, shared)).statusCode);
    expect(own.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(own[10]).toBe(429);
    // ... and uses up the address's limit across accounts too.
    for (let i = 0; i < 25; i += 1) await signIn(gw.app, uniqueEmail('other'), 'Guess-pass-1', shared);
    expect((await signIn(gw.app, uniqueEmail('other'), 'Guess-pass-1', shared)).statusCode).toBe(429);
    expect((await signIn(gw.app, email, STRONG_PASSWORD, shared, device)).statusCode).toBe(200);
  });

  it('lets at most 100 failures a hour reach argon2 for one account, keeping headroom for the owner', async () => {
    const { email, device, userId } = await owner('192.0.2.30');
    let attackerFailures = 0;
    // An hour of spraying: 10 a minute from fresh addresses, until even a new minute is refused.
    for (let minute = 0; minute < 12; minute += 1) {
      for (let i = 0; i < 11; i += 1) {
        const status = (await signIn(gw.app, email, 'Guess-pass-1', `203.0.${100 + minute}.${i + 1}`)).statusCode;
        if (status === 401) attackerFailures += 1;
        else expect(status).toBe(429);
      }
      await advanceRedisClock(60);
    }
    expect(attackerFailures).toBe(80);
    expect((await signIn(gw.app, email, STRONG_PASSWORD, '198.51.100.9')).statusCode).toBe(429);
    expect(gw.logs.some((l) => l.includes('"event":"auth.login_locked"') && l.includes('"scope":"account-hour"'))).toBe(
      true,
    );

    // The owner's usual address still has 10 tries, the usual browser 10 more.
    const fromAddress: number[] = [];
    for (let i = 0; i < 11; i += 1)
      fromAddress.push((await signIn(gw.app, email, 'Typo-pass-1', '192.0.2.30')).statusCode);
    expect(fromAddress).toEqual([...Array(10).fill(401), 429]);
    expect((await signIn(gw.app, email, STRONG_PASSWORD, '198.51.100.10', device)).statusCode).toBe(200);
    await advanceRedisClock(60);
    const fromDevice: number[] = [];
    for (let i = 0; i < 11; i += 1)
      fromDevice.push((await signIn(gw.app, email, 'Typo-pass-1', '198.51.100.10', device)).statusCode);
    expect(fromDevice).toEqual([...Array(10).fill(401), 429]);
    // 80 + 10 + 10: the hour is used up for every origin now.
    await advanceRedisClock(60);
    expect((await signIn(gw.app, email, 'Typo-pass-1', '198.51.100.10', device)).statusCode).toBe(429);
    // Every failed verification is logged: exactly 100 reached argon2 in the hour.
    const failures = gw.logs.filter(
      (l) => l.includes('"event":"auth.login_failed"') && l.includes(`"userId":"${userId}"`),
    ).length;
    expect(failures).toBe(100);
    await advanceRedisClock(3600);
    expect((await signIn(gw.app, email, STRONG_PASSWORD, '198.51.100.11')).statusCode).toBe(200);
  }, 120_000);

  it('sets the known-device cookie HttpOnly and SameSite=Strict for 180 days, on sign-up and sign-in', async () => {
    const email = uniqueEmail('cookie');
    const created = await register(gw.app, email, STRONG_PASSWORD, '192.0.2.40');
    const signedIn = await signIn(gw.app, email, STRONG_PASSWORD, '192.0.2.40', deviceCookie(created));
    for (const response of [created, signedIn]) {
      const raw = [response.headers['set-cookie']].flat().find((c) => String(c).startsWith(`${DEVICE_COOKIE}=`));
      expect(raw).toMatch(/; Max-Age=15552000; Path=\/; HttpOnly; SameSite=Strict$/);
    }
    // The same browser keeps its device id.
    expect(deviceCookie(signedIn)).toBe(deviceCookie(created));
  });
});

describe('change password is throttled like sign-in', () => {
  it('answers 400 to 10 wrong current passwords, then 429 with Retry-After, even to the right one, until the window ends', async () => {
    const email = uniqueEmail('chg-throttle');
    const cookie = sessionCookie(await register(gw.app, email, STRONG_PASSWORD, '192.0.2.50'));
    const change = (currentPassword: string) =>
      gw.app.inject({
        method: 'POST',
        url: '/api/user/change-password',
        headers: { ...SAME_ORIGIN, cookie },
        payload: { currentPassword, newPassword: 'Brand-new-pass-9' },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) statuses.push((await change(`Wrong-current-${i}`)).statusCode);
    expect(statuses).toEqual(Array(10).fill(400));
    for (const attempt of ['Wrong-current-10', STRONG_PASSWORD]) {
      const refused = await change(attempt);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.json().message).toMatch(/^Too many wrong current passwords\. Try again in \d+ seconds\.$/);
    }
    expect(gw.logs.some((l) => l.includes('"event":"user.password_change_locked"'))).toBe(true);
    await advanceRedisClock(60);
    expect((await change(STRONG_PASSWORD)).statusCode).toBe(200);
  });
});
