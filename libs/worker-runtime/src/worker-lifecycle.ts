import { beginWorkerShutdown } from './shutdown-signal';
import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleDestroy,
} from '@nestjs/common';
import { getQueueToken } from '@nestjs/bullmq';
import { DiscoveryService, ModuleRef } from '@nestjs/core';
import type { Queue, Worker } from 'bullmq';
import type Redis from 'ioredis';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { AppConfig } from '@pod/config';
import type { QueueName } from '@pod/contracts';
import { RuntimeRoleError, waitForSchema } from '@pod/db';
import { contractOf, missingHandlers } from '@pod/queue';
import { ContractProcessor } from './contract-processor';
import { probePostgres, probeRedis } from './dependency-probes';
import { buildHealthReport, type HealthReport } from './health-report';
import { HealthServer } from './health-server';
import { dependencyBackoffMs, shortReason, sleep, WarningThrottle } from '@pod/queue';
import { REDIS_PROBE, WORKER_LOGGER, WORKER_METRICS, WORKER_OPTIONS } from './tokens';
import type { ProcessMetrics } from '@pod/observability';
import { applyWorkerTuning } from './worker-tuning';

export interface WorkerLifecycleOptions {
  service: string;
  queue: QueueName;
}

/**
 * Owns a worker process's life: checks at boot that its queue has a processor for every job,
 * serves health, runs the BullMQ worker only once Redis, PostgreSQL and the migrated schema
 * answer, and on shutdown stops fetching, lets the active job finish and closes connections.
 */
@Injectable()
export class WorkerLifecycle implements OnApplicationBootstrap, OnModuleDestroy, OnApplicationShutdown {
  private readonly stopping = new AbortController();
  private readonly health: HealthServer;
  private worker?: Worker;

  constructor(
    @Inject(WORKER_OPTIONS) private readonly options: WorkerLifecycleOptions,
    @Inject(WORKER_LOGGER) private readonly logger: Logger,
    @Inject(REDIS_PROBE) private readonly redis: Redis,
    private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly discovery: DiscoveryService,
    private readonly moduleRef: ModuleRef,
    @Inject(WORKER_METRICS) private readonly metrics: ProcessMetrics,
  ) {
    this.health = new HealthServer(
      () => this.healthReport(),
      logger,
      () => metrics.render(),
    );
  }

  /** Refuses to start (throws) unless exactly one processor serves the queue and covers every job. */
  onApplicationBootstrap(): void {
    const { queue } = this.options;
    const processors = this.discovery
      .getProviders()
      .map((wrapper) => wrapper.instance as unknown)
      .filter(
        (instance): instance is ContractProcessor => instance instanceof ContractProcessor && instance.queue === queue,
      );
    if (processors.length !== 1)
      throw new Error(`Expected one processor for queue ${queue}, found ${processors.length}`);
    const [processor] = processors;
    const missing = missingHandlers(queue, processor.handlers as unknown as Record<string, unknown>);
    if (missing.length > 0) throw new Error(`Queue ${queue} has jobs with no processor: ${missing.join(', ')}`);
    if (processor.worker.name !== queue) throw new Error(`Processor for ${queue} consumes ${processor.worker.name}`);
    this.worker = processor.worker;
    const ownQueue = this.logQueueErrors(queue);
    if (ownQueue) this.metrics.watchQueues(() => [ownQueue]);
    this.worker.concurrency = this.config.WORKER_CONCURRENCY ?? contractOf(queue).worker.concurrency;
    applyWorkerTuning(this.worker, contractOf(queue).worker, this.config);
  }

  /** Serves health at once, then runs the worker in the background when its dependencies answer. */
  async start(): Promise<number> {
    const { host, port } = await this.health.listen(this.config.HEALTH_PORT ?? 0, this.config.HEALTH_HOST);
    this.logger.info({ event: 'worker.health_listening', host, port }, `health on ${host}:${port}/healthz`);
    void this.runWhenReady();
    return port;
  }

  async healthReport(): Promise<HealthReport> {
    const [postgres, redis] = await Promise.all([probePostgres(this.dataSource), probeRedis(this.redis)]);
    const worker = this.requireWorker();
    return buildHealthReport(this.options.service, {
      postgres,
      redis,
      queue: {
        name: worker.name,
        running: worker.isRunning(),
        paused: worker.isPaused(),
        concurrency: worker.concurrency,
      },
    });
  }

  /** First shutdown step: stop waiting, stop fetching, let the active job finish. */
  async onModuleDestroy(): Promise<void> {
    this.stopping.abort(new Error('shutting down'));
    beginWorkerShutdown();
    await this.worker?.close();
    this.logger.info({ event: 'worker.closed' }, 'worker closed');
  }

  async onApplicationShutdown(): Promise<void> {
    await this.health.close();
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    this.redis.disconnect();
  }

  private async runWhenReady(): Promise<void> {
    const signal = this.stopping.signal;
    try {
      await this.waitForRedis(signal);
      const warnings = new WarningThrottle(30_000);
      await waitForSchema(this.dataSource, {
        signal,
        pollMs: 2_000,
        onWait: (error) => {
          const suppressed = warnings.take();
          if (suppressed !== null)
            this.logger.warn(
              { event: 'worker.waiting', dependency: 'postgres', reason: shortReason(error), suppressed },
              'waiting for PostgreSQL and the migrated schema',
            );
        },
      });
    } catch (error) {
      if (signal.aborted) return;
      if (error instanceof RuntimeRoleError) {
        // Queries would skip row-level security: never take a job; exit so the orchestrator shows it.
        this.logger.fatal({ event: 'worker.unsafe_database_role', role: error.role.currentUser }, error.message);
        process.exit(1);
      }
      this.logger.error({ err: error, event: 'worker.start_failed' }, 'could not wait for dependencies');
      return;
    }
    if (signal.aborted) return;
    const worker = this.requireWorker();
    const { lockDuration, stalledInterval, maxStalledCount } = worker.opts;
    this.logger.info(
      {
        event: 'worker.running',
        queue: worker.name,
        concurrency: worker.concurrency,
        lockDuration,
        stalledInterval,
        maxStalledCount,
      },
      'dependencies answer; taking jobs',
    );
    // run() settles only when the worker closes; its errors are logged, never thrown.
    worker
      .run()
      .catch((error: unknown) =>
        this.logger.error({ err: error, event: 'worker.run_failed' }, 'worker stopped running'),
      );
  }

  private async waitForRedis(signal: AbortSignal): Promise<void> {
    const warnings = new WarningThrottle(30_000);
    for (let attempt = 0; ; attempt += 1) {
      const check = await probeRedis(this.redis);
      if (check.status === 'up') return;
      // The probe client may still be connecting on the first try: not worth a warning yet.
      const suppressed = attempt === 0 ? null : warnings.take();
      if (suppressed !== null)
        this.logger.warn(
          { event: 'worker.waiting', dependency: 'redis', reason: check.reason, suppressed },
          'waiting for Redis',
        );
      await sleep(dependencyBackoffMs(attempt), signal);
    }
  }

  /** The worker's own Queue (for enqueueing follow-up jobs) reports connection trouble too. */
  private logQueueErrors(queue: QueueName): Queue | undefined {
    let instance: Queue | undefined;
    try {
      instance = this.moduleRef.get<Queue>(getQueueToken(queue), { strict: false });
    } catch {
      return undefined; // the worker's module registered no Queue: nothing to watch
    }
    const warnings = new WarningThrottle(30_000);
    instance.on('error', (error) => {
      const suppressed = warnings.take();
      if (suppressed !== null)
        this.logger.warn(
          { event: 'queue.error', queue, reason: shortReason(error), suppressed },
          'queue connection error (retrying)',
        );
    });
    return instance;
  }

  private requireWorker(): Worker {
    if (!this.worker) throw new Error('worker not set up (onApplicationBootstrap has not run)');
    return this.worker;
  }
}
