import { limiterBudget, ProcessMetrics, type QueueDepthSource } from './metrics';

/**
 * The value of the one sample of `series` whose labels include `labels` (in any order), or
 * undefined when there is none. prom-client puts a histogram's default labels first.
 */
function sample(text: string, series: string): number | undefined {
  const wanted = parseSample(`${series} 0`);
  const found = text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map(parseSample)
    .filter(
      (s) => s.name === wanted.name && Object.entries(wanted.labels).every(([key, value]) => s.labels[key] === value),
    );
  if (found.length > 1) throw new Error(`${series} matches ${found.length} samples`);
  return found[0]?.value;
}

function parseSample(line: string): { name: string; labels: Record<string, string>; value: number } {
  const match = /^([^{\s]+)(?:\{(.*)\})? (\S+)$/.exec(line);
  if (!match) throw new Error(`not a sample: ${line}`);
  const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
  return { name: match[1], labels, value: Number(match[3]) };
}

function queue(name: string, counts: Record<string, number> | Error | 'hang'): QueueDepthSource {
  return {
    name,
    getJobCounts: jest.fn(() =>
      counts === 'hang'
        ? new Promise<never>(() => undefined)
        : counts instanceof Error
          ? Promise.reject(counts)
          : Promise.resolve(counts),
    ),
  };
}

describe('process metrics', () => {
  it('has its own registry with the default process metrics, labelled with the service', async () => {
    const a = new ProcessMetrics({ service: 'matcher' });
    const b = new ProcessMetrics({ service: 'gateway' });
    const { contentType, body } = await a.render();
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(body).toMatch(/^process_cpu_user_seconds_total\{service="matcher"\} /m);
    expect(body).toMatch(/^nodejs_eventloop_lag_seconds\{service="matcher"\} /m);
    // Two processes' worth in one test run: no clash in prom-client's global registry.
    expect((await b.render()).body).toContain('service="gateway"');
  });

  it('reads queue depth from Redis at scrape time, per queue and state', async () => {
    const metrics = new ProcessMetrics({ service: 'gateway' });
    const matcher = queue('matcher', { waiting: 3, active: 1, failed: 2 });
    metrics.watchQueues(() => [matcher, queue('fx-rate', { delayed: 5 })]);
    expect(matcher.getJobCounts).not.toHaveBeenCalled();
    const { body } = await metrics.render();
    expect(matcher.getJobCounts).toHaveBeenCalledWith(
      'waiting',
      'active',
      'delayed',
      'prioritized',
      'waiting-children',
      'paused',
      'failed',
      'completed',
    );
    expect(sample(body, 'podprofit_queue_jobs{queue="matcher",state="waiting",service="gateway"}')).toBe(3);
    expect(sample(body, 'podprofit_queue_jobs{queue="matcher",state="active",service="gateway"}')).toBe(1);
    expect(sample(body, 'podprofit_queue_jobs{queue="matcher",state="delayed",service="gateway"}')).toBe(0);
    expect(sample(body, 'podprofit_queue_jobs{queue="fx-rate",state="delayed",service="gateway"}')).toBe(5);
  });

  it('drops a queue it cannot read (and counts the failure) instead of failing the scrape or showing stale numbers', async () => {
    const metrics = new ProcessMetrics({ service: 'gateway', queueDepthTimeoutMs: 50 });
    let matcher = queue('matcher', { waiting: 4 });
    metrics.watchQueues(() => [matcher, queue('fx-rate', 'hang')]);
    expect(
      sample((await metrics.render()).body, 'podprofit_queue_jobs{queue="matcher",state="waiting",service="gateway"}'),
    ).toBe(4);
    matcher = queue('matcher', new Error('Connection is closed.'));
    const { body } = await metrics.render();
    expect(body).not.toContain('podprofit_queue_jobs{queue="matcher"');
    expect(body).not.toContain('podprofit_queue_jobs{queue="fx-rate"');
    expect(sample(body, 'podprofit_metrics_collect_errors_total{collector="queue_depth",service="gateway"}')).toBe(3);
  });

  it('records job durations by queue, job and outcome', async () => {
    const metrics = new ProcessMetrics({ service: 'etsy-sync' });
    metrics.observeJob('etsy-sync', 'sync', 'completed', 1.2);
    metrics.observeJob('etsy-sync', 'sync', 'completed', 0.2);
    metrics.observeJob('etsy-sync', 'sync', 'delayed', 0.01);
    const { body } = await metrics.render();
    const labels = 'queue="etsy-sync",job="sync",outcome="completed",service="etsy-sync"';
    expect(sample(body, `podprofit_job_duration_seconds_count{${labels}}`)).toBe(2);
    expect(sample(body, `podprofit_job_duration_seconds_sum{${labels}}`)).toBeCloseTo(1.4);
    expect(sample(body, `podprofit_job_duration_seconds_bucket{le="0.25",${labels}}`)).toBe(1);
    expect(
      sample(
        body,
        'podprofit_job_duration_seconds_count{queue="etsy-sync",job="sync",outcome="delayed",service="etsy-sync"}',
      ),
    ).toBe(1);
  });

  it('counts provider calls by status class and code, their durations, and 429s by budget', async () => {
    const metrics = new ProcessMetrics({ service: 'etsy-sync' });
    const { onAttempt, onRateLimited } = metrics.requestHooks;
    onAttempt({ provider: 'etsy', status: 200, durationMs: 120 });
    onAttempt({ provider: 'etsy', status: 200, durationMs: 80 });
    onAttempt({ provider: 'etsy', status: 429, durationMs: 10 });
    onAttempt({ provider: 'printify', status: null, durationMs: 30_000 });
    onRateLimited({ provider: 'etsy', scope: 'second', retryAfterMs: 1_000 });
    const { body } = await metrics.render();
    expect(
      sample(
        body,
        'podprofit_provider_requests_total{provider="etsy",status_class="2xx",status="200",service="etsy-sync"}',
      ),
    ).toBe(2);
    expect(
      sample(
        body,
        'podprofit_provider_requests_total{provider="etsy",status_class="4xx",status="429",service="etsy-sync"}',
      ),
    ).toBe(1);
    expect(
      sample(
        body,
        'podprofit_provider_requests_total{provider="printify",status_class="none",status="none",service="etsy-sync"}',
      ),
    ).toBe(1);
    expect(
      sample(
        body,
        'podprofit_provider_request_duration_seconds_sum{provider="etsy",status_class="2xx",service="etsy-sync"}',
      ),
    ).toBeCloseTo(0.2);
    expect(sample(body, 'podprofit_provider_429_total{provider="etsy",scope="second",service="etsy-sync"}')).toBe(1);
  });

  it('records limiter waits by budget, never by the hashed id of a shop', async () => {
    const metrics = new ProcessMetrics({ service: 'etsy-sync' });
    metrics.onLimiterWait({ scope: 'etsy:conn:0123456789abcdef0123', waitedMs: 250, granted: true });
    metrics.onLimiterWait({ scope: 'etsy:conn:fedcba98765432100000', waitedMs: 30_000, granted: false });
    const { body } = await metrics.render();
    expect(body).not.toContain('0123456789abcdef0123');
    expect(
      sample(
        body,
        'podprofit_rate_limiter_wait_seconds_sum{provider="etsy",budget="etsy:conn",outcome="granted",service="etsy-sync"}',
      ),
    ).toBeCloseTo(0.25);
    expect(
      sample(
        body,
        'podprofit_rate_limiter_wait_seconds_count{provider="etsy",budget="etsy:conn",outcome="refused",service="etsy-sync"}',
      ),
    ).toBe(1);
    expect(limiterBudget('printify:acct:abc')).toBe('printify:acct');
    expect(limiterBudget('plain')).toBe('plain');
  });

  it('counts committed sync pages, orders and rows through the hook SyncRunner takes as onPage', async () => {
    const metrics = new ProcessMetrics({ service: 'etsy-sync' });
    const onPage = metrics.onSyncPage; // passed unbound, as SyncRunnerDeps.onPage
    onPage('etsy', 'etsy:receipts', 3, 1, 9);
    onPage('etsy', 'etsy:receipts', 0, 0, 0);
    onPage('etsy', 'etsy:ledger', 0, 2);
    metrics.recordRowsWritten('fx_rate', 31);
    const { body } = await metrics.render();
    expect(
      sample(body, 'podprofit_sync_pages_committed_total{provider="etsy",stream="etsy:receipts",service="etsy-sync"}'),
    ).toBe(2);
    expect(
      sample(
        body,
        'podprofit_sync_orders_total{provider="etsy",stream="etsy:receipts",change="added",service="etsy-sync"}',
      ),
    ).toBe(3);
    expect(sample(body, 'podprofit_rows_written_total{stream="etsy:receipts",service="etsy-sync"}')).toBe(9);
    expect(sample(body, 'podprofit_rows_written_total{stream="etsy:ledger",service="etsy-sync"}')).toBe(2);
    expect(sample(body, 'podprofit_rows_written_total{stream="fx_rate",service="etsy-sync"}')).toBe(31);
  });
});
