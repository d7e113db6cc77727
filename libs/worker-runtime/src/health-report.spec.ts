import { buildHealthReport, type HealthChecks } from './health-report';

const healthy: HealthChecks = {
  postgres: { status: 'up' },
  redis: { status: 'up' },
  queue: { name: 'matcher', running: true, paused: false, concurrency: 1 },
};

describe('a worker health report', () => {
  it('is 200 when both dependencies answer and the worker consumes its queue', () => {
    expect(buildHealthReport('matcher', healthy)).toEqual({
      httpStatus: 200,
      body: { status: 'ok', service: 'matcher', failing: [], checks: healthy },
    });
  });

  it.each([
    ['postgres', { ...healthy, postgres: { status: 'down', reason: 'ECONNREFUSED' } }],
    ['redis', { ...healthy, redis: { status: 'down', reason: 'no answer within 1000 ms' } }],
    ['queue', { ...healthy, queue: { ...healthy.queue, running: false } }],
    ['queue', { ...healthy, queue: { ...healthy.queue, paused: true } }],
  ] as Array<[string, HealthChecks]>)('is 503 naming %s when it fails', (failing, checks) => {
    const report = buildHealthReport('matcher', checks);
    expect(report.httpStatus).toBe(503);
    expect(report.body.status).toBe('error');
    expect(report.body.failing).toEqual([failing]);
  });
});
