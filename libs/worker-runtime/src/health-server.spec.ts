import pino from 'pino';
import { ProcessMetrics } from '@pod/observability';
import { buildHealthReport } from './health-report';
import { HealthServer } from './health-server';

describe('a worker’s health server', () => {
  const servers: HealthServer[] = [];
  afterEach(async () => Promise.all(servers.splice(0).map((server) => server.close())));

  async function start(metrics?: () => Promise<{ contentType: string; body: string }>) {
    const report = () =>
      Promise.resolve(
        buildHealthReport('matcher', {
          postgres: { status: 'up' },
          redis: { status: 'up' },
          queue: { name: 'matcher', running: true, paused: false, concurrency: 1 },
        }),
      );
    const server = new HealthServer(report, pino({ enabled: false }), metrics);
    servers.push(server);
    const { port } = await server.listen(0, '127.0.0.1');
    return `http://127.0.0.1:${port}`;
  }

  it('serves the process metrics on GET /metrics beside /healthz and /livez', async () => {
    const metrics = new ProcessMetrics({ service: 'matcher' });
    metrics.observeJob('matcher', 'ping', 'completed', 0.02);
    const base = await start(() => metrics.render());
    const response = await fetch(`${base}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = await response.text();
    expect(body).toMatch(/^podprofit_job_duration_seconds_count\{.*queue="matcher".*\} 1$/m);
    expect(body).toMatch(/^process_cpu_user_seconds_total\{service="matcher"\}/m);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(405);
  });

  it('answers 500 when collecting fails, and 404 for /metrics without a registry', async () => {
    const failing = await start(() => Promise.reject(new Error('collector broke')));
    expect((await fetch(`${failing}/metrics`)).status).toBe(500);
    const none = await start();
    expect((await fetch(`${none}/metrics`)).status).toBe(404);
  });
});
