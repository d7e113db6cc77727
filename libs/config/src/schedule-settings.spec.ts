import { isCronPattern, isTimeZone } from './schedule-settings';
import { loadConfig } from './load-config';

describe('schedule settings', () => {
  it.each(['0 3 * * *', '*/15 * * * *', '0 0 3 * * 1-5'])('accepts the cron pattern %s', (pattern) =>
    expect(isCronPattern(pattern)).toBe(true),
  );
  it.each(['', 'nightly', '0 3 * *', '61 3 * * *', '0 25 * * *', '0 3 * * * * *'])('refuses %p', (pattern) =>
    expect(isCronPattern(pattern)).toBe(false),
  );
  it.each(['UTC', 'Europe/London', 'America/Argentina/Buenos_Aires'])('knows the zone %s', (zone) =>
    expect(isTimeZone(zone)).toBe(true),
  );
  it.each(['', 'Mars/Olympus', 'UTC; rm -rf', '../etc'])('refuses the zone %p', (zone) =>
    expect(isTimeZone(zone)).toBe(false),
  );
});

describe('RESYNC_CRON, RESYNC_TZ, SYNC_EVERY_MINUTES', () => {
  const BASE = { NODE_ENV: 'test', APP_SECRET: 'a'.repeat(32) };

  it('default to 03:00 UTC nightly and every 15 minutes', () => {
    const config = loadConfig(BASE);
    expect([config.RESYNC_CRON, config.RESYNC_TZ, config.SYNC_EVERY_MINUTES]).toEqual(['0 3 * * *', 'UTC', 15]);
  });

  it('refuse a bad pattern or zone with a message naming the variable', () => {
    expect(() => loadConfig({ ...BASE, RESYNC_CRON: 'every night' })).toThrow(/RESYNC_CRON must be a cron pattern/);
    expect(() => loadConfig({ ...BASE, RESYNC_TZ: 'Mars/Olympus' })).toThrow(/RESYNC_TZ must be an IANA time zone/);
    expect(() => loadConfig({ ...BASE, SYNC_EVERY_MINUTES: '-5' })).toThrow();
  });
});
