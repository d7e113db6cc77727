import { hostname } from 'node:os';
import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { PinoLogger } from 'nestjs-pino';
import { AppConfig } from '@pod/config';
import {
  bullConnection,
  bullPrefix,
  jobDataProblem,
  jobFailure,
  schedulesFor,
  shortReason,
  upsertSchedulers,
  workerOptionsFor,
  type JobHandlers,
} from '@pod/queue';
import { DemoCleanupService } from '../demo/demo-cleanup.service';
import { QueueRegistry } from '../queues/queue-registry';
import { SyncMaintenanceService } from '../sync/sync-maintenance.service';

/** Tries, a second apart, at checking the active runs once Redis is back. */
const RECOVERY_ATTEMPTS = 15;

/**
 * The gateway's housekeeping: at start it registers every job scheduler of libs/queue's
 * schedule table (idempotent, so one scheduler however many replicas start), and it consumes
 * the `maintenance` queue those schedulers feed. The gateway, not a worker process, consumes
 * it because the demo cleanup needs the gateway's demo services (the sandbox's admin client,
 * its settings); BullMQ hands each scheduled job to one replica, and the sweep's advisory lock
 * keeps a second concurrent sweep a no-op all the same.
 */
@Injectable()
export class MaintenanceWorkerService implements OnApplicationBootstrap, OnApplicationShutdown {
  private worker?: Worker;
  private stopping = false;
  private recovering?: Promise<void>;

  readonly handlers: JobHandlers<'maintenance'> = {
    ping: async () => ({
      queue: 'maintenance',
      worker: `${hostname()}:${process.pid}`,
      completedAt: new Date().toISOString(),
    }),
    'demo-cleanup': async () => ({ removed: await this.demoCleanup.sweep() }),
    'sync-fan-out': (job) => this.syncMaintenance.fanOut(job.data.mode),
    'sync-reconcile': () => this.syncMaintenance.reconcile(),
  };

  constructor(
    private readonly config: AppConfig,
    private readonly queues: QueueRegistry,
    private readonly demoCleanup: DemoCleanupService,
    private readonly syncMaintenance: SyncMaintenanceService,
    private readonly logger: PinoLogger,
  ) {
    logger.setContext(MaintenanceWorkerService.name);
  }

  onApplicationBootstrap(): void {
    // Not awaited: the gateway serves while Redis is away; `npm run schedulers` registers them too.
    void this.upsertSchedulers('start');
    // Every time the maintenance queue's connection is ready again (Redis restarted, or it was
    // away at start), the schedulers are upserted again — a Redis that lost its data lost them
    // too — and the runs whose job went with it are put back at once rather than two minutes on.
    void this.queues
      .get('maintenance')
      .client.then((client) => client.on('ready', () => void this.afterRedisReturned()))
      .catch(() => undefined);
    this.worker = new Worker('maintenance', (job) => this.process(job), {
      ...workerOptionsFor('maintenance'),
      connection: bullConnection(this.config, 'worker'),
      prefix: bullPrefix(this.config),
    });
    this.worker.on('failed', (job, error) =>
      this.logger.warn(
        { event: 'job.failed', queue: 'maintenance', job: job?.name, reason: shortReason(error) },
        'maintenance job failed',
      ),
    );
    this.worker.on('error', (error) =>
      this.logger.warn({ event: 'maintenance.worker_error', reason: shortReason(error) }, 'maintenance worker error'),
    );
    void this.worker
      .run()
      .catch((error: unknown) =>
        this.logger.warn(
          { event: 'maintenance.worker_error', reason: shortReason(error) },
          'maintenance worker stopped',
        ),
      );
  }

  /** Idempotent (stable scheduler ids); a failure is retried on the next reconnect or start. */
  private async upsertSchedulers(when: 'start' | 'reconnect'): Promise<void> {
    try {
      const ids = await upsertSchedulers(schedulesFor(this.config), (name) => this.queues.get(name));
      this.logger.info({ event: 'schedulers.upserted', when, ids }, 'job schedulers registered');
    } catch (error) {
      this.logger.warn(
        { event: 'schedulers.upsert_failed', when, reason: shortReason(error) },
        'could not register the job schedulers; they will be when Redis is back or on the next start',
      );
    }
  }

  private afterRedisReturned(): Promise<void> {
    // One pass at a time: a flapping connection fires 'ready' again while a pass runs.
    this.recovering ??= this.recover().finally(() => (this.recovering = undefined));
    return this.recovering;
  }

  private async recover(): Promise<void> {
    if (this.stopping) return;
    await this.upsertSchedulers('reconnect');
    // The sync queues reconnect on their own connections, a little later than this one: a few
    // tries a second apart. Past them, the scheduled sweep (runs untouched two minutes) catches up.
    for (let attempt = 1; attempt <= RECOVERY_ATTEMPTS && !this.stopping; attempt++) {
      try {
        const outcome = await this.syncMaintenance.reconcile({ staleAfterMs: 0 });
        this.logger.info(
          { event: 'sync.reconciled_on_reconnect', attempt, ...outcome },
          'Redis is back: active runs checked for lost jobs',
        );
        return;
      } catch (error) {
        if (attempt === RECOVERY_ATTEMPTS)
          this.logger.warn(
            { event: 'sync.reconcile_failed', reason: shortReason(error) },
            'could not check the active runs after Redis came back',
          );
        else await new Promise((resolve) => setTimeout(resolve, 1_000).unref());
      }
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await this.worker?.close();
  }

  private async process(job: Job): Promise<unknown> {
    const handler = (this.handlers as Record<string, ((job: Job) => Promise<unknown>) | undefined>)[job.name];
    if (!handler) throw new UnrecoverableError(`No handler for maintenance job "${job.name}"`);
    // As every worker (ContractProcessor): the contract's check before any I/O, no retries.
    const problem = jobDataProblem('maintenance', job.name, job.data);
    if (problem !== null) throw new UnrecoverableError(problem);
    try {
      return await handler(job);
    } catch (error) {
      // As every worker: BullMQ's failedReason and stacktrace never quote a value PostgreSQL echoed.
      throw jobFailure(error);
    }
  }
}
