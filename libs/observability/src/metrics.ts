import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Prometheus metrics of one process: one registry (never prom-client's global one), Node's
 * default process metrics, and PodProfit's own. Everything is counted as it happens or collected
 * when scraped (queue depth asks Redis then): no timer runs in the background.
 *
 * The libraries that report into it (the provider clients, the rate limiter, the sync driver,
 * the worker runtime) know nothing of prom-client: they take the plain hooks this class hands
 * out (`requestHooks`, `onLimiterWait`, `onSyncPage`, `observeJob`).
 */

/** BullMQ states reported per queue. */
export const QUEUE_DEPTH_STATES = [
  'waiting',
  'active',
  'delayed',
  'prioritized',
  'waiting-children',
  'paused',
  'failed',
  'completed',
] as const;

/** What queue depth is read from: a BullMQ Queue fits. */
export interface QueueDepthSource {
  readonly name: string;
  getJobCounts(...states: string[]): Promise<Record<string, number>>;
}

/** How a job's run ended, as the worker saw it. */
export type JobOutcome = 'completed' | 'failed' | 'delayed' | 'rate_limited' | 'waiting_children';

/** One provider HTTP call (one attempt; retries are separate calls). `status` is null when no response came. */
export interface ProviderAttempt {
  provider: string;
  status: number | null;
  durationMs: number;
}

/** A 429 from a provider. `scope` is the budget it spent (second, day, minute). */
export interface ProviderRateLimited {
  provider: string;
  scope: string;
  retryAfterMs: number;
}

/** One acquire() of the shared rate limiter: how long it took, and whether a token came of it. */
export interface LimiterWait {
  /** The limiter scope (`etsy:conn:<hash>`); only its kind (`etsy:conn`) becomes a label. */
  scope: string;
  waitedMs: number;
  granted: boolean;
}

export interface ProcessMetricsOptions {
  /** The process (gateway, etsy-sync…): a label on every series. */
  service: string;
  /** Bound on reading queue depth at scrape time (default 2 s); a slow Redis must not hang the scrape. */
  queueDepthTimeoutMs?: number;
}

export const METRICS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

const JOB_BUCKETS_S = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];
const REQUEST_BUCKETS_S = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const WAIT_BUCKETS_S = [0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30];

export class ProcessMetrics {
  readonly registry = new Registry();
  private readonly queueSources: Array<() => readonly QueueDepthSource[]> = [];
  private readonly queueDepthTimeoutMs: number;

  private readonly jobDuration: Histogram<'queue' | 'job' | 'outcome'>;
  private readonly providerRequests: Counter<'provider' | 'status_class' | 'status'>;
  private readonly providerRequestDuration: Histogram<'provider' | 'status_class'>;
  private readonly provider429s: Counter<'provider' | 'scope'>;
  private readonly limiterWait: Histogram<'provider' | 'budget' | 'outcome'>;
  private readonly rowsWritten: Counter<'stream'>;
  private readonly syncPages: Counter<'provider' | 'stream'>;
  private readonly syncOrders: Counter<'provider' | 'stream' | 'change'>;

  constructor(options: ProcessMetricsOptions) {
    this.queueDepthTimeoutMs = options.queueDepthTimeoutMs ?? 2_000;
    const registers = [this.registry];
    this.registry.setDefaultLabels({ service: options.service });
    collectDefaultMetrics({ register: this.registry });

    const sources = this.queueSources;
    const depthOf = (source: QueueDepthSource) => this.queueDepth(source);
    const failures: string[] = [];
    let collecting: Promise<unknown> = Promise.resolve();
    new Gauge({
      name: 'podprofit_queue_jobs',
      help: 'Jobs in each BullMQ queue by state, read from Redis when scraped.',
      labelNames: ['queue', 'state'],
      registers,
      async collect() {
        this.reset();
        const queues = new Map<string, QueueDepthSource>();
        for (const list of sources) for (const source of list()) queues.set(source.name, source);
        const reading = Promise.allSettled([...queues.values()].map(depthOf));
        collecting = reading;
        for (const result of await reading) {
          if (result.status === 'rejected') failures.push('queue_depth');
          else
            for (const state of QUEUE_DEPTH_STATES)
              this.set({ queue: result.value.queue, state }, result.value.counts[state] ?? 0);
        }
      },
    });
    // Registered after the gauge, so a scrape starts the gauge's collection first and this
    // counter waits for it: the failures of this scrape show in this scrape.
    new Counter({
      name: 'podprofit_metrics_collect_errors_total',
      help: 'Scrape-time collections that failed (e.g. a queue whose depth Redis did not report in time).',
      labelNames: ['collector'],
      registers,
      async collect() {
        await collecting.catch(() => undefined);
        for (const collector of failures.splice(0)) this.inc({ collector });
      },
    });
    this.jobDuration = new Histogram({
      name: 'podprofit_job_duration_seconds',
      help: 'Time a worker spent on one run of a job, by queue, job name and outcome.',
      labelNames: ['queue', 'job', 'outcome'],
      buckets: JOB_BUCKETS_S,
      registers,
    });
    this.providerRequests = new Counter({
      name: 'podprofit_provider_requests_total',
      help: 'Provider HTTP calls (each attempt) by provider, status class (2xx…5xx, none: no response) and status code.',
      labelNames: ['provider', 'status_class', 'status'],
      registers,
    });
    this.providerRequestDuration = new Histogram({
      name: 'podprofit_provider_request_duration_seconds',
      help: 'Duration of provider HTTP calls (each attempt), by provider and status class.',
      labelNames: ['provider', 'status_class'],
      buckets: REQUEST_BUCKETS_S,
      registers,
    });
    this.provider429s = new Counter({
      name: 'podprofit_provider_429_total',
      help: 'Answers 429 (rate limited) from a provider, by provider and the budget it named (second, day, minute).',
      labelNames: ['provider', 'scope'],
      registers,
    });
    this.limiterWait = new Histogram({
      name: 'podprofit_rate_limiter_wait_seconds',
      help: 'Time spent acquiring a token of the shared provider rate limiter, by provider, budget and outcome (granted, refused).',
      labelNames: ['provider', 'budget', 'outcome'],
      buckets: WAIT_BUCKETS_S,
      registers,
    });
    this.rowsWritten = new Counter({
      name: 'podprofit_rows_written_total',
      help: 'Rows written to PostgreSQL by sync stream (or table).',
      labelNames: ['stream'],
      registers,
    });
    this.syncPages = new Counter({
      name: 'podprofit_sync_pages_committed_total',
      help: 'Sync pages committed (rows, cursor and run counters in one transaction), by provider and stream.',
      labelNames: ['provider', 'stream'],
      registers,
    });
    this.syncOrders = new Counter({
      name: 'podprofit_sync_orders_total',
      help: 'Orders a sync added or changed, by provider, stream and change.',
      labelNames: ['provider', 'stream', 'change'],
      registers,
    });
  }

  /** Reports the depth of these queues at every scrape (called again, it adds more). */
  watchQueues(sources: () => readonly QueueDepthSource[]): void {
    this.queueSources.push(sources);
  }

  observeJob(queue: string, job: string, outcome: JobOutcome, seconds: number): void {
    this.jobDuration.observe({ queue, job, outcome }, Math.max(0, seconds));
  }

  /**
   * Hooks for the provider clients' request function (`createRequester`'s `metrics`): one call
   * per attempt, and one per 429.
   */
  readonly requestHooks = {
    onAttempt: (attempt: ProviderAttempt): void => {
      const statusClass = attempt.status === null ? 'none' : `${Math.floor(attempt.status / 100)}xx`;
      this.providerRequests.inc({
        provider: attempt.provider,
        status_class: statusClass,
        status: attempt.status === null ? 'none' : String(attempt.status),
      });
      this.providerRequestDuration.observe(
        { provider: attempt.provider, status_class: statusClass },
        Math.max(0, attempt.durationMs) / 1000,
      );
    },
    onRateLimited: (event: ProviderRateLimited): void => {
      this.provider429s.inc({ provider: event.provider, scope: event.scope });
    },
  };

  /** Hook for the shared rate limiter (`withLimiterWaitHook`): how long each acquire took. */
  readonly onLimiterWait = (wait: LimiterWait): void => {
    const budget = limiterBudget(wait.scope);
    this.limiterWait.observe(
      { provider: budget.split(':')[0], budget, outcome: wait.granted ? 'granted' : 'refused' },
      Math.max(0, wait.waitedMs) / 1000,
    );
  };

  /**
   * The SyncRunner's `onPage`: one committed page of a stream, with the orders it added and
   * changed and, when the driver passes it, every row it wrote.
   */
  readonly onSyncPage = (
    provider: string,
    stream: string,
    added: number,
    changed: number,
    rowsWritten?: number,
  ): void => {
    this.syncPages.inc({ provider, stream });
    if (added > 0) this.syncOrders.inc({ provider, stream, change: 'added' }, added);
    if (changed > 0) this.syncOrders.inc({ provider, stream, change: 'changed' }, changed);
    const rows = rowsWritten ?? added + changed;
    if (rows > 0) this.rowsWritten.inc({ stream }, rows);
  };

  /** Rows written outside a sync page (e.g. the fx-rate worker's `fx_rate` table). */
  recordRowsWritten(streamOrTable: string, rows: number): void {
    if (rows > 0) this.rowsWritten.inc({ stream: streamOrTable }, rows);
  }

  /** The exposition text, collected now. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  private async queueDepth(source: QueueDepthSource): Promise<{ queue: string; counts: Record<string, number> }> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`queue ${source.name}: no answer within ${this.queueDepthTimeoutMs} ms`)),
        this.queueDepthTimeoutMs,
      );
    });
    try {
      return { queue: source.name, counts: await Promise.race([source.getJobCounts(...QUEUE_DEPTH_STATES), timeout]) };
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * The budget of a limiter scope without its hashed id: `etsy:conn:3f2a…` → `etsy:conn`. Only
 * the kind is a label, so the number of series stays fixed however many shops there are.
 */
export function limiterBudget(scope: string): string {
  const parts = scope.split(':');
  return parts.length > 1 ? parts.slice(0, -1).join(':') : scope;
}
