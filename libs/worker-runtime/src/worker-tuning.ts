import type { Worker } from 'bullmq';
import type { AppConfig } from '@pod/config';
import type { QueueContract } from '@pod/queue';

export type WorkerTuning = Pick<QueueContract['worker'], 'lockDuration' | 'stalledInterval' | 'maxStalledCount'>;

/** The contract's lock and stall settings with WORKER_LOCK_DURATION_MS, WORKER_STALLED_INTERVAL_MS and WORKER_MAX_STALLED_COUNT on top. */
export function workerTuning(
  contract: QueueContract['worker'],
  config: Pick<AppConfig, 'WORKER_LOCK_DURATION_MS' | 'WORKER_STALLED_INTERVAL_MS' | 'WORKER_MAX_STALLED_COUNT'>,
): WorkerTuning {
  return {
    lockDuration: config.WORKER_LOCK_DURATION_MS ?? contract.lockDuration,
    stalledInterval: config.WORKER_STALLED_INTERVAL_MS ?? contract.stalledInterval,
    maxStalledCount: config.WORKER_MAX_STALLED_COUNT ?? contract.maxStalledCount,
  };
}

/**
 * Applies the tuning to a worker that has not started running (the runtime creates workers
 * paused). @nestjs/bullmq builds the Worker from the @Processor options (the contract's
 * values, fixed when the module loads, before the configuration is read), so the settings are
 * set here, as WORKER_CONCURRENCY is: BullMQ reads the stall settings from `opts` at every
 * check, and its lock manager copies the lock duration when built, so it is built again.
 */
export function applyWorkerTuning(
  worker: Worker,
  contract: QueueContract['worker'],
  config: Parameters<typeof workerTuning>[1],
): WorkerTuning {
  if (worker.isRunning()) throw new Error(`worker ${worker.name} is already running: tune it before run()`);
  const tuning = workerTuning(contract, config);
  const opts = worker.opts;
  const lockChanged = opts.lockDuration !== tuning.lockDuration;
  opts.lockDuration = tuning.lockDuration;
  opts.stalledInterval = tuning.stalledInterval;
  opts.maxStalledCount = tuning.maxStalledCount;
  if (lockChanged) {
    // Renew at half the lock, as BullMQ does by default; then rebuild the lock manager with it.
    opts.lockRenewTime = tuning.lockDuration / 2;
    (worker as unknown as { createLockManager(): void }).createLockManager();
  }
  return tuning;
}
