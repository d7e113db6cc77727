import { loadConfig } from './load-config';

// An explicit APP_SECRET keeps loadConfig away from the generated local secret file.
const BASE = { NODE_ENV: 'test', APP_SECRET: 'a'.repeat(32) };

describe('RESYNC_CRON=off', () => {
  it('is accepted (the built-in nightly resync is then off); other words are not', () => {
    expect(loadConfig({ ...BASE, RESYNC_CRON: 'off' }).RESYNC_CRON).toBe('off');
    expect(() => loadConfig({ ...BASE, RESYNC_CRON: 'never' })).toThrow(/RESYNC_CRON/);
  });
});
