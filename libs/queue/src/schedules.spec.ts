import { schedulesFor } from './schedules';

const CONFIG = {
  DEMO_CLEANUP_EVERY_SECONDS: 600,
  SYNC_EVERY_MINUTES: 15,
  RESYNC_CRON: '0 3 * * *',
  RESYNC_TZ: 'UTC',
  FX_RATES_CRON: '20 16,18 * * 1-5',
};

describe('the schedule table', () => {
  it('has the nightly resync on RESYNC_CRON in RESYNC_TZ', () => {
    expect(schedulesFor(CONFIG).find((row) => row.id === 'nightly-resync')).toMatchObject({
      timing: { pattern: '0 3 * * *', tz: 'UTC' },
      data: { mode: 'nightly' },
    });
  });

  it('leaves the nightly resync out with RESYNC_CRON=off (a Kubernetes CronJob runs `cli.js resync` instead)', () => {
    expect(schedulesFor({ ...CONFIG, RESYNC_CRON: 'off' }).map((row) => row.id)).toEqual([
      'demo-cleanup',
      'incremental-sync',
      'sync-reconcile',
      'fx-rates-daily',
    ]);
  });

  it("refreshes the ECB rates on the fx-rate queue on FX_RATES_CRON, in the ECB's time zone; off removes it", () => {
    expect(schedulesFor(CONFIG).find((row) => row.id === 'fx-rates-daily')).toEqual({
      id: 'fx-rates-daily',
      queue: 'fx-rate',
      job: 'refresh-rates',
      timing: { pattern: '20 16,18 * * 1-5', tz: 'Europe/Berlin' },
      data: { reason: 'schedule' },
    });
    expect(schedulesFor({ ...CONFIG, FX_RATES_CRON: 'off' }).map((row) => row.id)).not.toContain('fx-rates-daily');
  });
});
