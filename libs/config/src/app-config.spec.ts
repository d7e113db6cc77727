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

describe('HEALTH_HOST', () => {
  it('binds worker health endpoints to loopback unless told otherwise', () => {
    expect(loadConfig(BASE).HEALTH_HOST).toBe('127.0.0.1');
    expect(loadConfig({ ...BASE, HEALTH_HOST: '0.0.0.0' }).HEALTH_HOST).toBe('0.0.0.0');
    expect(loadConfig({ ...BASE, HEALTH_HOST: '::1' }).HEALTH_HOST).toBe('::1');
  });

  it('refuses anything but an IP address, naming the variable', () => {
    for (const bad of ['localhost', 'all', '0.0.0.0:5101']) expect(() => loadConfig({ ...BASE, HEALTH_HOST: bad })).toThrow(/HEALTH_HOST/);
  });
});
