import { loadConfig } from './load-config';

// An explicit APP_SECRET keeps loadConfig away from the generated local secret file.
const BASE = { NODE_ENV: 'test', APP_SECRET: 'a'.repeat(32) };

describe('worker tuning', () => {
  it('leaves the queue contract defaults alone when unset or empty', () => {
    const config = loadConfig({ ...BASE, WORKER_LOCK_DURATION_MS: '' });
    expect(config.WORKER_LOCK_DURATION_MS).toBeUndefined();
    expect(config.WORKER_STALLED_INTERVAL_MS).toBeUndefined();
    expect(config.WORKER_MAX_STALLED_COUNT).toBeUndefined();
  });

  it('reads whole milliseconds and a stall count', () => {
    const config = loadConfig({
      ...BASE,
      WORKER_LOCK_DURATION_MS: '120000',
      WORKER_STALLED_INTERVAL_MS: '5000',
      WORKER_MAX_STALLED_COUNT: '0',
    });
    expect(config).toMatchObject({
      WORKER_LOCK_DURATION_MS: 120_000,
      WORKER_STALLED_INTERVAL_MS: 5_000,
      WORKER_MAX_STALLED_COUNT: 0,
    });
  });

  it.each([
    ['WORKER_LOCK_DURATION_MS', ['999', '3600001', '1.5', 'abc', '-1']],
    ['WORKER_STALLED_INTERVAL_MS', ['0', '999', '3600001', '30s']],
    ['WORKER_MAX_STALLED_COUNT', ['-1', '11', '1.5', 'many']],
  ])('refuses a bad %s, naming it', (name, values) => {
    for (const value of values) expect(() => loadConfig({ ...BASE, [name]: value })).toThrow(new RegExp(name));
  });
});
