import { ConfigError, loadConfig } from './load-config';

// An explicit APP_SECRET keeps loadConfig away from the generated local secret file.
const BASE = { NODE_ENV: 'test', APP_SECRET: 'a'.repeat(32) };

describe('SHUTDOWN_TIMEOUT_MS', () => {
  it('defaults to 10 s when unset or empty', () => {
    expect(loadConfig(BASE).SHUTDOWN_TIMEOUT_MS).toBe(10_000);
    expect(loadConfig({ ...BASE, SHUTDOWN_TIMEOUT_MS: '' }).SHUTDOWN_TIMEOUT_MS).toBe(10_000);
  });

  it('reads whole milliseconds from 1 s to 2 min', () => {
    expect(loadConfig({ ...BASE, SHUTDOWN_TIMEOUT_MS: '4000' }).SHUTDOWN_TIMEOUT_MS).toBe(4_000);
    expect(loadConfig({ ...BASE, SHUTDOWN_TIMEOUT_MS: '1000' }).SHUTDOWN_TIMEOUT_MS).toBe(1_000);
    expect(loadConfig({ ...BASE, SHUTDOWN_TIMEOUT_MS: '120000' }).SHUTDOWN_TIMEOUT_MS).toBe(120_000);
  });

  it('refuses nonsense, naming the variable', () => {
    for (const bad of ['abc', '10.5', '0', '-1', '999', '120001', '9999999']) {
      expect(() => loadConfig({ ...BASE, SHUTDOWN_TIMEOUT_MS: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ ...BASE, SHUTDOWN_TIMEOUT_MS: bad })).toThrow(/SHUTDOWN_TIMEOUT_MS/);
    }
  });
});

describe('DATABASE_APP_ROLE', () => {
  it('is podprofit_app unless set; none keeps the login', () => {
    expect(loadConfig(BASE).DATABASE_APP_ROLE).toBe('podprofit_app');
    expect(loadConfig({ ...BASE, DATABASE_APP_ROLE: 'none' }).DATABASE_APP_ROLE).toBe('none');
    expect(loadConfig({ ...BASE, DATABASE_APP_ROLE: 'shop_app_2' }).DATABASE_APP_ROLE).toBe('shop_app_2');
  });

  it('refuses anything but a plain role name (it goes into the connection options), naming the variable', () => {
    for (const bad of ['Podprofit', 'app role', 'app -c role=postgres', '1app', 'a'.repeat(64), 'app;']) {
      expect(() => loadConfig({ ...BASE, DATABASE_APP_ROLE: bad })).toThrow(/DATABASE_APP_ROLE/);
    }
  });
});

describe('HEALTH_HOST', () => {
  it('binds worker health endpoints to loopback unless told otherwise', () => {
    expect(loadConfig(BASE).HEALTH_HOST).toBe('127.0.0.1');
    expect(loadConfig({ ...BASE, HEALTH_HOST: '0.0.0.0' }).HEALTH_HOST).toBe('0.0.0.0');
    expect(loadConfig({ ...BASE, HEALTH_HOST: '::1' }).HEALTH_HOST).toBe('::1');
  });

  it('refuses anything but an IP address, naming the variable', () => {
    for (const bad of ['localhost', 'all', '0.0.0.0:5101'])
      expect(() => loadConfig({ ...BASE, HEALTH_HOST: bad })).toThrow(/HEALTH_HOST/);
  });
});

describe('WEBHOOK_PUBLIC_URL and ETSY_WEBHOOK_SECRET', () => {
  const LIVE = { ...BASE, ETSY_API_KEY: 'key', ETSY_SHARED_SECRET: 'secret' };
  const SECRET = `whsec_${Buffer.alloc(24, 3).toString('base64')}`;

  it('are off unless set', () => {
    const config = loadConfig(BASE);
    expect(config.WEBHOOK_PUBLIC_URL).toBeUndefined();
    expect(config.webhookPublicBase).toBeNull();
    expect(config.ETSY_WEBHOOK_SECRET).toBeUndefined();
  });

  it('take https anywhere, and http only in demo mode (the sandbox posts from this machine)', () => {
    expect(loadConfig({ ...LIVE, WEBHOOK_PUBLIC_URL: 'https://podprofit.example.com/' }).webhookPublicBase).toBe(
      'https://podprofit.example.com',
    );
    expect(loadConfig({ ...LIVE, WEBHOOK_PUBLIC_URL: 'https://example.com/pod' }).webhookPublicBase).toBe(
      'https://example.com/pod',
    );
    expect(loadConfig({ ...BASE, WEBHOOK_PUBLIC_URL: 'http://localhost:5000' }).webhookPublicBase).toBe(
      'http://localhost:5000',
    );
    expect(() => loadConfig({ ...LIVE, WEBHOOK_PUBLIC_URL: 'http://podprofit.example.com' })).toThrow(
      /WEBHOOK_PUBLIC_URL must be an https URL/,
    );
    for (const bad of [
      'podprofit.example.com',
      'ftp://x.example',
      'https://x.example/?a=1',
      'https://x.example/#f',
      'https://user:pw@x.example',
      'https://',
    ]) {
      expect(() => loadConfig({ ...BASE, WEBHOOK_PUBLIC_URL: bad })).toThrow(/WEBHOOK_PUBLIC_URL/);
    }
  });

  it('take the portal secret as whsec_ and base64 of at least 16 bytes', () => {
    expect(loadConfig({ ...BASE, ETSY_WEBHOOK_SECRET: SECRET }).ETSY_WEBHOOK_SECRET).toBe(SECRET);
    for (const bad of [
      Buffer.alloc(24).toString('base64'),
      'whsec_',
      `whsec_${Buffer.alloc(8).toString('base64')}`,
      'whsec_not base64!',
    ]) {
      expect(() => loadConfig({ ...BASE, ETSY_WEBHOOK_SECRET: bad })).toThrow(/ETSY_WEBHOOK_SECRET/);
    }
  });
});

describe('USER_REQUEST_CONCURRENCY and USER_REQUEST_QUEUE', () => {
  it('default to half the pool (at least 1) and 16 waiting', () => {
    expect(loadConfig(BASE).userRequestConcurrency).toBe(2);
    expect(loadConfig({ ...BASE, DATABASE_POOL_SIZE: '10' }).userRequestConcurrency).toBe(5);
    expect(loadConfig({ ...BASE, DATABASE_POOL_SIZE: '1' }).userRequestConcurrency).toBe(1);
    expect(loadConfig({ ...BASE, DATABASE_POOL_SIZE: '3' }).userRequestConcurrency).toBe(1);
    expect(loadConfig(BASE).USER_REQUEST_QUEUE).toBe(16);
  });

  it('take a share under the pool, so one user cannot hold every connection', () => {
    expect(loadConfig({ ...BASE, DATABASE_POOL_SIZE: '8', USER_REQUEST_CONCURRENCY: '7' }).userRequestConcurrency).toBe(
      7,
    );
    for (const [pool, perUser] of [
      ['5', '5'],
      ['5', '6'],
      ['2', '2'],
      ['1', '2'],
      ['5', '0'],
      ['5', 'x'],
    ]) {
      expect(() => loadConfig({ ...BASE, DATABASE_POOL_SIZE: pool, USER_REQUEST_CONCURRENCY: perUser })).toThrow(
        /USER_REQUEST_CONCURRENCY/,
      );
    }
    expect(() => loadConfig({ ...BASE, USER_REQUEST_QUEUE: '-1' })).toThrow(/USER_REQUEST_QUEUE/);
  });
});
